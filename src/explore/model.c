/* The explorer side of the model contract: what is required, and what
** stands in for an optional hook a model leaves NULL (see model.h). */
#include "config.h"
#include "explore/model.h"

#include <stdlib.h>

#include "state/trace.h"
#include "util/strbuf.h"

int model_check(const struct model *m, int traced, struct strbuf *why)
{
	const char *miss = !m->init ? "init" : !m->enabled ? "enabled" : !m->apply ? "apply"
	                   : !m->status ? "status"
	                   : (m->lookup || m->default_observables) && !m->read ? "read" : NULL;
	if (miss) {
		sb_printf(why, "machine %s has no %s function", m->name, miss);
		return -1;
	}
	if (traced && m->max_actions > TRACE_MAX_ACTIONS) {
		sb_printf(why, "machine %s may enable %u actions in a state; an exploration's traces index at most %u (gpumc run has no such limit)",
		          m->name, m->max_actions, TRACE_MAX_ACTIONS);
		return -1;
	}
	if (m->durable && (m->durable_key == 0 || m->durable_key > m->durable_size)) {
		sb_printf(why, "machine %s: its durable images are keyed on %zu of their %zu bytes", m->name,
		          m->durable_key, m->durable_size);
		return -1;
	}
	if (m->durable && m->durable_size != m->sv_size) {
		sb_printf(why, "machine %s: its durable image is not a state vector (%zu bytes, not %zu)",
		          m->name, m->durable_size, m->sv_size);
		return -1;
	}
	return 0;
}

void model_describe(const struct model *m, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	if (m->describe)
		m->describe(m, sv, a, out);
	else
		sb_printf(out, "action kind %u unit %u subject %u arg %u", a->kind, a->unit, a->subject, a->arg);
}

void model_print_state(const struct model *m, const uint8_t *sv, struct strbuf *out)
{
	if (m->print_state)
		m->print_state(m, sv, out);
	else
		sb_printf(out, "  (machine %s does not print its state)\n", m->name);
}

unsigned model_observables(const struct model *m, int *locs, unsigned max)
{
	return m->default_observables ? m->default_observables(m, locs, max) : 0;
}

int model_lookup(const struct model *m, int tid, const char *name, long index, enum vtype *type,
                 unsigned *count, struct strbuf *err)
{
	if (m->lookup)
		return m->lookup(m, tid, name, index, type, count, err);
	sb_printf(err, "machine %s has no named locations: '%s' cannot be read", m->name, name);
	return -1;
}

void model_loc_name(const struct model *m, int loc, struct strbuf *out)
{
	if (m->loc_name)
		m->loc_name(m, loc, out);
	else
		sb_printf(out, "loc%d", loc);
}

void model_read_locs(const struct model *m, const uint8_t *sv, const int *locs, unsigned n, uint32_t *out)
{
	if (m->read_locs) {
		m->read_locs(m, sv, locs, n, out);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		out[i] = m->read(m, sv, locs[i]);
}

enum vtype model_loc_type(const struct model *m, int loc)
{
	return m->loc_type ? m->loc_type(m, loc) : VT_U32;
}

void model_destroy(struct model *m)
{
	if (m && m->destroy)
		m->destroy(m);
}
