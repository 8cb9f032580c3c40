/*
** Properties and the condition expressions they carry.
**
** Expressions are small trees over locations (memory words and thread
** registers) resolved against a model once, before exploration.  Both the
** kernel-spec parser and the litmus parser build them; prop.c evaluates them.
*/
#ifndef GPUMC_PROP_H
#define GPUMC_PROP_H

#include <stdint.h>

#include "explore/model.h"

enum expr_op {
	E_NUM,   /* literal: ival, or fbits when is_float                   */
	E_LOC,   /* location: name[index] of thread tid (tid < 0: memory)   */
	E_NOT,
	E_AND,
	E_OR,
	E_EQ, E_NE, E_LT, E_LE, E_GT, E_GE,
	E_ADD, E_SUB
};

struct expr {
	enum expr_op op;
	struct expr *l, *r;
	/* E_NUM */
	int64_t ival;
	uint32_t fbits;
	int is_float;
	/* E_LOC */
	int tid;
	char *name;
	long index;      /* -1 when no index was written */
	int loc;         /* resolved location id                    */
	enum vtype type; /* resolved type                           */
	/* where it was written, for messages */
	const char *file;
	int line, col;
	int height; /* of the tree below, bounded by the parser (ir/cond.c) */
};

enum prop_kind {
	P_DETERMINISTIC, /* every terminal state agrees on the observables */
	P_EXISTS,        /* some terminal state satisfies the condition    */
	P_NOT_EXISTS,    /* no terminal state satisfies it                 */
	P_FORALL,        /* every terminal state satisfies it              */
	P_INVARIANT,     /* every reachable state satisfies it             */
	P_DEADLOCK,      /* built in: no running state without successors  */
	P_FAULT,         /* built in: no state where the machine faults    */
	P_RECOVERABLE,   /* every crash image satisfies the condition      */
	P_PERSISTED,     /* every final state's durable image satisfies it  */
	P_DURABLE,       /* every crash image, before recovery, satisfies it */
	P_IDEMPOTENT,    /* the kernel is idempotent: statically, and re-
	                    executing it on every crash image gives the
	                    crash-free result                                */
	P_REFINES,       /* every terminal outcome over locs is one that the
	                    reference machine reaches on the same kernel     */
	P_EQUALS,        /* refines, and every outcome of the reference is
	                    reached here too                                 */
	P_COMM_RACE,     /* no commutative race (LAB): a red.comm and a plain
	                    access, an unlabelled atomic or another op on one
	                    word in one kernel (the model's comm_race hook)  */
	P_RACE_FREE,     /* no reachable state has two co-enabled
	                    conflicting plain accesses (model.race)          */
	P_PERSIST_ORDER, /* what is durable in every reachable state (where
	                    a crash may hit) is allowed by the persistency
	                    model named by mode (model.persist_order)        */
	P_NKINDS,
	P_CONTRACT = P_NKINDS, /* --check-model: the machine broke its contract
	                          (not a property a spec can name)          */
	P_OUTCOMES,      /* internal: collect the terminal outcomes over locs
	                    (the reference run of refines/equals); never
	                    violated                                         */
	P_PROGRESS             /* built in to check: a reachable state from
	                          which no terminal state is reachable (a
	                          livelock; explore/progress.h)             */
};

/* The persistency models `check persist_order` names. */
enum { PO_NONE, PO_STRICT, PO_EPOCH };

struct sideset;

struct property {
	enum prop_kind kind;
	struct expr *cond; /* exists/~exists/forall/invariant            */
	int *locs;         /* deterministic, refines, equals, outcomes:
	                      observed locations                          */
	unsigned nlocs;
	char *text;        /* as written, for reports                    */
	int mode;          /* persist_order: PO_STRICT or PO_EPOCH       */
	/* refines/equals: the reference machine and its outcome set over
	** locs, computed before exploring (cli.c); ref is NULL when the
	** reference run hit a limit, and ref_limit then says which */
	char *machine;
	struct sideset *ref;
	uint32_t *ref_vals; /* nref outcomes, nlocs values each, in the order found */
	unsigned nref;
	uint64_t ref_states;
	char *ref_limit;
};

const char *prop_kind_name(enum prop_kind k);
/* Parse a kind name ("deterministic", "~exists", ...); -1 if unknown. */
int prop_kind_parse(const char *s);

struct expr *expr_new(enum expr_op op);
void expr_free(struct expr *e);
/* Resolve every E_LOC against the model; 0 on success, else -1 with a
** "file:line:col: message" in err. */
int expr_resolve(struct expr *e, const struct model *m, struct strbuf *err);
/* Evaluate (non-zero = true).  Comparisons use the location's type: f32
** locations compare as floats, s32 as signed. */
int expr_eval(const struct expr *e, const struct model *m, const uint8_t *sv);
/* Append every distinct location id in e to locs (up to max); returns count. */
unsigned expr_locs(const struct expr *e, int *locs, unsigned n, unsigned max);
void expr_print(const struct expr *e, struct strbuf *out);
/* Print a value of the given type as the reports show it. */
void value_print(uint32_t v, enum vtype t, struct strbuf *out);
/* As a JSON number (f32: %.9g, which round-trips; "nan", "inf" as strings) */
void value_json(uint32_t v, enum vtype t, struct strbuf *out);

void prop_free(struct property *p);

#endif
