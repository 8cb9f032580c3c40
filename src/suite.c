/*
** `gpumc suite DIR...`: check every spec under the directories against its
** declared expectation and print one row each.  Exit 0 only when every
** verdict matches (a spec without `expect` is a mismatch: the suite is
** where expectations live).
*/
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "util/interrupt.h"

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

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

void spec_row_run(const char *file, const struct run_opts *o, struct spec_row *w)
{
	struct job j;
	struct diag d;
	diag_init(&d);
	struct strbuf v;
	sb_init(&v);
	struct explore_result r;
	memset(&r, 0, sizeof r);
	memset(w, 0, sizeof *w);
	const char *prop = "-";
	if (job_load(&j, file, o, &d)) {
		sb_puts(&v, "error");
		fputs(sb_str(&d.msg), stderr);
		w->error = 1;
		w->exit = EXIT_INPUT;
	} else {
		struct explore_opts ex = o->ex;
		ex.start = j.start;
		explore(j.model, j.props, j.nprops, &ex, &r);
		verdict_string(&r, &v);
		w->exit = r.verdict == V_PASS ? EXIT_HOLDS : r.verdict == V_FAIL ? EXIT_VIOLATED
		          : r.verdict == V_INCOMPLETE ? EXIT_INCOMPLETE : EXIT_INPUT;
		prop = r.failed >= 0 ? j.props[r.failed].text
		       : r.verdict == V_FAIL ? prop_kind_name(r.failed_kind)
		       : j.nprops ? j.props[0].text : "-";
	}
	copy_str(w->verdict, sizeof w->verdict, sb_str(&v));
	copy_str(w->machine, sizeof w->machine, j.model ? j.model->name : "-");
	copy_str(w->prop, sizeof w->prop, prop);
	copy_str(w->expect, sizeof w->expect, j.spec && j.spec->expect ? j.spec->expect : "(none)");
	w->ok = j.spec && j.spec->expect && !strcmp(j.spec->expect, sb_str(&v));
	w->states = (unsigned long long)r.states;
	w->seconds = r.seconds;
	w->omission = r.omission;
	explore_result_free(&r);
	sb_free(&v);
	job_free(&j);
	diag_free(&d);
}

/* -j N: up to N specs at once, each in a child process that sends its row
** back; rows are still printed in file order, each as soon as it and
** those before it are done. */
struct pool {
	int n, next, printed;
	pid_t *pid;
	int *fd;
	struct spec_row *rows;
	char *done;
};

static void pool_start(struct pool *p, char **files, int nfiles, const struct run_opts *o)
{
	while (p->next < nfiles && !interrupted) {
		int running = 0;
		for (int i = p->printed; i < p->next; i++)
			running += p->pid[i] > 0;
		if (running >= p->n)
			return;
		int f = p->next++, fds[2];
		fflush(NULL);
		if (pipe(fds) || (p->pid[f] = fork()) < 0) {
			/* no process: run it here */
			p->pid[f] = 0;
			spec_row_run(files[f], o, &p->rows[f]);
			p->done[f] = 1;
			continue;
		}
		if (p->pid[f] == 0) {
			close(fds[0]);
			struct spec_row w;
			spec_row_run(files[f], o, &w);
			ssize_t k = write(fds[1], &w, sizeof w);
			_exit(k == (ssize_t)sizeof w ? 0 : 1);
		}
		close(fds[1]);
		p->fd[f] = fds[0];
	}
}

/* Wait for one child; its row is then done. */
static void pool_wait(struct pool *p)
{
	int st;
	pid_t c = waitpid(-1, &st, 0);
	if (c < 0) {
		for (int i = p->printed; i < p->next; i++)
			if (errno != EINTR)
				p->done[i] = 1; /* nothing left to wait for */
			else if (interrupted && p->pid[i] > 0)
				kill(p->pid[i], (int)interrupted); /* the workers stop too */
		return;
	}
	for (int i = p->printed; i < p->next; i++)
		if (p->pid[i] == c) {
			if (read(p->fd[i], &p->rows[i], sizeof p->rows[i]) != (ssize_t)sizeof p->rows[i]) {
				memset(&p->rows[i], 0, sizeof p->rows[i]);
				char why[64]; /* a worker that died says how: a crash is a bug to report */
				if (WIFSIGNALED(st))
					snprintf(why, sizeof why, "error (worker killed by signal %d)", WTERMSIG(st));
				else
					snprintf(why, sizeof why, "error");
				copy_str(p->rows[i].verdict, sizeof p->rows[i].verdict, why);
				p->rows[i].error = 1;
			}
			close(p->fd[i]);
			p->pid[i] = 0;
			p->done[i] = 1;
		}
}

int cmd_suite(int argc, char **argv)
{
	struct run_opts o;
	run_opts_default(&o);
	o.ex.progress = 0;
	char **files = NULL;
	int nfiles = 0, ndirs = 0, bad = 0, jobs = 1;
	struct seen seen = { NULL, 0 };
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "-j", 2) || !strncmp(argv[i], "--jobs", 6)) {
			/* -j N, -jN, --jobs N, --jobs=N: specs checked at once */
			const char *v = argv[i][1] == 'j' && argv[i][2] ? argv[i] + 2
			                : strchr(argv[i], '=') ? strchr(argv[i], '=') + 1 : i + 1 < argc ? argv[++i] : "";
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || end == v || n < 1 || n > 256) {
				fprintf(stderr, "gpumc suite: -j expects 1..256, got '%s'\n", v);
				free(files);
				return EXIT_INPUT;
			}
			jobs = (int)n;
			continue;
		}
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
	/* rows stream as their specs finish, so a long suite shows where it is */
	struct strbuf out;
	sb_init(&out);
	struct area *areas = NULL;
	int nareas = 0, mismatches = 0, errors = 0;
	double omission = 0;
	int ncut = 0; /* rows cut short by a signal */
	if (o.json)
		sb_puts(&out, "{\"specs\":[");
	else
		sb_printf(&out, "%-40s %-9s %-24s %-24s %-24s %10s %9s\n", "spec", "machine", "property", "expected",
		          "verdict", "states", "time");
	flush_rows(&out);
	struct pool p = { jobs, 0, 0, xcalloc((size_t)nfiles + 1, sizeof(pid_t)), xcalloc((size_t)nfiles + 1, sizeof(int)),
		          xcalloc((size_t)nfiles + 1, sizeof(struct spec_row)), xcalloc((size_t)nfiles + 1, 1) };
	int done = 0;
	while (done < nfiles) {
		if (jobs > 1) {
			pool_start(&p, files, nfiles, &o);
			if (p.printed == p.next)
				break; /* interrupted: nothing running, nothing new */
			if (!p.done[p.printed])
				pool_wait(&p);
		} else if (!interrupted) {
			spec_row_run(files[done], &o, &p.rows[done]);
			p.done[done] = 1;
			p.next = done + 1;
		}
		int progressed = 0;
		for (; done < nfiles && p.done[done]; done++, p.printed = done, progressed = 1) {
			const struct spec_row *w = &p.rows[done];
			/* cut short by a signal: shown, but neither a match nor a mismatch */
			int cut = interrupted && !strcmp(w->verdict, "incomplete");
			mismatches += !w->ok && !cut;
			ncut += cut;
			errors += w->error;
			omission += w->omission; /* a union bound over the specs */
			/* rows name specs relative to the directory given */
			const char *name = files[done], *dir = ".";
			for (int a = 1; a < argc; a++) {
				size_t l = strlen(argv[a]);
				if (argv[a][0] != '-' && !strncmp(name, argv[a], l) && name[l] == '/') {
					name += l + 1;
					dir = argv[a];
					break;
				}
			}
			area_count(&areas, &nareas, name, dir, w->verdict, w->ok);
			if (o.json) {
				sb_puts(&out, done ? ",{\"spec\":" : "{\"spec\":");
				sb_json_str(&out, name);
				sb_puts(&out, ",\"machine\":");
				sb_json_str(&out, w->machine);
				sb_puts(&out, ",\"property\":");
				sb_json_str(&out, w->prop);
				sb_puts(&out, ",\"expected\":");
				sb_json_str(&out, w->expect);
				sb_puts(&out, ",\"verdict\":");
				sb_json_str(&out, w->verdict);
				sb_printf(&out, ",\"match\":%s,\"states\":%llu,\"seconds\":%.3f}", w->ok ? "true" : "false", w->states,
				          w->seconds);
			} else {
				sb_printf(&out, "%-40s %-9s %-24s %-24s %-24s %10llu %8.3fs%s\n", name, w->machine, w->prop, w->expect,
				          w->verdict, w->states, w->seconds, cut ? "  (interrupted)" : w->ok ? "" : "  MISMATCH");
			}
			flush_rows(&out);
		}
		if (!progressed && jobs <= 1)
			break; /* interrupted before the next spec */
	}
	free(p.pid);
	free(p.fd);
	free(p.rows);
	free(p.done);
	if (o.json) {
		sb_printf(&out, "],\"total\":%d,\"mismatches\":%d,\"errors\":%d,\"interrupted\":%s", done, mismatches,
		          errors, interrupted ? "true" : "false");
		if (omission > 0)
			sb_printf(&out, ",\"omission_probability\":%.3g", omission);
		sb_puts(&out, "}\n");
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
		          done - mismatches - ncut, mismatches, mismatches == 1 ? "" : "es");
		if (omission > 0)
			sb_printf(&out, "compact mode: P[some state omitted in some spec] <= %.3g\n", omission);
	}
	flush_rows(&out);
	sb_free(&out);
	for (int a = 0; a < nareas; a++)
		free(areas[a].name);
	free(areas);
	for (int f = 0; f < nfiles; f++)
		free(files[f]);
	free(files);
	if (interrupted)
		return EXIT_INCOMPLETE;
	if (bad || nfiles == 0) {
		if (nfiles == 0)
			fputs("gpumc suite: no specs (*.gpu) found\n", stderr);
		return EXIT_INPUT;
	}
	return exit_combine(mismatches ? EXIT_VIOLATED : EXIT_HOLDS, done < nfiles ? EXIT_INCOMPLETE : EXIT_HOLDS);
}
