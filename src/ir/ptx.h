/*
** The PTX decoder shared by the kernel-spec and litmus front ends: one
** table of opcodes and modifiers, one acceptance rule (which opcode,
** type, space, cache operator, scope, comparison and atomic operation go
** together), one wording of errors with "did you mean" for misspelt
** names.  The front ends keep their own scanners (the litmus file is
** column-oriented); they hand over the opcode word ("ld.global.ca.u32")
** and place the message at its file:line:col.
*/
#ifndef GPUMC_IR_PTX_H
#define GPUMC_IR_PTX_H

#include <stddef.h>

#include "ir/program.h"

/* Which IR the instruction goes to.  The litmus IR holds straight-line
** 32-bit integer threads: no control flow, barriers, division, cvt, f32
** or persistency instructions; it reads .b64/.s64/.u64 (the thesis's
** address registers) as 32-bit words. */
enum ptx_dialect { PTX_KERNEL, PTX_LITMUS };

/* The operands an opcode takes, in order. */
enum ptx_form {
	PF_NONE,  /* membar, fence, exit, ret, nop, sfence, pcommit, l2wb  */
	PF_REG,   /* d, then nsrc sources                                  */
	PF_LD,    /* d, [addr]                                             */
	PF_ST,    /* [addr], a                                             */
	PF_ATOM,  /* d, [addr], b (cas: , c)                               */
	PF_RED,   /* [addr], b                                             */
	PF_BRA,   /* label                                                 */
	PF_BAR,   /* [barrier id]                                          */
	PF_ADDR   /* [addr]: clwb                                          */
};

/* What an opcode word says. */
struct ptx_insn {
	enum opcode op;
	const char *name;      /* the opcode as written ("fma", "ret")       */
	enum ptx_form form;
	int nsrc;              /* PF_REG: sources after the destination      */
	enum vtype type;       /* operation type; cvt: the destination's     */
	enum vtype stype;      /* cvt: the source's                          */
	enum cmp_op cmp;       /* setp                                       */
	enum atom_op aop;      /* atom, red                                  */
	enum space space;      /* default .global                            */
	enum scope scope;      /* default .gl                                */
	enum sem sem;          /* as the ISA defines the defaults: ld/st
	                          .weak (.volatile: .relaxed.sys), atom/red
	                          .relaxed.gpu, fence .acq_rel, membar .sc   */
	enum cache_op cache;   /* default none                               */
	int vol;               /* .volatile                                  */
	int rni;               /* cvt.rni: round to nearest                  */
	int width;             /* st.u8/.u16/.u64: bytes stored (0: a 32-bit word) */
	int comm;              /* atom/red.comm: LAB's memory_order_comm     */
};

/* Decode word for dialect d.  0, or -1 with one message (no position) in
** msg[0..n). */
int ptx_decode(const char *word, enum ptx_dialect d, struct ptx_insn *out, char *msg, size_t n);
/* Is op in the litmus IR's instruction set?  And the list, for messages. */
int ptx_litmus_op(enum opcode op);
const char *ptx_litmus_ops(void);
/* The candidate closest to w by edit distance (a transposition counts
** one), if close enough to be a likely misspelling; else NULL. */
const char *ptx_nearest(const char *w, const char *const *cands, size_t ncands);

#endif
