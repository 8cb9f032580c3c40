#include "config.h"
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "explore/mpi.h"
#include "machines/registry.h"
#include "state/sideset.h"
#include "util/clock.h"
#include "util/interrupt.h"
#include "util/strbuf.h"

/* A cgroup's memory limit from one of its files; 0 when none ("max"). */
static uint64_t cgroup_limit(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	unsigned long long v = 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

uint64_t default_memory_limit(void)
{
	/* stop with "incomplete" before the OOM killer (or a failing malloc)
	** stops us without a word: 3/4 of the least of physical memory, the
	** address-space limit and the cgroup's limit, unless --memory says */
	uint64_t lim = UINT64_MAX;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	if (pages > 0 && psize > 0)
		lim = (uint64_t)pages * (uint64_t)psize;
	struct rlimit rl;
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < lim)
		lim = rl.rlim_cur;
	const char *cg[] = { "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes" };
	for (int i = 0; i < 2; i++) {
		uint64_t v = cgroup_limit(cg[i]);
		if (v && v < lim)
			lim = v;
	}
	return lim == UINT64_MAX ? 0 : lim / 4 * 3;
}

void run_opts_default(struct run_opts *o)
{
	memset(o, 0, sizeof *o);
	explore_opts_default(&o->ex);
	o->ex.progress = 5;
	o->ex.livelock = 1;
	o->ex.threads = 0; /* every core */
	o->ex.memory = default_memory_limit();
	o->runs = 1;
	o->seed = 1;
	o->max_cycles = 1000000000; /* a kernel that never ends still returns */
}

static int need_arg(int argc, char **argv, int *i, const char **val)
{
	const char *a = argv[*i];
	const char *eq = strchr(a, '=');
	if (a[1] == '-' && eq) {
		*val = eq + 1;
		return 1;
	}
	if (a[1] != '-' && a[2]) { /* -Dkey=value */
		*val = a + 2;
		return 1;
	}
	if (*i + 1 >= argc) {
		fprintf(stderr, "gpumc: option %s needs a value\n", a);
		return 0;
	}
	*val = argv[++*i];
	return 1;
}

int parse_u64(const char *opt, const char *s, uint64_t *out, int allow_suffix)
{
	char *end;
	errno = 0;
	if (!*s || *s == '-') {
		fprintf(stderr, "gpumc: %s expects a non-negative number, got '%s'\n", opt, s);
		return 0;
	}
	double v = strtod(s, &end);
	uint64_t mul = 1;
	if (allow_suffix && *end) {
		switch (*end) {
		case 'k': case 'K': mul = 1ull << 10; break;
		case 'm': case 'M': mul = 1ull << 20; break;
		case 'g': case 'G': mul = 1ull << 30; break;
		default: mul = 0;
		}
		if (mul)
			end++;
	}
	if (errno || *end || !mul || v < 0 || v * (double)mul > 1.8e19) {
		fprintf(stderr, "gpumc: %s expects a non-negative number%s, got '%s'\n", opt,
		        allow_suffix ? " (suffix K, M or G allowed)" : "", s);
		return 0;
	}
	*out = (uint64_t)(v * (double)mul);
	return 1;
}

static int match(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

int cli_option(struct run_opts *o, int argc, char **argv, int *i, const char *allowed)
{
	const char *a = argv[*i], *v;
	uint64_t x = 0;
	if (a[0] != '-' || !a[1])
		return 0;
	/* `allowed` lists the option groups a subcommand takes:
	** D defines, e explore options, r run options, j json, t trace,
	** o check's outputs (--outcomes, --values, --dot), m --mpi */
#define OK(c) (strchr(allowed, c) != NULL)
	if (OK('D') && !strncmp(a, "-D", 2)) {
		if (!need_arg(argc, argv, i, &v))
			return -1;
		o->defines = xrealloc(o->defines, sizeof(char *) * (size_t)(o->ndefines + 1));
		o->defines[o->ndefines++] = v;
		return 1;
	}
	if (OK('D') && match(a, "--crashes")) { /* -D crashes=K (machine persist) */
		static char def[40];
		if (!need_arg(argc, argv, i, &v))
			return -1;
		snprintf(def, sizeof def, "crashes=%.30s", v);
		o->defines = xrealloc(o->defines, sizeof(char *) * (size_t)(o->ndefines + 1));
		o->defines[o->ndefines++] = def;
		return 1;
	}
	if (OK('j') && !strcmp(a, "--json")) {
		o->json = 1;
		return 1;
	}
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
		o->quiet = 1;
		o->ex.progress = 0;
		return 1;
	}
	if ((OK('e') || OK('r')) && match(a, "--threads")) { /* run: the runs on N threads */
		if (!need_arg(argc, argv, i, &v) || !parse_u64("--threads", v, &x, 0))
			return -1;
		if (x > 256) {
			fprintf(stderr, "gpumc: --threads is at most 256 (0: every core)\n");
			return -1;
		}
		o->ex.threads = (unsigned)x;
		return 1;
	}
	if (OK('e')) {
		if (!strcmp(a, "--bfs")) { o->ex.search = SEARCH_BFS; return 1; }
		if (!strcmp(a, "--dfs")) { o->ex.search = SEARCH_DFS; return 1; }
		if (!strcmp(a, "--compact")) { o->ex.compact = 1; return 1; }
		if (!strcmp(a, "--no-trace")) { o->ex.no_trace = 1; return 1; }
		if (!strcmp(a, "--check-model")) { o->ex.check_model = 1; return 1; }
		if (!strcmp(a, "--exact")) { o->ex.compact = o->ex.tree = 0; return 1; }
		if (!strcmp(a, "--tree")) { o->ex.compact = 0; o->ex.tree = 1; return 1; }
		if (match(a, "--swarm")) {
			if (!need_arg(argc, argv, i, &v) || !parse_u64("--swarm", v, &x, 0) || x == 0 || x > 1000000) {
				fprintf(stderr, "gpumc: --swarm expects 1..1000000 searches\n");
				return -1;
			}
			o->ex.swarm = (unsigned)x;
			return 1;
		}
		if (match(a, "--por")) {
			if (!need_arg(argc, argv, i, &v))
				return -1;
			if (strcmp(v, "on") && strcmp(v, "off") && strcmp(v, "nochain")) {
				fprintf(stderr, "gpumc: --por expects on, nochain or off, got '%s'\n", v);
				return -1;
			}
			o->ex.por = strcmp(v, "off") != 0;
			o->ex.no_chain = !strcmp(v, "nochain");
			return 1;
		}
		if (match(a, "--max-states")) {
			if (!need_arg(argc, argv, i, &v) || !parse_u64("--max-states", v, &o->ex.max_states, 1))
				return -1;
			return 1;
		}
		if (match(a, "--max-depth")) {
			if (!need_arg(argc, argv, i, &v) || !parse_u64("--max-depth", v, &x, 0) || x > UINT32_MAX) {
				if (x > UINT32_MAX)
					fprintf(stderr, "gpumc: --max-depth is at most %u\n", UINT32_MAX);
				return -1;
			}
			o->ex.max_depth = (uint32_t)x;
			return 1;
		}
		if (match(a, "--memory")) {
			if (!need_arg(argc, argv, i, &v) || !parse_u64("--memory", v, &o->ex.memory, 1))
				return -1;
			return 1;
		}
		if (match(a, "--time")) {
			char *end;
			if (!need_arg(argc, argv, i, &v))
				return -1;
			double t = strtod(v, &end);
			if (*end || end == v || !(t > 0)) {
				fprintf(stderr, "gpumc: --time expects a positive number of seconds, got '%s'\n", v);
				return -1;
			}
			o->ex.time_limit = t;
			return 1;
		}
		if (match(a, "--progress")) {
			if (strchr(a, '=')) {
				if (!parse_u64("--progress", strchr(a, '=') + 1, &x, 0))
					return -1;
				o->ex.progress = (double)x;
			} else {
				o->ex.progress = 1;
			}
			return 1;
		}
	}
	if (OK('o')) {
		if (!strcmp(a, "--outcomes")) { o->outcomes = 1; return 1; }
		if (!strcmp(a, "--values")) { o->values = 1; return 1; }
		if (match(a, "--dot")) {
			if (!need_arg(argc, argv, i, &v))
				return -1;
			o->dot_file = v;
			return 1;
		}
	}
	if (OK('m') && !strcmp(a, "--mpi")) { /* check only: every rank runs the same command */
		if (mpi_start(argc, argv))
			return -1;
		o->ex.mpi = 1;
		return 1;
	}
	if (OK('t') && match(a, "--trace")) {
		if (!need_arg(argc, argv, i, &v))
			return -1;
		o->trace_file = v;
		return 1;
	}
	if (OK('r')) {
		if (match(a, "--runs")) {
			if (!need_arg(argc, argv, i, &v) || !parse_u64("--runs", v, &x, 0) || x == 0 || x > 100000000) {
				fprintf(stderr, "gpumc: --runs expects 1..100000000\n");
				return -1;
			}
			o->runs = (unsigned)x;
			return 1;
		}
		if (match(a, "--seed")) {
			if (!need_arg(argc, argv, i, &v) || !parse_u64("--seed", v, &o->seed, 0))
				return -1;
			return 1;
		}
		if (match(a, "--timeline")) {
			if (!need_arg(argc, argv, i, &v))
				return -1;
			o->timeline_file = v;
			return 1;
		}
		if (match(a, "--max-cycles")) {
			if (!need_arg(argc, argv, i, &v) || !parse_u64("--max-cycles", v, &o->max_cycles, 1))
				return -1;
			return 1;
		}
	}
#undef OK
	fprintf(stderr, "gpumc: unknown option '%s' (see gpumc --help)\n", a);
	return -1;
}

void cli_rerun(struct strbuf *out, const struct run_opts *o)
{
	sb_puts(out, "gpumc");
	for (int i = 0; i < o->argc; i++) {
		const char *a = o->argv[i];
		if (!strcmp(a, "--no-trace"))
			continue;
		sb_putc(out, ' ');
		if (*a && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=.,/:@%") ==
		              strlen(a)) {
			sb_puts(out, a);
			continue;
		}
		sb_putc(out, '\'');
		for (; *a; a++)
			sb_puts(out, *a == '\'' ? "'\\''" : (char[]){ *a, 0 });
		sb_putc(out, '\'');
	}
}

int cli_parse_specs(struct run_opts *o, int argc, char **argv, const char *allowed, const char *usage,
                    const char ***files)
{
	*files = xcalloc((size_t)argc + 1, sizeof(char *));
	int n = 0;
	o->argv = argv;
	o->argc = argc;
	for (int i = 1; i < argc; i++) {
		int k = cli_option(o, argc, argv, &i, allowed);
		if (k < 0)
			goto fail;
		if (!k)
			(*files)[n++] = argv[i];
	}
	if (n)
		return n;
	fprintf(stderr, "gpumc %s: no spec given (usage: gpumc %s [options] SPEC...)\n", usage, usage);
fail:
	free(*files);
	free(o->defines);
	*files = NULL;
	o->defines = NULL;
	return -1;
}

/* The observed locations of a deterministic/refines/equals property as
** written (none written: the machine's default observables). */
static void bind_locs(const struct spec *s, const struct spec_prop *sp, const struct model *m, int **locs,
                      unsigned *nlocs, struct diag *d)
{
	*locs = NULL;
	*nlocs = 0;
	if (sp->p.nlocs == 0) {
		unsigned n = model_observables(m, NULL, 0);
		*locs = xmalloc(sizeof(int) * (n ? n : 1));
		*nlocs = model_observables(m, *locs, n);
		return;
	}
	for (unsigned i = 0; i < sp->p.nlocs; i++) {
		struct strbuf why;
		sb_init(&why);
		enum vtype t;
		unsigned count = 0;
		int loc = model_lookup(m, sp->loc_tid[i], sp->loc_names[i], sp->loc_index[i], &t, &count, &why);
		if (loc < 0) {
			diag_at(d, s->path, sp->loc_line[i], sp->loc_col[i], "%s", sb_str(&why));
		} else {
			*locs = xrealloc(*locs, sizeof(int) * (*nlocs + count));
			for (unsigned c = 0; c < count; c++)
				(*locs)[(*nlocs)++] = loc + (int)c;
		}
		sb_free(&why);
	}
}

/* refines/equals: explore the reference machine on the same kernel, with
** the same search options, and keep its terminal outcomes over the
** property's locations (matched by name: the two machines number their
** locations differently). */
static void reference_outcomes(struct job *j, struct property *p, const struct spec_prop *sp,
                               const struct explore_opts *eo, struct diag *d)
{
	struct spec *s = j->spec;
	struct model *rm = registry_build_as(s, p->machine, sp->machine_line, sp->machine_col, d);
	if (!rm)
		return;
	struct property op;
	memset(&op, 0, sizeof op);
	op.kind = P_OUTCOMES;
	bind_locs(s, sp, rm, &op.locs, &op.nlocs, d);
	struct strbuf a, b;
	sb_init(&a);
	sb_init(&b);
	int same = op.nlocs == p->nlocs;
	for (unsigned i = 0; i < op.nlocs && same; i++) {
		sb_reset(&a);
		sb_reset(&b);
		model_loc_name(j->model, p->locs[i], &a);
		model_loc_name(rm, op.locs[i], &b);
		same = !strcmp(sb_str(&a), sb_str(&b));
	}
	sb_free(&a);
	sb_free(&b);
	if (!same && !d->nerr)
		diag_at(d, s->path, sp->line, sp->col,
		        "machine '%s' does not observe the same locations as '%s': name them (check %s %s LOC, ...)",
		        p->machine, j->model->name, prop_kind_name(p->kind), p->machine);
	if (d->nerr) {
		prop_free(&op);
		model_destroy(rm);
		return;
	}
	/* the whole outcome set: faults and deadlocks of the reference end
	** no outcome and do not stop the search */
	struct explore_opts ro = *eo;
	ro.keep_going = 1;
	ro.progress = 0;
	ro.check_model = 0;
	ro.swarm = 0; /* the reference outcome set must be complete */
	ro.start = j->start;
	struct explore_result r;
	explore(rm, &op, 1, &ro, &r);
	p->ref_states = r.states;
	if (r.limit) {
		struct strbuf l;
		sb_init(&l);
		sb_printf(&l, "%s in the reference run of machine %s", r.limit, p->machine);
		p->ref_limit = xstrdup(sb_str(&l));
		sb_free(&l);
	} else {
		size_t w = sizeof(uint32_t) * p->nlocs;
		p->ref = ss_new();
		p->nref = r.noutcomes;
		p->ref_vals = xmalloc(w * (r.noutcomes ? r.noutcomes : 1));
		for (unsigned i = 0; i < r.noutcomes; i++) {
			int is_new;
			memcpy(p->ref_vals + (size_t)i * p->nlocs, r.outcomes[i].vals, w);
			ss_put(p->ref, r.outcomes[i].vals, w, &is_new);
		}
	}
	/* no time left (or a signal): the check stops at its first state, and
	** the report is due; this run's memory goes after it (job_free) */
	if (r.limit && !j->ref_run.held &&
	    (interrupted || (ro.time_limit > 0 && clock_since(j->start) >= ro.time_limit))) {
		j->ref_run.held = r.held;
		r.held = NULL;
	}
	explore_result_free(&r);
	prop_free(&op);
	model_destroy(rm);
}

/* Resolve the spec's properties against the built machine. */
static int bind_props(struct job *j, struct diag *d)
{
	struct spec *s = j->spec;
	const struct model *m = j->model;
	j->props = xcalloc((size_t)s->nprops + 1, sizeof *j->props);
	for (int k = 0; k < s->nprops; k++) {
		struct spec_prop *sp = &s->props[k];
		struct property *p = &j->props[j->nprops++];
		p->kind = sp->p.kind;
		p->text = xstrdup(sp->p.text);
		p->mode = sp->p.mode;
		p->cond = sp->p.cond;
		sp->p.cond = NULL; /* the job owns it now */
		if ((p->kind == P_RECOVERABLE || p->kind == P_PERSISTED || p->kind == P_DURABLE ||
		     p->kind == P_IDEMPOTENT) && !m->durable)
			diag_at(d, s->path, sp->line, sp->col,
			        "'%s' needs a machine with a persistence domain (machine persist), not '%s'",
			        prop_kind_name(p->kind), m->name);
		else if (p->kind == P_COMM_RACE && !m->comm_race)
			diag_at(d, s->path, sp->line, sp->col, "'comm_race_free' needs a machine that knows red.comm (machine lab), not '%s'",
			        m->name);
		else if (p->kind == P_PERSIST_ORDER && !m->persist_order)
			diag_at(d, s->path, sp->line, sp->col, "'persist_order' needs a machine with a persistence domain (machine persist), not '%s'",
			        m->name);
		else if (p->kind == P_IDEMPOTENT && (!m->idempotent || !m->reexecute))
			diag_at(d, s->path, sp->line, sp->col, "'idempotent' needs a machine that can re-execute its kernel, not '%s'",
			        m->name);
		if (p->cond) {
			struct strbuf err;
			sb_init(&err);
			if (expr_resolve(p->cond, m, &err)) {
				sb_puts(&d->msg, sb_str(&err));
				d->nerr++;
			}
			sb_free(&err);
		}
		if (p->kind != P_DETERMINISTIC && p->kind != P_REFINES && p->kind != P_EQUALS)
			continue;
		bind_locs(s, sp, m, &p->locs, &p->nlocs, d);
		p->machine = sp->p.machine;
		sp->p.machine = NULL;
	}
	if (s->nprops == 0) {
		/* no property written: determinism of all global memory */
		struct property *p = &j->props[j->nprops++];
		p->kind = P_DETERMINISTIC;
		p->text = xstrdup("deterministic");
		unsigned n = model_observables(m, NULL, 0);
		p->locs = xmalloc(sizeof(int) * (n ? n : 1));
		p->nlocs = model_observables(m, p->locs, n);
	}
	return d->nerr ? -1 : 0;
}

/* When the machine cannot be built (bad parameters), the memory locations
** a `deterministic` names are still checked against the spec's globals, so
** one run reports the parameter and the location errors together. */
static void locs_without_machine(const struct spec *s, struct diag *d)
{
	for (int k = 0; k < s->nprops; k++) {
		const struct spec_prop *sp = &s->props[k];
		for (unsigned i = 0; i < sp->p.nlocs && sp->loc_names; i++) {
			int sym = program_find_sym(&s->prog, sp->loc_names[i]);
			if (sp->loc_tid[i] >= 0 || (sym >= 0 && s->prog.syms[sym].space == SP_GLOBAL))
				continue;
			struct strbuf why;
			sb_init(&why);
			sb_printf(&why, sym < 0 ? "unknown variable '%s'" : "'%s' is in shared memory, which does not outlive the kernel",
			          sp->loc_names[i]);
			if (sym < 0)
				program_hint(&s->prog, sp->loc_names[i], 0, &why);
			diag_at(d, s->path, sp->loc_line[i], sp->loc_col[i], "%s", sb_str(&why));
			sb_free(&why);
		}
	}
}

int job_load(struct job *j, const char *path, const struct run_opts *o, struct diag *d)
{
	memset(j, 0, sizeof *j);
	clock_gettime(CLOCK_MONOTONIC, &j->start);
	j->spec = spec_load(path, d);
	if (!j->spec)
		return -1;
	for (int i = 0; i < o->ndefines; i++)
		if (spec_define(j->spec, o->defines[i], d))
			return -1;
	j->model = registry_build(j->spec, d);
	if (!j->model) {
		locs_without_machine(j->spec, d);
		return -1;
	}
	spec_expect_for(j->spec, j->model->name);
	struct strbuf why;
	sb_init(&why);
	if (model_check(j->model, !o->concrete, &why)) {
		/* too many actions: global memory is what makes them many */
		const struct symbol *big = NULL;
		for (int i = 0; i < j->spec->prog.nsyms; i++)
			if (j->spec->prog.syms[i].space == SP_GLOBAL && (!big || j->spec->prog.syms[i].nelems > big->nelems))
				big = &j->spec->prog.syms[i];
		diag_at(d, path, big ? big->line : 0, big ? big->col : 0, "%s", sb_str(&why));
	}
	sb_free(&why);
	if (d->nerr || bind_props(j, d))
		return -1;
	/* the reference machine's outcomes are explored only for a check:
	** concrete mode reads no property but its locations, and at a
	** spec's larger sizes that search alone may not end */
	for (unsigned k = 0; k < j->nprops && !d->nerr && !o->concrete; k++)
		if (j->props[k].kind == P_REFINES || j->props[k].kind == P_EQUALS)
			reference_outcomes(j, &j->props[k], &j->spec->props[k], &o->ex, d);
	return d->nerr ? -1 : 0;
}

void job_free(struct job *j)
{
	explore_release(&j->ref_run);
	for (unsigned k = 0; k < j->nprops; k++)
		prop_free(&j->props[k]);
	free(j->props);
	model_destroy(j->model);
	spec_free(j->spec);
	memset(j, 0, sizeof *j);
}

void print_diag(const struct diag *d, const char *path, int json)
{
	if (json) {
		struct strbuf b;
		sb_init(&b);
		sb_puts(&b, "{\"spec\":");
		sb_json_str(&b, path);
		sb_puts(&b, ",\"verdict\":\"error\",\"errors\":");
		sb_json_str(&b, sb_str(&d->msg));
		sb_puts(&b, "}\n");
		fputs(sb_str(&b), stdout);
		sb_free(&b);
	}
	fputs(sb_str(&d->msg), stderr);
}

int cli_each_spec(const struct spec_cmd *c, int argc, char **argv)
{
	struct run_opts o;
	run_opts_default(&o);
	const char **files;
	int nfiles = cli_parse_specs(&o, argc, argv, c->allowed, c->name, &files), rc = EXIT_HOLDS;
	o.concrete = c->concrete;
	if (nfiles < 0)
		return EXIT_INPUT;
	for (int f = 0; f < nfiles && !interrupted; f++) {
		struct job j;
		struct diag d;
		diag_init(&d);
		if (job_load(&j, files[f], &o, &d) || (c->vet && c->vet(&j, &d))) {
			print_diag(&d, files[f], o.json && c->json_errors);
			rc = exit_combine(rc, EXIT_INPUT);
		} else {
			rc = exit_combine(rc, c->one(&j, &o, f + 1 < nfiles));
		}
		job_free(&j);
		diag_free(&d);
	}
	free(files);
	free(o.defines);
	if (interrupted) {
		fprintf(stderr, "gpumc %s: interrupted by %s; verdict incomplete\n", c->name, interrupt_name());
		return EXIT_INCOMPLETE;
	}
	return rc;
}

int exit_combine(int a, int b)
{
	static const int rank[4] = { 0, 2, 3, 1 }; /* holds < incomplete < violated < input */
	return rank[b] > rank[a] ? b : a;
}
