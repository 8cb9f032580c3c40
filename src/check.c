/* `gpumc check` and `gpumc replay`. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explore/judge.h"
#include "explore/outcomes.h"
#include "explore/replay.h"
#include "report.h"
#include "state/trace.h"
#include "util/interrupt.h"

static int verdict_exit(enum verdict v)
{
	switch (v) {
	case V_PASS: return EXIT_HOLDS;
	case V_FAIL: return EXIT_VIOLATED;
	case V_INCOMPLETE: return EXIT_INCOMPLETE;
	default: return EXIT_INPUT;
	}
}

static void save_trace(const struct job *j, const struct run_opts *o, const struct explore_result *r)
{
	struct trace_file tf;
	memset(&tf, 0, sizeof tf);
	char *abs = realpath(j->spec->path, NULL);
	tf.spec = abs ? abs : j->spec->path;
	tf.hash = j->spec->text_hash;
	tf.defines = (char **)o->defines;
	tf.ndefines = o->ndefines;
	struct strbuf v, err;
	sb_init(&v);
	sb_init(&err);
	verdict_string(r, &v);
	tf.verdict = (char *)sb_str(&v);
	/* a determinism violation stores schedule A then B */
	tf.cycle = r->failed_kind == P_PROGRESS ? (int64_t)r->cycle : -1;
	const struct trace *ts[2] = { &r->trace, NULL };
	if (r->failed_kind == P_DETERMINISTIC) {
		ts[0] = &r->trace2;
		ts[1] = &r->trace;
	}
	uint8_t *sv = xmalloc(j->model->sv_size);
	for (int s = 0; s < 2 && ts[s]; s++) {
		tf.sched[s] = *ts[s];
		tf.text[s] = xcalloc(ts[s]->len + 1, sizeof(char *));
		trace_replay(j->model, ts[s], sv, tf.text[s], NULL);
		tf.nsched = s + 1;
	}
	if (trace_write(o->trace_file, &tf, &err))
		fprintf(stderr, "gpumc: %s\n", sb_str(&err));
	for (int s = 0; s < tf.nsched; s++) {
		for (uint32_t i = 0; i < tf.sched[s].len; i++)
			free(tf.text[s][i]);
		free(tf.text[s]);
	}
	free(sv);
	free(abs);
	sb_free(&v);
	sb_free(&err);
}

static void save_dot(const struct job *j, const struct run_opts *o, const struct explore_result *r)
{
	if ((r->verdict == V_FAIL && (r->failed_kind == P_EXISTS || !r->states)) ) {
		fprintf(stderr, "gpumc: %s: no trace to draw (--dot)\n", o->dot_file);
		return;
	}
	struct strbuf g;
	sb_init(&g);
	report_dot(&g, j, r);
	FILE *f = fopen(o->dot_file, "w");
	if (!f || fputs(sb_str(&g), f) < 0 || fclose(f))
		fprintf(stderr, "gpumc: %s: cannot write the graph\n", o->dot_file);
	sb_free(&g);
}

/* Each property's own verdict after a violation, as CBMC reports per
** property: the search stops at the first violation, so the properties
** not yet violated are checked again without those that were, until one
** pass decides the rest.  status[k]: "holds", "VIOLATED" or why it was not
** decided (a built-in deadlock or fault, a limit). */
static void each_property(const struct job *j, const struct run_opts *o, const struct explore_result *first,
                          const char **status)
{
	unsigned n = j->nprops;
	struct property *sub = xcalloc(n + 1, sizeof *sub);
	unsigned *idx = xcalloc(n + 1, sizeof *idx);
	status[first->failed] = "VIOLATED";
	struct explore_opts eo = o->ex;
	eo.progress = 0;
	eo.start = j->start;
	for (;;) {
		unsigned m = 0;
		for (unsigned k = 0; k < n; k++)
			if (!status[k]) {
				idx[m] = k;
				sub[m++] = j->props[k];
			}
		if (!m || interrupted)
			break;
		struct explore_result r;
		explore(j->model, sub, m, &eo, &r);
		const char *rest = r.verdict == V_PASS ? "holds"
		                   : r.verdict == V_FAIL && r.failed < 0 ? "not decided: the search stops at a deadlock or fault"
		                   : r.verdict == V_FAIL ? NULL : "not decided: a limit was hit";
		if (r.verdict == V_FAIL && r.failed >= 0)
			status[idx[r.failed]] = "VIOLATED";
		for (unsigned k = 0; k < m && rest; k++)
			status[idx[k]] = rest;
		explore_result_free(&r);
		if (rest)
			break;
	}
	for (unsigned k = 0; k < n; k++)
		if (!status[k])
			status[k] = "not decided: interrupted";
	free(sub);
	free(idx);
}

static int check_one(struct job *j, const struct run_opts *o, int more)
{
	struct explore_result r;
	struct strbuf out;
	sb_init(&out);
	if (!o->json) {
		report_header(&out, j);
		fputs(sb_str(&out), stdout);
		fflush(stdout);
		sb_reset(&out);
	}
	int *locs;
	unsigned nlocs = outcome_locs(j->model, j->props, j->nprops, &locs);
	struct explore_opts ex = o->ex;
	ex.start = j->start;
	outcomes_explore(j->model, j->props, j->nprops, locs, nlocs, &ex, o->outcomes, &r);
	free(locs);
	/* with several properties, a violation of one leaves the others to
	** decide; only the text report lists them */
	const char **status = NULL;
	if (!o->json && r.verdict == V_FAIL && r.failed >= 0 && j->nprops > 1) {
		explore_release(&r); /* each search holds only its own memory */
		status = xcalloc(j->nprops + 1, sizeof *status);
		each_property(j, o, &r, status);
	}
	report_check(&out, j, &r, o, status);
	free(status);
	fputs(sb_str(&out), stdout);
	if (!o->json && more)
		fputc('\n', stdout);
	sb_free(&out);
	/* the report out before the search's memory goes: releasing
	** gigabytes takes a noticeable part of a --time limit */
	fflush(stdout);
	explore_release(&r);
	if ((o->dot_file || o->trace_file) && r.no_trace && (r.verdict == V_FAIL || r.witness))
		fprintf(stderr, "gpumc: --no-trace: no trace kept for %s; the report says how to get one\n",
		        o->dot_file ? o->dot_file : o->trace_file);
	else if (o->dot_file && (r.verdict == V_FAIL || r.witness))
		save_dot(j, o, &r);
	if (o->trace_file && !r.no_trace && ((r.verdict == V_FAIL && r.failed_kind != P_EXISTS) || r.witness))
		save_trace(j, o, &r);
	int rc = verdict_exit(r.verdict);
	explore_result_free(&r);
	return rc;
}

/* -D key=a,b,c: one exploration per configuration (the product of every
** swept key), one row each: the configuration, the verdict, the states. */
static int sweep(const struct run_opts *o, const char **files, int nfiles)
{
	int nd = o->ndefines, rc = EXIT_HOLDS;
	/* per define: its values, and the one in use */
	char **vals = xcalloc((size_t)nd + 1, sizeof(char *));
	int *nval = xcalloc((size_t)nd + 1, sizeof(int)), *at = xcalloc((size_t)nd + 1, sizeof(int));
	for (int i = 0; i < nd; i++) {
		vals[i] = xstrdup(o->defines[i]);
		nval[i] = 1;
		for (char *c = strchr(vals[i], '='); c && (c = strchr(c, ',')); c++, nval[i]++)
			;
	}
	printf("%-32s %-32s %-24s %10s %9s\n", "spec", "configuration", "verdict", "states", "time");
	struct run_opts one = *o;
	one.defines = xcalloc((size_t)nd + 1, sizeof(char *));
	char **defs = xcalloc((size_t)nd + 1, sizeof(char *));
	for (int f = 0; f < nfiles && !interrupted; f++) {
		memset(at, 0, sizeof(int) * (size_t)(nd + 1));
		for (;;) {
			/* this configuration's -D key=value list */
			struct strbuf cfg;
			sb_init(&cfg);
			for (int i = 0; i < nd; i++) {
				const char *eq = strchr(vals[i], '='), *v = eq ? eq + 1 : "";
				for (int k = 0; k < at[i]; k++)
					v = strchr(v, ',') + 1;
				size_t kl = eq ? (size_t)(eq - vals[i]) : strlen(vals[i]), vl = strcspn(v, ",");
				free(defs[i]);
				defs[i] = xmalloc(kl + vl + 2);
				snprintf(defs[i], kl + vl + 2, "%.*s=%.*s", (int)kl, vals[i], (int)vl, v);
				one.defines[i] = defs[i];
				if (nval[i] > 1)
					sb_printf(&cfg, "%s%s", *sb_str(&cfg) ? " " : "", defs[i]);
			}
			struct spec_row w;
			spec_row_run(files[f], &one, &w);
			rc = exit_combine(rc, w.exit);
			const char *base = strrchr(files[f], '/');
			printf("%-32s %-32s %-24s %10llu %8.3fs\n", base ? base + 1 : files[f], sb_str(&cfg), w.verdict, w.states,
			       w.seconds);
			fflush(stdout);
			sb_free(&cfg);
			/* the next configuration, the last key fastest */
			int i = nd - 1;
			while (i >= 0 && ++at[i] == nval[i])
				at[i--] = 0;
			if (i < 0 || interrupted)
				break;
		}
	}
	for (int i = 0; i < nd; i++) {
		free(vals[i]);
		free(defs[i]);
	}
	free(vals);
	free(defs);
	free(nval);
	free(at);
	free(one.defines);
	return interrupted ? EXIT_INCOMPLETE : rc;
}

int cmd_check(int argc, char **argv)
{
	static const struct spec_cmd c = { "check", "Dejtom", 1, NULL, check_one, 0 };
	struct run_opts o;
	run_opts_default(&o);
	const char **files;
	int nfiles = cli_parse_specs(&o, argc, argv, c.allowed, c.name, &files), swept = 0;
	for (int i = 0; i < o.ndefines && nfiles > 0; i++)
		swept |= strchr(o.defines[i], ',') != NULL;
	int rc = nfiles < 0 ? EXIT_INPUT : swept ? sweep(&o, files, nfiles) : cli_each_spec(&c, argc, argv);
	if (nfiles >= 0) {
		free(files);
		free(o.defines);
	}
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct run_opts o;
	run_opts_default(&o);
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		int k = cli_option(&o, argc, argv, &i, "j");
		if (k < 0)
			return EXIT_INPUT;
		if (!k) {
			if (file) {
				fputs("gpumc replay: one trace file at a time\n", stderr);
				return EXIT_INPUT;
			}
			file = argv[i];
		}
	}
	if (!file) {
		fputs("gpumc replay: no trace file given (usage: gpumc replay [--json] FILE)\n", stderr);
		return EXIT_INPUT;
	}
	struct diag d;
	diag_init(&d);
	struct trace_file tf;
	if (trace_read(file, &tf, &d)) {
		print_diag(&d, file, o.json); /* with --json, JSON on stdout too */
		diag_free(&d);
		trace_file_free(&tf);
		return EXIT_INPUT;
	}
	o.defines = (const char **)tf.defines;
	o.ndefines = tf.ndefines;
	struct job j;
	if (job_load(&j, tf.spec, &o, &d)) {
		print_diag(&d, file, o.json); /* with --json, JSON on stdout too */
		job_free(&j);
		diag_free(&d);
		trace_file_free(&tf);
		return EXIT_INPUT;
	}
	if (j.spec->text_hash != tf.hash)
		fprintf(stderr, "gpumc: warning: %s changed since the trace was written; replaying anyway\n", tf.spec);
	const struct model *m = j.model;
	uint8_t *sv[2] = { xmalloc(m->sv_size), xmalloc(m->sv_size) };
	int crashed[2] = { 0, 0 };
	struct strbuf out;
	sb_init(&out);
	int rc = EXIT_HOLDS, diverged_text = 0;
	if (o.json)
		sb_puts(&out, "{\"schedules\":[");
	for (int s = 0; s < tf.nsched; s++) {
		char **desc = xcalloc(tf.sched[s].len + 1, sizeof(char *));
		uint32_t n = trace_replay(m, &tf.sched[s], sv[s], desc, &crashed[s]);
		if (o.json) {
			sb_puts(&out, s ? ",[" : "[");
		} else {
			sb_printf(&out, "%s (%u steps):\n", tf.nsched > 1 ? (s ? "schedule B" : "schedule A") : "trace",
			          tf.sched[s].len);
		}
		for (uint32_t i = 0; i < n; i++) {
			if (strcmp(desc[i], tf.text[s][i]))
				diverged_text = 1;
			if (o.json) {
				sb_printf(&out, "%s{\"step\":%u,\"action\":%u,\"text\":", i ? "," : "", i + 1, tf.sched[s].step[i]);
				sb_json_str(&out, desc[i]);
				sb_putc(&out, '}');
			} else {
				sb_printf(&out, "  %4u. %s\n", i + 1, desc[i]);
			}
			free(desc[i]);
		}
		free(desc);
		if (o.json)
			sb_putc(&out, ']');
		if (n < tf.sched[s].len) {
			fprintf(stderr, "gpumc: %s: step %u of the trace is not enabled in this machine\n", file, n + 1);
			rc = EXIT_INPUT;
		}
	}
	if (o.json)
		sb_puts(&out, "]");
	/* what the trace shows at its end: what the explorer's judge says of
	** the state each schedule reaches (a determinism violation: of A's
	** result, then B's) */
	struct strbuf shows;
	sb_init(&shows);
	if (rc != EXIT_HOLDS) {
		sb_puts(&shows, "the trace does not replay on this spec");
	} else {
		struct judge *jd = judge_new(m, j.props, j.nprops, 0);
		struct judgement v;
		int bad = judge_start(jd, &v);
		for (int s = 0; s < tf.nsched && !bad; s++)
			bad = judge_end(jd, sv[s], crashed[s], &v);
		if (bad) {
			sb_printf(&shows, "%s: %s", v.prop >= 0 ? j.props[v.prop].text : prop_kind_name(v.kind), v.why);
			rc = EXIT_VIOLATED;
		} else if (tf.cycle >= 0 && tf.nsched == 1 && tf.cycle < tf.sched[0].len) {
			/* a lasso: its loop must close on the state it left */
			struct trace stem = { (uint32_t)tf.cycle, tf.sched[0].step };
			uint8_t *at = xmalloc(m->sv_size);
			trace_replay(m, &stem, at, NULL, NULL);
			if (!memcmp(at, sv[0], m->sv_size)) {
				sb_printf(&shows, "progress: steps %u..%u return to the state after step %u, a cycle the run "
				          "can repeat forever", (unsigned)tf.cycle + 1, tf.sched[0].len, (unsigned)tf.cycle);
				rc = EXIT_VIOLATED;
			} else {
				sb_printf(&shows, "the cycle from step %u does not close on this spec", (unsigned)tf.cycle + 1);
			}
			free(at);
		} else {
			sb_puts(&shows, "no violation at the end of the trace");
		}
		judge_free(jd);
	}
	for (unsigned k = 0; k < j.nprops && tf.nsched == 2 && rc != EXIT_INPUT; k++) {
		const struct property *p = &j.props[k];
		if (p->kind != P_DETERMINISTIC)
			continue;
		if (o.json) {
			sb_puts(&out, ",\"result\":");
			report_locs(m, sv[0], p->locs, p->nlocs, &out, 1);
			sb_puts(&out, ",\"result2\":");
			report_locs(m, sv[1], p->locs, p->nlocs, &out, 1);
		} else {
			sb_puts(&out, "result A: ");
			report_locs(m, sv[0], p->locs, p->nlocs, &out, 0);
			sb_puts(&out, "\nresult B: ");
			report_locs(m, sv[1], p->locs, p->nlocs, &out, 0);
			sb_putc(&out, '\n');
		}
	}
	if (o.json) {
		sb_puts(&out, ",\"shows\":");
		sb_json_str(&out, sb_str(&shows));
		sb_puts(&out, ",\"recorded_verdict\":");
		sb_json_str(&out, tf.verdict ? tf.verdict : "");
		sb_puts(&out, "}\n");
	} else {
		sb_puts(&out, "state at the end:\n");
		model_print_state(m, sv[tf.nsched - 1], &out);
		sb_printf(&out, "replay: %s (recorded verdict: %s)\n", sb_str(&shows), tf.verdict ? tf.verdict : "?");
	}
	if (diverged_text)
		fprintf(stderr, "gpumc: warning: some steps describe differently than when recorded\n");
	fputs(sb_str(&out), stdout);
	sb_free(&out);
	sb_free(&shows);
	free(sv[0]);
	free(sv[1]);
	job_free(&j);
	diag_free(&d);
	trace_file_free(&tf);
	return rc;
}
