#include "config.h"
#include "machines/atomic_entry.h"

#include "util/strbuf.h"

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))
#define MEM(c) ((const struct port_mem *)port_ops(c, P_MEM))

/* Lane l's entry, its address and operands already computed. */
static struct atomic_entry entry_at(unsigned w, unsigned l, const struct instr *in, uint32_t addr, uint32_t arg,
                                    uint32_t arg2)
{
	struct atomic_entry e = { addr, arg, arg2, (uint8_t)in->aop, (uint8_t)in->type, (uint8_t)l, 0, (uint16_t)w, 0 };
	if (in->op == OP_ATOM) {
		e.dst = (uint8_t)in->dst;
		e.ret = 1;
	}
	return e;
}

/* Operands 0 and 1 of warp w's instruction in its lanes. */
static void sources(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in, struct alu_lanes src[2])
{
	const struct port_warps *wp = WARPS(c);
	const struct comp *wc = REQ(c, P_WARPS)->c;
	src[0] = wp->operand(wc, sv, w, &in->src[0]);
	src[1] = wp->operand(wc, sv, w, &in->src[1]);
}

int atomic_entries(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m, const struct instr *in,
                   struct atomic_entry *out)
{
	const struct port_warps *wp = WARPS(c);
	const struct comp *wc = REQ(c, P_WARPS)->c, *mc = REQ(c, P_MEM)->c;
	uint32_t addr[32];
	wp->addresses(wc, sv, w, m, addr); /* once for the warp, not per lane and use */
	/* every address first: a faulting lane makes the warp fault, and no
	** lane's entry is made; only the active lanes are visited (in one
	** call where the provider checks them all) */
	int fault = 0;
	if (MEM(c)->check)
		fault = MEM(c)->check(mc, in->addr.sym, addr, m);
	else
		for (uint32_t b = m; b && !fault; b &= b - 1)
			MEM(c)->word(mc, sv, SP_GLOBAL, 0, in->addr.sym, addr[__builtin_ctz(b)], &fault);
	if (fault) {
		wp->fault(wc, sv, w, fault);
		return -1;
	}
	struct alu_lanes src[2];
	sources(c, sv, w, in, src);
	/* what the lanes share, once; per lane its address, operands, lane */
	const struct atomic_entry all = entry_at(w, 0, in, 0, 0, 0);
	int n = 0;
	for (uint32_t b = m; b; b &= b - 1, n++) {
		unsigned l = (unsigned)__builtin_ctz(b);
		out[n] = all;
		out[n].addr = addr[l];
		out[n].arg = alu_lane(&src[0], l);
		out[n].arg2 = alu_lane(&src[1], l);
		out[n].lane = (uint8_t)l;
	}
	return n;
}

struct atomic_entry atomic_entry_of(const struct comp *c, const uint8_t *sv, unsigned w, unsigned l,
                                    const struct instr *in)
{
	struct alu_lanes src[2];
	sources(c, sv, w, in, src);
	return entry_at(w, l, in, WARPS(c)->address(REQ(c, P_WARPS)->c, sv, w, l), alu_lane(&src[0], l),
	                alu_lane(&src[1], l));
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
