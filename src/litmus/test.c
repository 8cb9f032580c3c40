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
		if (t->loc[l].region == SP_SHARED)
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
		region = SP_SHARED;
	} else if (strcmp(config, "D-warp:S-cta-Global") == 0) {
		per_cta = 0;
		region = SP_GLOBAL;
	} else if (strcmp(config, "D-cta:S-ker-Global") == 0) {
		per_cta = 1;
		region = SP_GLOBAL;
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
