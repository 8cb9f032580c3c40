/*
** The progress check (progress.h).  Four linear passes over the visited
** set, which holds every reachable state, numbered:
**
**   1. the transition graph as compressed rows: recorded by the search
**      (BFS, explore.c), or here by re-expanding every state, each
**      successor looked up by number (crash actions are environment
**      choices, not moves: they are left out, as are the moves of terminal
**      and faulted states, which have ended; a recorded graph may hold
**      the latter, and passes 2 and 3 ignore them);
**   2. backwards from the terminal and faulted states over the reversed
**      graph: every state that can still finish;
**   3. forwards from the initial state (BFS: shortest path), never
**      through an ended state, to the first state that cannot: the stem
**      of the counterexample;
**   4. from there, always the first move, until a state repeats.  Every
**      successor of a stuck state is stuck and none is a dead end (the
**      deadlock check passed), so the walk stays stuck and must close a
**      cycle: the loop of the lasso.
**
** After a partial-order-reduced exploration (reduced), pass 1 keeps the
** moves to visited states only: a graph between the reduced one and the
** full one (a recorded graph is the reduced one).  A successor not
** visited is followed along the search's chain of local steps (chain.c,
** CH-4): the chain's end, when visited, is the move (CHAIN_BIT on its
** action, unfolded in the lasso by explore.c).  From a visited state, a terminal state is reachable in the
** reduced graph iff in the full one (POR keeps terminal states, explore.c),
** so the same states are stuck in all three; and a reachable stuck state
** of the full graph has one in the reduced graph (a local step taken
** first from a stuck state leads to a stuck state, as for race_free).
**
** A spin-wait that can still see its flag is not stuck: some path from it
** reaches a terminal state.  Memory: 10 bytes per transition and 17 per
** state, reported to the caller's limit.
*/
#include "config.h"
#include "explore/progress.h"

#include <stdlib.h>
#include <string.h>

#include "explore/chain.h"
#include "state/hash.h"
#include "util/strbuf.h"

#define NONE UINT32_MAX

/* Pass 1 by re-expansion into g, of states [0, to) (row[to] is set, the
** room for rows up to the state count is there); 0, or -1 when the limit
** stopped it or a successor was not visited (an incomplete exploration:
** nothing to say). */
static int expand_graph(const struct model *m, struct visited *vs, const struct chain *reduced, uint32_t to,
                        int (*limit)(void *ctx, size_t bytes), void *ctx, struct progress_graph *g,
                        struct progress_result *r)
{
	uint32_t n = (uint32_t)vs_count(vs);
	size_t svn = m->sv_size, cap = 1024, ne = 0;
	uint64_t *row = xmalloc(sizeof *row * ((size_t)n + 1));
	uint32_t *dst = xmalloc(sizeof *dst * cap);
	uint16_t *via = xmalloc(sizeof *via * cap);
	uint8_t *cur = xmalloc(svn), *next = xmalloc(svn), *tmp = xmalloc(svn);
	struct action *cact = xmalloc(sizeof *cact * (m->max_actions + 1));
	uint64_t *bh = xmalloc(hash_nblocks(svn) * sizeof *bh);
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	int rc = -1;
	for (uint32_t i = 0; i < to; i++) {
		size_t bytes = ne * (sizeof *dst + sizeof *via) + (size_t)n * (sizeof *row + 1);
		if ((i & 1023) == 0 && limit(ctx, bytes))
			goto out;
		r->bytes = bytes;
		row[i] = ne;
		memcpy(cur, vs_state(vs, i), svn);
		if (m->status(m, cur) != MS_RUNNING)
			continue;
		unsigned na = m->enabled(m, cur, act);
		for (unsigned a = 0; a < na; a++) {
			if (act[a].kind == ACT_CRASH)
				continue;
			memcpy(next, cur, svn);
			m->apply(m, next, &act[a]);
			uint32_t k;
			unsigned via1 = a;
			if (reduced) { /* the reduced graph: a successor not visited is left out */
				k = vs_find(vs, next, state_hash_blocks(next, svn, bh));
				if (k == NONE && reduced->max > 1 && chain_follow(reduced, next, tmp, cact, NULL)) {
					k = vs_find(vs, next, state_hash_blocks(next, svn, bh));
					via1 |= CHAIN_BIT;
				}
				if (k == NONE)
					continue;
			} else {
				int is_new;
				k = vs_find_or_put(vs, next, state_hash_blocks(next, svn, bh), &is_new);
				if (is_new) /* the exploration was not complete: nothing to say */
					goto out;
			}
			if (ne == cap) {
				cap *= 2;
				dst = xrealloc(dst, sizeof *dst * cap);
				via = xrealloc(via, sizeof *via * cap);
			}
			dst[ne] = k;
			via[ne++] = (uint16_t)via1;
		}
	}
	row[to] = ne;
	rc = 0;
out:
	g->row = row;
	g->dst = dst;
	g->via = via;
	g->ne = ne;
	free(cur);
	free(next);
	free(tmp);
	free(cact);
	free(bh);
	free(act);
	return rc;
}

/* Rows rec->from .. n of the recorded graph after the re-expanded ones of
** g, which end there. */
static void append_rows(struct progress_graph *g, const struct progress_graph *rec, uint32_t n,
                        struct progress_result *r)
{
	uint64_t base = rec->row[rec->from], more = rec->ne - base;
	for (uint32_t i = rec->from + 1; i <= n; i++)
		g->row[i] = g->ne + rec->row[i] - base;
	g->dst = xrealloc(g->dst, sizeof *g->dst * (g->ne + more + 1));
	g->via = xrealloc(g->via, sizeof *g->via * (g->ne + more + 1));
	if (more) {
		memcpy(g->dst + g->ne, rec->dst + base, sizeof *g->dst * more);
		memcpy(g->via + g->ne, rec->via + base, sizeof *g->via * more);
	}
	g->ne += more;
	r->bytes = g->ne * (sizeof *g->dst + sizeof *g->via) + (size_t)n * (sizeof *g->row + 1);
}

int progress_check(const struct model *m, struct visited *vs, const struct chain *reduced,
                   const struct progress_graph *rec,
                   int (*limit)(void *ctx, size_t bytes), void *ctx, struct progress_result *r)
{
	memset(r, 0, sizeof *r);
	uint32_t n = (uint32_t)vs_count(vs);
	struct progress_graph own = { 0 };
	uint8_t *done = xcalloc(n ? n : 1, 1); /* 1: terminal or faulted; 2: can reach one */
	uint32_t *order = NULL, *parent = NULL, *rsrc = NULL;
	uint64_t *rrow = NULL;
	int rc = -1;
	/* 1: the graph: re-expanded where not recorded, then the recorded rows */
	if (!rec || rec->from) {
		if (expand_graph(m, vs, reduced, rec ? rec->from : n, limit, ctx, &own, r))
			goto out;
		if (rec && rec->from < n)
			append_rows(&own, rec, n, r);
	}
	const struct progress_graph *g = rec && !rec->from ? rec : &own;
	const uint64_t *row = g->row;
	const uint32_t *dst = g->dst;
	const uint16_t *via = g->via;
	size_t ne = g->ne;
	if (rec)
		for (uint64_t k = 0; k < rec->nended; k++)
			done[rec->ended[k]] = 1;
	else
		for (uint32_t i = 0; i < n; i++)
			if (m->status(m, vs_state(vs, i)) != MS_RUNNING)
				done[i] = 1;
	r->edges = ne;
	/* 2: the reversed graph, then backwards from every ended state; its
	** storage is counted before it is taken, so a limit is not passed */
	r->bytes += ne * sizeof *rsrc + (size_t)n * (sizeof *rrow + sizeof *order);
	if (limit(ctx, r->bytes))
		goto out;
	rrow = xcalloc((size_t)n + 1, sizeof *rrow);
	rsrc = xmalloc(sizeof *rsrc * (ne ? ne : 1));
	for (size_t e = 0; e < ne; e++)
		rrow[dst[e]]++;
	for (uint32_t i = 0; i < n; i++)
		rrow[i + 1] += rrow[i]; /* rrow[v]: the end of v's block, then its start */
	for (uint32_t i = 0; i < n; i++)
		for (uint64_t e = row[i]; e < row[i + 1]; e++)
			rsrc[--rrow[dst[e]]] = i;
	order = xmalloc(sizeof *order * (n ? n : 1));
	uint32_t qh = 0, qt = 0;
	for (uint32_t i = 0; i < n; i++)
		if (done[i])
			order[qt++] = i;
	while (qh < qt) {
		uint32_t s = order[qh++];
		for (uint64_t e = rrow[s]; e < rrow[s + 1]; e++)
			if (!done[rsrc[e]])
				done[rsrc[e]] = 2, order[qt++] = rsrc[e];
	}
	r->stuck = n - qt;
	if (!r->stuck || !n) {
		rc = 0;
		goto out;
	}
	/* 3: shortest path from the initial state (number 0) to a stuck one */
	parent = xmalloc(sizeof *parent * n);
	for (uint32_t i = 0; i < n; i++)
		parent[i] = NONE;
	uint32_t s = NONE;
	qh = qt = 0;
	order[qt++] = 0;
	parent[0] = 0;
	while (qh < qt && s == NONE) {
		uint32_t u = order[qh++];
		if (!done[u]) {
			s = u;
			break;
		}
		if (done[u] == 1) /* ended: its moves (in a recorded graph) are none */
			continue;
		for (uint64_t e = row[u]; e < row[u + 1]; e++)
			if (parent[dst[e]] == NONE)
				parent[dst[e]] = u, order[qt++] = dst[e];
	}
	/* stem: walk the parents back (the step into v is the edge u -> v
	** with the least index, found again from u's row) */
	uint32_t len = 0;
	for (uint32_t v = s; v != 0; v = parent[v])
		len++;
	/* 4: the loop; `order` now records each stuck state's position on it */
	for (uint32_t i = 0; i < n; i++)
		order[i] = NONE;
	uint32_t walk = 0, v = s;
	while (order[v] == NONE) {
		order[v] = walk++;
		v = dst[row[v]];
	}
	r->lasso.len = len + walk;
	r->lasso.step = xmalloc(sizeof *r->lasso.step * (r->lasso.len ? r->lasso.len : 1));
	r->cycle = len + order[v];
	uint32_t i = len;
	for (uint32_t w = s; w != 0; w = parent[w]) {
		uint32_t u = parent[w];
		uint64_t e = row[u];
		while (dst[e] != w)
			e++;
		r->lasso.step[--i] = via[e];
	}
	for (uint32_t w = s, k = 0; k < walk; k++, w = dst[row[w]])
		r->lasso.step[len + k] = via[row[w]];
	rc = 0;
out:
	free(own.row);
	free(own.dst);
	free(own.via);
	free(done);
	free(order);
	free(parent);
	free(rrow);
	free(rsrc);
	return rc;
}
