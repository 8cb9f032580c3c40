/*
** Independent reachability count for the explorer tests: a plain worklist
** over the machine's own actions with glibc's tsearch (a balanced tree
** ordered by memcmp) as the seen-set.  It shares nothing with
** src/state/visited.c or src/explore/explore.c, so agreement of the counts
** checks both.
**
** usage: brute SPEC [-D key=value]...   prints "states N transitions T terminal K"
*/
#include "config.h"

#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/strbuf.h"

static size_t svn;

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, svn);
}

static void noop(void *p)
{
	(void)p;
}

int main(int argc, char **argv)
{
	struct run_opts o;
	run_opts_default(&o);
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		int k = cli_option(&o, argc, argv, &i, "D");
		if (k < 0)
			return 2;
		if (!k)
			path = argv[i];
	}
	if (!path) {
		fputs("usage: brute SPEC [-D key=value]...\n", stderr);
		return 2;
	}
	struct job j;
	struct diag d;
	diag_init(&d);
	if (job_load(&j, path, &o, &d)) {
		fputs(sb_str(&d.msg), stderr);
		return 2;
	}
	const struct model *m = j.model;
	svn = m->sv_size;
	void *root = NULL;
	size_t cap = 1024, n = 0, head = 0;
	uint8_t **all = xmalloc(sizeof *all * cap);
	uint8_t *s0 = xmalloc(svn);
	m->init(m, s0);
	tsearch(s0, &root, cmp);
	all[n++] = s0;
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	unsigned long long trans = 0, term = 0;
	while (head < n) {
		uint8_t *s = all[head++];
		if (m->status(m, s) == MS_TERMINAL)
			term++;
		if (m->status(m, s) == MS_FAULT)
			continue;
		unsigned na = m->enabled(m, s, act);
		for (unsigned i = 0; i < na; i++) {
			uint8_t *t = xmalloc(svn);
			memcpy(t, s, svn);
			m->apply(m, t, &act[i]);
			trans++;
			void **hit = tsearch(t, &root, cmp);
			if (*hit != t) {
				free(t);
				continue;
			}
			if (n == cap)
				all = xrealloc(all, sizeof *all * (cap *= 2));
			all[n++] = t;
		}
	}
	printf("states %zu transitions %llu terminal %llu\n", n, trans, term);
	tdestroy(root, noop);
	for (size_t i = 0; i < n; i++)
		free(all[i]);
	free(all);
	free(act);
	free(o.defines);
	job_free(&j);
	diag_free(&d);
	return 0;
}
