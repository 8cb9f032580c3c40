/*
** The model interface: the only thing that crosses between the explorer
** (src/explore) and a machine (src/machines).
**
** A model is a fixed-size byte vector plus a set of actions.  The explorer
** asks the model which actions are enabled in a state (enabled), copies the
** vector and applies one action in place (apply).  The concrete mode applies
** actions to a single vector without copying.  Nothing else of the machine's
** semantics exists outside its own files.
**
** Contract:
**   - enabled() lists actions in a deterministic order (the same state gives
**     the same list); an action is identified in traces by its index in that
**     list, so replay needs nothing but the index sequence.
**   - apply() leaves the vector canonical: equal machine states have equal
**     bytes (unused slots zeroed, unordered sets sorted).
**   - Neither keeps pointers into the vector after returning; neither is
**     re-entrant on the same model unless stated by the model.
**   - status() classifies a state: running, terminal (every component done),
**     or fault (the machine hit an error such as an out-of-bounds access).
**     A running state with no enabled action is a deadlock.
**   - Required: name, sv_size, max_actions (at most TRACE_MAX_ACTIONS of
**     state/trace.h: traces store 16-bit indices), init, enabled, apply,
**     status; read too when lookup or default_observables is given.  Every
**     other hook may be NULL and the explorer side does without it
**     (model.c): actions and states print as raw fields, properties naming
**     a location are refused, there are no default observables, no crashes,
**     and `gpumc run` refuses a model without timing.  Code outside the
**     machines reaches the optional printing, location and destroy hooks
**     through the model_* functions below.
**   - Alignment: sv_size is a multiple of 8, and the explorer hands every
**     hook a vector that starts 8-byte aligned (states sit back to back in
**     the visited set's arena), so a machine may keep fields of up to 8
**     bytes at offsets that are multiples of their size.  The composer
**     (machines/compose.c) places each component's slice at the alignment
**     the component asks for and zeroes the padding (checked by
**     --check-model).
*/
#ifndef GPUMC_MODEL_H
#define GPUMC_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An action: which component instance does what.  Interpretation of the
** fields belongs to the model; the explorer only copies actions around and
** asks the model to describe them. */
struct action {
	uint16_t kind;    /* model-defined action kind                     */
	uint16_t unit;    /* issuing unit (scheduler, ROP queue, ...)      */
	uint32_t subject; /* warp, queue entry, ... whose readiness gates it */
	uint32_t arg;     /* extra parameter (model-defined)               */
};

/* Action kinds the explorer itself understands; models number theirs
** from ACT_MODEL upward. */
enum {
	ACT_CRASH = 1, /* successor is a crash: check recovery of the durable image */
	ACT_MODEL = 16
};

enum model_status { MS_RUNNING = 0, MS_TERMINAL = 1, MS_FAULT = 2 };

/* What model.recover found. */
enum { RECOVER_OK = 0, RECOVER_BAD = 1, RECOVER_FAIL = 2, RECOVER_CUT = 3 };

/* Value types for locations read by properties. */
enum vtype { VT_U32 = 0, VT_S32, VT_F32, VT_PRED };

struct strbuf;

/* Concrete-mode timing of one action (see struct model.step). */
#define TIMING_MAX_UPDATES 2048
struct timing {
	uint64_t now, run; /* set by the driver: the cycle, the run */
	unsigned busy;  /* cycles the unit cannot issue again */
	unsigned n;
	struct { uint32_t subject; uint32_t delay; } upd[TIMING_MAX_UPDATES];
};

/* Concrete mode's clock (enabled_now): the cycle (UINT64_MAX: list
** everything), when each subject is ready and when each unit may issue
** again; run numbers the concrete runs of the process, so a component
** may keep what it learnt within one run (rop.c's stalled warps).  clock:
** the cycle also while now is UINT64_MAX; then a warp's issue that cannot
** happen at clock may be left out where an issue of its SM is listed
** before it (what DAB's flush guard reads of the list stays the same;
** the driver finds the next cycle from its own event times).  changed,
** unit_changed, sm_changed: counts of the applied actions that may change
** what can issue anywhere, only on that unit (a warp-local issue,
** model.local, adding 1; an action whose reach is REACH_OWN, adding 2,
** so that no count taken for one warp-local issue covers it) or only on
** that SM (model.step: reach), so a component may keep
** its ready sets until one moves (readyset.c); own: the REACH_OWN
** actions, for a reader of every unit's warps (dab.c); sm_woke: of sm_changed,
** the actions that reach said wake or block only named warps (REACH_WAKES).  changed starts each run
** past every sum of the counts (a key) of the runs before, so that no
** key of one run equals one of another.  nonlocal: the number of this
** run's applied actions that were not warp-local, and its exits (every
** action that may enable or disable another: a component may keep a
** listing while it stays the same).  check:
** recompute such sets anyway and compare (GPUMC_CHECK_READY). */
struct timed_now {
	uint64_t now, run;
	const uint64_t *ready, *unit_free;
	uint64_t clock;
	uint64_t changed;
	const uint64_t *unit_changed, *sm_changed, *sm_woke;
	uint64_t nonlocal;
	int check;
	const uint32_t *last; /* per unit, the subject it issued last (UINT32_MAX: none) */
	/* set (to 1) by a component whose listing means the next cycle may
	** have an issue though this one's are all warp-local (model.local),
	** which the driver cannot see: a unit with more actions that can
	** issue now than it lists (readyset.c: GTO's pick alone), an issue
	** that may change what else of its scheduler can issue (dab_sched.c) */
	int *again;
	uint64_t own;
	/* of nonlocal, the actions that moved changed or an SM's count: a
	** reader of those counts (readyset_due_sync) looks again only when
	** this moves (a ROP perform that reaches no set moves nonlocal) */
	uint64_t reached;
	/* set by enabled_now (now not UINT64_MAX): how many of the actions
	** it listed first can issue now (subject ready, unit free), one a unit
	** at most, in increasing unit order, and on units before those of
	** the actions after them, so that the driver need not filter or group
	** them (compose.c: comp_def.lists_now) */
	unsigned *listed_now;
};

struct model {
	const char *name;   /* machine name, as in `gpumc list`            */
	size_t sv_size;     /* bytes of the state vector                    */
	unsigned max_actions; /* upper bound on enabled() results          */
	void *priv;         /* the model's own data (built from the spec)   */

	void (*init)(const struct model *m, uint8_t *sv);
	/* Write the enabled actions to out[0..max_actions); return how many. */
	unsigned (*enabled)(const struct model *m, const uint8_t *sv, struct action *out);
	/* Apply action a (which must be enabled in sv) to sv in place. */
	void (*apply)(const struct model *m, uint8_t *sv, const struct action *a);
	enum model_status (*status)(const struct model *m, const uint8_t *sv);

	/* One line naming the action in the state where it is taken, e.g.
	** "warp 1 (sm 0) pc 4: red.global.add.f32 [sum], %f0". */
	void (*describe)(const struct model *m, const uint8_t *sv,
	                 const struct action *a, struct strbuf *out);
	/* Human-readable state (or the fault message for MS_FAULT). */
	void (*print_state)(const struct model *m, const uint8_t *sv, struct strbuf *out);
	/* Optional: "note: ..." lines on the kernel, printed with a violation
	** of property kind failed (enum prop_kind). */
	void (*notes)(const struct model *m, int failed, struct strbuf *out);
	/* Optional (race_free): 1, with both accesses named in why, when two
	** threads may each perform a conflicting plain access to one word
	** next in sv (co-enabled), or one instruction's lanes store to one. */
	int (*race)(const struct model *m, const uint8_t *sv, struct strbuf *why);

	/* Locations for properties.  lookup() resolves a name such as "sum",
	** "a[3]" (index given separately, -1 when none was written) or a
	** register "%r1" of thread `tid` (tid < 0: a memory location) to a
	** location id >= 0, or returns -1 with a message in err.  A whole array
	** (index -1) is *count consecutive ids; a scalar has *count = 1.
	** read() returns the 32-bit value; read_locs() (optional) the values
	** of n locations into out, as read() would, in one call (concrete mode
	** reads a run's result so: 16,384 values at times). */
	int (*lookup)(const struct model *m, int tid, const char *name, long index,
	              enum vtype *type, unsigned *count, struct strbuf *err);
	uint32_t (*read)(const struct model *m, const uint8_t *sv, int loc);
	void (*read_locs)(const struct model *m, const uint8_t *sv, const int *locs, unsigned n, uint32_t *out);
	void (*loc_name)(const struct model *m, int loc, struct strbuf *out);
	enum vtype (*loc_type)(const struct model *m, int loc);
	/* Default observables for `deterministic` with no locations. */
	unsigned (*default_observables)(const struct model *m, int *locs, unsigned max);

	/* Crash support (optional, NULL when the machine has no persistence
	** domain).  durable() projects a state onto what survives a crash: an
	** image of durable_size (= sv_size) bytes in which read() of a memory
	** location gives its durable value and everything volatile is zero.
	** recover() (optional) runs the machine's recovery from such an image,
	** every way it can go, and asks bad(ctx, sv) of every state in which
	** the recovery is over: RECOVER_OK when no such state is bad,
	** RECOVER_BAD with that state in img and the recovery's steps in why,
	** RECOVER_FAIL with the reason in why when the recovery itself fails
	** (faults, deadlocks).  `recoverable` conditions are what bad()
	** evaluates; `durable` ones hold before recovery.  bad(ctx, NULL) is a
	** poll, asked as the recovery's own exploration goes: non-zero means a
	** limit of the run (--time, --memory, a signal) was hit, and recover()
	** stops with RECOVER_CUT (nothing decided). */
	size_t durable_size;
	/* durable() makes at most the image's first durable_key bytes
	** (<= durable_size) non-zero: images are told apart by those alone
	** (a crash image's key in the set of images judged, explore.c). */
	size_t durable_key;
	void (*durable)(const struct model *m, const uint8_t *sv, uint8_t *img);
	int (*recover)(const struct model *m, uint8_t *img, int (*bad)(void *ctx, const uint8_t *sv), void *ctx,
	               struct strbuf *why);
	/* Idempotency (optional): the static verdict (1, or 0 with the
	** reasons), and a re-execution of the whole kernel on an image. */
	int (*idempotent)(const struct model *m, struct strbuf *why);
	int (*reexecute)(const struct model *m, uint8_t *img, struct strbuf *why);

	/* Concrete mode (optional).  Every action belongs to a unit (a warp
	** scheduler, a ROP, ...; unit UINT16_MAX: an environment choice such
	** as a crash, which concrete mode never takes) that issues at most one
	** action per cycle and gates on a subject ...
	** In detail: every action belongs to a unit (a warp
	** scheduler, a ROP, ...) that issues at most one action per cycle and
	** gates on a subject (a warp, an atomic packet in flight) that must be
	** ready.  step() (below) times action a about to be applied to sv:
	** how long its unit stays busy and which subjects become ready after
	** how many cycles; rand() gives the model seeded randomness
	** (interconnect jitter).  count() adds to the model's statistics
	** counters (step() does too). */
	unsigned nunits, nsubjects;
	void (*count)(const struct model *m, const uint8_t *sv, const struct action *a,
	              uint64_t *counters);
	unsigned ncounters;
	const char *const *counter_names;
	/* Policy among ready actions of one unit in concrete mode: returns the
	** index into cand[0..n) to issue; last is the subject the unit issued
	** last time (UINT32_MAX: none).  NULL: the lowest subject wins. */
	unsigned (*pick)(const struct model *m, const struct action *cand, unsigned n, uint32_t last,
	                 uint64_t (*rand)(void *rng), void *rng);
	/* enabled() without the untimed environment choices (crashes,
	** spontaneous evictions), which concrete mode never takes; optional,
	** for speed. */
	unsigned (*enabled_timed)(const struct model *m, const uint8_t *sv, struct action *out);
	/* enabled_timed() that may leave out actions that cannot issue at
	** v->now (subject not ready or unit busy): it lists every action that
	** can issue now, and each unit's actions in the order enabled_timed()
	** lists them (units may come in another order).  Optional, for speed:
	** when nothing can issue, concrete mode moves to the next cycle a
	** ready time or busy-until passes, and asks again for everything
	** (v->now = UINT64_MAX) only when none is left, to tell a deadlock.
	** An action listed with unit UINT16_MAX is never issued.  Within one
	** run, the vector changes only through apply(). */
	unsigned (*enabled_now)(const struct model *m, const uint8_t *sv, struct action *out,
	                        const struct timed_now *v);
	/* Is action a (enabled earlier this cycle) still enabled in sv, after
	** other units' actions of the same cycle?  (An atomic's room in a FIFO
	** can be taken by another scheduler's warp.)  NULL: always. */
	int (*still_enabled)(const struct model *m, const uint8_t *sv, const struct action *a);
	/* Concrete mode: `cycles` cycles pass in state sv (a model may add
	** them to counters, e.g. time per mode).  NULL: nothing to count. */
	void (*tick)(const struct model *m, const uint8_t *sv, uint64_t cycles, uint64_t *counters);
	/* Concrete mode, one call per action a about to be applied to sv:
	** its timing into t, its count() into counters, and local(a, no
	** location observed; 0 where local is NULL) returned, 3 for a 1 that
	** may fault its warp (model.faulted, asked after it).  Where that is
	** 0, *reach: the SM whose warps alone a may wake, block or reorder
	** (readyset.c), below nunits; -1: any; REACH_NONE: none (it changes
	** nothing a warp scheduler's ready set reads, nor a warp's ready
	** time); REACH_OWN: only what its own unit's warps may issue (a DAB
	** atomic's issue, or under SRR and GTRR an issue warp-local but for
	** the turn it moves: dab_sched.c, reach).  An SM with REACH_WAKES: the
	** warps it may wake or block are named to the schedulers by its
	** component (rop.c, woken: a perform blocks none) or by theirs
	** (scheduler.c, gto_reach: a global atomic's issue blocks only
	** warps at one, by room), which poll them alone (readyset.c).
	** GPUMC_CHECK_READY compares the local and count answers with those
	** asked alone (READY-8). */
	int (*step)(const struct model *m, const uint8_t *sv, const struct action *a, struct timing *t,
	            uint64_t (*rand)(void *rng), void *rng, uint64_t *counters, int *reach);
#define REACH_NONE (-2)
#define REACH_OWN (-3)
#define REACH_WAKES (1 << 24)
	/* Concrete mode (optional): status() == MS_TERMINAL, asked after
	** every action that may end the run: cheaper while it runs (a fault
	** needs a full scan; a running warp is found at once). */
	int (*terminal)(const struct model *m, const uint8_t *sv);
	/* Concrete mode (optional): after a warp-local issue a that may fault
	** (step said 3) is applied, did it fault its warp?  A fault ends the warp as an
	** exit does (a CTA's slot may free), so it is no warp-local issue. */
	int (*faulted)(const struct model *m, const uint8_t *sv, const struct action *a);
	/* Concrete mode (optional): step(), apply() and, where step said 3,
	** faulted() in one call, 3 answered: 2 where the issue faulted its
	** warp (an exit's answer), else 1.  The driver calls it where nothing
	** looks at the vector between the step and the apply (no hook;
	** under GPUMC_CHECK_READY every other action, checked: READY-8). */
	int (*issue)(const struct model *m, uint8_t *sv, const struct action *a, struct timing *t,
	             uint64_t (*rand)(void *rng), void *rng, uint64_t *counters, int *reach);

	/* Partial-order reduction (optional; NULL: the machine is never
	** reduced).  Is action a, enabled in sv, local: independent of every
	** other action that can occur before it on any path from sv (none
	** enables, disables or reads what it writes, and it disables, enables
	** and changes nothing they read), deterministic, and invisible: it
	** changes no location in observed[0..nobserved), nothing durable and
	** nothing status() reads?  The explorer may then expand sv with a
	** alone (explore.c states the provisos it adds).  2: local, but a
	** converged warp's exit, which changes what status() reads (the
	** kernel may end): the explorer checks the successor's status, and
	** concrete mode asks status() again. */
	int (*local)(const struct model *m, const uint8_t *sv, const struct action *a, const int *observed,
	             unsigned nobserved);
	/* Optional (NULL: only local actions are taken alone): is action a,
	** enabled in sv, one the explorer may take alone as it takes a local
	** one, though not warp-local, when the locations inv[0..ninv) are the
	** ones observed in running states (invariants)?  Independent of every
	** other action that can occur before it on any path from sv, enabling
	** none of them and disabled by none, deterministic, changing nothing
	** durable, nothing status() reads, nothing a race reads, and no
	** location in inv; it may write a location only terminal states are
	** judged on (deterministic, exists, forall: reductions of this kind
	** keep every terminal state, explore.c). */
	int (*alone)(const struct model *m, const uint8_t *sv, const struct action *a, const int *inv, unsigned ninv);

	/* --check-model (optional): the machine's own invariants hold in sv
	** (0, or 1 with why); action a taken in `before` wrote only what its
	** kind declared, giving `after`. */
	int (*check_state)(const struct model *m, const uint8_t *sv, struct strbuf *why);
	/* Optional (machine lab): a commutative race in sv?  1 with both
	** accesses in why.  Recording starts when the spec asks for it. */
	int (*comm_race)(const struct model *m, const uint8_t *sv, struct strbuf *why);
	int (*check_step)(const struct model *m, const uint8_t *before, const struct action *a,
	                  const uint8_t *after, struct strbuf *why);
	/* Optional (machine persist): would a crash in sv leave a durable
	** image that persistency model `mode` (PO_STRICT, PO_EPOCH of
	** explore/prop.h) forbids?  1 with both stores named in why.
	** Recording starts when the spec asks for it. */
	int (*persist_order)(const struct model *m, const uint8_t *sv, int mode, struct strbuf *why);

	void (*destroy)(struct model *m);
};

/* 0, or -1 with the reason in why when m lacks a required hook or breaks
** a bound of the contract above; `traced`: an exploration, whose traces
** bound max_actions (a concrete run keeps none). */
int model_check(const struct model *m, int traced, struct strbuf *why);
/* The optional hooks, with what stands in when a model has none. */
void model_describe(const struct model *m, const uint8_t *sv, const struct action *a, struct strbuf *out);
void model_print_state(const struct model *m, const uint8_t *sv, struct strbuf *out);
unsigned model_observables(const struct model *m, int *locs, unsigned max);
int model_lookup(const struct model *m, int tid, const char *name, long index, enum vtype *type,
                 unsigned *count, struct strbuf *err);
void model_loc_name(const struct model *m, int loc, struct strbuf *out);
void model_read_locs(const struct model *m, const uint8_t *sv, const int *locs, unsigned n, uint32_t *out);
enum vtype model_loc_type(const struct model *m, int loc);
void model_destroy(struct model *m);

#endif
