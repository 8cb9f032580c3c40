/*
** Sequentially consistent memory (component "mem", port mem): a load or
** store takes effect in the step that issues it.  Global memory is one
** segment for the whole grid; each CTA has its own shared segment.
** Addresses are bytes, accesses are aligned 32-bit words; anything else is
** a fault the checker reports.
**
** Slice: global words (4*G), then shared words per CTA (4*S*ctas), at the
** start of the vector so that a global word's location id is its index.
**
** Invariant MEM-1: words outside every declared variable do not exist (the
** segments are exactly the declared variables, so state vectors carry no
** slack).
*/
#include "config.h"
#include "machines/component.h"

#include <string.h>

#include "machines/alu.h"
#include "util/strbuf.h"

static long word(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym, uint32_t addr,
                 int *fault)
{
	(void)sv;
	const struct program *p = c->g->prog;
	if (sym >= 0) {
		const struct symbol *s = &p->syms[sym];
		if (addr < s->base || addr - s->base >= s->nelems * 4u) {
			*fault = F_OOB;
			return -1;
		}
	}
	uint32_t words = sp == SP_GLOBAL ? p->global_words : p->shared_words;
	if (addr & 3) {
		*fault = F_ALIGN;
		return -1;
	}
	if (addr / 4 >= words) {
		*fault = F_OOB;
		return -1;
	}
	return sp == SP_GLOBAL ? (long)(addr / 4) : (long)((size_t)cta * words + addr / 4);
}

static uint32_t *at(const struct comp *c, const uint8_t *sv, enum space sp, long w)
{
	return (uint32_t *)(sv + (sp == SP_GLOBAL ? 0 : c->g->shared_off)) + w;
}

static uint32_t load(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, long w)
{
	(void)cta;
	return *at(c, sv, sp, w);
}

static void store(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, uint32_t v)
{
	(void)cta;
	*at(c, sv, sp, w) = v;
}

static uint32_t rmw(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, enum atom_op op,
                    enum vtype t, uint32_t a, uint32_t b)
{
	(void)cta;
	uint32_t *x = at(c, sv, sp, w), old = *x;
	*x = alu_atomic(op, t, old, a, b);
	return old;
}

static const struct port_mem ops = { word, load, store, rmw };

long mem_fwd_word(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym, uint32_t addr,
                  int *fault)
{
	const struct bind *b = REQ(c, P_MEM);
	return ((const struct port_mem *)b->ops)->word(b->c, sv, sp, cta, sym, addr, fault);
}

uint32_t mem_fwd_load(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, long word)
{
	const struct bind *b = REQ(c, P_MEM);
	return ((const struct port_mem *)b->ops)->load(b->c, sv, sp, cta, word);
}

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	(void)c;
	(void)d;
	*align = 4;
	g->shared_off = (size_t)g->prog->global_words * 4;
	return (long)(g->shared_off + (size_t)g->prog->shared_words * 4 * g->cfg.ctas);
}

static void init(const struct comp *c, uint8_t *sv)
{
	const struct program *p = c->g->prog;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space == SP_GLOBAL)
			memcpy(sv + c->off + s->base, s->init, (size_t)s->nelems * 4);
	}
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	const struct program *p = c->g->prog;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *sym = &p->syms[i];
		if (sym->space != SP_GLOBAL)
			continue;
		sb_printf(out, "  %s =", sym->name);
		if (sym->is_array)
			sb_puts(out, " {");
		for (uint32_t k = 0; k < sym->nelems; k++) {
			sb_puts(out, k ? ", " : " ");
			value_print(((const uint32_t *)sv)[sym->base / 4 + k], sym->type, out);
		}
		sb_puts(out, sym->is_array ? " }\n" : "\n");
	}
}

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_MEM ? &ops : NULL;
}

const struct comp_def comp_mem = {
	.name = "mem", .desc = "SC global memory and per-CTA shared memory",
	.provides = PORT(P_MEM), .port_writes = SELF,
	.layout = layout, .init = init, .print = print, .port = port,
	/* no actions; its port serves the issuing warp alone */
	.por = compose_por_independent,
};
