/*
** A decoded SPMD kernel: the instruction set every GPU machine executes.
**
** The spec parser produces it; warp.c executes it one warp-instruction at a
** time; program.c computes the control-flow facts (immediate post-dominators
** for SIMT reconvergence).  Registers are 32 bits; predicates are registers
** holding 0 or 1.
**
** src/ir/ is the lowest layer of the front ends and engines: the kernel IR
** (program.h), the litmus IR (litmus.h, same vocabulary), the PTX decoder
** (ptx.c), the lexer (lex.c) and the condition grammar (cond.c).  The
** include graph between directories (check: grep '#include "' in each
** directory):
**
**     ir/       -> explore/ (enum vtype, struct expr), util/
**     spec/     -> ir/, explore/, util/
**     machines/ -> ir/, spec/, explore/, util/      (never litmus/)
**     litmus/   -> ir/, machines/, explore/, util/  (the engines it runs)
**     src/ top  -> any of them (the commands)
**
** Nothing in ir/ includes spec/, litmus/ or machines/.
*/
#ifndef GPUMC_PROGRAM_H
#define GPUMC_PROGRAM_H

#include <stdint.h>

#include "explore/model.h"
#include "util/diag.h"

enum opcode {
	OP_MOV, OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_DIV, OP_REM,
	OP_AND, OP_OR, OP_XOR, OP_NOT, OP_SHL, OP_SHR, OP_MIN, OP_MAX, OP_NEG,
	OP_CVT, OP_SETP, OP_SELP,
	OP_BRA, OP_BAR, OP_MEMBAR,
	OP_LD, OP_ST, OP_ATOM, OP_RED,
	OP_EXIT, OP_NOP,
	OP_CLWB, OP_SFENCE, OP_PCOMMIT, OP_L2WB, /* persistency (machine persist) */
	OP_COUNT
};

enum atom_op { AT_ADD, AT_MIN, AT_MAX, AT_EXCH, AT_CAS, AT_INC, AT_DEC, AT_AND, AT_OR, AT_XOR };
enum cmp_op { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
enum space { SP_GLOBAL, SP_SHARED };
enum scope { SC_CTA, SC_GL, SC_SYS };
/* PTX ISA 6+ memory-ordering semantics (the ptx litmus model reads them;
** DAB flushes at a strong ld/st and a releasing atom/red; the other
** machines ignore them).  SEM_WEAK: plain ld/st, no scope. */
enum sem { SEM_WEAK, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, SEM_SC };
/* Cache operators of ld (.ca .cg .cs .lu .cv) and st (.wb .cg .cs .wt):
** which cache level an access may use.  Memories without caches ignore
** them; the ics13-fixed address-queue memory lets ld.ca hit a stale L1. */
enum cache_op { CO_NONE, CO_CA, CO_CG, CO_CS, CO_LU, CO_CV, CO_WB, CO_WT };

/* Special registers, read-only per thread. */
enum special {
	SR_TID, SR_NTID, SR_CTAID, SR_NCTAID, SR_LANEID, SR_WARPID, SR_NWARPID,
	SR_SMID, SR_GTID, SR_GWARPID, SR_WARPSZ, SR_COUNT
};

enum opnd_kind { O_NONE, O_REG, O_IMM, O_SPECIAL, O_SYM };

struct operand {
	enum opnd_kind kind;
	int reg;       /* O_REG                                  */
	uint32_t imm;  /* O_IMM: bits (f32 immediates as bits)   */
	int special;   /* O_SPECIAL                              */
	int sym;       /* O_SYM: the symbol's address            */
};

/* Address [sym + reg + offset]; any part may be absent. */
struct address {
	int sym;        /* -1: none */
	int reg;        /* -1: none */
	int32_t offset; /* bytes    */
};

struct instr {
	enum opcode op;
	enum vtype type;      /* operation type                     */
	enum vtype stype;     /* cvt: source type                   */
	enum cmp_op cmp;      /* setp                               */
	enum atom_op aop;     /* atom/red                           */
	enum space space;     /* ld/st/atom/red                     */
	enum scope scope;     /* membar                             */
	enum sem sem;         /* PTX ordering (memory=ptx, dab)     */
	enum cache_op cache;  /* ld/st                              */
	int vol;              /* ld/st.volatile                     */
	int comm;             /* red.comm: commutative (LAB)        */
	int pred, pred_neg;   /* guard @%p / @!%p; pred < 0: none   */
	int dst;              /* destination register, -1 none     */
	struct operand src[3];
	struct address addr;
	int target;           /* bra: instruction index             */
	int ipdom;            /* bra: reconvergence point (index; n = exit) */
	int barrier;          /* bar.sync id                        */
	int wt;               /* st.wt (cache CO_WT): write through */
	int width;            /* st.u8/.u16/.u64: bytes stored; 0: a word; 8: src[0] low, src[1] high */
	int line, col;
	char *text;           /* as written, for traces             */
};

/* A strong global ld/st (volatile, .relaxed, .acquire, .release): an
** atomic load or store of the memory model, not a plain one. */
static inline int instr_strong(const struct instr *in)
{
	return (in->op == OP_LD || in->op == OP_ST) && (in->vol || in->sem != SEM_WEAK);
}
/* A st/atom/red that orders the accesses before it (.release, .acq_rel):
** a fence, then the access. */
static inline int instr_releasing(const struct instr *in)
{
	return (in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) &&
	       (in->sem == SEM_RELEASE || in->sem == SEM_ACQ_REL || in->sem == SEM_SC);
}

struct symbol {
	char *name;
	enum space space;
	enum vtype type;
	uint32_t nelems;   /* 1 for a scalar                         */
	int is_array;
	uint32_t base;     /* byte offset in its space's segment     */
	uint32_t *init;    /* nelems initial values (bits)           */
	int line, col;
};

struct reg {
	char *name;
	enum vtype type;
};

struct program {
	struct instr *ins;
	int nins;
	struct reg *regs;
	int nregs;
	struct symbol *syms;
	int nsyms;
	uint32_t global_words, shared_words; /* segment sizes in 32-bit words */
	int uses_shared;
	/* the host program around the kernel, and the recovery program run
	** on every crash image (machine persist) */
	struct host_step *host, *recovery;
	int nhost, nrecovery;
	int launch_at; /* index of the host's first launch step; -1: the kernel runs first */
};

enum host_op { H_SYNC, H_L2WB, H_PCOMMIT, H_LAUNCH, H_COPY, H_STORE, H_PERSIST, H_IF, H_END,
	/* the recovery's registers %h0..%h7 (issue 12 item 4): ld %hD, VAR[i];
	** mov/add/sub/mul %hD, A[, B]; while COND ... end (H_LOOP: the end,
	** back to its while) */
	H_LD, H_MOV, H_ADD, H_SUB, H_MUL, H_WHILE, H_LOOP };
#define HOST_REGS 8

/* One host or recovery step.  Variables are global symbols; index -1 is
** the whole variable, HOST_CTA the element of the CTA being considered
** (launch where flag[cta] ...). */
#define HOST_CTA (-2L)
struct host_step {
	enum host_op op;
	int sym, sym2;     /* COPY: dst, src; STORE, PERSIST, IF: the variable  */
	long index;
	enum cmp_op cmp;   /* IF: comparison                                    */
	uint32_t value;    /* STORE: value; IF: compared with; element COPY:    */
	                   /* the source index (index is the destination's)   */
	int where;         /* LAUNCH, COPY (recovery): only the CTAs for which  */
	int wsym;          /* wsym[cta] wcmp wvalue; COPY splits the variables  */
	enum cmp_op wcmp;  /* evenly among the CTAs                             */
	uint32_t wvalue;
	int skip;          /* IF, WHILE: index of its END / LOOP; LOOP: its WHILE */
	int ireg;          /* the element is %h[ireg] + index (-1: index alone) */
	int reg[3];        /* LD, MOV..MUL: reg[0] the destination; operands A,
	                      B: reg[1], reg[2], or (-1) value, value2; STORE:
	                      reg[1] the value's register; IF, WHILE: reg[1]
	                      the left side when sym < 0, reg[2] the right side */
	uint32_t value2;
	int line;
};

const char *opcode_name(enum opcode op);
const char *special_name(enum special s);
int special_lookup(const char *name);
int program_find_sym(const struct program *p, const char *name);
int program_find_reg(const struct program *p, const char *name);
/* "; did you mean 'X'?" for a misspelt variable (regs: register) name */
void program_hint(const struct program *p, const char *name, int regs, struct strbuf *out);
/* The variable at a byte address of a space: `sum`, `out[3]` (raw hex
** when no variable holds it) */
void program_addr_name(const struct program *p, enum space sp, uint32_t byte, struct strbuf *out);
/* Is variable sym of space sp written by no instruction of the kernel?  A
** store or atomic whose address names no variable could write any word of
** its space, so then nothing in that space is read-only.  Host and
** recovery steps are not instructions: a caller that keeps memory across
** them asks about them itself. */
int program_read_only(const struct program *p, enum space sp, int sym);
/* Number the registers some instruction writes (its destination: ALU,
** ld, atom, setp ...) densely in declaration order: slot[r] for each of
** the nregs, -1 for one that no instruction writes, which holds its
** initial 0 in every lane of every state.  Returns how many are written. */
int program_reg_slots(const struct program *p, int *slot);
/* Which conditional branches may diverge: div[i] = 1 for a branch whose
** guard may differ between the live lanes of a warp (after
** program_analyse, which gives the reconvergence points).  The others are
** uniform: they never split a warp, so they need no SIMT stack entries.
** The analysis and why it is sound: program.c. */
void program_divergent(const struct program *p, uint8_t *div);
/* Fill in ipdom for every branch (reconvergence at the immediate
** post-dominator, exit counted as node nins). */
void program_analyse(struct program *p);
void program_free(struct program *p);
/* A deep copy (for machines that rewrite the kernel). */
void program_clone(struct program *dst, const struct program *src);

#endif
