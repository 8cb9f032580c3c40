/*
** Every machine, with its parameter table.  Adding a machine is adding a
** row here and its files in src/machines; nothing in src/explore changes.
*/
#include "config.h"
#include "machines/registry.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ptx.h"
#include "machines/component.h"
#include "machines/weakmem.h"
#include "util/strbuf.h"

/* Machines are wiring rows: components in enabled() order, and the port
** bindings a row must name because more than one component provides them
** (persist wraps mem: the warps and the ROP store through it). */

/* A nondeterministic GPU's CTA dispatcher is the free one (cta_dispatch.c:
** the next CTA in id order to whichever SM frees a slot first). */
#define FREE_DISPATCH                                                                                       \
	{ "dispatch", 1, 0, 1, "static|free", offsetof(struct gpu_cfg, dispatch),                           \
	  "CTA dispatcher once slots are limited: free (the hardware's: the next CTA in id order to the SM that frees a slot first) or static (CTA p on SM p mod sms)" }

static const struct param_def baseline_params[] = {
	{ "memory", 0, 0, 3, "sc|ics13|ics13-fixed|ptx", offsetof(struct gpu_cfg, memory), "global memory: SC, the ICS'13 address-queue model, or the PTX ISA model's outcomes (straight-line kernels, weakmem.c)" },
	FREE_DISPATCH,
};
static const struct comp_def *const baseline_comps[] = { &comp_mem, &comp_warps, &comp_gto, &comp_barrier, &comp_cta_dispatch,
	                                                  &comp_rop };
static const struct wiring baseline = { baseline_comps, 6, NULL, 0, baseline_params, 2 };

static const struct comp_def *const dab_comps[] = { &comp_mem, &comp_warps, &comp_dab_sched, &comp_barrier,
	                                             &comp_cta_dispatch, &comp_dab };
static const struct wiring dab = { dab_comps, 6, NULL, 0, NULL, 0 };

static const struct comp_def *const persist_comps[] = { &comp_mem, &comp_warps, &comp_gto, &comp_barrier, &comp_rop,
	                                                 &comp_persist };
static const struct wire persist_wires[] = {
	{ "warps", P_MEM, "persist" }, { "rop", P_MEM, "persist" }, { "persist", P_MEM, "mem" },
};
static const struct wiring persist = { persist_comps, 6, persist_wires, 3, NULL, 0 };

static const struct comp_def *const gpudet_comps[] = { &comp_mem, &comp_warps, &comp_gpudet, &comp_barrier, &comp_sbuf,
	                                                &comp_zbuffer };
static const struct wiring gpudet = { gpudet_comps, 6, NULL, 0, NULL, 0 };

/* LAB: the baseline with a LAB in front of the ROP (it takes every global
** atomic and passes the unlabelled ones on); both gate fences.  lab comes
** before rop: its layout sizes the FIFOs the partials go through. */
static const struct comp_def *const lab_comps[] = { &comp_mem, &comp_warps, &comp_gto, &comp_barrier, &comp_cta_dispatch,
	                                             &comp_lab, &comp_rop };
static const struct wire lab_wires[] = {
	{ "warps", P_ATOMICS, "lab" }, { "gto", P_ATOMICS, "lab" }, { "lab", P_ATOMICS, "rop" },
	{ "warps", P_MEM, "lab" },     { "lab", P_MEM, "mem" },     { "rop", P_MEM, "mem" },
};
static const struct param_def lab_params[] = { FREE_DISPATCH };
static const struct wiring lab = { lab_comps, 7, lab_wires, 6, lab_params, 1 };

static const struct machine_def machines[] = {
	{ "baseline",
	  "nondeterministic baseline GPU: free warp choice, SC memory, atomics at the L2/ROP with free arrival order across SMs",
	  &baseline },
	{ "dab",
	  "Deterministic Atomic Buffering: the baseline GPU with global atomics buffered per warp or scheduler, determinism-aware schedulers and an ordered flush",
	  &dab },
	{ "persist",
	  "GPU persistency: the baseline GPU over NVM device memory behind a write-back L2 and write-pending queues, with a crash possible at every step",
	  &persist },
	{ "gpudet",
	  "GPUDet: strong determinism by quanta -- PARALLEL mode against per-wavefront store buffers, COMMIT through per-partition Z-buffer units, SERIAL mode for atomics",
	  &gpudet },

	{ "lab",
	  "Local Atomic Buffers: the baseline GPU with a per-SM set-associative buffer combining red.comm atomics before the L2, flushed at fences, barriers and kernel end",
	  &lab },
};

const char *registry_machine(const struct spec *s)
{
	const struct param_set *ps = spec_param(s, "machine");
	return ps ? ps->value : s->machine;
}

static unsigned machine_params(const struct machine_def *md, const struct param_def **out)
{
	return compose_params(md->wiring, out, 128);
}

const struct machine_def *registry_all(unsigned *n)
{
	*n = sizeof machines / sizeof machines[0];
	return machines;
}

const struct machine_def *registry_find(const char *name)
{
	unsigned n;
	const struct machine_def *m = registry_all(&n);
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	return NULL;
}

/* "; did you mean 'X'?" after a misspelt name, when one is close */
static void hint(const char *word, const char *const *cands, unsigned n, struct strbuf *out)
{
	const char *best = ptx_nearest(word, cands, n);
	if (best)
		sb_printf(out, "; did you mean '%s'?", best);
}

static void machine_hint(const char *word, struct strbuf *out)
{
	unsigned n;
	const struct machine_def *all = registry_all(&n);
	const char *names[32];
	for (unsigned i = 0; i < n && i < 32; i++)
		names[i] = all[i].name;
	hint(word, names, n < 32 ? n : 32, out);
}

static int apply(const struct machine_def *md, const struct spec *s, void *cfg, struct diag *d, int warn);

/* registry_build, with the lenient skips' warnings when warn */
static struct model *build(const struct spec *s, struct diag *d, int warn)
{
	const struct machine_def *md = registry_find(registry_machine(s));
	const struct param_set *over = spec_param(s, "machine");
	if (!md && over) {
		struct strbuf b;
		sb_init(&b);
		sb_printf(&b, "unknown machine '%s'", over->value);
		machine_hint(over->value, &b);
		sb_puts(&b, " (see gpumc list)");
		if (over->line)
			diag_at(d, over->file, over->line, over->col, "%s", sb_str(&b));
		else
			diag_at(d, "command line", 0, 0, "-D machine: %s", sb_str(&b));
		sb_free(&b);
		return NULL;
	}
	if (!md) {
		struct strbuf b;
		sb_init(&b);
		unsigned n;
		const struct machine_def *all = registry_all(&n);
		for (unsigned i = 0; i < n; i++)
			sb_printf(&b, "%s%s", i ? ", " : "", all[i].name);
		struct strbuf hint;
		sb_init(&hint);
		machine_hint(s->machine, &hint);
		diag_at(d, s->path, s->machine_line, s->machine_col, "unknown machine '%s'%s (known: %s)",
		        s->machine, sb_str(&hint), sb_str(&b));
		sb_free(&hint);
		sb_free(&b);
		return NULL;
	}
	/* the parameters, once (their warnings too); memory= chooses the
	** family: a weak memory runs the kernel on the address-queue machine
	** (weakmem.c), whose machines leave cfg.memory 0 */
	struct gpu_cfg cfg;
	memset(&cfg, 0, sizeof cfg);
	if (apply(md, s, &cfg, d, warn))
		return NULL;
	if (cfg.memory)
		return weakmem_build(s, &cfg, d);
	return compose_build_cfg(s, md, &cfg, d);
}

struct model *registry_build(const struct spec *s, struct diag *d)
{
	return build(s, d, 1);
}

struct model *registry_rebuild(const struct spec *s)
{
	struct diag d;
	diag_init(&d);
	struct model *m = build(s, &d, 0);
	diag_free(&d);
	return m;
}

/* The value of a setting of pd: 0 and *v, or -1 when pd does not take it. */
static int param_value(const struct param_def *pd, const char *value, unsigned *v)
{
	if (pd->choices) {
		const char *c = pd->choices;
		size_t len = strlen(value);
		for (unsigned idx = 0; *c; idx++) {
			const char *bar = strchr(c, '|');
			size_t l = bar ? (size_t)(bar - c) : strlen(c);
			if (l == len && !strncmp(c, value, l)) {
				*v = idx;
				return 0;
			}
			c += l + (bar ? 1 : 0);
		}
		return -1;
	}
	if (pd->max == PARAM_INF && !strcmp(value, "inf")) {
		*v = PARAM_INF;
		return 0;
	}
	char *end;
	unsigned long x = strtoul(value, &end, 0);
	if (*end || !*value || value[0] == '-' || x < pd->min || x > pd->max)
		return -1;
	*v = (unsigned)x;
	return 0;
}

struct model *registry_build_as(struct spec *s, const char *name, int line, int col, struct diag *d)
{
	const struct machine_def *md = registry_find(name);
	if (!md) {
		diag_at(d, s->path, line, col, "unknown machine '%s' (see gpumc list)", name);
		return NULL;
	}
	const struct param_def *defs[128];
	unsigned n = machine_params(md, defs);
	/* the spec itself, with its machine and settings swapped for the
	** build and restored after (the model points into s->prog) */
	struct param_set *params = s->params;
	int nparams = s->nparams;
	char *machine = s->machine;
	s->params = xcalloc((size_t)nparams + 1, sizeof *s->params);
	s->nparams = 0;
	s->machine = (char *)name;
	for (int k = 0; k < nparams; k++)
		for (unsigned i = 0; i < n; i++) {
			unsigned v;
			if (!strcmp(defs[i]->name, params[k].key) && !param_value(defs[i], params[k].value, &v)) {
				s->params[s->nparams++] = params[k];
				break;
			}
		}
	struct model *m = registry_build(s, d);
	free(s->params);
	s->params = params;
	s->nparams = nparams;
	s->machine = machine;
	return m;
}

static void param_err(struct diag *d, const struct param_set *ps, const char *fmt, const char *a, const char *b,
                      const char *c)
{
	char msg[768];
	snprintf(msg, sizeof msg, fmt, a, b, c);
	if (ps->line)
		diag_at(d, ps->file, ps->line, ps->col, "%s", msg);
	else
		diag_at(d, "command line", 0, 0, "-D %s: %s", ps->key, msg);
}

/* Under -D machine=OTHER a setting of the spec's own is left out, with a
** warning, when OTHER has no such parameter (pd NULL) or not its choice:
** it was meant for the spec's machine.  1 when ps is left out; the
** warning only when warn. */
static int lenient_skip(const struct param_def *pd, const struct param_set *ps, const char *mname, int warn)
{
	unsigned v;
	int skip = !pd || (pd->choices && param_value(pd, ps->value, &v));
	if (skip && warn && !pd)
		fprintf(stderr, "%s:%d:%d: warning: ignoring '%s': not a parameter of machine '%s'\n", ps->file,
		        ps->line, ps->col, ps->key, mname);
	else if (skip && warn)
		fprintf(stderr, "%s:%d:%d: warning: ignoring %s = %s: machine '%s' takes %s\n", ps->file, ps->line,
		        ps->col, ps->key, ps->value, mname, pd->choices);
	return skip;
}

/* The parameter of md called key, or NULL. */
static const struct param_def *param_find(const struct machine_def *md, const char *key)
{
	const struct param_def *defs[128];
	unsigned n = machine_params(md, defs);
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(defs[i]->name, key))
			return defs[i];
	return NULL;
}

int params_apply(const struct machine_def *md, const struct spec *s, void *cfg, struct diag *d)
{
	return apply(md, s, cfg, d, 1);
}

static int apply(const struct machine_def *md, const struct spec *s, void *cfg, struct diag *d, int warn)
{
	const struct param_def *defs[128];
	unsigned n = machine_params(md, defs);
	int nerr = d->nerr;
	/* -D machine=OTHER: the spec's own settings meant for its machine are
	** skipped, with a warning, when OTHER has no such parameter or value */
	const struct param_set *over = spec_param(s, "machine");
	int lenient = over && over->line == 0 && strcmp(over->value, s->machine);
	const char *mname = registry_machine(s);
	for (unsigned i = 0; i < n; i++)
		*(unsigned *)((char *)cfg + defs[i]->off) = defs[i]->def;
	for (int k = 0; k < s->nparams; k++) {
		const struct param_set *ps = &s->params[k];
		if (!strcmp(ps->key, "machine"))
			continue; /* chosen before the parameters (registry_machine) */
		const struct param_def *pd = param_find(md, ps->key);
		if (lenient && ps->line && lenient_skip(pd, ps, mname, warn))
			continue;
		if (!pd) {
			const char *names[128];
			for (unsigned i = 0; i < n; i++)
				names[i] = defs[i]->name;
			struct strbuf m;
			sb_init(&m);
			hint(ps->key, names, n, &m);
			sb_puts(&m, " (see gpumc list)");
			param_err(d, ps, "unknown parameter '%s' for machine '%s'%s", ps->key, mname, sb_str(&m));
			sb_free(&m);
			continue;
		}
		unsigned v = 0;
		if (param_value(pd, ps->value, &v)) {
			if (pd->choices) {
				/* the choices, split at '|', as candidates */
				char buf[256], *names[32];
				unsigned nc = 0;
				snprintf(buf, sizeof buf, "%s", pd->choices);
				for (char *t = strtok(buf, "|"); t && nc < 32; t = strtok(NULL, "|"))
					names[nc++] = t;
				struct strbuf m;
				sb_init(&m);
				hint(ps->value, (const char *const *)names, nc, &m);
				param_err(d, ps, "'%s' expects one of %s%s", pd->name, pd->choices, sb_str(&m));
				sb_free(&m);
				continue;
			}
			char range[64];
			if (pd->max == PARAM_INF)
				snprintf(range, sizeof range, "an integer from %u, or inf", pd->min);
			else
				snprintf(range, sizeof range, "an integer in %u..%u", pd->min, pd->max);
			param_err(d, ps, "'%s' expects %s%s", pd->name, range, "");
			continue;
		}
		*(unsigned *)((char *)cfg + pd->off) = v;
	}
	return d->nerr == nerr ? 0 : -1;
}

void registry_print(FILE *f, int json)
{
	unsigned n;
	const struct machine_def *m = registry_all(&n);
	struct strbuf b;
	sb_init(&b);
	if (json)
		sb_puts(&b, "{\"machines\":[");
	for (unsigned i = 0; i < n; i++) {
		struct strbuf comps;
		sb_init(&comps);
		for (unsigned k = 0; k < m[i].wiring->ncomps; k++)
			sb_printf(&comps, "%s%s (%s)", k ? ", " : "", m[i].wiring->comps[k]->name, m[i].wiring->comps[k]->desc);
		if (json) {
			sb_puts(&b, i ? ",{\"name\":" : "{\"name\":");
			sb_json_str(&b, m[i].name);
			sb_puts(&b, ",\"description\":");
			sb_json_str(&b, m[i].desc);
			sb_puts(&b, ",\"components\":");
			sb_json_str(&b, sb_str(&comps));
			sb_puts(&b, ",\"parameters\":[");
		} else {
			sb_printf(&b, "machine %s\n  %s\n  components: %s\n  parameters:\n", m[i].name, m[i].desc,
			          sb_str(&comps));
		}
		const struct param_def *defs[128];
		unsigned np = machine_params(&m[i], defs);
		for (unsigned k = 0; k < np; k++) {
			const struct param_def *p = defs[k];
			char def[64];
			if (p->choices) {
				const char *c = p->choices;
				for (unsigned j = 0; j < p->def; j++)
					c = strchr(c, '|') + 1;
				snprintf(def, sizeof def, "%.*s", (int)strcspn(c, "|"), c);
			} else {
				snprintf(def, sizeof def, "%u", p->def);
			}
			if (json) {
				sb_puts(&b, k ? ",{\"name\":" : "{\"name\":");
				sb_json_str(&b, p->name);
				sb_puts(&b, ",\"default\":");
				sb_json_str(&b, def);
				if (p->choices) {
					sb_puts(&b, ",\"choices\":");
					sb_json_str(&b, p->choices);
				} else {
					sb_printf(&b, ",\"min\":%u,\"max\":%u", p->min, p->max);
				}
				sb_puts(&b, ",\"description\":");
				sb_json_str(&b, p->desc);
				sb_puts(&b, "}");
			} else {
				char range[64];
				if (p->choices)
					snprintf(range, sizeof range, "%s", p->choices);
				else if (p->max == PARAM_INF)
					snprintf(range, sizeof range, "%u..inf", p->min);
				else
					snprintf(range, sizeof range, "%u..%u", p->min, p->max);
				sb_printf(&b, "    %-17s %-6s %-12s %s\n", p->name, def, range, p->desc);
			}
		}
		if (json)
			sb_puts(&b, "]}");
		sb_free(&comps);
	}
	if (json)
		sb_puts(&b, "],\"searches\":[\"bfs\",\"dfs\"],\"properties\":[\"deterministic\",\"exists\",\"~exists\",\"forall\",\"invariant\",\"race_free\",\"deadlock_free\",\"refines\",\"equals\",\"durable\",\"recoverable\",\"persisted\",\"idempotent\",\"comm_race_free\",\"persist_order\"]}\n");
	else
		sb_puts(&b, "\nsearches: bfs (default), dfs; visited sets: exact (default), compact (64-bit fingerprints)\n"
		            "properties: deterministic [locs], exists C, ~exists C, forall C, invariant C, race_free, deadlock_free (always checked), fault (always checked),\n"
		            "  refines M [locs], equals M [locs] (outcome sets against machine M on the same kernel);\n"
		            "  machine persist: durable C (crash images), recoverable C (after recovery), persisted C (final durable image), idempotent,\n"
		            "    persist_order strict|epoch (every crash image allowed by the persistency model)\n"
		            "  machine lab: comm_race_free (no red.comm and other access to one word in a kernel)\n");
	fputs(sb_str(&b), f);
	sb_free(&b);
}

void registry_resolve_machine(struct spec *s)
{
	const struct param_set *over = spec_param(s, "machine");
	if (!over)
		return;
	const struct machine_def *md = registry_find(over->value);
	int lenient = md && over->line == 0 && strcmp(over->value, s->machine);
	free(s->machine);
	s->machine = xstrdup(over->value);
	int k = 0;
	for (int i = 0; i < s->nparams; i++) {
		struct param_set *ps = &s->params[i];
		if (!strcmp(ps->key, "machine") ||
		    (lenient && ps->line && lenient_skip(param_find(md, ps->key), ps, md->name, 1))) {
			free(ps->key);
			free(ps->value);
		} else {
			s->params[k++] = *ps;
		}
	}
	s->nparams = k;
}
