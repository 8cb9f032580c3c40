/*
** `gpumc suite DIR...`: check every spec under the directories against its
** declared expectation and print one row each.  Exit 0 only when every
** verdict matches (a spec without `expect` is a mismatch: the suite is
** where expectations live).
*/
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "report.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Directories already walked, by device and inode: a symlink loop (or a
** second link to a directory) is walked once, not forever or twice. */
struct seen {
	struct { dev_t dev; ino_t ino; } *d;
	int n;
};

static int first_visit(struct seen *sn, const struct stat *st)
{
	for (int i = 0; i < sn->n; i++)
		if (sn->d[i].dev == st->st_dev && sn->d[i].ino == st->st_ino)
			return 0;
	sn->d = xrealloc(sn->d, sizeof *sn->d * (size_t)(sn->n + 1));
	sn->d[sn->n].dev = st->st_dev;
	sn->d[sn->n++].ino = st->st_ino;
	return 1;
}

static void collect(const char *dir, char ***list, int *n, struct seen *sn)
{
	struct stat st;
	if (stat(dir, &st) == 0 && S_ISREG(st.st_mode)) {
		*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + 1));
		(*list)[(*n)++] = xstrdup(dir);
		return;
	}
	if (stat(dir, &st) == 0 && !first_visit(sn, &st)) {
		fprintf(stderr, "gpumc suite: warning: %s: directory already walked (a symlink loop?), skipped\n", dir);
		return;
	}
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) {
			fprintf(stderr, "gpumc suite: warning: %s/%s: path too long, skipped\n", dir, e->d_name);
			continue;
		}
		if (stat(path, &st))
			continue;
		size_t l = strlen(e->d_name);
		if (S_ISDIR(st.st_mode))
			collect(path, list, n, sn);
		else if (l > 4 && !strcmp(e->d_name + l - 4, ".gpu")) {
			*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + 1));
			(*list)[(*n)++] = xstrdup(path);
		}
	}
	closedir(d);
}

int cmd_suite(int argc, char **argv)
{
	struct run_opts o;
	run_opts_default(&o);
	o.ex.progress = 0;
	char **files = NULL;
	int nfiles = 0, ndirs = 0, bad = 0;
	struct seen seen = { NULL, 0 };
	for (int i = 1; i < argc; i++) {
		int k = cli_option(&o, argc, argv, &i, "Dej");
		if (k < 0)
			return EXIT_INPUT;
		if (!k) {
			struct stat st;
			if (stat(argv[i], &st)) {
				fprintf(stderr, "gpumc suite: %s: no such file or directory\n", argv[i]);
				bad = 1;
			}
			collect(argv[i], &files, &nfiles, &seen);
			ndirs++;
		}
	}
	if (!ndirs) {
		fputs("gpumc suite: no directory given (usage: gpumc suite [options] DIR...)\n", stderr);
		return EXIT_INPUT;
	}
	free(seen.d);
	if (nfiles)
		qsort(files, (size_t)nfiles, sizeof(char *), cmp_str);
	struct strbuf out;
	sb_init(&out);
	int mismatches = 0, errors = 0;
	double omission = 0;
	if (o.json)
		sb_puts(&out, "{\"specs\":[");
	else
		sb_printf(&out, "%-40s %-9s %-24s %-24s %-24s %10s %9s\n", "spec", "machine", "property", "expected",
		          "verdict", "states", "time");
	int done = 0;
	for (int f = 0; f < nfiles; f++) {
		if (explore_interrupted) { /* the rows so far, and say so */
			free(files[f]);
			continue;
		}
		done++;
		struct job j;
		struct diag d;
		diag_init(&d);
		struct strbuf v;
		sb_init(&v);
		struct explore_result r;
		memset(&r, 0, sizeof r);
		const char *prop = "-";
		if (job_load(&j, files[f], &o, &d)) {
			sb_puts(&v, "error");
			fputs(sb_str(&d.msg), stderr);
			errors++;
		} else {
			explore(j.model, j.props, j.nprops, &o.ex, &r);
			verdict_string(&r, &v);
			prop = r.failed >= 0 ? j.props[r.failed].text
			       : r.verdict == V_FAIL ? prop_kind_name(r.failed_kind)
			       : j.nprops ? j.props[0].text : "-";
		}
		const char *expect = j.spec && j.spec->expect ? j.spec->expect : "(none)";
		int ok = j.spec && j.spec->expect && !strcmp(j.spec->expect, sb_str(&v));
		/* cut short by a signal: shown, but neither a match nor a mismatch */
		int cut = explore_interrupted && r.verdict == V_INCOMPLETE;
		if (cut)
			done--;
		else if (!ok)
			mismatches++;
		/* rows name specs relative to the directory given */
		const char *name = files[f];
		for (int a = 1; a < argc; a++) {
			size_t l = strlen(argv[a]);
			if (argv[a][0] != '-' && !strncmp(name, argv[a], l) && name[l] == '/') {
				name += l + 1;
				break;
			}
		}
		if (o.json) {
			sb_puts(&out, f ? ",{\"spec\":" : "{\"spec\":");
			sb_json_str(&out, name);
			sb_puts(&out, ",\"machine\":");
			sb_json_str(&out, j.model ? j.model->name : "-");
			sb_puts(&out, ",\"property\":");
			sb_json_str(&out, prop);
			sb_puts(&out, ",\"expected\":");
			sb_json_str(&out, expect);
			sb_puts(&out, ",\"verdict\":");
			sb_json_str(&out, sb_str(&v));
			sb_printf(&out, ",\"match\":%s,\"states\":%llu,\"seconds\":%.3f,\"omission_probability\":%.3g}",
			          ok ? "true" : "false", (unsigned long long)r.states, r.seconds, r.omission);
		} else {
			char p[25];
			snprintf(p, sizeof p, "%s", prop);
			sb_printf(&out, "%-40s %-9s %-24s %-24s %-24s %10llu %8.3fs%s\n", name, j.model ? j.model->name : "-",
			          p, expect, sb_str(&v), (unsigned long long)r.states, r.seconds,
			          cut ? "  (interrupted)" : ok ? "" : "  MISMATCH");
		}
		omission += r.omission; /* a union bound over the specs */
		explore_result_free(&r);
		sb_free(&v);
		job_free(&j);
		diag_free(&d);
		free(files[f]);
	}
	if (o.json) {
		sb_printf(&out, "],\"total\":%d,\"mismatches\":%d,\"errors\":%d", done, mismatches, errors);
		if (done < nfiles)
			sb_printf(&out, ",\"interrupted\":\"%s\",\"not_checked\":%d", explore_interrupt_name(), nfiles - done);
		if (omission > 0)
			sb_printf(&out, ",\"omission_probability\":%.3g", omission);
		sb_puts(&out, "}\n");
	} else {
		sb_printf(&out, "%d spec%s, %d as expected, %d mismatch%s\n", done, done == 1 ? "" : "s",
		          done - mismatches, mismatches, mismatches == 1 ? "" : "es");
		if (done < nfiles)
			sb_printf(&out, "interrupted (%s): %d of %d specs not checked\n", explore_interrupt_name(),
			          nfiles - done, nfiles);
		if (omission > 0)
			sb_printf(&out, "compact mode: P[some state omitted in some spec] <= %.3g\n", omission);
	}
	fputs(sb_str(&out), stdout);
	sb_free(&out);
	free(files);
	if (bad || nfiles == 0) {
		if (nfiles == 0)
			fputs("gpumc suite: no specs (*.gpu) found\n", stderr);
		return EXIT_INPUT;
	}
	return exit_combine(mismatches ? EXIT_VIOLATED : EXIT_HOLDS, done < nfiles ? EXIT_INCOMPLETE : EXIT_HOLDS);
}
