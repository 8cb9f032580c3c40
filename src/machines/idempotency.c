/*
** Kernel idempotency, the rule of notes/persistency.md §4.7 at the
** granularity of variables: a kernel is idempotent when it performs no
** global atomic (its result depends on the prior value) and no global
** variable is both read and written by it (Clobber(R) = Read_in(R) ∩
** Write(R) = ∅), so a re-execution recomputes every output from inputs it
** did not change.  An address held only in a register (no variable named
** in [ ]) may be any variable, so it counts against all of them.  The
** analysis is conservative (a variable written before it is read counts
** as clobbered); `check idempotent` then confirms a "yes" dynamically by
** re-executing the kernel on every crash image (explore.c).
*/
#include "config.h"
#include "machines/idempotency.h"

#include <stdlib.h>

int idem_kernel(const struct program *p, struct strbuf *why)
{
	char *rd = calloc((size_t)p->nsyms + 1, 1), *wr = calloc((size_t)p->nsyms + 1, 1);
	int any_rd = 0, any_wr = 0, atomics = 0, ok = 1;
	for (int i = 0; i < p->nins; i++) {
		const struct instr *in = &p->ins[i];
		if (in->space != SP_GLOBAL)
			continue;
		int reads = in->op == OP_LD, writes = in->op == OP_ST;
		if ((in->op == OP_ATOM || in->op == OP_RED)) {
			atomics++;
			reads = writes = 1;
		}
		if (!reads && !writes)
			continue;
		if (in->addr.sym >= 0) {
			rd[in->addr.sym] |= (char)reads;
			wr[in->addr.sym] |= (char)writes;
		} else {
			any_rd |= reads;
			any_wr |= writes;
		}
	}
	if (atomics) {
		sb_printf(why, "%d global atomic instruction%s (the result depends on the prior value)", atomics,
		          atomics == 1 ? "" : "s");
		ok = 0;
	}
	for (int s = 0; s < p->nsyms; s++) {
		if (p->syms[s].space != SP_GLOBAL)
			continue;
		if ((rd[s] || any_rd) && (wr[s] || any_wr) && (rd[s] || wr[s])) {
			sb_printf(why, "%s'%s' is read and written", ok ? "" : "; ", p->syms[s].name);
			ok = 0;
		}
	}
	if (ok && any_rd && any_wr) {
		sb_puts(why, "loads and stores through registers may touch the same variable");
		ok = 0;
	}
	free(rd);
	free(wr);
	return ok;
}
