/*
** An atomic operation in flight: what a ROP performs, whether it came
** straight from a warp (rop.c) or out of a DAB buffer (dab.c).
*/
#ifndef GPUMC_ATOMIC_ENTRY_H
#define GPUMC_ATOMIC_ENTRY_H

#include "machines/component.h"

struct atomic_entry {
	uint32_t addr, arg, arg2; /* arg2: cas new value                    */
	uint8_t op, type;         /* enum atom_op, enum vtype               */
	uint8_t lane, dst;        /* returning atom: lane and register      */
	uint16_t warp;            /* the issuing warp                       */
	uint16_t ret;             /* 1: atom whose old value goes back      */
};
_Static_assert(sizeof(struct atomic_entry) == 20, "atomic entry is 20 bytes");
/* warp of an entry no warp waits for: a partial a LAB sent (lab.c); its
** lane field holds the sending SM */
#define AE_LAB 0xffffu

/* The functions below run inside an atomics provider c, which requires
** mem and warps. */
/* Warp w's current atom/red in the lanes of m: one entry per lane, in lane
** order, into out[] (up to 32), each lane's address computed once.
** Returns the number of entries, or -1 when a lane addresses outside
** memory: warp w faulted (at the first such lane) and out's contents
** are scratch. */
int atomic_entries(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m, const struct instr *in,
                   struct atomic_entry *out);
/* Lane l of warp w's current atom/red as an entry. */
struct atomic_entry atomic_entry_of(const struct comp *c, const uint8_t *sv, unsigned w, unsigned l,
                                    const struct instr *in);
/* Perform e through the mem port; a returning atom's old value goes to its
** warp's register.  Returns 1 when e was a returning atom.  Inline: a
** drain performs each entry through it. */
static inline int atomic_entry_perform(const struct comp *c, uint8_t *sv, const struct atomic_entry *e)
{
	const struct comp *mc = REQ(c, P_MEM)->c;
	/* the address was checked at issue; performed in the L2 */
	uint32_t old = ((const struct port_mem *)port_ops(c, P_MEM))
	                       ->rmw(mc, sv, SP_GLOBAL, 0, (long)(e->addr / 4), (enum atom_op)e->op, (enum vtype)e->type,
	                             e->arg, e->arg2);
	if (e->ret)
		((const struct port_warps *)port_ops(c, P_WARPS))
		        ->write_reg(REQ(c, P_WARPS)->c, sv, e->warp, e->lane, e->dst, old);
	return e->ret;
}
void atomic_entry_describe(const struct comp *c, const struct atomic_entry *e, struct strbuf *out);

#endif
