#include "config.h"
#include "machines/atomic_entry.h"

#include <string.h>

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

/* Lanes x as a row: lane l's value is x->base + row[l], not a test per
** lane -- its register's row, a row of zeros where uniform (an
** immediate, a symbol, no operand), else (%tid and kin) tmp filled. */
static const uint32_t *row_of(const struct alu_lanes *x, uint32_t tmp[32])
{
	static const uint32_t zeros[32];
	if (x->r)
		return x->r;
	if (!x->step)
		return zeros;
	for (unsigned l = 0; l < 32; l++)
		tmp[l] = x->step * l;
	return tmp;
}

/* The fault of the first of entries e[0..n) whose address is outside
** the span lo, lim, as word() says (0: none).  Apart: no call in the
** loop that makes the entries. */
static __attribute__((noinline, cold)) int lanes_fault(const struct comp *c, const uint8_t *sv, int sym,
                                                      const struct atomic_entry *e, int n, uint32_t lo, uint32_t lim)
{
	int fault = 0;
	for (int i = 0; i < n && !fault; i++)
		if (e[i].addr - lo >= lim || (e[i].addr & 3))
			MEM(c)->word(REQ(c, P_MEM)->c, sv, SP_GLOBAL, 0, sym, e[i].addr, &fault);
	return fault;
}

int atomic_entries(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m, const struct instr *in,
                   struct atomic_entry *out)
{
	const struct port_warps *wp = WARPS(c);
	const struct comp *wc = REQ(c, P_WARPS)->c, *mc = REQ(c, P_MEM)->c;
	struct alu_lanes x[3]; /* address, sources 0 and 1: once for the warp, not per lane and use */
	wp->atom_lanes(wc, sv, w, x);
	/* each lane's address tested as its entry is made (the memory's
	** span, else word() lane by lane): a faulting lane makes the warp
	** fault, the entries made dropped */
	uint32_t lo = 0, lim = MEM(c)->span ? MEM(c)->span(mc, in->addr.sym, &lo) : 0, bad = 0;
	/* what the lanes share, once; per lane its address, operands, lane */
	const struct atomic_entry all = entry_at(w, 0, in, 0, 0, 0);
	uint32_t tmp[3][32];
	const uint32_t *ra = row_of(&x[0], tmp[0]), *r1 = row_of(&x[1], tmp[1]), *r2 = row_of(&x[2], tmp[2]);
	int n = 0;
	for (uint32_t b = m; b; b &= b - 1, n++) {
		unsigned l = (unsigned)__builtin_ctz(b);
		struct atomic_entry *e = &out[n];
		memcpy(e, &all, sizeof all); /* a copy of the bytes, not field by field */
		e->addr = x[0].base + ra[l];
		e->arg = x[1].base + r1[l];
		e->arg2 = x[2].base + r2[l];
		e->lane = (uint8_t)l;
		bad |= (e->addr - lo >= lim) | (e->addr & 3);
	}
	int fault = bad ? lanes_fault(c, sv, in->addr.sym, out, n, lo, lim) : 0;
	if (fault) {
		wp->fault(wc, sv, w, fault);
		return -1;
	}
	return n;
}

struct atomic_entry atomic_entry_of(const struct comp *c, const uint8_t *sv, unsigned w, unsigned l,
                                    const struct instr *in)
{
	struct alu_lanes x[3];
	WARPS(c)->atom_lanes(REQ(c, P_WARPS)->c, sv, w, x);
	return entry_at(w, l, in, alu_lane(&x[0], l), alu_lane(&x[1], l), alu_lane(&x[2], l));
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
