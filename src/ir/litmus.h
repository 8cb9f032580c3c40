/*
** The litmus IR: a GPU litmus test as every engine runs it (the litmus
** front end parses one; weakmem.c translates a kernel spec into one).
** Threads are straight-line and predicated; instructions use the kernel
** IR's vocabulary (ir/program.h: opcodes, types, comparisons, atomic
** operations, scopes, cache operators) so one decoder (ir/ptx.c) fills
** both and one ALU (machines/alu.c) executes both.
*/
#ifndef GPUMC_IR_LITMUS_H
#define GPUMC_IR_LITMUS_H

#include <stdint.h>

#include "explore/prop.h"
#include "ir/program.h"

struct strbuf;

/* Static limits; a test exceeding them is rejected with a message. */
enum {
	LIT_MAXT = 8,    /* testing threads                      */
	LIT_MAXL = 8,    /* memory locations                      */
	LIT_MAXR = 16,   /* registers per thread                  */
	LIT_MAXI = 24,   /* instructions per thread               */
	LIT_MAXX = 8     /* expectation declarations per test     */
};

/* Addresses held in registers: location i lives at LIT_ADDR(i). */
#define LIT_ADDR_BASE 0x1000u
#define LIT_ADDR_STRIDE 0x100u
#define LIT_ADDR(i) (LIT_ADDR_BASE + (uint32_t)(i) * LIT_ADDR_STRIDE)

enum lit_cond { LC_EXISTS, LC_NOT_EXISTS, LC_FORALL };

enum lit_opnd_kind { OK_NONE, OK_REG, OK_IMM, OK_LOC };
struct lit_opnd {
	enum lit_opnd_kind kind;
	int reg;        /* OK_REG: register index in the thread      */
	uint32_t imm;   /* OK_IMM                                    */
	int loc;        /* OK_LOC: the location's address            */
};

/* One instruction.  op is OP_LD, OP_ST, OP_ATOM, OP_MEMBAR or a register
** operation (mov, arithmetic, setp, selp); values are 32-bit words. */
struct lit_ins {
	enum opcode op;
	enum vtype type;      /* VT_U32 or VT_S32: signedness of setp, shr, min, max */
	enum cmp_op cmp;      /* setp                                       */
	enum atom_op aop;     /* atom                                       */
	enum scope scope;     /* membar; ld/st/atom with a .sem (ptx model) */
	enum sem sem;         /* PTX ISA ordering (ir/ptx.h says the defaults) */
	enum cache_op cache;  /* ld/st cache operator (ld.ca may hit the L1) */
	int vol;              /* ld/st.volatile                             */
	int pred;             /* guard register, -1 if none                 */
	int pred_neg;         /* @!p                                        */
	int dst;              /* destination register, -1 if none           */
	struct lit_opnd addr;    /* ld/st/atom address                      */
	struct lit_opnd a, b, c; /* value operands (st: a; atom: b, c)      */
	int line, col;
	char *text;           /* as written, for traces                    */
};

struct lit_thread {
	int id;          /* n of Tn, as used in conditions n:reg      */
	int cta, warp;   /* from the ScopeTree (dense indices)        */
	int nins;
	struct lit_ins ins[LIT_MAXI];
	int nregs;
	char regname[LIT_MAXR][16];
	uint32_t reginit[LIT_MAXR];
	int regpred[LIT_MAXR];   /* declared .pred                   */
};

struct lit_loc {
	char name[16];
	enum space region;
	uint32_t init;
	int mapped;      /* given a region in the memory map          */
};

/* "// expect: ics13=Allowed sc=Forbidden" lines: what the suite checks. */
struct lit_expect {
	char model[24];
	int allowed;
};

struct litmus {
	char *file;
	char name[64];
	char arch[16];
	int nthreads;
	struct lit_thread thr[LIT_MAXT];
	int nlocs;
	struct lit_loc loc[LIT_MAXL];
	int nctas;
	int has_scope;   /* a ScopeTree was given                    */
	enum lit_cond kind;
	struct expr *cond;
	char *cond_text;
	int nexpect;
	struct lit_expect expect[LIT_MAXX];
	/* where the condition starts, for messages */
	int cond_line;
};

/* Free what t owns (instruction texts, condition, file name), not t. */
void litmus_clear(struct litmus *t);
void litmus_free(struct litmus *t);

/* Location numbering shared by all models: memory locations are
** 0..nlocs-1, register r of thread index i is nlocs + i*LIT_MAXR + r. */
int litmus_lookup(const struct litmus *t, int tid, const char *name,
                  enum vtype *type, struct strbuf *err);
/* The same with an element index (index >= 0): a kernel spec's array
** element, which the kernel routes name "a[i]" (machines/weakmem.c). */
int litmus_lookup_at(const struct litmus *t, int tid, const char *name, long index,
                     enum vtype *type, struct strbuf *err);
void litmus_loc_name(const struct litmus *t, int loc, struct strbuf *out);
enum vtype litmus_loc_type(const struct litmus *t, int loc);
/* Index of the location whose address is v, or -1. */
int litmus_addr_loc(const struct litmus *t, uint32_t v);

/* Operand value, given the thread's registers. */
uint32_t lit_opnd_val(const struct lit_opnd *o, const uint32_t *regs);
/* Does the guard let the instruction execute? */
int lit_guard(const struct lit_ins *in, const uint32_t *regs);
/* Bit mask of the registers an instruction reads (guard, address, values). */
unsigned lit_srcs(const struct lit_ins *in);
/* Is the instruction a memory access (ld/st/atom)? */
int lit_is_mem(const struct lit_ins *in);

#endif
