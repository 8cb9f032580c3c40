/* The trace replayer (see replay.h). */
#include "config.h"
#include "explore/replay.h"

#include <stdlib.h>

#include "util/strbuf.h"

uint32_t trace_replay_each(const struct model *m, const struct trace *t, uint8_t *sv, char **desc, int *crashed,
                           void (*after)(void *ctx, uint32_t i, const uint8_t *sv), void *ctx)
{
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	struct strbuf b;
	sb_init(&b);
	m->init(m, sv);
	if (crashed)
		*crashed = 0;
	uint32_t i;
	for (i = 0; i < t->len; i++) {
		unsigned n = m->enabled(m, sv, act);
		if (t->step[i] >= n)
			break;
		const struct action *a = &act[t->step[i]];
		if (desc) {
			sb_reset(&b);
			model_describe(m, sv, a, &b);
			desc[i] = xstrdup(sb_str(&b));
		}
		if (a->kind == ACT_CRASH) {
			if (crashed)
				*crashed = 1;
			i++;
			break;
		}
		m->apply(m, sv, a);
		if (after)
			after(ctx, i, sv);
	}
	sb_free(&b);
	free(act);
	return i;
}

uint32_t trace_replay(const struct model *m, const struct trace *t, uint8_t *sv, char **desc, int *crashed)
{
	return trace_replay_each(m, t, sv, desc, crashed, NULL, NULL);
}
