/*
** LAB, reconfigurable Local Atomic Buffers (Dalmia, Mahapatra, Sinclair,
** "Only Buffer When You Need To"; notes gpudet_lab.md Part B).  Each SM
** turns part of its L1 SRAM into a set-associative buffer that combines
** commutative atomics (`red.comm`, the spec's stand-in for the paper's
** memory_order_comm) before they reach the L2, and sends one combined
** atomic per word when an entry leaves.
**
** Per SM: lab_size entries in sets of lab_ways (LRU), lines of lab_line
** bytes.  An entry holds its line, its op and type (the paper's 4-bit
** atomic function), a valid-word mask and a partial value per word.
** lab_size = 0 is the baseline (every atomic bypasses), inf an unbounded
** buffer (one way per line of global memory: it never evicts for room).
**
** Events (a comm lane of a warp's red, lanes in order, III-A):
**   hit, same op        partial[w] = op(partial[w], v), LRU touch
**   hit, other op       send the entry's partials, re-allocate (op mismatch)
**   miss, free way      allocate without fetching: partial[w] = v
**   miss, set full      send the LRU entry's partials, re-allocate it
**   fence / bar.sync    the warp waits until the SM's LAB is empty and its
**                       sent partials were performed; meanwhile FLUSH
**   kernel end          (every warp done) FLUSH until every LAB is empty
**   unlabelled atomic   bypasses: straight to the ROP (rop.c), in the same
**                       per-SM FIFOs as the partials
** An entry leaves in one step and is reused at once ("as soon as the
** message is sent"); the partials reach the ROP through the interconnect
** FIFOs (icnt_order=fifo keeps them in order, notes B.4 L7).
**
**   INVALID --miss--> VALID(op) --hit same op--> VALID(op)
**   VALID(op) --mismatch | LRU victim--> VALID(op') [lab_take, evict]
**   VALID --FLUSH--> INVALID                       [apply]
**
** Action: FLUSH of SM s (unit: the SM's LAB) sends the first valid entry
** of the LAB (slot order; lines are distinct addresses, so the order among
** them changes no value) when a warp of s waits at a fence or bar.sync or
** when the kernel is over, and the FIFOs have room.
**
** Slice: per SM, sets x ways entries of struct lab_entry + words_per_line
** partials; then the ghost: per global word the baseline value B (u32)
** and a tag (u8): 0 no comm op yet, 1 + op*4 + type the one integer comm
** op seen, TAG_OFF not checked (fp32, mixed ops, an unlabelled atomic).
** B is what the word would hold had every comm lane so far been performed
** at the L2 when it issued.  No ghost when lab_size = 0.  The warps' loads
** and stores pass through lab (port mem) so that a plain store to such a
** word (a commutative race) takes it out of the check.
**
** Invariants:
**   LAB-1 conservation (notes B.4 L2): for every word with one integer comm
**         op o, L2 value o (partials of that word in flight from every SM)
**         o (partials of that word in every LAB) = B;
**   LAB-2 in each set the valid entries come first, sorted by line with no
**         line twice, in the set their line maps to, with a non-empty mask,
**         a combinable op and LRU ages 0..k-1 each once; unused entries,
**         words and tags' values are zero.
** A fence passes only with its SM's LAB empty and nothing it sent in
** flight (L3, port order); quiescent() keeps terminal states empty.
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "machines/alu.h"
#include "machines/atomic_entry.h"
#include "machines/component.h"
#include "util/strbuf.h"

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))
#define WC(c) (REQ(c, P_WARPS)->c)
#define ROP(c) ((const struct port_atomics *)port_ops(c, P_ATOMICS))
#define RC(c) (REQ(c, P_ATOMICS)->c)
#define MEM(c) ((const struct port_mem *)port_ops(c, P_MEM))
#define MC(c) (REQ(c, P_MEM)->c)

enum { TAG_OFF = 0xff };
enum { MUT_NONE, MUT_LOSE, MUT_DOUBLE };

/* One LAB entry; its partials follow it (words_per_line u32). */
struct lab_entry {
	uint32_t line;  /* address / lab_line                          */
	uint32_t mask;  /* valid words; 0: the entry is free           */
	uint8_t op;     /* enum atom_op                                */
	uint8_t type;   /* enum vtype                                  */
	uint8_t age;    /* LRU: 0 most recently used                   */
	uint8_t pad;
};
_Static_assert(sizeof(struct lab_entry) == 12, "LAB entry is 12 bytes");

struct lab {
	unsigned sets, ways, wpl; /* wpl: words per line */
	size_t ebytes;            /* an entry and its partials */
	size_t smbytes;           /* one SM's LAB */
	size_t ghost;             /* offset of B[], then tags */
	size_t race;              /* offset of the race records (comm_race) */
	unsigned words;           /* global words */
};

/* check comm_race_free: per global word, the first red.comm and the first
** unlabelled atomic that touched it in this kernel (warp + 1, 0: none). */
struct race_rec {
	uint16_t warp1, pc;
};
#define L(c) ((const struct lab *)(c)->priv)

static uint8_t *sm_lab(const struct comp *c, const uint8_t *sv, unsigned sm)
{
	return (uint8_t *)sv + c->off + L(c)->smbytes * sm;
}
static struct lab_entry *ent(const struct comp *c, uint8_t *base, unsigned set, unsigned way)
{
	return (struct lab_entry *)(base + L(c)->ebytes * ((size_t)set * L(c)->ways + way));
}
static uint32_t *part(struct lab_entry *e)
{
	return (uint32_t *)(e + 1);
}
static uint32_t *ghost_b(const struct comp *c, const uint8_t *sv)
{
	return (uint32_t *)(sv + c->off + L(c)->ghost);
}
static uint8_t *ghost_tag(const struct comp *c, const uint8_t *sv)
{
	return (uint8_t *)(sv + c->off + L(c)->ghost + 4 * (size_t)L(c)->words);
}

static struct race_rec *race_comm(const struct comp *c, const uint8_t *sv)
{
	return (struct race_rec *)(sv + c->off + L(c)->race);
}
static struct race_rec *race_other(const struct comp *c, const uint8_t *sv)
{
	return race_comm(c, sv) + L(c)->words;
}
static uint8_t *race_tag(const struct comp *c, const uint8_t *sv)
{
	return (uint8_t *)(race_other(c, sv) + L(c)->words);
}

static int combinable(unsigned op)
{
	return op == AT_ADD || op == AT_MIN || op == AT_MAX || op == AT_AND || op == AT_OR || op == AT_XOR;
}

/* Where an entry's partials go when it leaves: to the ROP (sv set), or
** counted per partition for the back-pressure dry run (sv NULL). */
struct sink {
	const struct comp *c;
	uint8_t *sv;
	unsigned sm;
	unsigned need[8];
	unsigned n[6]; /* statistics, CT_* */
};
enum { CT_HIT, CT_MISS, CT_MISMATCH, CT_CAPACITY, CT_LINES, CT_BYTES, CT_FLUSH };

static void evict(struct sink *k, struct lab_entry *e)
{
	const struct comp *c = k->c;
	unsigned line_bytes = c->g->cfg.lab_line;
	uint32_t first = e->line * line_bytes, last = first + line_bytes - 1;
	for (unsigned times = c->g->cfg.lab_mutant == MUT_DOUBLE ? 2 : 1; times--;) {
		/* one message per line: its address and the valid words */
		k->n[CT_LINES]++;
		k->n[CT_BYTES] += 8 + 4 * (unsigned)__builtin_popcount(e->mask);
		if (!k->sv && first / c->g->cfg.line_bytes == last / c->g->cfg.line_bytes) {
			/* counting, and the line lies in one partition */
			k->need[gpu_partition_of(c->g, first)] += (unsigned)__builtin_popcount(e->mask);
			continue;
		}
		for (unsigned w = 0; w < L(c)->wpl; w++) {
			if (!(e->mask >> w & 1))
				continue;
			struct atomic_entry a = { e->line * line_bytes + 4 * w, part(e)[w], 0, e->op, e->type, 0, 0, AE_LAB, 0 };
			if (k->sv)
				ROP(c)->send(RC(c), k->sv, k->sm, &a);
			else
				k->need[gpu_partition_of(c->g, a.addr)]++;
		}
	}
}

/* Make a set canonical: valid entries first, sorted by line (which way an
** entry landed in is history the hardware's function does not depend on).
** Within one access the set may be out of order; push() sorts at its end. */
static void set_sort(const struct comp *c, uint8_t *base, unsigned set)
{
	size_t eb = L(c)->ebytes;
	uint8_t tmp[sizeof(struct lab_entry) + 4 * 32];
	for (unsigned i = 1; i < L(c)->ways; i++)
		for (unsigned j = i; j > 0; j--) {
			struct lab_entry *a = ent(c, base, set, j - 1), *b = ent(c, base, set, j);
			if (!b->mask || (a->mask && a->line < b->line))
				break;
			memcpy(tmp, a, eb);
			memcpy(a, b, eb);
			memcpy(b, tmp, eb);
		}
}

/* Make e the most recently used of its set (touched with age t; a new
** entry comes in with age = ways, older than every valid one). */
static void lru_touch(const struct comp *c, uint8_t *base, unsigned set, struct lab_entry *e, unsigned t)
{
	for (unsigned w = 0; w < L(c)->ways; w++) {
		struct lab_entry *x = ent(c, base, set, w);
		if (x->mask && x != e && x->age < t)
			x->age++;
	}
	e->age = 0;
}

/* One comm lane a (address, op, type, value) into the SM's LAB at base. */
static void lab_take(struct sink *k, uint8_t *base, const struct atomic_entry *a)
{
	const struct comp *c = k->c;
	const struct lab *lb = L(c);
	unsigned line = a->addr / c->g->cfg.lab_line, w = a->addr % c->g->cfg.lab_line / 4, set = line % lb->sets;
	struct lab_entry *e = NULL, *victim = NULL, *free_way = NULL;
	for (unsigned i = 0; i < lb->ways; i++) {
		struct lab_entry *x = ent(c, base, set, i);
		if (!x->mask && !free_way)
			free_way = x;
		if (x->mask && x->line == line)
			e = x;
		if (x->mask && (!victim || x->age > victim->age))
			victim = x;
	}
	if (e && e->op == a->op && e->type == a->type) { /* hit, same op: combine */
		part(e)[w] = e->mask >> w & 1 ? alu_atomic(a->op, a->type, part(e)[w], a->arg, 0) : a->arg;
		e->mask |= 1u << w;
		lru_touch(c, base, set, e, e->age);
		k->n[CT_HIT]++;
		return;
	}
	unsigned age;
	if (e) { /* op mismatch: the old partials go first */
		age = e->age;
		k->n[CT_MISMATCH]++;
	} else if (free_way) { /* miss, a free way (allocate on write miss) */
		e = free_way;
		age = lb->ways;
		k->n[CT_MISS]++;
	} else { /* miss, set full: the LRU entry goes */
		e = victim;
		age = e->age;
		k->n[CT_MISS]++;
		k->n[CT_CAPACITY]++;
	}
	if (e->mask && c->g->cfg.lab_mutant != MUT_LOSE)
		evict(k, e);
	memset(e, 0, lb->ebytes);
	e->line = line;
	e->op = a->op;
	e->type = a->type;
	e->mask = 1u << w;
	part(e)[w] = a->arg;
	lru_touch(c, base, set, e, age);
}

/* {=== Port atomics: comm atomics into the LAB, the rest to the ROP ====== */

static int is_comm(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	return g->cfg.lab_size && g->prog->ins[gpu_pc(g, sv, w)].comm;
}

/* Warp w's comm atomic (lanes m) on a copy of its SM's LAB: what it would
** send (k->need) and its statistics, without changing sv. */
static void dry_run(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m, struct sink *k)
{
	const struct gpu *g = c->g;
	const struct instr *in = &g->prog->ins[gpu_pc(g, sv, w)];
	uint8_t *copy = xmalloc(L(c)->smbytes);
	memcpy(copy, sm_lab(c, sv, k->sm), L(c)->smbytes);
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
		if (m >> l & 1) {
			struct atomic_entry a = atomic_entry_of(c, sv, w, l, in);
			if (a.addr / 4 < L(c)->words) /* a faulting lane faults at push */
				lab_take(k, copy, &a);
		}
	free(copy);
}

/* Fast path of room(): an upper bound on what warp w's access can send.
** Only entries of the sets its lanes touch can leave, each at most once,
** plus what the access itself allocates (a word per lane). */
static void send_bound(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m, unsigned *need)
{
	const struct gpu *g = c->g;
	const struct lab *lb = L(c);
	uint8_t *base = sm_lab(c, sv, gpu_sm_of(g, w));
	unsigned sets[32], ns = 0, L = g->cfg.lab_line;
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
		if (!(m >> l & 1))
			continue;
		uint32_t a = WARPS(c)->address(WC(c), sv, w, l);
		unsigned set = a / L % lb->sets, dup = 0;
		need[gpu_partition_of(g, a)]++;
		for (unsigned k = 0; k < ns; k++)
			dup |= sets[k] == set;
		if (dup)
			continue;
		sets[ns++] = set;
		for (unsigned i = 0; i < lb->ways; i++) {
			struct lab_entry *e = ent(c, base, set, i);
			for (unsigned x = 0; x < lb->wpl; x++)
				if (e->mask >> x & 1)
					need[gpu_partition_of(g, e->line * L + 4 * x)]++;
		}
	}
}

static int room(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m)
{
	if (!is_comm(c, sv, w))
		return ROP(c)->room(RC(c), sv, w, m);
	unsigned bound[8] = { 0 };
	send_bound(c, sv, w, m, bound);
	if (ROP(c)->room_sent(RC(c), sv, gpu_sm_of(c->g, w), bound))
		return 1;
	/* what the lanes would evict must fit the FIFOs */
	struct sink k = { .c = c, .sm = gpu_sm_of(c->g, w) };
	dry_run(c, sv, w, m, &k);
	return ROP(c)->room_sent(RC(c), sv, k.sm, k.need);
}

/* The ghost baseline value of the word lane a touches (LAB-1). */
static void ghost_take(const struct comp *c, uint8_t *sv, const struct atomic_entry *a, int comm)
{
	unsigned x = a->addr / 4;
	uint8_t *tag = &ghost_tag(c, sv)[x], want = (uint8_t)(1 + a->op * 4 + a->type);
	uint32_t *b = &ghost_b(c, sv)[x];
	if (!comm || a->type == VT_F32 || (*tag && *tag != want)) {
		*tag = TAG_OFF; /* not checked: an unlabelled atomic, fp32 or mixed ops */
		*b = 0;
		return;
	}
	if (*tag == TAG_OFF)
		return;
	if (!*tag) /* nothing of it buffered or in flight yet: start from the L2 */
		*b = MEM(c)->load(MC(c), sv, SP_GLOBAL, 0, x);
	*tag = want;
	*b = alu_atomic(a->op, a->type, *b, a->arg, 0);
}

/* check comm_race_free: remember the first red.comm and the first
** unlabelled atomic on each word warp w's lanes m touch. */
static void race_record(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m, const struct instr *in)
{
	unsigned pc = gpu_pc(c->g, sv, w);
	for (unsigned l = 0; l < c->g->cfg.threads_per_warp; l++) {
		unsigned x = WARPS(c)->address(WC(c), sv, w, l) / 4;
		if (!(m >> l & 1) || x >= L(c)->words)
			continue;
		struct race_rec *r = in->comm ? &race_comm(c, sv)[x] : &race_other(c, sv)[x];
		if (r->warp1)
			continue;
		*r = (struct race_rec){ (uint16_t)(w + 1), (uint16_t)pc };
		if (in->comm)
			race_tag(c, sv)[x] = (uint8_t)(1 + in->aop * 4 + in->type);
	}
}

static int push(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m)
{
	const struct gpu *g = c->g;
	const struct instr *in = &g->prog->ins[gpu_pc(g, sv, w)];
	int comm = is_comm(c, sv, w);
	if (g->comm_race)
		race_record(c, sv, w, m, in);
	if (g->cfg.lab_size) {
		struct atomic_entry a[32];
		int n = atomic_entries(c, sv, w, m, in, a);
		if (n < 0)
			return PUSH_DONE; /* the warp faulted */
		for (int i = 0; i < n; i++)
			ghost_take(c, sv, &a[i], comm);
	}
	if (!comm)
		return ROP(c)->push(RC(c), sv, w, m);
	unsigned sm = gpu_sm_of(g, w);
	struct sink k = { .c = c, .sv = sv, .sm = sm };
	uint8_t *base = sm_lab(c, sv, sm);
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
		if (m >> l & 1) {
			struct atomic_entry a = atomic_entry_of(c, sv, w, l, in);
			lab_take(&k, base, &a);
		}
	for (unsigned set = 0; set < L(c)->sets; set++)
		set_sort(c, base, set);
	return PUSH_DONE; /* the instruction completes at the LAB */
}

static int owed(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return ROP(c)->owed(RC(c), sv, w);
}

static void timing_push(const struct comp *c, const uint8_t *sv, unsigned w, struct timing *t,
                        uint64_t (*rnd)(void *), void *rng)
{
	if (!is_comm(c, sv, w)) {
		ROP(c)->timing_push(RC(c), sv, w, t, rnd, rng);
		return;
	}
	/* the instruction completes at the LAB; its evictions cross the
	** interconnect */
	struct sink k = { .c = c, .sm = gpu_sm_of(c->g, w) };
	dry_run(c, sv, w, WARPS(c)->exec_mask(WC(c), sv, w), &k);
	ROP(c)->timing_send(RC(c), sv, k.sm, k.need, t, rnd, rng);
}

static void count_push(const struct comp *c, const uint8_t *sv, unsigned w, uint64_t *ct)
{
	if (!is_comm(c, sv, w))
		return;
	struct sink k = { .c = c, .sm = gpu_sm_of(c->g, w) };
	dry_run(c, sv, w, WARPS(c)->exec_mask(WC(c), sv, w), &k);
	for (unsigned i = 0; i < 6; i++)
		comp_count(c, ct, i, k.n[i]);
}

static const struct port_atomics atomics_ops = { room, push, owed, timing_push, NULL, NULL, NULL, NULL, count_push, NULL, NULL };

/* }=== */

/* {=== Port mem: the warps' plain accesses pass through ================== */

/* Loads and stores never look into the LAB (III-B); a store to a word with
** comm partials (a commutative race) only takes the word out of LAB-1. */
static void store(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, uint32_t v)
{
	if (sp == SP_GLOBAL && c->g->cfg.lab_size && ghost_tag(c, sv)[w]) {
		ghost_tag(c, sv)[w] = TAG_OFF;
		ghost_b(c, sv)[w] = 0;
	}
	MEM(c)->store(MC(c), sv, sp, cta, w, v);
}

static uint32_t rmw(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, enum atom_op op,
                    enum vtype t, uint32_t a, uint32_t b)
{
	return MEM(c)->rmw(MC(c), sv, sp, cta, w, op, t, a, b); /* shared atomics */
}

static const struct port_mem mem_ops = { mem_fwd_word, mem_fwd_load, store, rmw, NULL, NULL };

/* }=== */

/* {=== Ordering points ==================================================== */

static int sm_empty(const struct comp *c, const uint8_t *sv, unsigned sm)
{
	const uint8_t *b = sm_lab(c, sv, sm);
	for (unsigned i = 0; i < L(c)->sets * L(c)->ways; i++)
		if (((const struct lab_entry *)(b + L(c)->ebytes * i))->mask)
			return 0;
	return 1;
}

static int is_fence(enum opcode op)
{
	return op == OP_MEMBAR || op == OP_SFENCE || op == OP_BAR;
}

/* A fence or bar.sync (the paper's ordering points include barriers)
** passes once its SM's LAB is empty and its partials were performed. */
static int clear(const struct comp *c, const uint8_t *sv, unsigned w, enum opcode op)
{
	if (!c->g->cfg.lab_size || !is_fence(op))
		return 1;
	unsigned sm = gpu_sm_of(c->g, w);
	return sm_empty(c, sv, sm) && !ROP(c)->in_flight(RC(c), sv, sm, NULL, 0);
}

static const struct port_order order_ops = { clear };

/* Must SM sm's LAB flush now: a warp of it waits at a fence, or the
** kernel is over (every warp done)? */
static int must_flush(const struct comp *c, const uint8_t *sv, unsigned sm)
{
	const struct gpu *g = c->g;
	int all_done = 1;
	for (unsigned w = 0; w < g->nwarps; w++) {
		uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
		if (st != W_DONE)
			all_done = 0;
		if (st == W_WAIT && gpu_sm_of(g, w) == sm && is_fence(g->prog->ins[gpu_pc(g, sv, w)].op))
			return 1;
	}
	return all_done;
}

/* The entry a FLUSH of SM sm sends: the first valid one in slot order. */
static struct lab_entry *first_valid(const struct comp *c, const uint8_t *sv, unsigned sm, unsigned *set)
{
	uint8_t *b = sm_lab(c, sv, sm);
	for (unsigned s = 0; s < L(c)->sets; s++)
		if (ent(c, b, s, 0)->mask) {
			*set = s;
			return ent(c, b, s, 0);
		}
	return NULL;
}

/* }=== */

/* {=== Component ========================================================== */

static const struct kind_def kinds[] = { { "lab_flush", SELF | PORT(P_ATOMICS), 0 } };

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "lab_size", 8, 0, PARAM_INF, NULL, GP(lab_size), "LAB entries per SM (0: no LAB, every atomic goes to the L2; inf: unbounded)" },
	{ "lab_ways", 8, 1, 255, NULL, GP(lab_ways), "LAB associativity (a LAB smaller than this is one fully associative set)" },
	{ "lab_line", 128, 4, 128, NULL, GP(lab_line), "LAB line bytes (a power of two; one partial per 4-byte word)" },
	{ "lab_mutant", 0, 0, 2, "none|lose|double", GP(lab_mutant), "planted bug for testing LAB-1: lose (a victim's partials are dropped) or double (sent twice)" },
	{ "lat_lab", 1, 1, 10000, NULL, GP(lat_lab), "cycles a flush occupies the SM's LAB per entry (pipelined L1 reads: 1)" },
};

/* lab_size = inf: the lines the kernel's red.comm can reach (all global
** memory when one has no symbol to bound it). */
static unsigned comm_lines(const struct gpu *g)
{
	const struct program *p = g->prog;
	unsigned L = g->cfg.lab_line, n = 0;
	uint8_t *seen = xcalloc((size_t)p->nsyms + 1, 1);
	for (int i = 0; i < p->nins; i++) {
		const struct instr *in = &p->ins[i];
		if (in->comm && in->space == SP_GLOBAL)
			seen[in->addr.sym >= 0 ? (unsigned)in->addr.sym : (unsigned)p->nsyms] = 1;
	}
	if (seen[p->nsyms]) {
		n = (unsigned)(((size_t)p->global_words * 4 + L - 1) / L);
	} else {
		for (int k = 0; k < p->nsyms; k++)
			if (seen[k])
				n += (p->syms[k].base % L + 4 * p->syms[k].nelems + L - 1) / L;
	}
	free(seen);
	return n ? n : 1;
}

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	const struct gpu_cfg *cf = &g->cfg;
	struct lab *lb = xcalloc(1, sizeof *lb);
	c->priv = lb;
	*align = 4;
	if (cf->lab_line & (cf->lab_line - 1)) {
		diag_at(d, g->path, 0, 0, "lab_line (%u) must be a power of two", cf->lab_line);
		return -1;
	}
	lb->words = g->prog->global_words;
	lb->wpl = cf->lab_line / 4;
	lb->ebytes = sizeof(struct lab_entry) + 4 * (size_t)lb->wpl;
	/* the race records (only when the spec checks comm_race_free) */
	size_t race = g->comm_race ? (2 * sizeof(struct race_rec) + 1) * (size_t)lb->words : 0;
	if (!cf->lab_size)
		return (long)((race + 3) & ~(size_t)3);
	if (cf->lab_size == PARAM_INF) { /* a way for every line: never full */
		lb->sets = 1;
		lb->ways = comm_lines(g);
	} else if (cf->lab_size <= cf->lab_ways) {
		lb->sets = 1;
		lb->ways = cf->lab_size;
	} else if (cf->lab_size % cf->lab_ways) {
		diag_at(d, g->path, 0, 0, "lab_size (%u) must be a multiple of lab_ways (%u)", cf->lab_size, cf->lab_ways);
		return -1;
	} else {
		lb->sets = cf->lab_size / cf->lab_ways;
		lb->ways = cf->lab_ways;
	}
	if (lb->ways > 255 && cf->lab_size != PARAM_INF) {
		diag_at(d, g->path, 0, 0, "lab_ways (%u) must be at most 255", lb->ways);
		return -1;
	}
	/* one warp's access may evict up to one line per lane, a FIFO entry
	** per word: the FIFOs must take that (rop.c's own rule, for lanes) */
	unsigned worst = cf->threads_per_warp * lb->wpl, lines = lb->sets * lb->ways;
	if (lines < cf->threads_per_warp)
		worst = lines * lb->wpl;
	if (!cf->icnt_queue) {
		g->cfg.icnt_queue = worst > 2 * cf->threads_per_warp ? worst : 2 * cf->threads_per_warp;
	} else if (cf->icnt_queue < worst) {
		diag_at(d, g->path, 0, 0,
		        "icnt_queue (%u) must hold what one warp's access may evict: %u partials (lines x lab_line/4)",
		        cf->icnt_queue, worst);
		return -1;
	}
	lb->smbytes = lb->ebytes * lb->sets * lb->ways;
	lb->ghost = lb->smbytes * cf->sms;
	c->max_actions = cf->sms;
	c->units[0] = (struct pool_req){ "lab", cf->sms };
	c->subjects[0] = (struct pool_req){ "lab", cf->sms };
	lb->race = (lb->ghost + 5 * (size_t)lb->words + 3) & ~(size_t)3;
	return (long)((lb->race + race + 3) & ~(size_t)3);
}

static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before, (void)nb, (void)timed;
	if (!c->g->cfg.lab_size)
		return 0;
	unsigned n = 0;
	for (unsigned sm = 0; sm < c->g->cfg.sms; sm++) {
		unsigned set;
		struct lab_entry *e = first_valid(c, sv, sm, &set);
		if (!e || !must_flush(c, sv, sm))
			continue;
		struct sink k = { .c = c, .sm = sm };
		evict(&k, e);
		if (ROP(c)->room_sent(RC(c), sv, sm, k.need))
			out[n++] = (struct action){ (uint16_t)c->kind0, (uint16_t)(c->unit0[0] + sm), c->subj0[0] + sm, sm };
	}
	return n;
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	unsigned sm = a->arg, set;
	uint8_t *base = sm_lab(c, sv, sm);
	struct lab_entry *e = first_valid(c, sv, sm, &set);
	struct sink k = { .c = c, .sv = sv, .sm = sm };
	evict(&k, e);
	/* the others of its set move up one way and one LRU age */
	unsigned age = e->age;
	for (unsigned w = 0; w < L(c)->ways; w++) {
		struct lab_entry *x = ent(c, base, set, w);
		if (x->mask && x->age > age)
			x->age--;
	}
	memset(e, 0, L(c)->ebytes);
	for (unsigned w = 0; w + 1 < L(c)->ways; w++)
		memcpy(ent(c, base, set, w), ent(c, base, set, w + 1), L(c)->ebytes);
	memset(ent(c, base, set, L(c)->ways - 1), 0, L(c)->ebytes);
}

static int quiescent(const struct comp *c, const uint8_t *sv)
{
	for (unsigned sm = 0; c->g->cfg.lab_size && sm < c->g->cfg.sms; sm++)
		if (!sm_empty(c, sv, sm))
			return 0;
	return 1;
}

/* LAB-2 for one set; 1 with the reason. */
static int check_set(const struct comp *c, const uint8_t *sv, unsigned sm, unsigned s, struct strbuf *why)
{
	const struct lab *lb = L(c);
	uint8_t *b = sm_lab(c, sv, sm);
	unsigned k = 0, ages = 0;
	for (unsigned w = 0; w < lb->ways; w++) {
		struct lab_entry *e = ent(c, b, s, w);
		if (!e->mask) {
			for (size_t i = 0; i < lb->ebytes; i++)
				if (((uint8_t *)e)[i]) {
					sb_printf(why, "LAB-2: sm %u set %u way %u is free but not zero", sm, s, w);
					return 1;
				}
			continue;
		}
		if (w != k++ || (w && e->line <= ent(c, b, s, w - 1)->line) || e->line % lb->sets != s) {
			sb_printf(why, "LAB-2: sm %u set %u way %u (line %u) is out of order or in the wrong set", sm, s, w, e->line);
			return 1;
		}
		if (!combinable(e->op) || e->pad || e->age >= lb->ways || (lb->wpl < 32 && e->mask >> lb->wpl)) {
			sb_printf(why, "LAB-2: sm %u set %u way %u: bad op, age or mask", sm, s, w);
			return 1;
		}
		for (unsigned i = 0; i < lb->wpl; i++)
			if (!(e->mask >> i & 1) && part(e)[i]) {
				sb_printf(why, "LAB-2: sm %u set %u way %u: word %u is not valid but not zero", sm, s, w, i);
				return 1;
			}
		ages |= 1u << (e->age < 31 ? e->age : 31);
	}
	if (lb->ways <= 31 && ages != (1u << k) - 1) {
		sb_printf(why, "LAB-2: sm %u set %u: LRU ages 0x%x are not 0..%u once each", sm, s, ages, k ? k - 1 : 0);
		return 1;
	}
	return 0;
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	const struct lab *lb = L(c);
	if (!g->cfg.lab_size)
		return 0;
	for (unsigned sm = 0; sm < g->cfg.sms; sm++)
		for (unsigned s = 0; s < lb->sets; s++)
			if (check_set(c, sv, sm, s, why))
				return 1;
	/* LAB-1: fold each checked word's L2 value, partials in flight and
	** partials buffered, and compare with the ghost */
	unsigned cap = 4096, bad = 0;
	struct atomic_entry *fl = xmalloc(sizeof *fl * cap);
	uint32_t *acc = xmalloc(4 * (size_t)lb->words);
	const uint8_t *tag = ghost_tag(c, sv);
	for (unsigned x = 0; x < lb->words; x++)
		acc[x] = tag[x] && tag[x] != TAG_OFF ? MEM(c)->load(MC(c), sv, SP_GLOBAL, 0, x) : 0;
	for (unsigned sm = 0; sm < g->cfg.sms; sm++) {
		unsigned n = ROP(c)->in_flight(RC(c), sv, sm, fl, cap);
		for (unsigned i = 0; i < n && i < cap; i++) {
			unsigned x = fl[i].addr / 4;
			if (x < lb->words && tag[x] && tag[x] != TAG_OFF)
				acc[x] = alu_atomic((enum atom_op)fl[i].op, (enum vtype)fl[i].type, acc[x], fl[i].arg, 0);
		}
		uint8_t *b = sm_lab(c, sv, sm);
		for (unsigned i = 0; i < lb->sets * lb->ways; i++) {
			struct lab_entry *e = (struct lab_entry *)(b + lb->ebytes * i);
			for (unsigned w = 0; w < lb->wpl; w++) {
				unsigned x = (e->line * g->cfg.lab_line) / 4 + w;
				if (e->mask >> w & 1 && x < lb->words && tag[x] && tag[x] != TAG_OFF)
					acc[x] = alu_atomic((enum atom_op)e->op, (enum vtype)e->type, acc[x], part(e)[w], 0);
			}
		}
	}
	for (unsigned x = 0; x < lb->words && !bad; x++) {
		uint32_t want = ghost_b(c, sv)[x];
		if (tag[x] && tag[x] != TAG_OFF && acc[x] != want) {
			sb_printf(why, "LAB-1: word 0x%x: L2 value with the partials in flight and in the LABs is %u, "
			          "the baseline's %u (a partial lost or applied twice)", x * 4, acc[x], want);
			bad = 1;
		} else if ((!tag[x] || tag[x] == TAG_OFF) && want) {
			sb_printf(why, "LAB-2: word 0x%x: ghost value %u on an unchecked word", x * 4, want);
			bad = 1;
		}
	}
	free(fl);
	free(acc);
	return (int)bad;
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	static const char *const ops[] = { "add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor" };
	const struct lab *lb = L(c);
	for (unsigned sm = 0; c->g->cfg.lab_size && sm < c->g->cfg.sms; sm++) {
		uint8_t *b = sm_lab(c, sv, sm);
		for (unsigned i = 0; i < lb->sets * lb->ways; i++) {
			struct lab_entry *e = (struct lab_entry *)(b + lb->ebytes * i);
			if (!e->mask)
				continue;
			sb_printf(out, "  sm %u LAB line 0x%x %s:", sm, e->line * c->g->cfg.lab_line, ops[e->op % 10]);
			for (unsigned w = 0; w < lb->wpl; w++)
				if (e->mask >> w & 1) {
					sb_printf(out, " [0x%x]=", e->line * c->g->cfg.lab_line + 4 * w);
					value_print(part(e)[w], (enum vtype)e->type, out);
				}
			sb_printf(out, " (lru age %u)\n", e->age);
		}
	}
}

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	unsigned set;
	struct lab_entry *e = first_valid(c, sv, a->arg, &set);
	sb_printf(out, "sm %u LAB flushes line 0x%x to the L2", a->arg, e ? e->line * c->g->cfg.lab_line : 0);
}

/* A FLUSH reads one entry (an L1 access) and sends it. */
static void timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng)
{
	unsigned set;
	struct sink k = { .c = c, .sm = a->arg };
	evict(&k, first_valid(c, sv, a->arg, &set));
	t->busy = c->g->cfg.lat_lab;
	ROP(c)->timing_send(RC(c), sv, k.sm, k.need, t, rnd, rng);
}

static const char *const counters[] = { "LAB hits", "LAB misses", "LAB op-mismatch evicts",
	                                "LAB capacity evicts", "LAB lines sent to L2",
	                                "LAB bytes sent to L2", "LAB flushes" };

static void count(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	unsigned set;
	struct sink k = { .c = c, .sm = a->arg };
	evict(&k, first_valid(c, sv, a->arg, &set));
	comp_count(c, ct, CT_LINES, k.n[CT_LINES]);
	comp_count(c, ct, CT_BYTES, k.n[CT_BYTES]);
	comp_count(c, ct, CT_FLUSH, 1);
}

/* {=== check comm_race_free (notes B.4 L5) ============================== */

/* What warp w is about to do to global memory (0: nothing): 1 a plain
** access or an unlabelled atomic, 2 a red.comm. */
static int race_kind(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr **in)
{
	const struct gpu *g = c->g;
	unsigned pc = gpu_pc(g, sv, w);
	if (gpu_warp(g, (uint8_t *)sv, w)->status != W_READY || pc >= (unsigned)g->prog->nins)
		return 0;
	*in = &g->prog->ins[pc];
	enum opcode op = (*in)->op;
	if ((*in)->space != SP_GLOBAL || (op != OP_LD && op != OP_ST && op != OP_ATOM && op != OP_RED))
		return 0;
	return (*in)->comm ? 2 : 1;
}

static void race_name(const struct comp *c, struct strbuf *why, unsigned w, unsigned pc)
{
	const struct instr *in = &c->g->prog->ins[pc];
	sb_printf(why, "%s (warp %u, pc %u, line %d)", in->text, w, pc, in->line);
}

static int race_report(const struct comp *c, struct strbuf *why, unsigned x, unsigned w1, unsigned pc1, unsigned w2,
                       unsigned pc2)
{
	sb_printf(why, "commutative race on [0x%x]: ", x * 4);
	race_name(c, why, w1, pc1);
	sb_puts(why, " and ");
	race_name(c, why, w2, pc2);
	return 1;
}

/* A warp about to access a word that a red.comm of this kernel touched
** (or about to red.comm a word an unlabelled atomic or another op
** touched), or a red.comm and such an access enabled together.  A plain
** access ordered before every red.comm of its word is not seen. */
static int comm_race(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	const struct race_rec *rc = race_comm(c, sv), *ro = race_other(c, sv);
	const uint8_t *tag = race_tag(c, sv);
	for (unsigned w = 0; w < g->nwarps; w++) {
		const struct instr *in;
		int k = race_kind(c, sv, w, &in);
		if (!k)
			continue;
		unsigned pc = gpu_pc(g, sv, w);
		uint32_t m = WARPS(c)->exec_mask(WC(c), sv, w);
		for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
			unsigned x = WARPS(c)->address(WC(c), sv, w, l) / 4;
			if (!(m >> l & 1) || x >= L(c)->words)
				continue;
			if (k == 1 && rc[x].warp1)
				return race_report(c, why, x, rc[x].warp1 - 1u, rc[x].pc, w, pc);
			if (k == 1)
				continue;
			if (rc[x].warp1 && tag[x] != 1 + in->aop * 4 + in->type)
				return race_report(c, why, x, rc[x].warp1 - 1u, rc[x].pc, w, pc);
			if (ro[x].warp1)
				return race_report(c, why, x, ro[x].warp1 - 1u, ro[x].pc, w, pc);
			for (unsigned v = 0; v < g->nwarps; v++) {
				const struct instr *iv;
				if (v == w || race_kind(c, sv, v, &iv) != 1)
					continue;
				uint32_t mv = WARPS(c)->exec_mask(WC(c), sv, v);
				for (unsigned lv = 0; lv < g->cfg.threads_per_warp; lv++)
					if (mv >> lv & 1 && WARPS(c)->address(WC(c), sv, v, lv) / 4 == x)
						return race_report(c, why, x, w, pc, v, gpu_pc(g, sv, v));
			}
		}
	}
	return 0;
}

/* }=== */

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_ATOMICS ? (const void *)&atomics_ops
	       : p == P_ORDER ? (const void *)&order_ops
	       : p == P_MEM   ? (const void *)&mem_ops
	                      : NULL;
}

const struct comp_def comp_lab = {
	.name = "lab", .desc = "per-SM local atomic buffers combining red.comm before the L2 (LAB)",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.provides = PORT(P_ATOMICS) | PORT(P_ORDER) | PORT(P_MEM), .requires = PORT(P_MEM) | PORT(P_WARPS) | PORT(P_ATOMICS),
	.kinds = kinds, .nkinds = 1, .port_writes = SELF | PORT(P_ATOMICS) | PORT(P_WARPS) | PORT(P_MEM),
	.layout = layout, .enabled = enabled, .apply = apply, .quiescent = quiescent, .check = check,
	.describe = describe, .print = print, .timing = timing, .port = port,
	.counters = counters, .ncounters = sizeof counters / sizeof counters[0], .count = count,
	.comm_race = comm_race,
};

/* }=== */
