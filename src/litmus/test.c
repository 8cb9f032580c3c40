/*
** Facts about a parsed litmus test that every model and report shares:
** its GPU configuration name and the numbering of its locations.
*/
#include "config.h"

#include <string.h>

#include "litmus/litmus.h"
#include "util/strbuf.h"

void litmus_config(const struct litmus *t, struct strbuf *out)
{
	int same_cta = 1, distinct_cta = 1, distinct_warp = 1, shared = 0, global = 0;
	for (int i = 0; i < t->nthreads; i++)
		for (int j = i + 1; j < t->nthreads; j++) {
			if (t->thr[i].cta != t->thr[j].cta)
				same_cta = 0;
			else
				distinct_cta = 0;
			if (t->thr[i].cta == t->thr[j].cta && t->thr[i].warp == t->thr[j].warp)
				distinct_warp = 0;
		}
	for (int l = 0; l < t->nlocs; l++) {
		if (t->loc[l].region == RG_SHARED)
			shared = 1;
		else
			global = 1;
	}
	const char *place = distinct_cta ? "D-cta:S-ker" :
	                    same_cta && distinct_warp ? "D-warp:S-cta" :
	                    same_cta ? "S-warp:S-cta" : "Mixed-cta";
	const char *reg = shared && global ? "Mixed" : shared ? "Shared" : "Global";
	sb_printf(out, "%s-%s", place, reg);
}

int litmus_set_config(struct litmus *t, const char *config)
{
	int per_cta, region;
	if (strcmp(config, "D-warp:S-cta-Shared") == 0) {
		per_cta = 0;
		region = RG_SHARED;
	} else if (strcmp(config, "D-warp:S-cta-Global") == 0) {
		per_cta = 0;
		region = RG_GLOBAL;
	} else if (strcmp(config, "D-cta:S-ker-Global") == 0) {
		per_cta = 1;
		region = RG_GLOBAL;
	} else {
		return -1;
	}
	for (int i = 0; i < t->nthreads; i++) {
		t->thr[i].cta = per_cta ? i : 0;
		t->thr[i].warp = i;
	}
	t->nctas = per_cta ? t->nthreads : 1;
	for (int l = 0; l < t->nlocs; l++)
		t->loc[l].region = region;
	return 0;
}

int litmus_lookup(const struct litmus *t, int tid, const char *name,
                  enum vtype *type, struct strbuf *err)
{
	*type = VT_S32;
	if (tid < 0) {
		for (int l = 0; l < t->nlocs; l++)
			if (strcmp(t->loc[l].name, name) == 0)
				return l;
		sb_printf(err, "unknown location %s", name);
		return -1;
	}
	for (int i = 0; i < t->nthreads; i++) {
		if (t->thr[i].id != tid)
			continue;
		const struct lit_thread *th = &t->thr[i];
		const char *n = name[0] == '%' ? name + 1 : name;
		for (int r = 0; r < th->nregs; r++) {
			const char *m = th->regname[r][0] == '%' ? th->regname[r] + 1 : th->regname[r];
			if (strcmp(m, n) == 0) {
				if (th->regpred[r])
					*type = VT_PRED;
				return t->nlocs + i * LIT_MAXR + r;
			}
		}
		sb_printf(err, "T%d has no register %s", tid, name);
		return -1;
	}
	sb_printf(err, "no thread T%d", tid);
	return -1;
}

void litmus_loc_name(const struct litmus *t, int loc, struct strbuf *out)
{
	if (loc < t->nlocs) {
		sb_puts(out, t->loc[loc].name);
		return;
	}
	int i = (loc - t->nlocs) / LIT_MAXR, r = (loc - t->nlocs) % LIT_MAXR;
	sb_printf(out, "%d:%s", t->thr[i].id, t->thr[i].regname[r]);
}

int litmus_addr_loc(const struct litmus *t, uint32_t v)
{
	if (v < LIT_ADDR_BASE || (v - LIT_ADDR_BASE) % LIT_ADDR_STRIDE)
		return -1;
	uint32_t i = (v - LIT_ADDR_BASE) / LIT_ADDR_STRIDE;
	return i < (uint32_t)t->nlocs ? (int)i : -1;
}

enum vtype litmus_loc_type(const struct litmus *t, int loc)
{
	if (loc < t->nlocs)
		return VT_S32;
	int i = (loc - t->nlocs) / LIT_MAXR, r = (loc - t->nlocs) % LIT_MAXR;
	return t->thr[i].regpred[r] ? VT_PRED : VT_S32;
}
