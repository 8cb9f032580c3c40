/*
** gpumc litmus [options] FILE...: run litmus tests under memory models.
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "litmus/dot.h"
#include "cli.h"
#include "litmus/emit.h"
#include "litmus/fences.h"
#include "litmus/report.h"
#include "util/interrupt.h"
#include "util/strbuf.h"

struct opts {
	const char *models[8];
	int nmodels;
	int compare;
	int json;
	int expect;
	int quiet;
	const char *chip;
	const char *observed;
	const char *dot; /* --dot FILE: the first witness execution */
	const char *config;
	int witness;
	int fences;
	const char *emit_cuda;
	struct explore_opts eo;
};

static void usage(FILE *f)
{
	fputs("usage: gpumc litmus [--model M | --compare M1,M2,...] [--chip fermi|kepler|maxwell]\n"
	      "                    [--config CONFIG] [--json] [--witness] [--expect]\n"
	      "                    [--observed DATA] [--max-states N] [--time SECONDS] [--memory SIZE]\n"
	      "                    [--fences] [--bfs|--dfs] [--dot FILE] [-q] FILE...\n"
	      "       gpumc litmus --emit-cuda DIR FILE...\n"
	      "models:", f);
	for (int i = 0; lit_models[i]; i++)
		fprintf(f, " %s", lit_models[i]);
	fputs("\n", f);
}

static int add_models(struct opts *o, char *list)
{
	char *save = NULL;
	for (char *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (!lit_model_known(s)) {
			fprintf(stderr, "gpumc litmus: unknown model '%s'\n", s);
			usage(stderr);
			return -1;
		}
		if (o->nmodels >= 8) {
			fprintf(stderr, "gpumc litmus: too many models\n");
			return -1;
		}
		o->models[o->nmodels++] = s;
	}
	return 0;
}

/* --dot FILE: the first test's witness execution under the first model */
static void write_dot(const char *file, const struct litmus *t, const struct lit_run *r)
{
	struct strbuf g;
	sb_init(&g);
	FILE *f = NULL;
	if (lit_dot(t, r, &g))
		fprintf(stderr, "gpumc litmus: %s: no execution to draw (no outcome %s the condition)\n", file,
		        t->kind == LC_EXISTS ? "satisfies" : "refutes");
	else if (!(f = fopen(file, "w")) || fputs(sb_str(&g), f) < 0)
		fprintf(stderr, "gpumc litmus: %s: cannot write the graph\n", file);
	if (f && fclose(f))
		fprintf(stderr, "gpumc litmus: %s: cannot write the graph\n", file);
	sb_free(&g);
}

static int parse_args(int argc, char **argv, struct opts *o, int *first)
{
	memset(o, 0, sizeof *o);
	explore_opts_default(&o->eo);
	o->eo.memory = default_memory_limit(); /* as for check: "incomplete", not the OOM killer */
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (a[0] != '-' || strcmp(a, "-") == 0)
			break;
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--fences")) {
			o->fences = 1;
		} else if (v && !strcmp(a, "--emit-cuda")) {
			o->emit_cuda = argv[++i];
		} else if (!strcmp(a, "--witness")) {
			o->witness = 1;
		} else if (v && !strcmp(a, "--config")) {
			o->config = argv[++i];
			if (strcmp(o->config, "D-warp:S-cta-Shared") && strcmp(o->config, "D-warp:S-cta-Global") &&
			    strcmp(o->config, "D-cta:S-ker-Global")) {
				fprintf(stderr, "gpumc litmus: unknown configuration '%s' (expected D-warp:S-cta-Shared, "
				        "D-warp:S-cta-Global or D-cta:S-ker-Global)\n", o->config);
				return -1;
			}
		} else if (!strcmp(a, "--expect")) {
			o->expect = 1;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o->quiet = 1;
		} else if (!strcmp(a, "--bfs")) {
			o->eo.search = SEARCH_BFS;
		} else if (!strcmp(a, "--dfs")) {
			o->eo.search = SEARCH_DFS;
		} else if (v && (!strcmp(a, "--model") || !strcmp(a, "-m"))) {
			if (add_models(o, argv[++i]))
				return -1;
		} else if (v && !strcmp(a, "--compare")) {
			o->compare = 1;
			if (add_models(o, argv[++i]))
				return -1;
		} else if (v && !strcmp(a, "--chip")) {
			o->chip = argv[++i];
			if (strcmp(o->chip, "fermi") && strcmp(o->chip, "kepler") && strcmp(o->chip, "maxwell")) {
				fprintf(stderr, "gpumc litmus: unknown chip '%s' (expected fermi, kepler or maxwell)\n", o->chip);
				return -1;
			}
		} else if (v && !strcmp(a, "--dot")) {
			o->dot = argv[++i];
		} else if (v && !strcmp(a, "--observed")) {
			o->observed = argv[++i];
		} else if (v && !strcmp(a, "--max-states")) {
			char *e;
			o->eo.max_states = strtoull(argv[++i], &e, 10);
			if (*e) {
				fprintf(stderr, "gpumc litmus: --max-states expects a number\n");
				return -1;
			}
		} else if (v && !strcmp(a, "--memory")) {
			if (!parse_u64("--memory", argv[++i], &o->eo.memory, 1))
				return -1;
		} else if (v && !strcmp(a, "--time")) {
			char *e;
			o->eo.time_limit = strtod(argv[++i], &e);
			if (*e) {
				fprintf(stderr, "gpumc litmus: --time expects seconds\n");
				return -1;
			}
		} else {
			fprintf(stderr, "gpumc litmus: unknown or incomplete option '%s'\n", a);
			usage(stderr);
			return -1;
		}
	}
	if (o->json && (o->fences || o->observed)) {
		fputs("gpumc litmus: --json does not combine with --fences or --observed (their reports are text)\n", stderr);
		return -1;
	}
	if (o->nmodels == 0) {
		if (o->compare || o->observed) {
			static const char *const all[] = { "sc", "ics13", "ics13-fixed", "scoped-rmo" };
			for (int k = 0; k < 4; k++)
				o->models[o->nmodels++] = all[k];
		} else {
			o->models[o->nmodels++] = "ics13-fixed";
		}
	}
	if (i >= argc) {
		fprintf(stderr, "gpumc litmus: no litmus file given\n");
		usage(stderr);
		return -1;
	}
	*first = i;
	return 0;
}

static const struct lit_expect *find_expect(const struct litmus *t, const char *model)
{
	for (int i = 0; i < t->nexpect; i++)
		if (strcmp(t->expect[i].model, model) == 0)
			return &t->expect[i];
	return NULL;
}

/* The observed-vs-model report for one model over all tests. */
struct obs_tally {
	int tests, unsound, imprecise, outside, incomplete, unobserved;
};

/* Neither the ICS'13 model nor scoped RMO models the L1 (.ca) path: tests
** loading with .ca are outside what they claim to describe (thesis §5.4). */
static int model_covers(const char *model, const struct litmus *t)
{
	if (strcmp(model, "ics13-fixed") == 0 || strcmp(model, "sc") == 0)
		return 1;
	for (int i = 0; i < t->nthreads; i++)
		for (int j = 0; j < t->thr[i].nins; j++)
			if (t->thr[i].ins[j].op == OP_LD && t->thr[i].ins[j].cache == CO_CA)
				return 0;
	return 1;
}

static void obs_report(const struct litmus *t, const struct lit_run *r, const struct lit_obsdata *d,
                       struct lit_obs *ob, const char *chip, struct obs_tally *tally, struct strbuf *out)
{
	struct strbuf cfg;
	sb_init(&cfg);
	litmus_config(t, &cfg);
	unsigned p, n;
	lit_run_counts(r, &p, &n);
	if (ob && !model_covers(r->model, t)) {
		ob->used = 1;
		tally->outside++;
		sb_printf(out, "%-12s outside    %-20s %-28s uses ld.ca, which the model does not describe (it %s)\n",
		          r->model, sb_str(&cfg), t->name, p ? "allows" : r->incomplete ? "is incomplete" : "forbids");
		sb_free(&cfg);
		return;
	}
	if (ob) {
		ob->used = 1;
		tally->tests++;
		/* with --chip, only that chip's observations count */
		int seen = 0, measured = 0;
		struct strbuf counts, names;
		sb_init(&counts);
		sb_init(&names);
		for (int c = 0; c < d->nchips; c++) {
			if (!chip || !strcasecmp(chip, d->chip[c])) {
				seen |= ob->count[c] > 0;
				measured |= ob->count[c] >= 0;
			}
			sb_printf(&counts, "%s%ld", c ? "/" : "", ob->count[c]);
			sb_printf(&names, "%s%s", c ? "/" : "", d->chip[c]);
		}
		if (seen && p == 0 && r->incomplete) {
			tally->incomplete++;
			sb_printf(out, "%-12s incomplete %-20s %-28s observed %s (%s), model run incomplete (%s)\n", r->model,
			          sb_str(&cfg), t->name, sb_str(&counts), sb_str(&names), r->why ? r->why : "a limit");
		} else if (seen && p == 0) {
			tally->unsound++;
			sb_printf(out, "%-12s unsound    %-20s %-28s observed %s (%s), model forbids\n",
			          r->model, sb_str(&cfg), t->name, sb_str(&counts), sb_str(&names));
		} else if (measured && !seen && p > 0) {
			/* precision against silicon: allowed, but no chip showed it */
			tally->unobserved++;
			sb_printf(out, "%-12s unobserved %-20s %-28s observed %s (%s), model allows\n",
			          r->model, sb_str(&cfg), t->name, sb_str(&counts), sb_str(&names));
		}
		sb_free(&counts);
		sb_free(&names);
	}
	if (lit_doc_forbidden(t) && p > 0) {
		tally->imprecise++;
		sb_printf(out, "%-12s imprecise  %-20s %-28s forbidden by the documented fences, model allows\n",
		          r->model, sb_str(&cfg), t->name);
	}
	sb_free(&cfg);
}

int litmus_main(int argc, char **argv)
{
	struct opts o;
	int first;
	if (parse_args(argc, argv, &o, &first))
		return 2;
	if (o.emit_cuda)
		return lit_emit_dir(o.emit_cuda, argv + first, argc - first);
	struct lit_obsdata obs;
	memset(&obs, 0, sizeof obs);
	struct strbuf err;
	sb_init(&err);
	if (o.observed && lit_obs_load(o.observed, &obs, &err)) {
		fprintf(stderr, "%s\n", sb_str(&err));
		sb_free(&err);
		return 2;
	}
	int nfiles = argc - first;
	struct obs_tally tally[8];
	memset(tally, 0, sizeof tally);
	int errors = 0, notok = 0, incomplete = 0, mismatches = 0, unsound = 0, dot_written = 0;
	struct strbuf out, obsout;
	sb_init(&out);
	sb_init(&obsout);
	if (o.json)
		fputs("[", stdout); /* now: an input with errors must not take it along */
	int njson = 0;
	if (o.compare && !o.json && !o.observed) {
		sb_printf(&out, "%-28s %-20s", "Test", "Configuration");
		for (int k = 0; k < o.nmodels; k++)
			sb_printf(&out, " %-12s", o.models[k]);
		sb_putc(&out, '\n');
	}
	for (int f = 0; f < nfiles && !interrupted; f++) {
		const char *path = argv[first + f];
		sb_reset(&err);
		struct litmus *t = litmus_parse_file(path, &err);
		if (!t) {
			fprintf(stderr, "%s\n", sb_str(&err));
			errors++;
			if (o.json) { /* the error as an entry, so the list is still valid JSON */
				sb_puts(&out, njson++ ? ",\n{\"file\":" : "{\"file\":");
				sb_json_str(&out, path);
				sb_puts(&out, ",\"verdict\":\"error\",\"errors\":");
				sb_json_str(&out, sb_str(&err));
				sb_puts(&out, "}");
				fputs(sb_str(&out), stdout);
				sb_reset(&out);
			}
			continue;
		}
		if (o.config)
			litmus_set_config(t, o.config);
		struct lit_obs *ob = o.observed ? lit_obs_find(&obs, t) : NULL;
		if (o.compare && !o.json && !o.observed) {
			struct strbuf cfg;
			sb_init(&cfg);
			litmus_config(t, &cfg);
			sb_printf(&out, "%-28s %-20s", t->name, sb_str(&cfg));
			sb_free(&cfg);
		}
		for (int k = 0; k < o.nmodels && o.fences; k++) {
			sb_reset(&err);
			int fr = lit_fences(t, o.models[k], o.chip, &o.eo, &out, &err);
			if (fr) {
				fprintf(stderr, "%s\n", sb_str(&err));
				*(fr < 0 ? &errors : &incomplete) += 1;
			}
		}
		for (int k = 0; k < o.nmodels && !o.fences; k++) {
			struct lit_run r;
			sb_reset(&err);
			if (lit_run_model(t, o.models[k], o.chip, &o.eo, o.witness, &r, &err)) {
				fprintf(stderr, "%s\n", sb_str(&err));
				errors++;
				lit_run_free(&r);
				if (o.compare && !o.json && !o.observed)
					sb_printf(&out, " %-12s", "error");
				continue;
			}
			if (o.dot && dot_written++ == 0)
				write_dot(o.dot, t, &r);
			if (r.incomplete)
				incomplete++;
			unsigned p, n;
			lit_run_counts(&r, &p, &n);
			/* an incomplete run has a verdict only once an outcome it saw settles it */
			int settled = !r.incomplete || (t->kind == LC_FORALL ? n > 0 : p > 0);
			if (settled && !lit_run_ok(t, &r))
				notok++;
			if (o.expect) {
				const struct lit_expect *x = find_expect(t, o.models[k]);
				/* an incomplete run that saw no positive outcome settles nothing */
				if (x && x->allowed != (p > 0) && !(r.incomplete && p == 0)) {
					mismatches++;
					fprintf(stderr, "%s: %s under %s is %s, expected %s\n", t->file, t->name,
					        o.models[k], lit_verdict(&r), x->allowed ? "Allowed" : "Forbidden");
				}
			}
			if (o.observed) {
				int before = tally[k].unsound;
				obs_report(t, &r, &obs, ob, o.chip, &tally[k], &obsout);
				unsound += tally[k].unsound - before;
			} else if (o.json) {
				if (njson++)
					sb_puts(&out, ",\n");
				lit_report_json(t, &r, &out);
			} else if (o.compare) {
				sb_printf(&out, " %-12s", r.incomplete ? "incomplete" : lit_verdict(&r));
			} else if (!o.quiet) {
				lit_report_herd(t, &r, &out);
			}
			lit_run_free(&r);
		}
		if (o.compare && !o.json && !o.observed)
			sb_putc(&out, '\n');
		litmus_free(t);
		fputs(sb_str(&out) ? sb_str(&out) : "", stdout);
		sb_reset(&out);
	}
	if (o.json)
		puts("]");
	if (o.observed) {
		fputs(obsout.s ? obsout.s : "", stdout);
		for (int k = 0; k < o.nmodels; k++)
			printf("Summary %-12s %d tests with observations, %d unsound, %d imprecise, %d outside the model%s\n",
			       o.models[k], tally[k].tests, tally[k].unsound, tally[k].imprecise, tally[k].outside,
			       tally[k].incomplete ? ", some runs incomplete (nothing said of them)" : "");
		for (int k = 0; k < o.nmodels; k++)
			printf("Unobserved %-12s %d tests allowed but never observed\n", o.models[k], tally[k].unobserved);
		for (int i = 0; i < obs.n; i++)
			if (!obs.e[i].used)
				printf("(no test file for %s %s, line %d of %s)\n", obs.e[i].config,
				       obs.e[i].name, obs.e[i].line, o.observed);
	}
	sb_free(&out);
	sb_free(&obsout);
	sb_free(&err);
	lit_obs_free(&obs);
	if (interrupted) {
		fprintf(stderr, "gpumc litmus: interrupted by %s; verdict incomplete\n", interrupt_name());
		incomplete++;
	}
	/* ranked as for check (exit_combine): input < violated < incomplete < holds */
	int violated = mismatches || (o.observed ? unsound : !(o.compare || o.expect) && notok);
	return exit_combine(exit_combine(errors ? EXIT_INPUT : EXIT_HOLDS, violated ? EXIT_VIOLATED : EXIT_HOLDS),
	                    incomplete ? EXIT_INCOMPLETE : EXIT_HOLDS);
}
