/*
** Thread-local semantics of litmus instructions (ALU, predicates, atomic
** read-modify-write values): the part every memory model shares.
*/
#ifndef GPUMC_LITMUS_EXEC_H
#define GPUMC_LITMUS_EXEC_H

#include <stdint.h>

#include "litmus/litmus.h"

uint32_t lit_opnd_val(const struct lit_opnd *o, const uint32_t *regs);
/* Does the guard let the instruction execute? */
int lit_guard(const struct lit_ins *in, const uint32_t *regs);
/* Result of mov/alu/setp. */
uint32_t lit_alu(const struct lit_ins *in, const uint32_t *regs);
/* New memory value of an atomic that read old; *writes = 0 for a failed CAS. */
uint32_t lit_atom_new(const struct lit_ins *in, uint32_t old, const uint32_t *regs, int *writes);
/* Bit mask of the registers an instruction reads (guard, address, values). */
unsigned lit_srcs(const struct lit_ins *in);
/* Is the instruction a memory access (ld/st/atom)? */
int lit_is_mem(const struct lit_ins *in);

#endif
