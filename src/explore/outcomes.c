/* Outcome sets (see outcomes.h). */
#include "config.h"
#include "explore/outcomes.h"

#include <stdlib.h>
#include <string.h>

unsigned outcome_locs(const struct model *m, const struct property *props, unsigned n, int **locs)
{
	for (unsigned k = 0; k < n; k++)
		if (props[k].kind == P_DETERMINISTIC) {
			*locs = xmalloc(sizeof(int) * (props[k].nlocs ? props[k].nlocs : 1));
			memcpy(*locs, props[k].locs, sizeof(int) * props[k].nlocs);
			return props[k].nlocs;
		}
	unsigned nl = model_observables(m, NULL, 0);
	*locs = xmalloc(sizeof(int) * (nl ? nl : 1));
	return model_observables(m, *locs, nl);
}

void outcomes_explore(const struct model *m, struct property *props, unsigned n, const int *locs, unsigned nlocs,
                      const struct explore_opts *o, int all, struct explore_result *r)
{
	struct explore_opts eo = *o;
	eo.outcome_locs = locs;
	eo.noutcome_locs = nlocs;
	eo.keep_going |= all;
	explore(m, props, n, &eo, r);
}

void outcome_values(const struct model *m, const struct explore_result *r, const struct outcome *oc,
                    struct strbuf *out, int json)
{
	struct strbuf name, v;
	sb_init(&name);
	sb_init(&v);
	if (json)
		sb_putc(out, '{');
	for (unsigned i = 0; i < r->nolocs; i++) {
		sb_reset(&name);
		sb_reset(&v);
		model_loc_name(m, r->olocs[i], &name);
		if (json) {
			sb_puts(out, i ? "," : "");
			sb_json_str(out, sb_str(&name));
			sb_putc(out, ':');
			value_json(oc->vals[i], model_loc_type(m, r->olocs[i]), out);
		} else {
			value_print(oc->vals[i], model_loc_type(m, r->olocs[i]), &v);
			sb_printf(out, "%s%s = %s", i ? ", " : "", sb_str(&name), sb_str(&v));
		}
	}
	if (json)
		sb_putc(out, '}');
	sb_free(&name);
	sb_free(&v);
}

static unsigned sort_n;
static int by_values(const void *a, const void *b)
{
	const struct outcome *x = *(const struct outcome *const *)a, *y = *(const struct outcome *const *)b;
	for (unsigned i = 0; i < sort_n; i++)
		if (x->vals[i] != y->vals[i])
			return x->vals[i] < y->vals[i] ? -1 : 1;
	return 0;
}

void outcomes_print(const struct model *m, const struct explore_result *r, struct strbuf *out, int json)
{
	const struct outcome **o = xmalloc(sizeof *o * (r->noutcomes ? r->noutcomes : 1));
	for (unsigned i = 0; i < r->noutcomes; i++)
		o[i] = &r->outcomes[i];
	sort_n = r->nolocs;
	qsort(o, r->noutcomes, sizeof *o, by_values);
	if (json)
		sb_putc(out, '[');
	else
		sb_printf(out, "outcomes: %u distinct final valuation%s in %llu terminal state%s%s\n", r->noutcomes,
		          r->noutcomes == 1 ? "" : "s", (unsigned long long)r->terminals, r->terminals == 1 ? "" : "s",
		          r->verdict == V_INCOMPLETE ? " (incomplete: more may exist)" : "");
	for (unsigned i = 0; i < r->noutcomes; i++) {
		if (json) {
			sb_printf(out, "%s{\"count\":%llu,\"values\":", i ? "," : "", (unsigned long long)o[i]->count);
			outcome_values(m, r, o[i], out, 1);
			sb_putc(out, '}');
		} else {
			sb_printf(out, "  %8llu  ", (unsigned long long)o[i]->count);
			outcome_values(m, r, o[i], out, 0);
			sb_putc(out, '\n');
		}
	}
	if (json)
		sb_putc(out, ']');
	free(o);
}
