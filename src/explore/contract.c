/*
** --check-model (like LTSmin's --check): on every expanded state verify
**   C-1 enabled() is deterministic: the same state lists the same actions;
**   C-2 the machine's own invariants hold (model.check_state: every
**       component's numbered invariants, zero padding);
**   C-3 apply() is deterministic: applying an action twice to copies of
**       the state gives equal bytes;
**   C-4 an action writes only the slices its kind declares (check_step;
**       the composer also checks there that an action the model calls
**       local for partial-order reduction wrote only its warp: POR-1);
**   C-5 durable() leaves the image zero past durable_key (the set of
**       crash images judged keys on that prefix alone).
** A violation is reported like a property's, with the trace to the state
** (and the offending action as its last step).
*/
#include "config.h"
#include "explore/contract.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

int contract_check(const struct model *m, const uint8_t *sv, const struct action *act, unsigned n,
                   struct strbuf *why)
{
	int bad = CONTRACT_OK;
	struct action *again = xmalloc(sizeof *again * (m->max_actions + 1));
	uint8_t *a = xmalloc(m->sv_size), *b = xmalloc(m->sv_size);
	unsigned n2 = m->enabled(m, sv, again);
	if (n2 != n || memcmp(again, act, sizeof *act * n)) {
		sb_printf(why, "C-1: enabled() lists %u actions, then %u, in the same state", n, n2);
		bad = -1;
	} else if (m->check_state && m->check_state(m, sv, why)) {
		bad = -1;
	} else if (m->durable) {
		m->durable(m, sv, a);
		for (size_t k = m->durable_key; k < m->durable_size && bad == CONTRACT_OK; k++)
			if (a[k]) {
				sb_printf(why, "C-5: the durable image has byte %zu non-zero, past the %zu it is keyed on", k,
				          m->durable_key);
				bad = -1;
			}
	}
	for (unsigned i = 0; i < n && bad == CONTRACT_OK; i++) {
		if (act[i].kind == ACT_CRASH)
			continue;
		memcpy(a, sv, m->sv_size);
		memcpy(b, sv, m->sv_size);
		m->apply(m, a, &act[i]);
		m->apply(m, b, &act[i]);
		if (memcmp(a, b, m->sv_size)) {
			sb_printf(why, "C-3: applying action %u twice to the same state gives different vectors", i);
			bad = (int)i;
		} else if (m->check_step && m->check_step(m, sv, &act[i], a, why)) {
			bad = (int)i;
		}
	}
	free(again);
	free(a);
	free(b);
	return bad;
}
