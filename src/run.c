/* `gpumc run`: concrete mode, one timed path per seed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explore/concrete.h"
#include "report.h"
#include "state/hash.h"
#include "state/sideset.h"
#include "util/interrupt.h"

struct result_bucket {
	uint64_t count, first_seed;
	uint8_t *sv;
};

/* --timeline FILE: the first run as Chrome trace-event JSON (chrome://tracing,
** Perfetto): one row per lane (each warp, each partition, the DAB flush,
** the host), one slice per action from the cycle it is taken for as long
** as its subject (or else its unit) stays busy; 1 cycle shows as 1 us. */
struct timeline {
	const struct model *m;
	FILE *f;
	char **lanes; /* row names; tid = index */
	unsigned nlanes;
	uint64_t events;
};

static void timeline_action(void *ctx, uint64_t now, const struct action *a, const struct timing *t,
                            const uint8_t *sv)
{
	struct timeline *tl = ctx;
	if (tl->events >= 1000000)
		return; /* a bounded file: the first million actions */
	struct strbuf d, lane;
	sb_init(&d);
	sb_init(&lane);
	model_describe(tl->m, sv, a, &d);
	report_lane(sb_str(&d), &lane);
	unsigned tid = 0;
	while (tid < tl->nlanes && strcmp(tl->lanes[tid], sb_str(&lane)))
		tid++;
	if (tid == tl->nlanes) {
		tl->lanes = xrealloc(tl->lanes, sizeof *tl->lanes * (tl->nlanes + 1));
		tl->lanes[tl->nlanes++] = xstrdup(sb_str(&lane));
	}
	uint64_t dur = t->busy;
	for (unsigned u = 0; u < t->n; u++)
		if (t->upd[u].subject == a->subject && t->upd[u].delay > dur)
			dur = t->upd[u].delay;
	struct strbuf ev;
	sb_init(&ev);
	sb_printf(&ev, "%s{\"name\":", tl->events++ ? ",\n" : "\n");
	sb_json_str(&ev, sb_str(&d));
	sb_printf(&ev, ",\"ph\":\"X\",\"ts\":%llu,\"dur\":%llu,\"pid\":0,\"tid\":%u}", (unsigned long long)now,
	          (unsigned long long)(dur ? dur : 1), tid);
	fputs(sb_str(&ev), tl->f);
	sb_free(&ev);
	sb_free(&d);
	sb_free(&lane);
}

/* the row names, then the end of the JSON */
static void timeline_end(struct timeline *tl)
{
	struct strbuf ev;
	sb_init(&ev);
	for (unsigned i = 0; i < tl->nlanes; i++) {
		sb_printf(&ev, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,\"args\":{\"name\":",
		          tl->events++ ? ",\n" : "\n", i);
		sb_json_str(&ev, tl->lanes[i]);
		sb_puts(&ev, "}}");
		free(tl->lanes[i]);
	}
	free(tl->lanes);
	sb_puts(&ev, "\n]}\n");
	fputs(sb_str(&ev), tl->f);
	sb_free(&ev);
}

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
	/* --timeline: the first run's actions as a Chrome trace */
	struct timeline tl = { m, NULL, NULL, 0, 0 };
	struct concrete_hook hook = { timeline_action, &tl };
	if (o->timeline_file && !(tl.f = fopen(o->timeline_file, "w")))
		fprintf(stderr, "gpumc: %s: cannot write the timeline\n", o->timeline_file);
	if (tl.f)
		fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"unit\":\"1 us = 1 cycle\"},\"traceEvents\":[", tl.f);
	/* each run's cycles, for --json (the first RUN_CYCLES_KEPT runs) */
	enum { RUN_CYCLES_KEPT = 100000 };
	uint64_t *cyc = o->json ? xmalloc(sizeof *cyc * (o->runs < RUN_CYCLES_KEPT ? o->runs : RUN_CYCLES_KEPT)) : NULL;
	/* SIGINT: the runs so far are reported; many seeds: a progress line
	** every o->ex.progress seconds */
	unsigned runs = 0;
	double next_progress = o->ex.progress;
	for (unsigned run = 0; run < o->runs && (run == 0 || !interrupted); run++, runs++) {
		if (o->ex.progress > 0 && secs >= next_progress) {
			next_progress = secs + o->ex.progress;
			fprintf(stderr, "gpumc: %.0f s: run %u of %u (%.0f runs/s), %u distinct results\n", secs, run, o->runs,
			        secs > 0 ? run / secs : 0.0, nb);
		}
		struct concrete_result r;
		concrete_run(m, o->seed + run, o->max_cycles, run == 0 && tl.f ? &hook : NULL, &r);
		secs += r.seconds;
		if (cyc && run < RUN_CYCLES_KEPT)
			cyc[run] = r.cycles;
		instr += r.counters[0];
		if (r.status != MS_TERMINAL && !r.limit)
			problems++;
		if (r.limit)
			limited++;
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
	if (tl.f) {
		timeline_end(&tl);
		if (fclose(tl.f))
			fprintf(stderr, "gpumc: %s: cannot write the timeline\n", o->timeline_file);
	}
	struct strbuf out;
	sb_init(&out);
	const char *end = first.status == MS_TERMINAL ? "finished"
	                  : first.status == MS_FAULT ? "FAULT"
	                  : first.limit ? (interrupted ? interrupt_name() : "cycle limit reached")
	                  : "DEADLOCK";
	double ips = secs > 0 ? (double)instr / secs : 0;
	if (o->json) {
		sb_puts(&out, "{\"spec\":");
		sb_json_str(&out, j->spec->path);
		sb_printf(&out, ",\"machine\":\"%s\",\"runs\":%u,\"seed\":%llu,\"first_run\":{\"end\":\"%s\",\"cycles\":%llu,\"counters\":{",
		          m->name, runs, (unsigned long long)o->seed, end, (unsigned long long)first.cycles);
		for (unsigned c = 0; c < m->ncounters; c++) {
			if (c)
				sb_putc(&out, ',');
			sb_json_str(&out, m->counter_names[c]);
			sb_printf(&out, ":%llu", (unsigned long long)first.counters[c]);
		}
		sb_printf(&out, ",\"idle unit-cycles\":%llu}},\"cycles\":{\"min\":%llu,\"mean\":%.1f,\"max\":%llu},"
		          "\"seconds\":%.6f,\"warp_instructions_per_second\":%.0f,\"interrupted\":%s,\"cycles_per_run\":[",
		          (unsigned long long)first.idle_unit_cycles, (unsigned long long)cmin,
		          (double)csum / runs, (unsigned long long)cmax, secs, ips, interrupted ? "true" : "false");
		for (unsigned i = 0; i < runs && i < RUN_CYCLES_KEPT; i++)
			sb_printf(&out, "%s%llu", i ? "," : "", (unsigned long long)cyc[i]);
		sb_puts(&out, "],\"results\":[");
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
		if (runs > 1)
			sb_printf(&out, "%u runs (seeds %llu..%llu): cycles min %llu, mean %.1f, max %llu\n", runs,
			          (unsigned long long)o->seed, (unsigned long long)(o->seed + runs - 1),
			          (unsigned long long)cmin, (double)csum / runs, (unsigned long long)cmax);
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
	if (interrupted)
		code = EXIT_INCOMPLETE;
	concrete_result_free(&first);
	for (unsigned i = 0; i < nb; i++)
		free(b[i].sv);
	free(b);
	free(key);
	free(cyc);
	free(dlocs);
	ss_free(seen);
	return code;
}

int cmd_run(int argc, char **argv)
{
	static const struct spec_cmd c = { "run", "Djr", 0, vet_timed, run_one, 1 };
	return cli_each_spec(&c, argc, argv);
}
