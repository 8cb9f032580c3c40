#include "config.h"
#include "machines/atomic_entry.h"

#include "machines/alu.h"
#include "machines/memory.h"
#include "machines/persist.h"
#include "machines/warp.h"
#include "util/strbuf.h"

struct atomic_entry atomic_entry_of(const struct gpu *g, uint8_t *sv, unsigned w, unsigned l,
                                    const struct instr *in)
{
	struct atomic_entry e = {
		warp_address(g, sv, w, l), warp_operand(g, sv, w, l, &in->src[0]),
		warp_operand(g, sv, w, l, &in->src[1]), (uint8_t)in->aop, (uint8_t)in->type, (uint8_t)l, 0,
		(uint16_t)w, 0
	};
	if (in->op == OP_ATOM) {
		e.dst = (uint8_t)in->dst;
		e.ret = 1;
	}
	return e;
}

int atomic_entry_perform(const struct gpu *g, uint8_t *sv, const struct atomic_entry *e)
{
	int fault = 0;
	uint32_t *word = mem_word(g, sv, SP_GLOBAL, 0, -1, e->addr, &fault); /* checked at issue */
	uint32_t old = *word;
	*word = alu_atomic((enum atom_op)e->op, (enum vtype)e->type, old, e->arg, e->arg2);
	if (g->cfg.persist)
		pm_dirty(g, sv, e->addr / 4); /* performed in the L2 */
	if (e->ret)
		gpu_regs(g, sv, e->warp)[(size_t)e->dst * g->cfg.threads_per_warp + e->lane] = old;
	return e->ret;
}

void atomic_entry_describe(const struct atomic_entry *e, struct strbuf *out)
{
	static const char *const ops[] = { "add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor" };
	sb_printf(out, "%s.%s [0x%x] ", e->op < 10 ? ops[e->op] : "?", e->type == VT_F32 ? "f32" : e->type == VT_S32 ? "s32" : "u32",
	          e->addr);
	value_print(e->arg, (enum vtype)e->type, out);
	sb_printf(out, " (warp %u lane %u%s)", e->warp, e->lane, e->ret ? ", returns" : "");
}
