/*
** The distributed search (mpi.h): level-synchronous breadth-first search
** over the ranks of an Open MPI job.
**
** Partition.  Every state has one owner: a running state belongs to rank
** ((hash >> 32) * ranks) >> 32 of its XXH3 hash, a terminal or faulted one
** to rank 0.  The owner alone stores it (its own visited set, exact or
** compact), numbers it, keeps its parent link (rank, number, action) and
** expands it.  Rank 0 thus judges every terminal state with one judge,
** which compares them as in the sequential search (deterministic, exists,
** forall, outcomes, refines/equals: properties of the set of terminal
** states, not of one state); every other check (invariant, race_free,
** deadlock, --check-model) looks at one state and runs at its owner.
** Crash images are deduplicated on the rank that injects the crash and
** sent to rank 0, which keeps the run's set and judges each distinct image
** once, so crash_images is the sequential count.
**
** Order.  A level is expanded in rounds: each rank expands up to `batch`
** states of its share of the level, appending every successor (vector,
** hash, parent number, action) to the buffer of its owner; then all ranks
** meet in MPI_Alltoall (sizes) and MPI_Alltoallv (records), each puts what
** it received into its visited set (the new ones are its share of the next
** level) and one MPI_Allreduce tells every rank
** whether any rank has states of the level left, how many states the next
** level has, whether any rank found a violation or hit a limit.
**
** Termination.  Records travel only inside the round's collectives, so
** when a round ends nothing is in flight (MPI-2): the counts of the
** allreduce are exact, and "no rank has states of the level left and the
** next level is empty everywhere" means the search is over.  This is the
** counting barrier of a level-synchronous BFS; an asynchronous search
** (sends as successors appear, Safra's token to detect the end) would
** overlap computing and communicating, but its order would vary from run
** to run, and the level structure is what the sequential BFS has: the
** depth, the --max-depth cut and the test for a cycle (a move to a state of
** this level or an earlier one) carry over unchanged, and a trace is a
** shortest path.
**
** Limits are global: --max-states against the sum of the ranks' states,
** --memory against the sum of their bytes, --time and signals on any rank;
** each is checked once per round, so a limit is overshot by at most one
** round's states.  A violation stops every rank at the end of its round;
** the lowest rank that found one reports it, and its trace is assembled by
** following the parent links from rank to rank (one broadcast per step).
**
** Invariants:
**   MPI-1 a state is stored by exactly one rank, its owner, once.
**   MPI-2 when a round ends every record sent in it has been received and
**         put: no state is in flight between rounds.
**   MPI-3 every rank makes the same collective calls in the same order:
**         every decision to go on or stop is taken from an allreduce.
**   MPI-4 levels are expanded in order: no rank expands a state of level
**         L+1 before every rank has expanded all of level L.
*/
#include "config.h"
#include "explore/mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

#if HAVE_MPI

#include <mpi.h>

#include "state/hash.h"
#include "state/sideset.h"
#include "util/interrupt.h"

#define NO_RANK (-1)
#define ROUND_BYTES (1u << 20) /* records one rank sends in a round, about */

/* One record: a successor for its owner, or a crash image for rank 0;
** the vector (or image) follows. */
enum { REC_STATE, REC_CRASH };
struct rec {
	uint64_t hash;
	uint32_t from; /* the sender's number of the state it came from */
	uint16_t act;  /* the action, an index into that state's enabled list */
	uint16_t kind;
};

/* What every round's flags say (bitwise or over the ranks). */
enum { F_VIOLATION = 1, F_LIMIT = 2, F_CUT = 4, F_CYCLIC = 8, NFLAGS = 4 };

struct buf {
	uint8_t *b;
	size_t len, cap;
};

struct mpi_run {
	const struct model *m;
	const struct explore_opts *o;
	struct explore_result *r;
	struct visited *vs;
	const struct mpi_hooks *h;
	int rank, size;
	size_t rec;        /* bytes a record takes, payload included */
	/* parent links of this rank's states */
	int32_t *prank;
	uint32_t *pidx;
	uint16_t *pact;
	size_t pcap;
	/* this level's vectors and the next's (this rank's share) */
	struct buf cur, nxt;
	struct buf *out; /* per destination rank */
	int *scnt, *sdis, *rcnt, *rdis;
	struct buf sbuf, rbuf;
	struct sideset *images; /* crash images this rank has sent */
	uint8_t *next, *img;
	struct action *act;
	uint64_t *src_bh, *next_bh;
	/* the progress check's graph (with --livelock in exact mode): every
	** move into one of this rank's states, as (state, from rank, from
	** number), recorded by the owner as it receives the move */
	int record;
	uint32_t (*edge)[3];
	size_t nedges, ecap;
	int64_t level;     /* being expanded (-1: the round that seeds level 0) */
	uint64_t level_end; /* this rank's states of levels <= level: below it */
	int stop;          /* a hook said so */
	unsigned flags;
	double next_progress;
};

static int started;

static void stop_mpi(void)
{
	int done = 0;
	MPI_Finalized(&done);
	if (!done)
		MPI_Finalize();
}

int mpi_start(int argc, char **argv)
{
	(void)argc, (void)argv; /* this is the helper: MPI_Init needs neither */
	if (started)
		return 0;
	int init = 0;
	MPI_Initialized(&init);
	if (!init && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fputs("gpumc: --mpi: MPI_Init failed\n", stderr);
		return -1;
	}
	started = 1;
	atexit(stop_mpi);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* one report: rank 0's */
	if (rank && !freopen("/dev/null", "w", stdout))
		fclose(stdout);
	return 0;
}

int mpi_size(void)
{
	int n = 1;
	if (started)
		MPI_Comm_size(MPI_COMM_WORLD, &n);
	return n;
}

const char *mpi_refuse(const struct explore_opts *o)
{
	if (o->search == SEARCH_DFS)
		return "depth-first search is sequential";
	if (o->keep_going) /* litmus tests, the reference run of refines/equals */
		return "the outcome list keeps the sequential discovery order";
	return NULL;
}

/* {=== Buffers ============================================================ */

static uint8_t *buf_room(struct buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = b->cap ? b->cap : 4096;
		while (b->len + n > b->cap)
			b->cap *= 2;
		b->b = xrealloc(b->b, b->cap);
	}
	uint8_t *at = b->b + b->len;
	b->len += n;
	return at;
}

static void add(struct mpi_run *p, int dest, unsigned kind, uint64_t hash, uint32_t from, unsigned act,
                const uint8_t *payload, size_t n)
{
	uint8_t *at = buf_room(&p->out[dest], p->rec);
	struct rec h = { hash, from, (uint16_t)act, (uint16_t)kind };
	memcpy(at, &h, sizeof h);
	memcpy(at + sizeof h, payload, n);
}

static uint64_t held(const struct mpi_run *p)
{
	uint64_t b = p->pcap * (sizeof *p->prank + sizeof *p->pidx + sizeof *p->pact) + p->cur.cap + p->nxt.cap +
	             p->sbuf.cap + p->rbuf.cap + p->ecap * sizeof *p->edge;
	for (int d = 0; d < p->size; d++)
		b += p->out[d].cap;
	return b;
}

/* }=== */

/* The rank that owns state sv of hash h. */
static int owner(const struct mpi_run *p, const uint8_t *sv, uint64_t h)
{
	if (p->size == 1 || p->m->status(p->m, sv) != MS_RUNNING)
		return 0;
	return (int)(((h >> 32) * (uint64_t)p->size) >> 32);
}

static void link_state(struct mpi_run *p, uint32_t k, int from_rank, uint32_t from, uint16_t act)
{
	if (k >= p->pcap) {
		while (k >= p->pcap)
			p->pcap = p->pcap ? p->pcap * 2 : 4096;
		p->prank = xrealloc(p->prank, p->pcap * sizeof *p->prank);
		p->pidx = xrealloc(p->pidx, p->pcap * sizeof *p->pidx);
		p->pact = xrealloc(p->pact, p->pcap * sizeof *p->pact);
	}
	p->prank[k] = from_rank;
	p->pidx[k] = from;
	p->pact[k] = act;
}

/* Expand state k (vector sv) of the level, as explore.c's bfs() does; the
** successors go to the buffers of their owners. */
static void expand(struct mpi_run *p, const uint8_t *sv, uint32_t k)
{
	const struct model *m = p->m;
	size_t n = m->sv_size;
	if (m->status(m, sv) == MS_FAULT)
		return;
	unsigned na = m->enabled(m, sv, p->act);
	if (p->h->moves(p->h->ctx, sv, p->act, na, p->rank, k)) {
		p->stop = 1;
		return;
	}
	if (p->o->max_depth && p->level >= (int64_t)p->o->max_depth) {
		if (na)
			p->flags |= F_CUT;
		return;
	}
	if (!na)
		return;
	p->r->expanded++;
	state_hash_blocks(sv, n, p->src_bh);
	for (unsigned i = 0; i < na; i++) {
		if (p->act[i].kind == ACT_CRASH) {
			if (!m->durable)
				continue;
			int is_new;
			m->durable(m, sv, p->img);
			ss_put(p->images, p->img, m->durable_key, &is_new);
			if (is_new)
				add(p, 0, REC_CRASH, 0, k, i, p->img, m->durable_size);
			continue;
		}
		memcpy(p->next, sv, n);
		m->apply(m, p->next, &p->act[i]);
		p->r->transitions++;
		uint64_t hh = state_hash_delta(sv, p->src_bh, p->next, n, p->next_bh);
		add(p, owner(p, p->next, hh), REC_STATE, hh, k, i, p->next, n);
	}
}

/* What rank `from` sent: put the states, judge the crash images. */
static void receive(struct mpi_run *p, int from, const uint8_t *at, size_t len)
{
	size_t n = p->m->sv_size;
	for (const uint8_t *end = at + len; at < end && !p->stop; at += p->rec) {
		struct rec h;
		memcpy(&h, at, sizeof h);
		const uint8_t *sv = at + sizeof h;
		if (h.kind == REC_CRASH) {
			p->stop = p->h->crash(p->h->ctx, sv, from, h.from, h.act);
			continue;
		}
		int is_new;
		uint32_t k = vs_find_or_put(p->vs, sv, h.hash, &is_new);
		if (p->record && h.from != UINT32_MAX) {
			if (p->nedges == p->ecap) {
				p->ecap = p->ecap ? p->ecap * 2 : 4096;
				p->edge = xrealloc(p->edge, p->ecap * sizeof *p->edge);
			}
			uint32_t *e = p->edge[p->nedges++];
			e[0] = k, e[1] = (uint32_t)from, e[2] = h.from;
		}
		if (!is_new) {
			if (k < p->level_end)
				p->flags |= F_CYCLIC;
			continue;
		}
		link_state(p, k, from, h.from, h.act);
		memcpy(buf_room(&p->nxt, n), sv, n);
		if (p->level + 1 > (int64_t)p->r->depth)
			p->r->depth = (uint32_t)(p->level + 1);
		p->stop = p->h->discovered(p->h->ctx, sv, p->rank, k);
	}
}

/* Every buffer to its rank: what rank s sent lands in rbuf at rdis[s],
** rcnt[s] bytes (MPI-2). */
static void alltoall(struct mpi_run *p)
{
	size_t total = 0;
	for (int d = 0; d < p->size; d++) {
		p->scnt[d] = (int)p->out[d].len;
		p->sdis[d] = (int)total;
		total += p->out[d].len;
	}
	p->sbuf.len = 0;
	buf_room(&p->sbuf, total ? total : 1);
	for (int d = 0; d < p->size; d++)
		if (p->out[d].len) { /* (a buffer never used has no memory) */
			memcpy(p->sbuf.b + p->sdis[d], p->out[d].b, p->out[d].len);
			p->out[d].len = 0;
		}
	MPI_Alltoall(p->scnt, 1, MPI_INT, p->rcnt, 1, MPI_INT, MPI_COMM_WORLD);
	total = 0;
	for (int s = 0; s < p->size; s++) {
		p->rdis[s] = (int)total;
		total += (size_t)p->rcnt[s];
	}
	p->rbuf.len = 0;
	buf_room(&p->rbuf, total ? total : 1);
	p->rbuf.len = total;
	MPI_Alltoallv(p->sbuf.b, p->scnt, p->sdis, MPI_BYTE, p->rbuf.b, p->rcnt, p->rdis, MPI_BYTE, MPI_COMM_WORLD);
}

/* The round's exchange. */
static void exchange(struct mpi_run *p)
{
	alltoall(p);
	for (int s = 0; s < p->size; s++)
		receive(p, s, p->rbuf.b + p->rdis[s], (size_t)p->rcnt[s]);
}

/* A limit this rank sees by itself: a signal, --time. */
static void local_limits(struct mpi_run *p)
{
	if (interrupted)
		p->r->limit = interrupt_name();
	else if (p->o->time_limit > 0 && p->h->seconds(p->h->ctx) >= p->o->time_limit)
		p->r->limit = "--time";
	if (p->r->limit)
		p->flags |= F_LIMIT;
}

/* The broadcast of a string from root (on the others *s is replaced). */
static void bcast_str(char **s, int root, int rank)
{
	int len = rank == root && *s ? (int)strlen(*s) + 1 : 0;
	MPI_Bcast(&len, 1, MPI_INT, root, MPI_COMM_WORLD);
	if (rank != root) {
		free(*s);
		*s = len ? xmalloc((size_t)len) : NULL;
	}
	if (len)
		MPI_Bcast(*s, len, MPI_CHAR, root, MPI_COMM_WORLD);
}

/* Root's verdict, what failed, why, which limit ended the run and where
** its trace starts, on every rank. */
static void share(struct mpi_run *p, int root, struct mpi_at *at)
{
	static char limit[160]; /* r->limit is a constant string: the shared copy lives here */
	struct explore_result *r = p->r;
	int v[8] = { (int)r->verdict, r->failed, (int)r->failed_kind, r->witness, at->set, at->rank, at->extra,
		     r->limit != NULL };
	uint32_t idx = at->idx;
	MPI_Bcast(v, 8, MPI_INT, root, MPI_COMM_WORLD);
	MPI_Bcast(&idx, 1, MPI_UINT32_T, root, MPI_COMM_WORLD);
	bcast_str(&r->why, root, p->rank);
	if (p->rank == root && r->limit && r->limit != limit)
		snprintf(limit, sizeof limit, "%s", r->limit);
	if (v[7])
		MPI_Bcast(limit, sizeof limit, MPI_CHAR, root, MPI_COMM_WORLD);
	r->limit = v[7] ? limit : NULL;
	r->verdict = (enum verdict)v[0];
	r->failed = v[1];
	r->failed_kind = (enum prop_kind)v[2];
	r->witness = v[3];
	*at = (struct mpi_at){ v[4], v[5], idx, v[6] };
}

/* The lowest rank for which `mine` holds (size when none). */
static int lowest(const struct mpi_run *p, int mine)
{
	int me = mine ? p->rank : p->size, low;
	MPI_Allreduce(&me, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	return low;
}

static void progress_line(struct mpi_run *p, const uint64_t *sum)
{
	double t = p->h->seconds(p->h->ctx);
	if (p->rank || p->o->progress <= 0 || t < p->next_progress)
		return;
	p->next_progress = t + p->o->progress;
	fprintf(stderr, "gpumc: %.0f s: %llu states, %llu transitions, level %lld, %d ranks, %.0f states/s, %.1f MB\n",
	        t, (unsigned long long)sum[2], (unsigned long long)sum[3], (long long)p->level, p->size,
	        t > 0 ? (double)sum[2] / t : 0.0, (double)sum[4] / 1048576.0);
}

/* The rounds of every level until the search ends; returns the flags of
** the last round (over every rank). */
static unsigned rounds(struct mpi_run *p)
{
	const struct explore_opts *o = p->o;
	size_t n = p->m->sv_size, batch = ROUND_BYTES / (p->rec * (p->m->max_actions + 1));
	size_t pos = 0; /* the next state of this level to expand (an index into cur) */
	if (!batch)
		batch = 1;
	for (;;) {
		for (size_t b = 0; b < batch && pos * n < p->cur.len && !p->stop; b++, pos++)
			expand(p, p->cur.b + pos * n, (uint32_t)(p->level_end - p->cur.len / n + pos));
		exchange(p);
		if (p->stop)
			p->flags |= p->r->verdict == V_FAIL ? F_VIOLATION : F_LIMIT;
		local_limits(p);
		/* left in this level, next level, states, transitions, bytes, and
		** per flag the ranks that raise it: one allreduce a round */
		uint64_t mine[5 + NFLAGS] = { pos * n < p->cur.len, p->nxt.len / n, vs_count(p->vs), p->r->transitions,
			                      p->h->bytes(p->h->ctx) + held(p) },
			 sum[5 + NFLAGS];
		for (unsigned f = 0; f < NFLAGS; f++)
			mine[5 + f] = (p->flags >> f) & 1;
		MPI_Allreduce(mine, sum, 5 + NFLAGS, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
		unsigned flags = 0;
		for (unsigned f = 0; f < NFLAGS; f++)
			flags |= (sum[5 + f] != 0) << f;
		if (!(flags & (F_VIOLATION | F_LIMIT))) {
			if (o->max_states && sum[2] >= o->max_states)
				p->r->limit = "--max-states";
			else if (o->memory && sum[4] >= o->memory)
				p->r->limit = "--memory";
			if (p->r->limit)
				flags |= F_LIMIT;
		}
		progress_line(p, sum);
		if (flags & (F_VIOLATION | F_LIMIT) || (!sum[0] && !sum[1]))
			return flags;
		if (sum[0])
			continue;
		/* the next level (MPI-4) */
		struct buf t = p->cur;
		p->cur = p->nxt;
		p->nxt = t;
		p->nxt.len = 0;
		pos = 0;
		p->level++;
		p->level_end = vs_count(p->vs);
	}
}

struct mpi_run *mpi_bfs(const struct model *m, const struct explore_opts *o, struct explore_result *r,
                        struct visited *vs, const struct mpi_hooks *h, struct mpi_at *at, int *cut, int *cyclic)
{
	struct mpi_run *p = xcalloc(1, sizeof *p);
	size_t n = m->sv_size, nb = hash_nblocks(n), pay = n > m->durable_size ? n : m->durable_size;
	p->m = m;
	p->o = o;
	p->r = r;
	p->vs = vs;
	p->h = h;
	MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p->size);
	p->rec = (sizeof(struct rec) + pay + 7) / 8 * 8;
	p->out = xcalloc((size_t)p->size, sizeof *p->out);
	p->scnt = xcalloc((size_t)p->size * 4, sizeof(int));
	p->sdis = p->scnt + p->size;
	p->rcnt = p->sdis + p->size;
	p->rdis = p->rcnt + p->size;
	p->images = ss_new();
	p->next = xmalloc(n);
	p->img = xmalloc(m->durable_size ? m->durable_size : 1);
	p->act = xmalloc(sizeof *p->act * (m->max_actions + 1));
	p->src_bh = xmalloc(nb * sizeof *p->src_bh);
	p->next_bh = xmalloc(nb * sizeof *p->next_bh);
	p->level = -1;
	p->next_progress = o->progress;
	p->record = o->livelock && !o->compact;
	/* the seeding round: rank 0 sends the initial state to its owner */
	if (!p->rank) {
		m->init(m, p->next);
		uint64_t hh = state_hash_blocks(p->next, n, p->src_bh);
		add(p, owner(p, p->next, hh), REC_STATE, hh, UINT32_MAX, 0, p->next, n);
	}
	unsigned flags = rounds(p);
	*cut = (flags & F_CUT) != 0;
	*cyclic = (flags & F_CYCLIC) != 0;
	/* the depth, and one violation (the lowest rank's) or one limit on
	** every rank */
	uint32_t depth = r->depth;
	MPI_Allreduce(&depth, &r->depth, 1, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD);
	int root = lowest(p, r->verdict == V_FAIL);
	if (root == p->size)
		root = lowest(p, r->limit != NULL);
	if (root < p->size)
		share(p, root, at);
	return p;
}

/* The path to place `at`, following the parent links from rank to rank:
** the rank holding the state says where it came from (MPI-3: every rank
** takes each step's broadcast). */
static void path(struct mpi_run *p, const struct mpi_at *at, struct trace *t)
{
	size_t len = 0, cap = 64;
	uint16_t *steps = xmalloc(cap * sizeof *steps);
	if (at->extra >= 0)
		steps[len++] = (uint16_t)at->extra;
	int rank = at->rank;
	uint32_t idx = at->idx;
	for (;;) {
		int32_t link[3] = { NO_RANK, 0, 0 };
		if (p->rank == rank)
			link[0] = p->prank[idx], link[1] = (int32_t)p->pidx[idx], link[2] = p->pact[idx];
		MPI_Bcast(link, 3, MPI_INT32_T, rank, MPI_COMM_WORLD);
		if (link[1] == (int32_t)UINT32_MAX)
			break;
		if (len == cap)
			steps = xrealloc(steps, (cap *= 2) * sizeof *steps);
		steps[len++] = (uint16_t)link[2];
		rank = link[0];
		idx = (uint32_t)link[1];
	}
	free(t->step);
	t->len = (uint32_t)len;
	t->step = xmalloc((len ? len : 1) * sizeof *t->step);
	for (size_t i = 0; i < len; i++)
		t->step[i] = steps[len - 1 - i];
	free(steps);
}

/* {=== The progress check =============================================== */

/* The lasso of progress.c, over the ranks: the path to stuck state s of
** rank `root`, then from it the first move of each state until one
** repeats (every move of a stuck state leads to a stuck state).  The
** rank holding a state of the loop broadcasts its first move and the
** successor; the successor's owner finds its number. */
static void lasso(struct mpi_run *p, int root, uint32_t s, struct progress_result *r)
{
	const struct model *m = p->m;
	size_t n = m->sv_size, len = 0, cap = 64;
	struct mpi_at at = { 1, root, s, -1 };
	path(p, &at, &r->lasso);
	uint32_t (*walk)[2] = xmalloc(cap * sizeof *walk); /* (rank, number) */
	uint16_t *via = xmalloc(cap * sizeof *via);
	size_t loop = 0;
	for (;;) {
		for (loop = 0; loop < len && (walk[loop][0] != (uint32_t)at.rank || walk[loop][1] != at.idx); loop++)
			;
		if (loop < len)
			break;
		if (len == cap) {
			cap *= 2;
			walk = xrealloc(walk, cap * sizeof *walk);
			via = xrealloc(via, cap * sizeof *via);
		}
		walk[len][0] = (uint32_t)at.rank;
		walk[len][1] = at.idx;
		uint64_t hash = 0;
		int move[2] = { 0, 0 }; /* the action, the successor's owner */
		if (p->rank == at.rank) {
			const uint8_t *sv = vs_state(p->vs, at.idx);
			unsigned na = m->enabled(m, sv, p->act);
			while (move[0] < (int)na && p->act[move[0]].kind == ACT_CRASH)
				move[0]++;
			memcpy(p->next, sv, n);
			m->apply(m, p->next, &p->act[move[0]]);
			hash = state_hash_blocks(p->next, n, p->next_bh);
			move[1] = owner(p, p->next, hash);
		}
		MPI_Bcast(move, 2, MPI_INT, at.rank, MPI_COMM_WORLD);
		MPI_Bcast(&hash, 1, MPI_UINT64_T, at.rank, MPI_COMM_WORLD);
		MPI_Bcast(p->next, (int)n, MPI_BYTE, at.rank, MPI_COMM_WORLD);
		via[len++] = (uint16_t)move[0];
		at.rank = move[1];
		if (p->rank == at.rank)
			at.idx = vs_find(p->vs, p->next, hash);
		MPI_Bcast(&at.idx, 1, MPI_UINT32_T, at.rank, MPI_COMM_WORLD);
	}
	uint32_t stem = r->lasso.len;
	r->lasso.step = xrealloc(r->lasso.step, (stem + len) * sizeof *r->lasso.step);
	memcpy(r->lasso.step + stem, via, len * sizeof *via);
	r->lasso.len = stem + (uint32_t)len;
	r->cycle = stem + (uint32_t)loop;
	free(walk);
	free(via);
}

int mpi_progress(struct mpi_run *p, int (*limit)(void *ctx, size_t bytes), void *ctx, struct progress_result *r)
{
	memset(r, 0, sizeof *r);
	uint32_t n = (uint32_t)vs_count(p->vs);
	uint8_t *done = xcalloc(n ? n : 1, 1);
	/* the moves into each state, by state: pred[prow[k] .. prow[k + 1]) */
	uint64_t *prow = xcalloc((size_t)n + 1, sizeof *prow);
	uint32_t (*pred)[2] = xmalloc((p->nedges ? p->nedges : 1) * sizeof *pred);
	uint32_t *front = xmalloc((n ? n : 1) * sizeof *front), nf = 0;
	for (size_t e = 0; e < p->nedges; e++)
		prow[p->edge[e][0] + 1]++;
	for (uint32_t k = 0; k < n; k++)
		prow[k + 1] += prow[k];
	for (size_t e = 0; e < p->nedges; e++) {
		uint32_t *to = pred[prow[p->edge[e][0]]++];
		to[0] = p->edge[e][1], to[1] = p->edge[e][2];
	}
	for (uint32_t k = n; k > 0; k--) /* prow[k] ran to the end of k's block */
		prow[k] = prow[k - 1];
	prow[0] = 0;
	/* backwards from every ended state, a level a round (rank 0 owns them) */
	uint64_t ndone = 0;
	for (uint32_t k = 0; k < n; k++)
		if (p->m->status(p->m, vs_state(p->vs, k)) != MS_RUNNING)
			done[k] = 1, front[nf++] = k;
	size_t bytes = n + ((size_t)n + 1) * sizeof *prow + p->nedges * sizeof *pred + (size_t)n * sizeof *front;
	int rc = 0;
	for (;;) {
		ndone += nf;
		for (uint32_t i = 0; i < nf; i++)
			for (uint64_t e = prow[front[i]]; e < prow[front[i] + 1]; e++)
				memcpy(buf_room(&p->out[pred[e][0]], sizeof pred[e][1]), &pred[e][1], sizeof pred[e][1]);
		nf = 0;
		alltoall(p);
		for (size_t i = 0; i < p->rbuf.len; i += sizeof(uint32_t)) {
			uint32_t k;
			memcpy(&k, p->rbuf.b + i, sizeof k);
			if (!done[k])
				done[k] = 2, front[nf++] = k;
		}
		uint64_t mine[2] = { nf, limit(ctx, bytes + held(p)) != 0 }, sum[2];
		MPI_Allreduce(mine, sum, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
		if (sum[1]) { /* a limit: its name on every rank */
			struct mpi_at none = { 0, 0, 0, -1 };
			share(p, lowest(p, p->r->limit != NULL), &none);
			rc = -1;
			break;
		}
		if (!sum[0])
			break;
	}
	uint64_t mine[2] = { n - ndone, p->nedges }, sum[2];
	MPI_Allreduce(mine, sum, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	r->stuck = sum[0];
	r->edges = sum[1];
	r->bytes = bytes;
	if (!rc && r->stuck) {
		int root = lowest(p, n > ndone);
		uint32_t s = 0;
		while (p->rank == root && done[s])
			s++;
		MPI_Bcast(&s, 1, MPI_UINT32_T, root, MPI_COMM_WORLD);
		lasso(p, root, s, r);
	}
	free(done);
	free(prow);
	free(pred);
	free(front);
	return rc;
}

/* }=== */

void mpi_finish(struct mpi_run *p, struct explore_result *r, struct mpi_at *at, const struct mpi_at *first_at,
                struct trace *first)
{
	/* rank 0 judged every terminal state: its verdict (judge_finish) is
	** the run's */
	share(p, 0, at);
	struct mpi_at f = *first_at;
	int ff[3] = { f.set, (int)f.idx, f.extra };
	MPI_Bcast(ff, 3, MPI_INT, 0, MPI_COMM_WORLD);
	f = (struct mpi_at){ ff[0], 0, (uint32_t)ff[1], ff[2] };
	uint64_t mine[6] = { r->states, r->transitions, r->terminals, r->crash_images, r->expanded, r->bytes + held(p) },
		 sum[6];
	MPI_Allreduce(mine, sum, 6, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	r->states = sum[0];
	r->transitions = sum[1];
	r->terminals = sum[2];
	r->crash_images = sum[3];
	r->expanded = sum[4];
	r->bytes = sum[5];
	double om = r->omission; /* collisions happen within one rank's set */
	MPI_Allreduce(&om, &r->omission, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if ((r->verdict == V_FAIL || r->witness) && at->set && r->failed_kind != P_PROGRESS)
		path(p, at, &r->trace);
	if (r->verdict == V_FAIL && r->failed_kind == P_DETERMINISTIC && f.set)
		path(p, &f, first);
	for (int d = 0; d < p->size; d++)
		free(p->out[d].b);
	free(p->out);
	free(p->scnt);
	free(p->cur.b);
	free(p->nxt.b);
	free(p->sbuf.b);
	free(p->rbuf.b);
	free(p->edge);
	free(p->prank);
	free(p->pidx);
	free(p->pact);
	ss_free(p->images);
	free(p->next);
	free(p->img);
	free(p->act);
	free(p->src_bh);
	free(p->next_bh);
	free(p);
}

#else /* !HAVE_MPI */

#include <unistd.h>

/* gpumc itself links no MPI (Makefile.am): under --mpi it becomes the
** helper gpumc-mpi, this file compiled with MPI.  Which helper: the build
** tree's when this gpumc is the build tree's own (GPUMC_BUILDDIR/gpumc,
** running uninstalled), else the installed one in PKGLIBEXECDIR -- never
** a gpumc-mpi that happens to lie beside a copied or moved binary, which
** would run with this process's arguments and environment.  The same
** process, so mpirun's rank sees no change. */
static const char *helper(char *buf, size_t size)
{
#ifdef GPUMC_BUILDDIR
	char own[4096];
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	if (n > 0 && realpath(GPUMC_BUILDDIR "/gpumc", own)) {
		buf[n] = 0;
		if (!strcmp(buf, own))
			return GPUMC_BUILDDIR "/gpumc-mpi";
	}
#else
	(void)buf, (void)size;
#endif
#ifdef PKGLIBEXECDIR
	return PKGLIBEXECDIR "/gpumc-mpi";
#else /* compiled outside the Makefile (t/fuzz-lf.sh's harness): none */
	return "gpumc-mpi (this gpumc was compiled outside the Makefile)";
#endif
}

/* The helper runs the same command: path, then the command's arguments
** as main passed them on (argv[0] is the command). */
int mpi_start(int argc, char **argv)
{
	char buf[4096];
	const char *path = helper(buf, sizeof buf);
	if (!access(path, X_OK)) {
		char **args = xmalloc(sizeof *args * ((size_t)argc + 2));
		args[0] = (char *)path;
		memcpy(args + 1, argv, sizeof *args * (size_t)argc);
		args[argc + 1] = NULL;
		fflush(NULL);
		execv(path, args);
		free(args);
	}
	fprintf(stderr,
	        "gpumc: --mpi: no helper %s (gpumc-mpi: the build tree's for the build tree's gpumc, else the "
	        "installed one; never one beside a copied gpumc): this gpumc was built without MPI, or is not "
	        "installed; install the Debian packages openmpi-bin and libopenmpi-dev and run configure again, "
	        "or make install\n",
	        path);
	return -1;
}

int mpi_size(void)
{
	return 1;
}

const char *mpi_refuse(const struct explore_opts *o)
{
	(void)o;
	return "this gpumc was built without MPI";
}

#endif
