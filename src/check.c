/* `gpumc check` and `gpumc replay`. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explore/judge.h"
#include "explore/replay.h"
#include "report.h"
#include "state/trace.h"

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

static int check_one(struct job *j, const struct run_opts *o, int more)
{
	struct explore_result r;
	explore(j->model, j->props, j->nprops, &o->ex, &r);
	struct strbuf out;
	sb_init(&out);
	report_check(&out, j, &r, o->json);
	fputs(sb_str(&out), stdout);
	if (!o->json && more)
		fputc('\n', stdout);
	sb_free(&out);
	if (o->trace_file && r.verdict == V_FAIL && r.failed_kind != P_EXISTS)
		save_trace(j, o, &r);
	int rc = verdict_exit(r.verdict);
	explore_result_free(&r);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	static const struct spec_cmd c = { "check", "Dejt", 1, NULL, check_one };
	return cli_each_spec(&c, argc, argv);
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
