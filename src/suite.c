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
#include "util/interrupt.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect(const char *dir, char ***list, int *n)
{
	struct stat st;
	if (stat(dir, &st) == 0 && S_ISREG(st.st_mode)) {
		*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + 1));
		(*list)[(*n)++] = xstrdup(dir);
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
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		size_t l = strlen(e->d_name);
		if (S_ISDIR(st.st_mode))
			collect(path, list, n);
		else if (l > 4 && !strcmp(e->d_name + l - 4, ".gpu")) {
			*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + 1));
			(*list)[(*n)++] = xstrdup(path);
		}
	}
	closedir(d);
}

/* Per-area verdict counts for the summary under the table: the area is a
** row's first directory, or the directory given when the row has none. */
struct area {
	char *name;
	int n, pass, fail, incomplete, error, expected;
};

static void area_count(struct area **as, int *n, const char *row, const char *dir, const char *verdict, int ok)
{
	const char *slash = strchr(row, '/'), *nm = row;
	size_t l = slash ? (size_t)(slash - row) : 0;
	if (!slash) {
		/* the last component of dir, trailing slashes ignored */
		size_t e = strlen(dir);
		while (e > 1 && dir[e - 1] == '/')
			e--;
		size_t b = e;
		while (b > 0 && dir[b - 1] != '/')
			b--;
		nm = dir + b;
		l = e - b;
	}
	struct area *a = NULL;
	for (int i = 0; i < *n && !a; i++)
		if (strlen((*as)[i].name) == l && !strncmp((*as)[i].name, nm, l))
			a = &(*as)[i];
	if (!a) {
		*as = xrealloc(*as, sizeof **as * (size_t)(*n + 1));
		a = &(*as)[(*n)++];
		memset(a, 0, sizeof *a);
		a->name = xmalloc(l + 1);
		memcpy(a->name, nm, l);
		a->name[l] = 0;
	}
	a->n++;
	a->expected += ok;
	if (!strcmp(verdict, "pass"))
		a->pass++;
	else if (!strncmp(verdict, "fail", 4))
		a->fail++;
	else if (!strcmp(verdict, "incomplete"))
		a->incomplete++;
	else
		a->error++;
}

static void flush_rows(struct strbuf *out)
{
	fputs(sb_str(out), stdout);
	fflush(stdout);
	sb_reset(out);
}

int cmd_suite(int argc, char **argv)
{
	struct run_opts o;
	run_opts_default(&o);
	o.ex.progress = 0;
	char **files = NULL;
	int nfiles = 0, ndirs = 0, bad = 0;
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
			collect(argv[i], &files, &nfiles);
			ndirs++;
		}
	}
	if (!ndirs) {
		fputs("gpumc suite: no directory given (usage: gpumc suite [options] DIR...)\n", stderr);
		return EXIT_INPUT;
	}
	if (nfiles)
		qsort(files, (size_t)nfiles, sizeof(char *), cmp_str);
	/* rows stream as their specs finish, so a long suite shows where it is */
	struct strbuf out;
	sb_init(&out);
	struct area *areas = NULL;
	int nareas = 0, mismatches = 0, errors = 0;
	if (o.json)
		sb_puts(&out, "{\"specs\":[");
	else
		sb_printf(&out, "%-40s %-9s %-24s %-24s %-24s %10s %9s\n", "spec", "machine", "property", "expected",
		          "verdict", "states", "time");
	flush_rows(&out);
	int done = 0;
	for (int f = 0; f < nfiles && !interrupted; f++, done++) {
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
		if (!ok)
			mismatches++;
		/* rows name specs relative to the directory given */
		const char *name = files[f], *dir = ".";
		for (int a = 1; a < argc; a++) {
			size_t l = strlen(argv[a]);
			if (argv[a][0] != '-' && !strncmp(name, argv[a], l) && name[l] == '/') {
				name += l + 1;
				dir = argv[a];
				break;
			}
		}
		area_count(&areas, &nareas, name, dir, sb_str(&v), ok);
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
			sb_printf(&out, ",\"match\":%s,\"states\":%llu,\"seconds\":%.3f}", ok ? "true" : "false",
			          (unsigned long long)r.states, r.seconds);
		} else {
			char p[25];
			snprintf(p, sizeof p, "%s", prop);
			sb_printf(&out, "%-40s %-9s %-24s %-24s %-24s %10llu %8.3fs%s\n", name, j.model ? j.model->name : "-",
			          p, expect, sb_str(&v), (unsigned long long)r.states, r.seconds, ok ? "" : "  MISMATCH");
		}
		flush_rows(&out);
		explore_result_free(&r);
		sb_free(&v);
		job_free(&j);
		diag_free(&d);
		free(files[f]);
	}
	if (o.json) {
		sb_printf(&out, "],\"total\":%d,\"mismatches\":%d,\"errors\":%d,\"interrupted\":%s}\n", done, mismatches,
		          errors, interrupted ? "true" : "false");
	} else {
		if (nareas > 1)
			for (int a = 0; a < nareas; a++)
				sb_printf(&out, "%-10s %3d spec%s: %d pass, %d fail, %d incomplete, %d error; %d as expected\n",
				          areas[a].name, areas[a].n, areas[a].n == 1 ? " " : "s", areas[a].pass, areas[a].fail,
				          areas[a].incomplete, areas[a].error, areas[a].expected);
		if (interrupted)
			sb_printf(&out, "interrupted by %s after %d of %d specs; verdict incomplete\n", interrupt_name(),
			          done, nfiles);
		sb_printf(&out, "%d spec%s, %d as expected, %d mismatch%s\n", done, done == 1 ? "" : "s",
		          done - mismatches, mismatches, mismatches == 1 ? "" : "es");
	}
	flush_rows(&out);
	sb_free(&out);
	for (int a = 0; a < nareas; a++)
		free(areas[a].name);
	free(areas);
	for (int f = done; f < nfiles; f++)
		free(files[f]);
	free(files);
	if (interrupted)
		return EXIT_INCOMPLETE;
	if (bad || nfiles == 0) {
		if (nfiles == 0)
			fputs("gpumc suite: no specs (*.gpu) found\n", stderr);
		return EXIT_INPUT;
	}
	return mismatches ? EXIT_VIOLATED : EXIT_HOLDS;
}
