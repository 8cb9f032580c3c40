/* `gpumc run`: concrete mode, one timed path per seed. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explore/concrete.h"
#include "explore/parallel.h"
#include "machines/registry.h"
#include "report.h"
#include "state/hash.h"
#include "state/sideset.h"
#include "util/clock.h"
#include "util/interrupt.h"

/* A distinct result: its values (key, nlocs words) and their state_hash,
** the sideset's key; results of one hash chained by next. */
struct result_bucket {
	uint64_t count, first_seed, hash;
	uint8_t *sv;
	uint32_t *key;
	unsigned next; /* NO_BUCKET: the last of its hash */
};
enum { NO_BUCKET = ~0u };

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

/* What the runs add up to, folded in in seed order. */
struct tally {
	struct sideset *seen; /* a result's hash -> its first bucket: a key of
	                       * 8 bytes, not its values (64 KB at times) */
	struct result_bucket *b;
	unsigned nb, runs;    /* runs: folded in */
	uint64_t cmin, cmax, csum, instr, problems, limited;
	double secs;          /* the runs' own seconds, summed: one core's time */
	uint64_t *cyc;        /* each run's cycles, for --json (the first RUN_CYCLES_KEPT runs) */
	struct concrete_result first;
};
enum { RUN_CYCLES_KEPT = 100000 };

/* The runs of one spec, on one or more threads (--threads).  Each thread
** takes the next seed, runs it on a model instance of its own (concrete
** state lives in the model's data: readyset.c, the timing components)
** and leaves the result in slot[run % window]; whichever thread fills the
** slot of the next run due folds in every result then due, in seed order,
** so the report is the same at every thread count.  No run starts a
** window or more ahead of the next one due: memory stays bounded.  mu
** guards everything below it. */
struct sweep {
	const struct run_opts *o;
	const int *locs;
	unsigned nlocs, window;
	struct timeline *tl; /* --timeline: run 0's, on the thread that runs it */
	struct timespec start;
	pthread_mutex_t mu;
	pthread_cond_t cv; /* a run folded in: the window moved */
	unsigned next;     /* the next run to start */
	double next_progress;
	struct concrete_result *slot;
	unsigned char *full;
	uint32_t *key;
	struct tally t;
};

struct worker {
	struct sweep *s;
	struct model *m; /* the thread's own instance (j's model on the first) */
	struct concrete_runs past;
	pthread_t tid;
};

/* Run t->runs's result r, read through m (any instance: they share a layout). */
static void fold(struct sweep *s, const struct model *m, struct concrete_result *r)
{
	struct tally *t = &s->t;
	const struct run_opts *o = s->o;
	unsigned run = t->runs++;
	/* many seeds: a progress line every o->ex.progress seconds */
	double now = clock_since(s->start);
	if (o->ex.progress > 0 && now >= s->next_progress) {
		s->next_progress = now + o->ex.progress;
		fprintf(stderr, "gpumc: %.0f s: run %u of %u (%.0f runs/s), %u distinct results\n", now, run, o->runs,
		        now > 0 ? run / now : 0.0, t->nb);
	}
	t->secs += r->seconds;
	if (t->cyc && run < RUN_CYCLES_KEPT)
		t->cyc[run] = r->cycles;
	t->instr += r->counters[0];
	if (r->status != MS_TERMINAL && !r->limit)
		t->problems++;
	if (r->limit)
		t->limited++;
	if (r->cycles < t->cmin)
		t->cmin = r->cycles;
	if (r->cycles > t->cmax)
		t->cmax = r->cycles;
	t->csum += r->cycles;
	model_read_locs(m, r->sv, s->locs, s->nlocs, s->key);
	size_t bytes = sizeof(uint32_t) * s->nlocs;
	uint64_t h = state_hash((const uint8_t *)s->key, bytes);
	int is_new;
	uintptr_t *slot = ss_put(t->seen, &h, sizeof h, &is_new);
	unsigned i = is_new ? NO_BUCKET : (unsigned)*slot, prev = NO_BUCKET;
	while (i != NO_BUCKET && memcmp(t->b[i].key, s->key, bytes)) {
		prev = i; /* the same hash, other values */
		i = t->b[i].next;
	}
	if (i == NO_BUCKET) {
		i = t->nb++;
		t->b = xrealloc(t->b, sizeof *t->b * t->nb);
		if (prev == NO_BUCKET)
			*slot = i;
		else
			t->b[prev].next = i;
		struct result_bucket *nb = &t->b[i];
		nb->count = 0;
		nb->first_seed = o->seed + run;
		nb->hash = h;
		nb->next = NO_BUCKET;
		nb->sv = xmalloc(m->sv_size);
		memcpy(nb->sv, r->sv, m->sv_size);
		nb->key = xmalloc(bytes ? bytes : 1);
		memcpy(nb->key, s->key, bytes);
	}
	t->b[i].count++;
	if (run == 0)
		t->first = *r;
	else
		concrete_result_free(r);
}

/* One thread's runs; SIGINT: no run starts after it (run 0 always does),
** and those under way stop at their next cycle and are folded in. */
static void *work(void *arg)
{
	struct worker *w = arg;
	struct sweep *s = w->s;
	pthread_mutex_lock(&s->mu);
	while (s->next < s->o->runs && !(s->next && interrupted)) {
		unsigned run = s->next;
		if (run - s->t.runs >= s->window) {
			pthread_cond_wait(&s->cv, &s->mu); /* some run before it is under way */
			continue;
		}
		s->next++;
		pthread_mutex_unlock(&s->mu);
		struct concrete_hook hook = { timeline_action, s->tl };
		if (run == 0)
			s->tl->m = w->m; /* its actions are described in this instance's terms */
		struct concrete_result r;
		concrete_run(w->m, &w->past, s->o->seed + run, s->o->max_cycles, run == 0 && s->tl->f ? &hook : NULL, &r);
		pthread_mutex_lock(&s->mu);
		s->slot[run % s->window] = r;
		s->full[run % s->window] = 1;
		for (unsigned k; s->full[k = s->t.runs % s->window];) {
			s->full[k] = 0;
			fold(s, w->m, &s->slot[k]);
		}
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* The runs on n threads (fewer when a thread or model cannot be made):
** this one with j's model, each other with an instance of its own. */
static void sweep_run(struct sweep *s, struct job *j, unsigned n)
{
	struct worker *w = xcalloc(n, sizeof *w);
	unsigned started = 1;
	for (unsigned t = 0; t < n; t++)
		w[t].s = s;
	w[0].m = j->model;
	for (; started < n; started++) {
		struct model *m = w[started].m = registry_rebuild(j->spec);
		if (!m || pthread_create(&w[started].tid, NULL, work, &w[started])) {
			model_destroy(m);
			fprintf(stderr, "gpumc: could not start thread %u of %u; going on with %u\n", started + 1, n, started);
			break;
		}
	}
	work(&w[0]);
	for (unsigned t = 1; t < started; t++) {
		pthread_join(w[t].tid, NULL);
		model_destroy(w[t].m);
	}
	free(w);
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
	/* --threads: at most one a run */
	unsigned nthreads = par_threads(&o->ex);
	if (nthreads > o->runs)
		nthreads = o->runs;
	/* --timeline: the first run's actions as a Chrome trace */
	struct timeline tl = { m, NULL, NULL, 0, 0 };
	if (o->timeline_file && !(tl.f = fopen(o->timeline_file, "w")))
		fprintf(stderr, "gpumc: %s: cannot write the timeline\n", o->timeline_file);
	if (tl.f)
		fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"unit\":\"1 us = 1 cycle\"},\"traceEvents\":[", tl.f);
	struct sweep s = { .o = o, .locs = locs, .nlocs = nlocs, .window = 4 * nthreads, .tl = &tl,
		           .next_progress = o->ex.progress };
	clock_gettime(CLOCK_MONOTONIC, &s.start);
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.cv, NULL);
	s.slot = xmalloc(sizeof *s.slot * s.window);
	s.full = xcalloc(s.window, 1);
	s.key = xmalloc(sizeof(uint32_t) * (nlocs ? nlocs : 1));
	struct tally *t = &s.t;
	t->seen = ss_new();
	t->cmin = UINT64_MAX;
	t->cyc = o->json ? xmalloc(sizeof *t->cyc * (o->runs < RUN_CYCLES_KEPT ? o->runs : RUN_CYCLES_KEPT)) : NULL;
	sweep_run(&s, j, nthreads);
	pthread_cond_destroy(&s.cv);
	pthread_mutex_destroy(&s.mu);
	free(s.slot);
	free(s.full);
	if (tl.f) {
		timeline_end(&tl);
		if (fclose(tl.f))
			fprintf(stderr, "gpumc: %s: cannot write the timeline\n", o->timeline_file);
	}
	unsigned runs = t->runs, nb = t->nb;
	const struct concrete_result *first = &t->first;
	const struct result_bucket *b = t->b;
	double secs = t->secs;
	struct strbuf out;
	sb_init(&out);
	const char *end = first->status == MS_TERMINAL ? "finished"
	                  : first->status == MS_FAULT ? "FAULT"
	                  : first->limit ? (interrupted ? interrupt_name() : "cycle limit reached")
	                  : "DEADLOCK";
	double ips = secs > 0 ? (double)t->instr / secs : 0;
	if (o->json) {
		sb_puts(&out, "{\"spec\":");
		sb_json_str(&out, j->spec->path);
		sb_printf(&out, ",\"machine\":\"%s\",\"runs\":%u,\"seed\":%llu,\"first_run\":{\"end\":\"%s\",\"cycles\":%llu,\"counters\":{",
		          m->name, runs, (unsigned long long)o->seed, end, (unsigned long long)first->cycles);
		for (unsigned c = 0; c < m->ncounters; c++) {
			if (c)
				sb_putc(&out, ',');
			sb_json_str(&out, m->counter_names[c]);
			sb_printf(&out, ":%llu", (unsigned long long)first->counters[c]);
		}
		sb_printf(&out, ",\"idle unit-cycles\":%llu}},\"cycles\":{\"min\":%llu,\"mean\":%.1f,\"max\":%llu},"
		          "\"seconds\":%.6f,\"warp_instructions_per_second\":%.0f,\"interrupted\":%s,\"cycles_per_run\":[",
		          (unsigned long long)first->idle_unit_cycles, (unsigned long long)t->cmin,
		          (double)t->csum / runs, (unsigned long long)t->cmax, secs, ips, interrupted ? "true" : "false");
		for (unsigned i = 0; i < runs && i < RUN_CYCLES_KEPT; i++)
			sb_printf(&out, "%s%llu", i ? "," : "", (unsigned long long)t->cyc[i]);
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
		          (unsigned long long)first->cycles);
		for (unsigned c = 0; c < m->ncounters; c++)
			sb_printf(&out, "  %-24s %llu\n", m->counter_names[c], (unsigned long long)first->counters[c]);
		sb_printf(&out, "  %-24s %llu\n", "idle unit-cycles", (unsigned long long)first->idle_unit_cycles);
		if (first->status != MS_TERMINAL) {
			sb_puts(&out, "state at the end:\n");
			model_print_state(m, first->sv, &out);
		}
		if (runs > 1)
			sb_printf(&out, "%u runs (seeds %llu..%llu): cycles min %llu, mean %.1f, max %llu\n", runs,
			          (unsigned long long)o->seed, (unsigned long long)(o->seed + runs - 1),
			          (unsigned long long)t->cmin, (double)t->csum / runs, (unsigned long long)t->cmax);
		sb_printf(&out, "%u distinct result%s:\n", nb, nb == 1 ? "" : "s");
		for (unsigned i = 0; i < nb; i++) {
			sb_printf(&out, "  %8llu run%s  ", (unsigned long long)b[i].count, b[i].count == 1 ? " " : "s");
			if (nlocs <= 8) {
				report_locs(m, b[i].sv, locs, nlocs, &out, 0);
			} else {
				/* a large result: its first values and a digest of all */
				report_locs(m, b[i].sv, locs, 3, &out, 0);
				sb_printf(&out, ", ... (%u values, XXH3 %016llx)", nlocs, (unsigned long long)b[i].hash);
			}
			sb_printf(&out, "   (first seed %llu)\n", (unsigned long long)b[i].first_seed);
		}
		sb_printf(&out, "%.3f s simulated, %.0f warp-instructions/s\n", secs, ips);
	}
	fputs(sb_str(&out), stdout);
	sb_free(&out);
	/* exit code: a run that faulted or deadlocked is a violation, and
	** so is more than one result where determinism was asked for */
	int code = t->problems ? EXIT_VIOLATED : EXIT_HOLDS;
	if (nb > 1 && obs->kind == P_DETERMINISTIC)
		code = EXIT_VIOLATED;
	if (t->limited)
		code = exit_combine(code, EXIT_INCOMPLETE);
	if (interrupted)
		code = EXIT_INCOMPLETE;
	concrete_result_free(&t->first);
	for (unsigned i = 0; i < nb; i++) {
		free(t->b[i].sv);
		free(t->b[i].key);
	}
	free(t->b);
	free(s.key);
	free(t->cyc);
	free(dlocs);
	ss_free(t->seen);
	return code;
}

int cmd_run(int argc, char **argv)
{
	static const struct spec_cmd c = { "run", "Djr", 0, vet_timed, run_one, 1 };
	return cli_each_spec(&c, argc, argv);
}
