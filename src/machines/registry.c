/*
** Every machine, with its parameter table.  Adding a machine is adding a
** row here and its files in src/machines; nothing in src/explore changes.
*/
#include "config.h"
#include "machines/registry.h"

#include <stdlib.h>
#include <string.h>

#include "machines/gpu.h"

#define GP(field) offsetof(struct gpu_cfg, field)
/* Parameters every GPU machine takes (a machine may redefine a row). */
static const struct param_def gpu_params[] = {
	{ "sms", 1, 1, 64, NULL, GP(sms), "streaming multiprocessors; CTA c runs on SM c mod sms" },
	{ "schedulers", 1, 1, 4, NULL, GP(schedulers), "warp schedulers per SM; warp w of a CTA goes to scheduler w mod schedulers" },
	{ "partitions", 1, 1, 8, NULL, GP(partitions), "memory partitions (L2 slice + ROP), interleaved every line_bytes" },
	{ "line_bytes", 256, 4, 65536, NULL, GP(line_bytes), "address interleaving granularity across partitions" },
	{ "ctas", 1, 1, 4096, NULL, GP(ctas), "CTAs in the grid (all resident)" },
	{ "warps_per_cta", 1, 1, 64, NULL, GP(warps_per_cta), "warps per CTA" },
	{ "threads_per_warp", 2, 1, 32, NULL, GP(threads_per_warp), "lanes per warp (32 on hardware; small for exhaustive runs)" },
	{ "stack_depth", 6, 1, 64, NULL, GP(stack_depth), "SIMT reconvergence stack entries per warp (at most; fewer when the kernel has few conditional branches)" },
	{ "lat_alu", 4, 1, 1000, NULL, GP(lat_alu), "cycles before a warp issues again after an ALU/branch instruction" },
	{ "lat_shared", 24, 1, 10000, NULL, GP(lat_shared), "shared-memory access latency" },
	{ "lat_global", 400, 1, 100000, NULL, GP(lat_global), "global-memory access latency" },
	{ "global_jitter", 200, 0, 100000, NULL, GP(global_jitter), "random extra global latency in [0, global_jitter] (cache hits and misses, seeded)" },
	{ "lat_icnt", 120, 1, 100000, NULL, GP(lat_icnt), "SM-to-partition interconnect latency, each way" },
	{ "icnt_jitter", 40, 0, 100000, NULL, GP(icnt_jitter), "random extra interconnect delay in [0, icnt_jitter] (seeded)" },
	{ "lat_rop", 1, 1, 10000, NULL, GP(lat_rop), "ROP cycles per atomic lane performed (one partition, one lane at a time)" },
	{ "icnt_queue", 0, 0, 4096, NULL, GP(icnt_queue), "atomic entries each SM-to-partition FIFO holds (0: twice the lanes)" },
	{ "lat_bar", 8, 1, 10000, NULL, GP(lat_bar), "cycles before a warp issues again after bar.sync" },
};

static const struct param_def baseline_params[] = {
	{ "memory", 0, 0, 2, "sc|ics13|ics13-fixed", GP(memory), "global memory: SC, or the ICS'13 address-queue model (straight-line kernels, weakmem.c)" },
	{ "scheduler", 0, 0, 1, "gto|any", GP(sched_policy), "concrete-mode warp scheduler (exhaustive mode explores every ready warp)" },
};



/* DAB: its determinism-aware schedulers and the atomic buffers. */
static const struct param_def dab_params[] = {
	{ "scheduler", 4, 0, 4, "gto|srr|gtrr|gtar|gwat", GP(dab_sched), "warp scheduler: gto (nondeterministic) or a determinism-aware one" },
	{ "buffer", 1, 0, 1, "warp|scheduler", GP(buffer_level), "atomic buffer per warp or per warp scheduler" },
	{ "entries", 4, 1, 1024, NULL, GP(entries), "entries per atomic buffer" },
	{ "fusion", 1, 0, 1, "off|on", GP(fusion), "fold atomics to the same address and opcode into one entry" },
	{ "coalesce", 1, 0, 1, "off|on", GP(coalesce), "flush one transaction per 32-byte sector (concrete-mode traffic)" },
	{ "offset_flush", 1, 0, 1, "off|on", GP(offset_flush), "SM s starts its flush at partition s mod partitions (concrete-mode timing)" },
	{ "flush", 0, 0, 3, "ordered|nr|nr-of|nr-cif", GP(flush), "flush protocol: ordered (reorder buffers), or the relaxed variants" },
	{ "lat_flush", 20, 0, 100000, NULL, GP(lat_flush), "cycles of the pre-flush message round before entries move" },
};

/* Persistency: the persistence domain, NVM latencies, at most 32 warps. */
static const struct param_def persist_params[] = {
	{ "ctas", 1, 1, 32, NULL, GP(ctas), "CTAs in the grid (all resident)" },
	{ "warps_per_cta", 1, 1, 32, NULL, GP(warps_per_cta), "warps per CTA (at most 32 warps in all)" },
	{ "wpq", 0, 0, 1, "volatile|durable", GP(wpq_durable), "are the write-pending queues in the persistence domain?" },
	{ "persistency", 0, 0, 5, "none|strict-clwb|strict-wt|epoch-kernel|epoch-cta|epoch-loop", GP(persistency), "rewrite the kernel for a persistency model (persist_models.c)" },
	{ "scope", 1, 1, 1000, NULL, GP(scope), "epoch-loop: iterations of the outermost loop per epoch" },
	{ "scheduler", 0, 0, 1, "gto|any", GP(sched_policy), "concrete-mode warp scheduler" },
	{ "lat_global", 192, 1, 100000, NULL, GP(lat_global), "global access latency (NVM read 160 ns at 1.2 GHz)" },
	{ "global_jitter", 0, 0, 100000, NULL, GP(global_jitter), "random extra global latency in [0, global_jitter]" },
	{ "lat_nvm_write", 576, 1, 1000000, NULL, GP(lat_nvm_write), "cycles a memory controller needs to write a WPQ entry to NVM (480 ns)" },
};

static const struct machine_def machines[] = {
	{ "baseline",
	  "nondeterministic baseline GPU: free warp choice, SC memory, atomics at the L2/ROP with free arrival order across SMs",
	  "scheduler (GTO / any ready warp), warp (SIMT stack, IPDOM reconvergence), memory (SC global + per-CTA shared), barrier (bar.sync), rop (per-SM FIFOs to partitions)",
	  baseline_params, sizeof baseline_params / sizeof baseline_params[0], gpu_build },
	{ "dab",
	  "Deterministic Atomic Buffering: the baseline GPU with global atomics buffered per warp or scheduler, determinism-aware schedulers and an ordered flush",
	  "scheduler (GTO, SRR, GTRR, GTAR, GWAT), warp, memory, barrier, dab (atomic buffers, fusion, flush with pre-flush counts, per-partition flush reorder buffers; relaxed nr, nr-of, nr-cif)",
	  dab_params, sizeof dab_params / sizeof dab_params[0], gpu_build },
	{ "persist",
	  "GPU persistency: the baseline GPU over NVM device memory behind a write-back L2 and write-pending queues, with a crash possible at every step",
	  "scheduler, warp, memory, barrier, rop, persist (L2 dirty words, evictions, clwb, st.wt, l2wb, pcommit, sfence, WPQ per memory controller, NVM, crash points)",
	  persist_params, sizeof persist_params / sizeof persist_params[0], gpu_build },
};

const char *registry_machine(const struct spec *s)
{
	const struct param_set *ps = spec_param(s, "machine");
	return ps ? ps->value : s->machine;
}

/* A machine's parameters: the common GPU rows, each replaced by the
** machine's own row of that name, then the machine's other rows. */
static unsigned machine_params(const struct machine_def *md, const struct param_def **out)
{
	unsigned n = 0;
	for (size_t i = 0; i < sizeof gpu_params / sizeof gpu_params[0]; i++) {
		const struct param_def *p = &gpu_params[i];
		for (unsigned k = 0; k < md->nparams; k++)
			if (!strcmp(md->params[k].name, p->name))
				p = &md->params[k];
		out[n++] = p;
	}
	for (unsigned k = 0; k < md->nparams; k++) {
		int common = 0;
		for (size_t i = 0; i < sizeof gpu_params / sizeof gpu_params[0]; i++)
			common |= !strcmp(md->params[k].name, gpu_params[i].name);
		if (!common)
			out[n++] = &md->params[k];
	}
	return n;
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

struct model *registry_build(const struct spec *s, struct diag *d)
{
	const struct machine_def *md = registry_find(registry_machine(s));
	const struct param_set *over = spec_param(s, "machine");
	if (!md && over) {
		struct strbuf b;
		sb_init(&b);
		sb_printf(&b, "unknown machine '%s' (see gpumc list)", over->value);
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
		diag_at(d, s->path, s->machine_line, s->machine_col, "unknown machine '%s' (known: %s)",
		        s->machine, sb_str(&b));
		sb_free(&b);
		return NULL;
	}
	return md->build(s, d);
}

static void param_err(struct diag *d, const struct param_set *ps, const char *fmt, const char *a, const char *b)
{
	char msg[512];
	snprintf(msg, sizeof msg, fmt, a, b);
	if (ps->line)
		diag_at(d, ps->file, ps->line, ps->col, "%s", msg);
	else
		diag_at(d, "command line", 0, 0, "-D %s: %s", ps->key, msg);
}

int params_apply(const struct machine_def *md, const struct spec *s, void *cfg, struct diag *d)
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
		const struct param_def *pd = NULL;
		if (!strcmp(ps->key, "machine"))
			continue; /* chosen before the parameters (registry_machine) */
		for (unsigned i = 0; i < n; i++)
			if (!strcmp(defs[i]->name, ps->key))
				pd = defs[i];
		if (!pd && lenient && ps->line) {
			fprintf(stderr, "%s:%d:%d: warning: ignoring '%s': not a parameter of machine '%s'\n", ps->file,
			        ps->line, ps->col, ps->key, mname);
			continue;
		}
		if (!pd) {
			param_err(d, ps, "unknown parameter '%s' for machine '%s' (see gpumc list)", ps->key, mname);
			continue;
		}
		unsigned v = 0;
		if (pd->choices) {
			const char *c = pd->choices;
			unsigned idx = 0;
			int found = 0;
			size_t len = strlen(ps->value);
			while (*c) {
				const char *bar = strchr(c, '|');
				size_t l = bar ? (size_t)(bar - c) : strlen(c);
				if (l == len && !strncmp(c, ps->value, l)) {
					v = idx;
					found = 1;
					break;
				}
				idx++;
				c += l + (bar ? 1 : 0);
			}
			if (!found && lenient && ps->line) {
				fprintf(stderr, "%s:%d:%d: warning: ignoring %s = %s: machine '%s' takes %s\n", ps->file,
				        ps->line, ps->col, ps->key, ps->value, mname, pd->choices);
				continue;
			}
			if (!found) {
				param_err(d, ps, "'%s' expects one of %s", pd->name, pd->choices);
				continue;
			}
		} else {
			char *end;
			unsigned long x = strtoul(ps->value, &end, 0);
			if (*end || !*ps->value || ps->value[0] == '-' || x < pd->min || x > pd->max) {
				char range[64];
				snprintf(range, sizeof range, "an integer in %u..%u", pd->min, pd->max);
				param_err(d, ps, "'%s' expects %s", pd->name, range);
				continue;
			}
			v = (unsigned)x;
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
		if (json) {
			sb_puts(&b, i ? ",{\"name\":" : "{\"name\":");
			sb_json_str(&b, m[i].name);
			sb_puts(&b, ",\"description\":");
			sb_json_str(&b, m[i].desc);
			sb_puts(&b, ",\"components\":");
			sb_json_str(&b, m[i].components);
			sb_puts(&b, ",\"parameters\":[");
		} else {
			sb_printf(&b, "machine %s\n  %s\n  components: %s\n  parameters:\n", m[i].name, m[i].desc,
			          m[i].components);
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
				else
					snprintf(range, sizeof range, "%u..%u", p->min, p->max);
				sb_printf(&b, "    %-17s %-6s %-12s %s\n", p->name, def, range, p->desc);
			}
		}
		if (json)
			sb_puts(&b, "]}");
	}
	if (json)
		sb_puts(&b, "],\"searches\":[\"bfs\",\"dfs\"],\"properties\":[\"deterministic\",\"exists\",\"~exists\",\"forall\",\"invariant\",\"deadlock_free\",\"durable\",\"recoverable\",\"persisted\",\"idempotent\"]}\n");
	else
		sb_puts(&b, "\nsearches: bfs (default), dfs; visited sets: exact (default), compact (64-bit fingerprints)\n"
		            "properties: deterministic [locs], exists C, ~exists C, forall C, invariant C, deadlock_free (always checked), fault (always checked);\n"
		            "  machine persist: durable C (crash images), recoverable C (after recovery), persisted C (final durable image), idempotent\n");
	fputs(sb_str(&b), f);
	sb_free(&b);
}
