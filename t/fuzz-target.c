/*
** Coverage-guided fuzz targets (clang's libFuzzer), one per front end:
** built with -DFUZZ_LITMUS for litmus tests, without it for kernel specs
** (Makefile.am: make fuzz; t/fuzz-lf.sh runs a short burst in make check).
**
** A spec goes the whole way a user's does: load (parse, -D-free build,
** property binding), a bounded check (300 states, 1 s, the progress check
** on), the text and JSON reports, the counterexample written, read back
** and replayed, and a bounded concrete run.  A litmus test: parse, every
** model with a state cap, the herd and JSON reports.
**
** Oracles beyond "no crash, no sanitizer report":
**   renaming  every variable of a spec that loads renamed (whole words,
**             a prefix added) must give the same verdict and the same
**             state, transition and terminal counts;
**   replay    a trace the checker wrote must replay in full;
**   print     a spec that loads prints (spec_print_checked: the text parses
**             back to the same decoded spec and is a fixpoint), and the
**             printed spec loads and checks to the same verdict and counts.
** A broken oracle calls abort(), which libFuzzer reports with the input.
*/
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "explore/concrete.h"
#include "explore/replay.h"
#include "litmus/litmus.h"
#include "litmus/report.h"
#include "litmus/run.h"
#include "report.h"
#include "spec/print.h"
#include "state/trace.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/gpumc-fuzz.XXXXXX";

static void cleanup(void)
{
	static const char *const names[] = { "s.gpu", "trace" };
	char p[sizeof dir + 16];
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

static void setup(void)
{
	static int done;
	if (done++)
		return;
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
}

static void write_file(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(text, 1, n, f) != n || fclose(f))
		abort();
}

#ifdef FUZZ_LITMUS

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct strbuf err, out;
	sb_init(&err);
	sb_init(&out);
	struct litmus *t = litmus_parse_string("fuzz.litmus", text, &err);
	if (t) {
		struct explore_opts o;
		explore_opts_default(&o);
		o.max_states = 2000;
		o.time_limit = 1;
		o.memory = 256u << 20;
		for (int k = 0; lit_models[k]; k++) {
			struct lit_run r;
			sb_reset(&err);
			if (lit_run_model(t, lit_models[k], NULL, &o, 1, &r, &err) == 0) {
				lit_report_herd(t, &r, &out);
				lit_report_json(t, &r, &out);
				lit_run_free(&r);
			}
		}
		litmus_free(t);
	}
	sb_free(&out);
	sb_free(&err);
	free(text);
	return 0;
}

#else

struct outcome_key {
	int loaded, timed; /* timed: stopped by --time or --memory, not comparable */
	enum verdict verdict;
	uint64_t states, transitions, terminals;
};

/* Load and check the spec at path; the whole pipeline when full. */
static struct outcome_key check_spec(const char *path, int full)
{
	struct outcome_key k = { 0, 0, V_ERROR, 0, 0, 0 };
	struct run_opts o;
	run_opts_default(&o);
	o.ex.progress = 0;
	o.ex.max_states = 300;
	o.ex.threads = 1; /* a run cut by --max-states stops at one state only when sequential */
	o.ex.time_limit = 1;
	o.ex.memory = 256u << 20;
	struct job j;
	struct diag d;
	diag_init(&d);
	if (job_load(&j, path, &o, &d) == 0) {
		struct explore_result r;
		explore(j.model, j.props, j.nprops, &o.ex, &r);
		k = (struct outcome_key){ 1, r.limit && strcmp(r.limit, "--max-states"), r.verdict, r.states, r.transitions,
		                          r.terminals };
		if (full) {
			struct strbuf out;
			sb_init(&out);
			report_check(&out, &j, &r, &o, NULL);
			o.json = 1;
			report_check(&out, &j, &r, &o, NULL);
			o.json = 0;
			sb_free(&out);
			if (r.verdict == V_FAIL && r.trace.len) {
				/* the counterexample round trip: write, read, replay in full */
				char tp[sizeof dir + 16];
				snprintf(tp, sizeof tp, "%s/trace", dir);
				struct trace_file tf = { 0 };
				tf.spec = (char *)path;
				tf.verdict = (char *)"fail";
				tf.cycle = -1;
				tf.sched[0] = r.trace;
				tf.nsched = 1;
				struct strbuf err;
				sb_init(&err);
				struct trace_file back;
				struct diag td;
				diag_init(&td);
				if (trace_write(tp, &tf, &err) || trace_read(tp, &back, &td) ||
				    back.sched[0].len != r.trace.len)
					abort();
				uint8_t *sv = xmalloc(j.model->sv_size);
				if (trace_replay(j.model, &back.sched[0], sv, NULL, NULL) != r.trace.len)
					abort(); /* a trace the checker wrote must replay */
				free(sv);
				trace_file_free(&back);
				diag_free(&td);
				sb_free(&err);
			}
			struct strbuf why;
			sb_init(&why);
			if (concrete_usable(j.model, &why) == 0) {
				struct concrete_result cr;
				struct concrete_runs past = { 0, 0 };
				concrete_run(j.model, &past, 1, 2000, NULL, &cr);
				concrete_result_free(&cr);
			}
			sb_free(&why);
		}
		explore_result_free(&r);
	}
	job_free(&j);
	diag_free(&d);
	return k;
}

static int word_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '%' || c == '$';
}

/* text with every whole-word occurrence of the spec's variables prefixed. */
static char *renamed(const char *text, const struct spec *s)
{
	struct strbuf b;
	sb_init(&b);
	for (const char *p = text; *p;) {
		if (word_char((unsigned char)*p) && (p == text || !word_char((unsigned char)p[-1]))) {
			const char *e = p;
			while (word_char((unsigned char)*e))
				e++;
			for (int i = 0; i < s->prog.nsyms; i++)
				if (strlen(s->prog.syms[i].name) == (size_t)(e - p) && !strncmp(p, s->prog.syms[i].name, (size_t)(e - p))) {
					sb_puts(&b, "zq_");
					break;
				}
			while (p < e)
				sb_putc(&b, *p++);
			continue;
		}
		sb_putc(&b, *p++);
	}
	char *r = xstrdup(sb_str(&b));
	sb_free(&b);
	return r;
}

/* a, b: the outcomes of one spec as written and as printed */
static void same_outcome(const char *oracle, struct outcome_key a, struct outcome_key b)
{
	/* --max-states cuts both runs at the same state; time and memory need not */
	if (!a.timed && !b.timed &&
	    (a.verdict != b.verdict || a.states != b.states || a.transitions != b.transitions ||
	     a.terminals != b.terminals)) {
		fprintf(stderr, "%s oracle: verdict %d/%d states %llu/%llu\n", oracle, a.verdict, b.verdict,
		        (unsigned long long)a.states, (unsigned long long)b.states);
		abort();
	}
}

/* The print oracle: text (at path) loaded with outcome a. */
static void print_oracle(const char *path, const char *text, struct outcome_key a)
{
	struct diag d;
	diag_init(&d);
	struct spec *s = spec_parse(path, text, &d);
	struct strbuf out, why;
	sb_init(&out);
	sb_init(&why);
	if (!s || spec_print_checked(s, &out, &why)) {
		fprintf(stderr, "print oracle: %s\n%s", sb_str(&why), sb_str(&d.msg));
		abort();
	}
	write_file(path, sb_str(&out), out.len);
	struct outcome_key b = check_spec(path, 0);
	if (!b.loaded) {
		fprintf(stderr, "print oracle: the printed spec does not load:\n%s", sb_str(&out));
		abort();
	}
	same_outcome("print", a, b);
	sb_free(&out);
	sb_free(&why);
	spec_free(s);
	diag_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	if (memchr(data, 0, size))
		return 0; /* a spec is text: spec_load stops at NUL like any C string */
	char path[sizeof dir + 16];
	snprintf(path, sizeof path, "%s/s.gpu", dir);
	write_file(path, (const char *)data, size);
	struct outcome_key a = check_spec(path, 1);
	/* renaming oracle; file() names a path, which renaming could change */
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	if (a.loaded)
		print_oracle(path, text, a);
	struct diag d;
	diag_init(&d);
	struct spec *s = a.loaded && !strstr(text, "file") ? spec_parse(path, text, &d) : NULL;
	if (s) {
		char *t2 = renamed(text, s);
		write_file(path, t2, strlen(t2));
		struct outcome_key b = check_spec(path, 0);
		if (b.loaded)
			same_outcome("renaming", a, b);
		free(t2);
		spec_free(s);
	}
	diag_free(&d);
	free(text);
	return 0;
}

#endif
