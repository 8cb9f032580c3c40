/*
** Partial-order reduction against the full interleaving, for t/por.sh.
** For one spec it explores twice with --por=off, twice with --por=nochain
** and twice with --por=on (search order and other options from the command
** line) and prints one line per setting:
**   por off|nochain|on verdict V states S all A terminal T crash_images C outcomes N digest H
**   V            the verdict of the spec's own properties, a failure with
**                the kind of what failed (its first
**                violation stops the search, as in `gpumc check`);
**   S            states of that run;
**   A, T, C, N, H  from a second run that only collects terminal outcomes
**                over every global word and goes on after violations, so
**                explores the whole (reduced) graph: its states,
**                distinct terminal states, distinct crash images, distinct
**                final valuations of global memory, and an FNV-1a digest of
**                those valuations sorted, so equal digests mean equal sets.
** The second run names no register, so nothing is kept out of the
** reduction for being observed.
**
** usage: por SPEC [-D key=value]... [--bfs|--dfs] [--compact]
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/strbuf.h"

static size_t vbytes;

static int cmp(const void *a, const void *b)
{
	return memcmp(*(uint32_t *const *)a, *(uint32_t *const *)b, vbytes);
}

/* FNV-1a over the sorted valuations. */
static uint64_t digest(const struct explore_result *r)
{
	vbytes = sizeof(uint32_t) * r->nolocs;
	uint32_t **v = xmalloc(sizeof *v * (r->noutcomes + 1));
	for (unsigned i = 0; i < r->noutcomes; i++)
		v[i] = r->outcomes[i].vals;
	qsort(v, r->noutcomes, sizeof *v, cmp);
	uint64_t h = 1469598103934665603ull;
	for (unsigned i = 0; i < r->noutcomes; i++)
		for (size_t b = 0; b < vbytes; b++) {
			h ^= ((const uint8_t *)v[i])[b];
			h *= 1099511628211ull;
		}
	free(v);
	return h;
}

/* The verdict, and for a failure the kind of what failed: a reduction
** that hides a violation may still fail, on a livelock its cycle makes
** (the ignoring problem: t/good/por-spin-proviso.gpu). */
static const char *verdict(const struct explore_result *r)
{
	static const char *const name[] = { "pass", "fail", "error", "incomplete" };
	static char buf[64];
	if (r->verdict != V_FAIL)
		return name[r->verdict];
	snprintf(buf, sizeof buf, "fail %s", prop_kind_name(r->failed_kind));
	return buf;
}

/* One spec: both settings, one line each. */
static int one(struct job *j, const struct run_opts *o, int more)
{
	(void)more;
	const struct model *m = j->model;
	struct property all = { .kind = P_OUTCOMES, .text = "outcomes" };
	all.nlocs = model_observables(m, NULL, 0);
	all.locs = xmalloc(sizeof(int) * (all.nlocs + 1));
	model_observables(m, all.locs, all.nlocs);
	static const char *name[] = { "off", "nochain", "on" };
	for (int por = 0; por < 3; por++) {
		struct explore_opts eo = o->ex;
		struct explore_result r, f;
		eo.progress = 0;
		eo.por = por > 0;
		eo.no_chain = por == 1;
		explore(m, j->props, j->nprops, &eo, &r);
		eo.keep_going = 1;
		explore(m, &all, 1, &eo, &f);
		printf("por %s verdict %s states %llu all %llu terminal %llu crash_images %llu outcomes %u digest %016llx\n",
		       name[por], verdict(&r), (unsigned long long)r.states, (unsigned long long)f.states,
		       (unsigned long long)f.terminals, (unsigned long long)f.crash_images, f.noutcomes,
		       (unsigned long long)digest(&f));
		explore_result_free(&r);
		explore_result_free(&f);
	}
	free(all.locs);
	return EXIT_HOLDS;
}

int main(int argc, char **argv)
{
	static const struct spec_cmd cmd = { "por", "De", 0, NULL, one, 0 };
	return cli_each_spec(&cmd, argc, argv);
}
