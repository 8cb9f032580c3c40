/*
** Sequentially consistent memory: a load or store takes effect in the step
** that issues it.  Global memory is one segment for the whole grid; each
** CTA has its own shared segment.  Addresses are bytes, accesses are
** aligned 32-bit words; anything else is a fault the checker reports.
**
** Invariant MEM-1: words outside every declared variable do not exist (the
** segments are exactly the declared variables, so state vectors carry no
** slack).
*/
#include "config.h"
#include "machines/memory.h"

#include <string.h>

uint32_t *mem_word(const struct gpu *g, uint8_t *sv, enum space sp, unsigned cta, int sym,
                   uint32_t addr, int *fault)
{
	if (sym >= 0) {
		const struct symbol *s = &g->prog->syms[sym];
		if (addr < s->base || addr - s->base >= s->nelems * 4u) {
			*fault = F_OOB;
			return NULL;
		}
	}
	uint32_t words = sp == SP_GLOBAL ? g->prog->global_words : g->prog->shared_words;
	if (addr & 3) {
		*fault = F_ALIGN;
		return NULL;
	}
	if (addr / 4 >= words) {
		*fault = F_OOB;
		return NULL;
	}
	if (sp == SP_GLOBAL)
		return (uint32_t *)sv + addr / 4;
	return (uint32_t *)(sv + g->shared_off) + (size_t)cta * words + addr / 4;
}

unsigned mem_partition(const struct gpu *g, uint32_t addr)
{
	return (addr / g->cfg.line_bytes) % g->cfg.partitions;
}

void mem_init(const struct gpu *g, uint8_t *sv)
{
	const struct program *p = g->prog;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space == SP_GLOBAL)
			memcpy(sv + s->base, s->init, (size_t)s->nelems * 4);
	}
}
