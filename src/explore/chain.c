/*
** Chains of local steps (statement merging, SPIN's default reduction:
** -o3 turns it off there).  A state expanded with an ample set of one
** local action (explore.c's partial-order reduction) leads to a state
** that is often expanded the same way again: a warp's run of ALU steps,
** branches and loads of memory nothing writes.  Such a run is one move:
** from the successor of a local step (the ample step, or a local action
** of a full expansion: CH-5), chain_follow keeps taking the ample action
** of each state without storing it (no hash, no look-up, no judging),
** and only the chain's end is stored.  Lane-reduction 3x1x4 stored
** 100,514 states with single ample steps, 87 K of them in the middle of
** such runs; with chains 35,106, the 130,809 transitions taken being the
** same (13,306 following every successor, CH-5, at twice D2's CPU).
**
** States: a chain's intermediate states are not in the visited set; the
** stored state it leaves (the start) and its end are.  Transitions: a
** chain is one move of the start, whose end is what explore.c's proviso
** sees (numbered after the start, BFS; off the stack, DFS; in the next
** level, multi-core); each step after the first is an ample step of its
** own state.
**
** Invariants (why every verdict stays what single ample steps give):
**   CH-1 every step of a chain after the first is chain_ample's choice in
**        its state: a local action (model.h: independent of all else,
**        invisible to the properties, to status and to the durable
**        image), or one the model lets alone (model.h, alone: the same,
**        but it may write a location only terminal states are judged
**        on), not a crash, whose successor is running.  So an
**        intermediate state is never terminal, faulted or a deadlock (it
**        has a move), its crashes leave the image the end's crashes leave
**        (judged when the end is expanded), an invariant or outcome
**        location has the value it has at the chain's end (a local step
**        writes no observed location: compose.c, m_local), a race_free
**        violation at an intermediate state persists to the end (the
**        argument of explore.c for one local step, step by step), and a
**        persist_order record is not touched by a local step.  Judging
**        the end judges the chain.
**   CH-2 (cycle proviso) a chain is at most CHAIN_MAX steps, so a cycle
**        of the reduced graph (intermediate states included) made of
**        local steps passes through a stored state, as does every other
**        cycle.  Each stored state of the cycle either was expanded in
**        full or left by a move the proviso accepted (numbers grow, BFS;
**        off the stack, DFS; next level, multi-core), and those cannot
**        all hold around a cycle: every cycle of the reduced graph has a
**        fully expanded state, the proviso of the ample-set theorem.  A
**        chain that comes back to its start fails the proviso: the start
**        is expanded in full.
**   CH-3 chains are deterministic: the same state after the first step
**        gives the same chain (chain_ample takes the first candidate in
**        enabled()'s order, model.h asks that order to be deterministic).
**        A move stores only its first action with CHAIN_BIT; traces are
**        unfolded by re-executing (chain_unfold), so every trace, `replay`
**        and the two-trace determinism report list every action index.
**   CH-4 the progress check's re-expansion (progress.c) follows the same
**        chain from a successor that is not stored, so a stored state's
**        chain move is in its graph.
** Chains are off (max 1) with --por=nochain, --check-model (the contract
** is checked on every state) and for a model with more than 32767 actions
** (the index's spare bit).  The depth reported and --max-depth count
** moves, a chain being one.
*/
#include "config.h"
#include "explore/chain.h"

#include <stdlib.h>
#include <string.h>

#include "state/trace.h"
#include "util/strbuf.h"

/* May action a of sv be taken alone (model.h: local, or alone)? */
static int single(const struct chain *ch, const uint8_t *sv, const struct action *a)
{
	const struct model *m = ch->m;
	return a->kind != ACT_CRASH && (m->local(m, sv, a, ch->obs, ch->nobs) ||
	                                (m->alone && m->alone(m, sv, a, ch->inv, ch->ninv)));
}

int chain_ample(const struct chain *ch, const uint8_t *sv, const struct action *act, unsigned na, uint8_t *next)
{
	const struct model *m = ch->m;
	for (unsigned i = 0; i < na; i++) {
		if (!single(ch, sv, &act[i]))
			continue;
		memcpy(next, sv, m->sv_size);
		m->apply(m, next, &act[i]);
		if (m->status(m, next) == MS_RUNNING)
			return (int)i;
	}
	return -1;
}

int chain_after(const struct chain *ch, const uint8_t *sv, const struct action *a)
{
	return ch->max > 1 && (ch->m->alone ? a->kind != ACT_CRASH : single(ch, sv, a));
}

unsigned chain_follow(const struct chain *ch, uint8_t *sv, uint8_t *tmp, struct action *act, uint16_t *steps)
{
	const struct model *m = ch->m;
	unsigned n = 0;
	uint8_t *cur = sv, *alt = tmp; /* each step into the other one */
	while (n + 1 < ch->max) {
		unsigned na = m->enabled(m, cur, act);
		int a = chain_ample(ch, cur, act, na, alt);
		if (a < 0)
			break;
		uint8_t *t = cur;
		cur = alt;
		alt = t;
		if (steps)
			steps[n] = (uint16_t)a;
		n++;
	}
	if (cur != sv)
		memcpy(sv, cur, m->sv_size);
	return n;
}

void chain_unfold(const struct chain *ch, struct trace *t, uint32_t *mark)
{
	uint32_t last = t->len; /* the last chain: re-execute up to it only */
	for (uint32_t i = 0; i < t->len; i++)
		if (t->step[i] & CHAIN_BIT)
			last = i;
	if (last == t->len)
		return;
	const struct model *m = ch->m;
	uint8_t *sv = xmalloc(m->sv_size), *tmp = xmalloc(m->sv_size);
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	uint16_t *out = xmalloc(sizeof *out * ((size_t)t->len * ch->max));
	uint32_t n = 0, newmark = mark ? *mark : 0;
	m->init(m, sv);
	for (uint32_t i = 0; i < t->len; i++) {
		if (mark && i == *mark)
			newmark = n;
		unsigned a = t->step[i] & ~CHAIN_BIT;
		out[n++] = (uint16_t)a;
		if (i > last)
			continue;
		m->enabled(m, sv, act);
		m->apply(m, sv, &act[a]);
		if (t->step[i] & CHAIN_BIT)
			n += chain_follow(ch, sv, tmp, act, out + n);
	}
	if (mark && *mark >= t->len)
		newmark = n;
	if (mark)
		*mark = newmark;
	free(t->step);
	t->step = out;
	t->len = n;
	free(sv);
	free(tmp);
	free(act);
}
