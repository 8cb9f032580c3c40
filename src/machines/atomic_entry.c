#include "config.h"
#include "machines/atomic_entry.h"

#include "util/strbuf.h"

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))
#define MEM(c) ((const struct port_mem *)port_ops(c, P_MEM))

int atomic_entry_check(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m, const struct instr *in)
{
	const struct comp *wc = REQ(c, P_WARPS)->c, *mc = REQ(c, P_MEM)->c;
	for (unsigned l = 0; l < c->g->cfg.threads_per_warp; l++) {
		int fault = 0;
		if (m >> l & 1 &&
		    MEM(c)->word(mc, sv, SP_GLOBAL, 0, in->addr.sym, WARPS(c)->address(wc, sv, w, l), &fault) < 0) {
			WARPS(c)->fault(wc, sv, w, fault);
			return 1;
		}
	}
	return 0;
}

struct atomic_entry atomic_entry_of(const struct comp *c, const uint8_t *sv, unsigned w, unsigned l,
                                    const struct instr *in)
{
	const struct port_warps *wp = WARPS(c);
	const struct comp *wc = REQ(c, P_WARPS)->c;
	struct atomic_entry e = {
		wp->address(wc, sv, w, l), wp->operand(wc, sv, w, l, &in->src[0]), wp->operand(wc, sv, w, l, &in->src[1]),
		(uint8_t)in->aop, (uint8_t)in->type, (uint8_t)l, 0, (uint16_t)w, 0
	};
	if (in->op == OP_ATOM) {
		e.dst = (uint8_t)in->dst;
		e.ret = 1;
	}
	return e;
}

int atomic_entry_perform(const struct comp *c, uint8_t *sv, const struct atomic_entry *e)
{
	const struct comp *mc = REQ(c, P_MEM)->c;
	/* the address was checked at issue; performed in the L2 */
	uint32_t old = MEM(c)->rmw(mc, sv, SP_GLOBAL, 0, (long)(e->addr / 4), (enum atom_op)e->op, (enum vtype)e->type,
	                           e->arg, e->arg2);
	if (e->ret)
		WARPS(c)->write_reg(REQ(c, P_WARPS)->c, sv, e->warp, e->lane, e->dst, old);
	return e->ret;
}

void atomic_entry_describe(const struct comp *c, const struct atomic_entry *e, struct strbuf *out)
{
	static const char *const ops[] = { "add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor" };
	/* the variable by name (`sum`, `out[3]`), as the spec wrote it */
	sb_printf(out, "%s.%s [", e->op < 10 ? ops[e->op] : "?", e->type == VT_F32 ? "f32" : e->type == VT_S32 ? "s32" : "u32");
	program_addr_name(c->g->prog, SP_GLOBAL, e->addr, out);
	sb_puts(out, "] ");
	value_print(e->arg, (enum vtype)e->type, out);
	if (e->warp == AE_LAB)
		sb_printf(out, " (LAB partial from sm %u)", e->lane);
	else
		sb_printf(out, " (warp %u lane %u%s)", e->warp, e->lane, e->ret ? ", returns" : "");
}
