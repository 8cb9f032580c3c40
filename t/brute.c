/*
** Independent reachability count for the explorer tests: a plain worklist
** over the machine's own actions with glibc's tsearch (a balanced tree
** ordered by memcmp) as the seen-set.  It shares nothing with
** src/state/visited.c or src/explore/explore.c, so agreement of the counts
** checks both.
**
** It follows the explorer's reading of the model contract (model.h), so
** that the two must agree on a full exploration:
**   - a crash (ACT_CRASH) is no transition: applying it changes nothing
**     and the explorer never does.  What a crash leaves is the durable
**     image (model.durable); brute counts the distinct images over every
**     state that offers a crash, as the explorer's crash_images does;
**   - a fault state is counted but not expanded;
**   - depth is the longest shortest path (BFS level) from the initial
**     state, which is what --bfs reports;
**   - a running state whose only actions are crashes is a deadlock.
**
** usage: brute SPEC [-D key=value]...   prints
**   "states N transitions T terminal K crash_images C depth D deadlocks X faults F"
*/
#include "config.h"

#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/strbuf.h"

static size_t svn, imgn;

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, svn);
}

static int cmp_img(const void *a, const void *b)
{
	return memcmp(a, b, imgn);
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
	imgn = m->durable_size;
	void *root = NULL, *images = NULL;
	size_t cap = 1024, n = 0, head = 0;
	uint8_t **all = xmalloc(sizeof *all * cap);
	unsigned *depth = xmalloc(sizeof *depth * cap);
	uint8_t *s0 = xmalloc(svn);
	m->init(m, s0);
	tsearch(s0, &root, cmp);
	depth[n] = 0;
	all[n++] = s0;
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	unsigned long long trans = 0, term = 0, nimg = 0, deadlocks = 0, faults = 0;
	unsigned maxdepth = 0;
	while (head < n) {
		unsigned d = depth[head];
		uint8_t *s = all[head++];
		enum model_status st = m->status(m, s);
		if (st == MS_TERMINAL)
			term++;
		if (st == MS_FAULT) {
			faults++;
			continue;
		}
		unsigned na = m->enabled(m, s, act), moves = 0;
		for (unsigned i = 0; i < na; i++) {
			if (act[i].kind == ACT_CRASH) {
				if (!m->durable)
					continue;
				uint8_t *img = xmalloc(imgn);
				m->durable(m, s, img);
				void **hit = tsearch(img, &images, cmp_img);
				if (*hit != img)
					free(img);
				else
					nimg++;
				continue;
			}
			moves++;
			uint8_t *t = xmalloc(svn);
			memcpy(t, s, svn);
			m->apply(m, t, &act[i]);
			trans++;
			void **hit = tsearch(t, &root, cmp);
			if (*hit != t) {
				free(t);
				continue;
			}
			if (n == cap) {
				all = xrealloc(all, sizeof *all * (cap *= 2));
				depth = xrealloc(depth, sizeof *depth * cap);
			}
			depth[n] = d + 1;
			if (d + 1 > maxdepth)
				maxdepth = d + 1;
			all[n++] = t;
		}
		if (!moves && st == MS_RUNNING)
			deadlocks++;
	}
	printf("states %zu transitions %llu terminal %llu crash_images %llu depth %u deadlocks %llu faults %llu\n", n,
	       trans, term, nimg, maxdepth, deadlocks, faults);
	tdestroy(root, noop);
	tdestroy(images, free);
	for (size_t i = 0; i < n; i++)
		free(all[i]);
	free(all);
	free(depth);
	free(act);
	free(o.defines);
	job_free(&j);
	diag_free(&d);
	return 0;
}
