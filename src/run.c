/* `gpumc run`: concrete mode, one timed path per seed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explore/concrete.h"
#include "report.h"
#include "state/hash.h"
#include "state/sideset.h"

struct result_bucket {
	uint64_t count, first_seed;
	uint8_t *sv;
};

/* Concrete mode needs the model's timing. */
static int vet_timed(const struct job *j, struct diag *d)
{
	struct strbuf why;
	sb_init(&why);
	int bad = concrete_usable(j->model, &why);
	if (bad)
		diag_at(d, j->spec->path, 0, 0, "%s", sb_str(&why));
	sb_free(&why);
	return bad;
}

static int run_one(struct job *j, const struct run_opts *o, int more)
{
	(void)more;
	const struct model *m = j->model;
	/* the observables: those of the first `deterministic` property */
	const struct property *obs = &j->props[0];
	for (unsigned k = 0; k < j->nprops; k++)
		if (j->props[k].kind == P_DETERMINISTIC) {
			obs = &j->props[k];
			break;
		}
	int *locs = obs->locs;
	unsigned nlocs = obs->nlocs;
	unsigned dn = 0;
	int *dlocs = NULL;
	if (obs->kind != P_DETERMINISTIC) {
		dn = model_observables(m, NULL, 0);
		dlocs = xmalloc(sizeof(int) * (dn ? dn : 1));
		model_observables(m, dlocs, dn);
		locs = dlocs;
		nlocs = dn;
	}
	struct sideset *seen = ss_new();
	struct result_bucket *b = NULL;
	unsigned nb = 0;
	uint64_t cmin = UINT64_MAX, cmax = 0, csum = 0, instr = 0, problems = 0, limited = 0;
	double secs = 0;
	uint32_t *key = xmalloc(sizeof(uint32_t) * (nlocs ? nlocs : 1));
	struct concrete_result first;
	memset(&first, 0, sizeof first);
	unsigned nruns = o->runs;
	for (unsigned run = 0; run < nruns; run++) {
		struct concrete_result r;
		concrete_run(m, o->seed + run, o->max_cycles, &r);
		secs += r.seconds;
		instr += r.counters[0];
		if (r.status != MS_TERMINAL && !r.limit)
			problems++;
		if (r.limit)
			limited++;
		if (explore_interrupted) /* report the runs so far */
			nruns = run + 1;
		if (r.cycles < cmin)
			cmin = r.cycles;
		if (r.cycles > cmax)
			cmax = r.cycles;
		csum += r.cycles;
		for (unsigned i = 0; i < nlocs; i++)
			key[i] = m->read(m, r.sv, locs[i]);
		int is_new;
		uintptr_t *slot = ss_put(seen, key, sizeof(uint32_t) * nlocs, &is_new);
		if (is_new) {
			*slot = nb;
			b = xrealloc(b, sizeof *b * (nb + 1));
			b[nb].count = 0;
			b[nb].first_seed = o->seed + run;
			b[nb].sv = xmalloc(m->sv_size);
			memcpy(b[nb].sv, r.sv, m->sv_size);
			nb++;
		}
		b[*slot].count++;
		if (run == 0)
			first = r;
		else
			concrete_result_free(&r);
	}
	struct strbuf out;
	sb_init(&out);
	const char *end = first.status == MS_TERMINAL ? "finished"
	                  : first.status == MS_FAULT ? "FAULT"
	                  : first.limit ? (explore_interrupted ? explore_interrupt_name() : "cycle limit reached")
	                  : "DEADLOCK";
	double ips = secs > 0 ? (double)instr / secs : 0;
	if (o->json) {
		sb_puts(&out, "{\"spec\":");
		sb_json_str(&out, j->spec->path);
		sb_printf(&out, ",\"machine\":\"%s\",\"runs\":%u,\"seed\":%llu,\"first_run\":{\"end\":\"%s\",\"cycles\":%llu,\"counters\":{",
		          m->name, nruns, (unsigned long long)o->seed, end, (unsigned long long)first.cycles);
		for (unsigned c = 0; c < m->ncounters; c++) {
			if (c)
				sb_putc(&out, ',');
			sb_json_str(&out, m->counter_names[c]);
			sb_printf(&out, ":%llu", (unsigned long long)first.counters[c]);
		}
		sb_printf(&out, ",\"idle unit-cycles\":%llu}},\"cycles\":{\"min\":%llu,\"mean\":%.1f,\"max\":%llu},"
		          "\"seconds\":%.6f,\"warp_instructions_per_second\":%.0f,\"results\":[",
		          (unsigned long long)first.idle_unit_cycles, (unsigned long long)cmin,
		          (double)csum / nruns, (unsigned long long)cmax, secs, ips);
		for (unsigned i = 0; i < nb; i++) {
			sb_printf(&out, "%s{\"count\":%llu,\"first_seed\":%llu,\"values\":", i ? "," : "",
			          (unsigned long long)b[i].count, (unsigned long long)b[i].first_seed);
			report_locs(m, b[i].sv, locs, nlocs, &out, 1);
			sb_putc(&out, '}');
		}
		sb_puts(&out, "]}\n");
	} else {
		sb_printf(&out, "spec %s (%s), machine %s, concrete mode\n", j->spec->name, j->spec->path, m->name);
		sb_printf(&out, "run 1 (seed %llu): %s after %llu cycles\n", (unsigned long long)o->seed, end,
		          (unsigned long long)first.cycles);
		for (unsigned c = 0; c < m->ncounters; c++)
			sb_printf(&out, "  %-24s %llu\n", m->counter_names[c], (unsigned long long)first.counters[c]);
		sb_printf(&out, "  %-24s %llu\n", "idle unit-cycles", (unsigned long long)first.idle_unit_cycles);
		if (first.status != MS_TERMINAL) {
			sb_puts(&out, "state at the end:\n");
			model_print_state(m, first.sv, &out);
		}
		if (nruns > 1)
			sb_printf(&out, "%u runs (seeds %llu..%llu): cycles min %llu, mean %.1f, max %llu\n", nruns,
			          (unsigned long long)o->seed, (unsigned long long)(o->seed + nruns - 1),
			          (unsigned long long)cmin, (double)csum / nruns, (unsigned long long)cmax);
		sb_printf(&out, "%u distinct result%s:\n", nb, nb == 1 ? "" : "s");
		for (unsigned i = 0; i < nb; i++) {
			sb_printf(&out, "  %8llu run%s  ", (unsigned long long)b[i].count, b[i].count == 1 ? " " : "s");
			if (nlocs <= 8) {
				report_locs(m, b[i].sv, locs, nlocs, &out, 0);
			} else {
				/* a large result: its first values and a digest of all */
				report_locs(m, b[i].sv, locs, 3, &out, 0);
				for (unsigned k = 0; k < nlocs; k++)
					key[k] = m->read(m, b[i].sv, locs[k]);
				sb_printf(&out, ", ... (%u values, XXH3 %016llx)", nlocs,
				          (unsigned long long)state_hash((const uint8_t *)key, sizeof(uint32_t) * nlocs));
			}
			sb_printf(&out, "   (first seed %llu)\n", (unsigned long long)b[i].first_seed);
		}
		sb_printf(&out, "%.3f s simulated, %.0f warp-instructions/s\n", secs, ips);
	}
	fputs(sb_str(&out), stdout);
	sb_free(&out);
	/* exit code: a run that faulted or deadlocked is a violation, and
	** so is more than one result where determinism was asked for */
	int code = problems ? EXIT_VIOLATED : EXIT_HOLDS;
	if (nb > 1 && obs->kind == P_DETERMINISTIC)
		code = EXIT_VIOLATED;
	if (limited)
		code = exit_combine(code, EXIT_INCOMPLETE);
	concrete_result_free(&first);
	for (unsigned i = 0; i < nb; i++)
		free(b[i].sv);
	free(b);
	free(key);
	free(dlocs);
	ss_free(seen);
	return code;
}

int cmd_run(int argc, char **argv)
{
	static const struct spec_cmd c = { "run", "Djr", 0, vet_timed, run_one };
	return cli_each_spec(&c, argc, argv);
}
