/*
** Components: one hardware mechanism each, composed into a machine by
** compose.c from a wiring row of registry.c.  The explorer never sees a
** component; it sees the struct model the composer builds.
**
** A component is a descriptor (struct comp_def): its parameter rows, the
** ports it provides and requires, its action kinds with the slices each
** kind may write (declared, PINS-style, and verified by --check-model), and
** the functions below.  Components talk to each other only through named
** ports: small function tables (struct port_*) that a provider returns
** from port() and that the composer binds to the requirer's slots in the
** order the wiring row names them.
**
** Ports:
**   mem      word, load, store, rmw (SC memory; persist wraps it)
**   atomics  room, push, owed, timing_push (ROP; DAB buffers; LAB), and
**            room_sent, send, in_flight for a LAB's own partials (ROP)
**   order    clear(w, op): may warp w pass a fence-like instruction?
**            (several providers: the warp passes when all agree)
**   gate     may_issue(w) (several providers: persist's launch and l2wb)
**   warps    status, pc, exec mask, operands, registers, advance, wait,
**            resume -- the warp alone decides how it resumes
**   pm       persistency instructions (clwb, st.wt, l2wb) and their timing
**   barrier  arrive(cta): release the CTA's warps when all arrived
**   issue    is_issue(a): which warp an action issues (for before[])
**   sbuf     a warp's global load and store through its private store
**            buffer, and the log the commit reads (GPUDet)
**   quantum  the GPUDet mode, and a warp's commit depth in this quantum
**   grid     which CTA of the kernel a hardware CTA position runs, and
**            the CTA dispatcher's pending launches (cta_dispatch.c)
**
** The vector: each component with state owns one slice [off, off+size),
** aligned to its `align` (see the alignment rule in explore/model.h).
*/
#ifndef GPUMC_COMPONENT_H
#define GPUMC_COMPONENT_H

#include <stddef.h>
#include <stdint.h>

#include "explore/model.h"
#include "machines/alu.h"
#include "machines/gpu.h"
#include "machines/registry.h"

struct atomic_entry;
struct comp;
struct strbuf;

/* Port names; a component's provides/requires are masks of these. */
enum port {
	P_MEM, P_ATOMICS, P_ORDER, P_GATE, P_WARPS, P_PM, P_BARRIER, P_ISSUE, P_SBUF, P_QUANTUM, P_GRID, P_NPORTS
};
#define PORT(p) (1u << (p))
/* Ports that take several providers (all consulted). */
#define MULTI_PORTS (PORT(P_ORDER) | PORT(P_GATE))
#define MAX_BIND 4

/* A bound port: the provider and its function table. */
struct bind {
	const struct comp *c;
	const void *ops;
};

/* Kind flags. */
enum {
	KF_ENV = 1 /* an environment choice (eviction): no progress, never timed */
};

/* One action kind of a component: what its apply() may write, as a mask
** of the component's own slice (bit P_NPORTS, "self") and of the ports
** whose providers it calls (their slices, transitively, may change). */
#define SELF (1u << P_NPORTS)
struct kind_def {
	const char *name;
	unsigned writes; /* SELF | PORT(...) */
	unsigned flags;
};

/* Concrete-mode unit and subject pools: named, allocated by the composer
** in wiring order; components that name the same pool share its ids (the
** WPQ drains of a partition and its ROP are one unit). */
struct pool_req {
	const char *name;
	unsigned count;
};

struct comp_def {
	const char *name;
	const char *desc;
	const struct param_def *params; /* rows into struct gpu_cfg */
	unsigned nparams;
	unsigned provides, requires, optional; /* port masks */
	const struct kind_def *kinds;
	unsigned nkinds;
	/* What a call into one of its provided ports may write (SELF and the
	** ports it calls in turn); --check-model closes this transitively. */
	unsigned port_writes;
	/* Size this instance: its slice (return bytes, set *align), its
	** private data (c->priv), its action bound (c->max_actions) and its
	** pools (c->units / c->subjects).  -1 with a message in d. */
	long (*layout)(struct comp *c, struct gpu *g, size_t *align, struct diag *d);
	/* Optional: the composer placed the slice at c->off. */
	void (*place)(struct comp *c, struct gpu *g);
	void (*init)(const struct comp *c, uint8_t *sv);
	/* Append enabled actions; before[0..nb) are those of the components
	** earlier in the wiring row (cross-component guards read them). */
	unsigned (*enabled)(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
	                    struct action *out, int timed);
	void (*apply)(const struct comp *c, uint8_t *sv, const struct action *a);
	/* Owes nothing: the machine is terminal when every component is. */
	int (*quiescent)(const struct comp *c, const uint8_t *sv);
	/* Optional: is the machine faulted (a warp hit an error)? */
	int (*faulted)(const struct comp *c, const uint8_t *sv);
	/* Numbered invariants: 0, or 1 with "NAME-n: what" in why. */
	int (*check)(const struct comp *c, const uint8_t *sv, struct strbuf *why);
	void (*describe)(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out);
	void (*print)(const struct comp *c, const uint8_t *sv, struct strbuf *out);
	/* Optional: "note: ..." lines on the kernel as a whole, printed with
	** a violation of property kind failed (enum prop_kind): what lies
	** outside the machine's guarantee. */
	void (*notes)(const struct comp *c, int failed, struct strbuf *out);
	/* Optional: model.race for the accesses this component performs. */
	int (*race)(const struct comp *c, const uint8_t *sv, struct strbuf *why);
	void (*timing)(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
	               uint64_t (*rnd)(void *), void *rng);
	/* Still enabled after other units' actions of the same cycle? */
	int (*still_enabled)(const struct comp *c, const uint8_t *sv, const struct action *a);
	const char *const *counters; /* merged by name across components */
	unsigned ncounters;
	void (*count)(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct);
	/* Optional, concrete mode (model.step): timing, then count, of a, and
	** the warps port's local for the warp it issues where its kinds are
	** issues (port_issue.is_issue), else NULL (dab.c: one call, not two);
	** NULL: asked one by one. */
	const struct instr *(*prepare)(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
	                               uint64_t (*rnd)(void *), void *rng, uint64_t *ct);
	/* Optional, concrete mode (model.issue, every action of the kind):
	** prepare, then apply, of a warp's issue in one call, its answer
	** model.issue's (1, 2 where it faulted the warp), where gpu.alone
	** says so for the pc it issues (compose.c's por_pc 1 or 3, and
	** alone_at(pc) that the component can); else compose_issue_apart's
	** (reach for it alone).  The same timing, counts, draws of rnd and
	** vector as the two (WARP-8, compose.c).  The component's kinds are
	** issues of its P_WARPS provider's warps, its subjects (scheduler.h:
	** warps_issue_alone). */
	int (*issue_alone)(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
	                   uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach);
	int (*alone_at)(const struct comp *c, unsigned pc);
	/* Optional, concrete mode (model.issue) for kinds that are not warp
	** issues (no issue_alone): prepare, reach and apply of a in one call,
	** *reach model.step's, the answer model.issue's (dab.c: a DRAIN on
	** one lookup of its FIFO).  The same timing, counts, reach and vector
	** as the three asked apart; the component checks that itself under
	** GPUMC_CHECK_READY (dab.c, DAB-WHOLE). */
	int (*issue_whole)(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
	                   uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach);
	/* Optional, concrete mode: whether enabled() at a clock (timed_now's
	** now not UINT64_MAX) lists only what can issue then, one action a
	** unit at most, units in increasing order (timed_now.listed_now:
	** GTO's pick alone, readyset.c).  NULL: not so. */
	int (*lists_now)(const struct comp *c);
	/* Optional, concrete mode: `cycles` cycles passed in state sv. */
	void (*tick)(const struct comp *c, const uint8_t *sv, uint64_t cycles, uint64_t *ct);
	/* Crash support: project the durable part of sv into img. */
	void (*durable)(const struct comp *c, const uint8_t *sv, uint8_t *img);
	int (*recover)(const struct comp *c, uint8_t *img, int (*bad)(void *ctx, const uint8_t *sv), void *ctx,
	               struct strbuf *why); /* model.recover */
	int (*reexecute)(const struct comp *c, uint8_t *img, struct strbuf *why);
	int (*idempotent)(const struct comp *c, struct strbuf *why);
	/* Optional: rewrite the kernel before layout (g->prog may be replaced
	** by a private copy in g->own); -1 with a message. */
	int (*rewrite)(struct gpu *g, struct strbuf *err);
	/* The function table of a provided port. */
	const void *(*port)(const struct comp *c, enum port p);
	/* Partial-order reduction: this component's declaration that warp w's
	** issue of warp-local instruction `in` (port_warps.local) is
	** independent of it: none of its actions, guards or port calls reads
	** what that issue writes (w's registers and SIMT stack; w stays READY
	** with the same live lanes, or, at an exit, retires whole: DONE with
	** an empty stack), none can disable the issue, and what it keeps
	** durable does not change.  NULL: not declared, and a machine
	** with such a component is never reduced (compose.c, m_local).  The
	** answer may depend only on `in` and the configuration: compose.c
	** asks once per instruction when it builds the machine (sv NULL, w
	** UINT_MAX). */
	int (*por)(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in);
	/* Partial-order reduction beyond warp-local issues (optional; model.h,
	** alone): may its action a, enabled in sv, be taken alone when only
	** the locations inv[0..ninv) are observed in running states?  Asked
	** only in a machine whose every component sets por_atomics; with sv
	** NULL, when the machine is built: may it ever say yes? */
	int (*alone)(const struct comp *c, const uint8_t *sv, const struct action *a, const int *inv, unsigned ninv);
	/* Its declaration for alone (rop.c): none of its actions or guards
	** reads or writes a global word but as a warp's ld, st, atom or red
	** naming that word's variable does (the ROP performing the atom or
	** red), nor an atomics FIFO or a warp's pending count but through the
	** atomics port, and nothing of it is durable. */
	int por_atomics;
	/* Optional: model.step's reach for its actions (NULL: any SM). */
	int (*reach)(const struct comp *c, const uint8_t *sv, const struct action *a);
	/* Optional: a commutative race (check comm_race_free), as model.h. */
	int (*comm_race)(const struct comp *c, const uint8_t *sv, struct strbuf *why);
	/* Optional: model.persist_order. */
	int (*persist_order)(const struct comp *c, const uint8_t *sv, int mode, struct strbuf *why);
	/* It reads or writes the global words in place, as the first 4*G bytes
	** of the vector (persist.c): then every global word stays in the
	** vector, read-only or not (memory.c). */
	int globals_in_place;
};

/* An instance in a composed machine. */
struct comp {
	const struct comp_def *def;
	const struct gpu *g;
	const struct model *m; /* the composed machine */
	unsigned index;        /* place in the wiring row */
	size_t off, size;      /* its slice */
	unsigned kind0;        /* its first action kind */
	unsigned max_actions;
	struct pool_req units[2], subjects[2];
	unsigned unit0[2], subj0[2]; /* allocated by the composer */
	struct bind req[P_NPORTS][MAX_BIND];
	unsigned nreq[P_NPORTS];
	unsigned *counter_map; /* its counter i -> the machine's counter */
	/* set by layout when def->durable writes only the image's first
	** durable_key bytes (0: any of them; model.durable_key) */
	size_t durable_key;
	void *priv;
};

/* The port slot of a required single-provider port (NULL ops if unbound). */
#define REQ(c, p) (&(c)->req[p][0])

/* {=== Port tables ======================================================= */

struct alu_lanes; /* alu.h */

struct port_mem {
	/* The word index of addr in space (cta for shared), or -1 with a fault
	** code; sym >= 0 bounds the access to that variable. */
	long (*word)(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym, uint32_t addr,
	             int *fault);
	uint32_t (*load)(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, long word);
	void (*store)(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long word, uint32_t v);
	/* Read-modify-write; returns the old value. */
	uint32_t (*rmw)(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long word, enum atom_op op,
	                enum vtype t, uint32_t a, uint32_t b);
	/* Optional (NULL: word and load lane by lane): a warp's word loads,
	** lane l of mask m from address alu_lane(ad, l) into d[l], in lane
	** order; 0, or the fault of the first faulting lane, the lanes before
	** it loaded.  One call for the warp where a provider (memory.c) holds
	** the words itself. */
	int (*loads)(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym,
	             const struct alu_lanes *ad, uint32_t m, uint32_t *d);
	/* Optional (NULL: word lane by lane): where word() finds a global
	** address x within variable sym (-1: none named): x - *lo < the span
	** returned, x aligned.  A warp's atomic tests its lanes so as it makes
	** their entries, and asks word() only of a lane outside (its fault). */
	uint32_t (*span)(const struct comp *c, int sym, uint32_t *lo);
};

enum { PUSH_DONE, PUSH_WAIT_VALUES, PUSH_REFUSED };
struct port_atomics {
	/* May warp w push its atomic for lanes m now (back-pressure)? */
	int (*room)(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m);
	/* Take the atomic of warp w (lanes m): PUSH_DONE (red: the warp goes
	** on), PUSH_WAIT_VALUES (atom: the warp waits), PUSH_REFUSED (no room:
	** the warp waits and re-issues).  A faulting lane faults the warp. */
	int (*push)(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m);
	/* Old values still owed to warp w. */
	int (*owed)(const struct comp *c, const uint8_t *sv, unsigned w);
	/* Concrete mode: what the push of warp w's atomic makes ready. */
	void (*timing_push)(const struct comp *c, const uint8_t *sv, unsigned w, struct timing *t,
	                    uint64_t (*rnd)(void *), void *rng);
	/* Partials a LAB sends on its own (lab.c; NULL where not provided):
	** may SM sm send need[p] entries to each partition p now; send e
	** (its warp AE_LAB, no warp waits for it); copy up to max of SM sm's
	** sent entries still in flight to out (may be NULL) and return how
	** many there are.  When the last of them is performed the provider
	** resumes the SM's waiting warps (a fence waits for them). */
	int (*room_sent)(const struct comp *c, const uint8_t *sv, unsigned sm, const unsigned *need);
	void (*send)(const struct comp *c, uint8_t *sv, unsigned sm, const struct atomic_entry *e);
	unsigned (*in_flight)(const struct comp *c, const uint8_t *sv, unsigned sm, struct atomic_entry *out,
	                      unsigned max);
	/* Concrete mode: what sending need[p] entries from SM sm makes ready. */
	void (*timing_send)(const struct comp *c, const uint8_t *sv, unsigned sm, const unsigned *need, struct timing *t,
	                    uint64_t (*rnd)(void *), void *rng);
	/* Statistics of warp w's push (NULL: none beyond the provider's own). */
	void (*count_push)(const struct comp *c, const uint8_t *sv, unsigned w, uint64_t *ct);
	/* Partial-order reduction (NULL: never): may warp w's issue of its
	** atom or red, enabled in sv, be taken alone (model.h, alone)?  sv
	** NULL: may it ever be? */
	int (*sole)(const struct comp *c, const uint8_t *sv, unsigned w);
	/* Concrete mode (NULL: none): the warps of scheduler k (bit i: its
	** i-th) its actions reported REACH_WAKES may have woken since the
	** last call (model.step: reach), and forget them. */
	uint64_t (*woken)(const struct comp *c, unsigned k);
};

struct port_order {
	/* May warp w pass fence-like instruction op (membar, sfence,
	** bar.sync, pcommit) as far as this component is concerned? */
	int (*clear)(const struct comp *c, const uint8_t *sv, unsigned w, enum opcode op);
};

struct port_gate {
	int (*may_issue)(const struct comp *c, const uint8_t *sv, unsigned w);
};

struct port_warps {
	unsigned (*pc)(const struct comp *c, const uint8_t *sv, unsigned w);
	uint32_t (*exec_mask)(const struct comp *c, const uint8_t *sv, unsigned w);
	uint32_t (*address)(const struct comp *c, const uint8_t *sv, unsigned w, unsigned lane);
	/* The addresses of warp w's lanes in m at once (out[lane]): for the
	** components that need all of them every cycle (rop.c's room). */
	void (*addresses)(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m, uint32_t *out);
	/* Operand o in every lane (alu.h), evaluated once for a warp's lanes. */
	struct alu_lanes (*operand)(const struct comp *c, const uint8_t *sv, unsigned w, const struct operand *o);
	/* Warp w's current atom/red in every lane: its address, sources 0 and
	** 1 (out[0..2]), from one reading of the warp's instruction. */
	void (*atom_lanes)(const struct comp *c, const uint8_t *sv, unsigned w, struct alu_lanes out[3]);
	void (*write_reg)(const struct comp *c, uint8_t *sv, unsigned w, unsigned lane, int reg, uint32_t v);
	/* Execute warp w's current instruction. */
	void (*issue)(const struct comp *c, uint8_t *sv, unsigned w);
	/* The instruction's work is done: move past it. */
	void (*advance)(const struct comp *c, uint8_t *sv, unsigned w);
	void (*fault)(const struct comp *c, uint8_t *sv, unsigned w, int code);
	/* Something warp w may wait for changed: it re-checks its wait. */
	void (*resume)(const struct comp *c, uint8_t *sv, unsigned w);
	int (*waiting)(const struct comp *c, const uint8_t *sv, unsigned w);
	/* Warp w's issue in concrete mode, in statistics, in a trace. */
	void (*timing_issue)(const struct comp *c, const uint8_t *sv, unsigned w, struct timing *t,
	                     uint64_t (*rnd)(void *), void *rng);
	void (*count_issue)(const struct comp *c, const uint8_t *sv, unsigned w, uint64_t *ct);
	void (*describe_issue)(const struct comp *c, const uint8_t *sv, unsigned w, struct strbuf *out);
	/* Partial-order reduction: warp w's next issue, when it is warp-local
	** (it reads only w's registers, stack and memory no instruction
	** writes, and writes only w's registers and stack); else NULL. */
	const struct instr *(*local)(const struct comp *c, const uint8_t *sv, unsigned w);
	/* (concrete mode's timing_issue, count_issue and local of one issue
	** at once: warps_prepare_issue, scheduler.h) */
};

struct port_pm {
	/* Warp w issues clwb, st.wt or l2wb (lanes m): 1 when handled. */
	int (*op)(const struct comp *c, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m);
	/* Concrete mode: what the issue makes ready when, and the cycles
	** it holds the issuing warp back beyond the instruction's own. */
	unsigned (*timing_issue)(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in,
	                         struct timing *t);
	/* Concrete mode's ready sets (optional): does warp w's issue of in
	** change no other warp's readiness (a scheduler's reach: its SM)? */
	int (*own_issue)(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in);
};

struct port_barrier {
	void (*arrive)(const struct comp *c, uint8_t *sv, unsigned cta);
};

struct port_issue {
	/* The warp action a issues, or -1 when a is not a warp issue. */
	long (*is_issue)(const struct comp *c, const struct action *a);
	/* Concrete mode, while enabled_now lists (optional): per SM (word
	** sm), its schedulers (bit j: its j-th) whose warps the state lets
	** issue, timing aside: those of which before[] may list no issue,
	** for a guard that would read them there (dab.c's FLUSH); before
	** the SMs' words (word -1), a count that moves whenever one of them
	** does, so that a reader that kept them compares one word. */
	const uint64_t *(*allowed)(const struct comp *c);
};

/* One store-buffer log entry: a word, its bytes (mask bit i: byte i). */
struct sbuf_entry {
	uint32_t word, data;
	uint8_t mask, pad[3];
};
/* The bits of a word that byte mask m covers. */
static inline uint32_t sbuf_bytes(unsigned m)
{
	return (m & 1 ? 0xffu : 0) | (m & 2 ? 0xff00u : 0) | (m & 4 ? 0xff0000u : 0) | (m & 8 ? 0xff000000u : 0);
}

struct port_sbuf {
	/* What warp w's global load of word reads: its own log, newest entry
	** first and byte by byte, over committed memory. */
	uint32_t (*load)(const struct comp *c, const uint8_t *sv, unsigned w, long word);
	/* Warp w's global store of the bytes `mask` of v to word: logged. */
	void (*store)(const struct comp *c, uint8_t *sv, unsigned w, long word, uint32_t v, unsigned mask);
	/* Free entries left in warp w's log. */
	unsigned (*room)(const struct comp *c, const uint8_t *sv, unsigned w);
	/* Entries in warp w's log; its i-th oldest; drop the oldest. */
	unsigned (*length)(const struct comp *c, const uint8_t *sv, unsigned w);
	struct sbuf_entry (*entry)(const struct comp *c, const uint8_t *sv, unsigned w, unsigned i);
	void (*pop)(const struct comp *c, uint8_t *sv, unsigned w);
	/* Concrete mode: cycles warp w's load of byte addr spends searching
	** its log (the Bloom filter's hit on the 128-byte chunk). */
	unsigned (*search)(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t addr);
};

enum gpudet_mode { GM_PARALLEL, GM_COMMIT, GM_SERIAL };
struct port_quantum {
	enum gpudet_mode (*mode)(const struct comp *c, const uint8_t *sv);
	/* Z depth of warp w's entries this quantum: -(quantum << m) + hw id. */
	int32_t (*depth)(const struct comp *c, const uint8_t *sv, unsigned w);
};

/* The CTA dispatcher (cta_dispatch.c).  Warp w's hardware position is
** its CTA gpu_cta_of(w), on SM gpu_sm_of(w); which kernel CTA (%ctaid)
** runs there is the dispatcher's. */
struct port_grid {
	/* The kernel CTA that hardware position `cta` runs. */
	unsigned (*ctaid)(const struct comp *c, const uint8_t *sv, unsigned cta);
	/* Is a CTA waiting to be dispatched into a free slot of SM sm (-1:
	** any SM)?  A DAB flush waits for it, as for a warp that can issue. */
	int (*pending)(const struct comp *c, const uint8_t *sv, int sm);
};

/* }=== */

/* The ops of bound port p (single provider), and its provider. */
static inline const void *port_ops(const struct comp *c, enum port p)
{
	return c->req[p][0].ops;
}

/* A component that wraps port mem (persist, lab) forwards what it leaves
** alone to the mem it requires (memory.c). */
long mem_fwd_word(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym, uint32_t addr,
                  int *fault);
uint32_t mem_fwd_load(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, long word);

/* Counter i of a component. */
static inline void comp_count(const struct comp *c, uint64_t *ct, unsigned i, uint64_t n)
{
	ct[c->counter_map[i]] += n;
}

/* Every component except `self` quiescent (the kernel is over, with its
** atomics performed: what cudaDeviceSynchronize waits for). */
int compose_others_quiescent(const struct comp *self, const uint8_t *sv);
/* A component's `por` declaration when none of its actions or ports can
** touch a READY warp's registers, stack or enabledness.  It does not
** cover a warp's exit (the warp becomes DONE, which a component may read:
** a CTA slot, a flush, a scheduler's rotation). */
int compose_por_independent(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in);
/* The same, exit included: nothing of the component reads whether a warp
** is DONE, or what it reads only moves one way (machine baseline). */
int compose_por_independent_of_exit(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in);
/* The clock of the concrete run that is listing (enabled_now), else NULL:
** what a component may remember between cycles of one run.  Inline: the
** schedulers ask once a cycle. */
static inline const struct timed_now *compose_now(const struct comp *c)
{
	return c->g->now;
}
/* Concrete mode, model.issue of a (a kind of c's) as prepare, reach,
** apply and faulted asked apart: comp_def.issue_alone's where the pc is
** not taken at once. */
int compose_issue_apart(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
                        uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach);
/* The flags (KF_*) of an action kind of a composed machine. */
unsigned compose_kind_flags(const struct model *m, unsigned kind);

/* Component descriptors (one file each). */
extern const struct comp_def comp_mem, comp_warps, comp_gto, comp_barrier, comp_rop, comp_dab_sched, comp_dab,
	comp_persist, comp_lab;
extern const struct comp_def comp_gpudet, comp_sbuf, comp_zbuffer;
extern const struct comp_def comp_cta_dispatch;

/* A wiring row: components in enabled() order, and port bindings. */
struct wire {
	const char *from;  /* requirer's name */
	enum port port;
	const char *to;    /* provider's name */
};
struct wiring {
	const struct comp_def *const *comps;
	unsigned ncomps;
	const struct wire *wires; /* explicit bindings; a required port left
	                             unbound goes to the only provider (every
	                             provider, for order and gate) */
	unsigned nwires;
	const struct param_def *params; /* the machine's own rows, last */
	unsigned nparams;
};

/* The parameter rows of a wiring: the grid's, then each component's in
** wiring order, then the machine's; a later row of the same name replaces
** an earlier one in place.  Returns how many (at most max). */
unsigned compose_params(const struct wiring *w, const struct param_def **out, unsigned max);

/* The machine md for spec s: its parameters applied, then composed. */
struct model *compose_build(const struct spec *s, const struct machine_def *md, struct diag *d);
/* The same with the parameters already applied in cfg (registry_build
** applies them once, and memory= may choose another family). */
struct model *compose_build_cfg(const struct spec *s, const struct machine_def *md, const struct gpu_cfg *cfg,
                                struct diag *d);

#endif
