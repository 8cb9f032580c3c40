#include "config.h"
#include "state/sideset.h"

#include <Judy.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/strbuf.h"

struct sideset {
	Pvoid_t judy;
	uint64_t n;
};

struct sideset *ss_new(void)
{
	return xcalloc(1, sizeof(struct sideset));
}

void ss_free(struct sideset *s)
{
	if (!s)
		return;
	JudyHSFreeArray(&s->judy, PJE0);
	free(s);
}

uintptr_t *ss_put(struct sideset *s, const void *key, size_t len, int *is_new)
{
	PWord_t v = (PWord_t)JudyHSGet(s->judy, (void *)key, len);
	*is_new = v == NULL;
	if (!v) {
		v = (PWord_t)JudyHSIns(&s->judy, (void *)key, len, PJE0);
		if (v == PJERR) {
			fputs("gpumc: out of memory (Judy)\n", stderr);
			exit(2);
		}
		s->n++;
	}
	return (uintptr_t *)v;
}

uintptr_t *ss_get(const struct sideset *s, const void *key, size_t len)
{
	return s ? (uintptr_t *)JudyHSGet(s->judy, (void *)key, len) : NULL;
}

uint64_t ss_count(const struct sideset *s)
{
	return s->n;
}
