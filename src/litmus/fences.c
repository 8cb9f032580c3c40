/*
** The thesis's recurring question as a query: which fence scope must each
** thread use for the weak outcome to disappear?  Every assignment of
** {none, membar.cta, membar.gl} to the threads is tried, the fence placed
** between each pair of consecutive memory accesses of the thread (fences
** already in the test stay); the minimal assignments that forbid the
** proposition are reported.
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "litmus/fences.h"
#include "ir/litmus.h"
#include "litmus/run.h"
#include "util/strbuf.h"

static const char *const level_name[] = { "none", "membar.cta", "membar.gl" };

/* t with a fence of the given level (1 cta, 2 gl) between each pair of
** accesses of each thread; NULL if a thread would grow too long. */
static struct litmus *variant(const struct litmus *t, const int *level)
{
	struct litmus *v = xmalloc(sizeof *v);
	*v = *t; /* shares file, cond and instruction texts with t */
	for (int i = 0; i < t->nthreads; i++) {
		if (!level[i])
			continue;
		const struct lit_thread *src = &t->thr[i];
		struct lit_thread *dst = &v->thr[i];
		int n = 0, seen = 0;
		for (int j = 0; j < src->nins; j++) {
			if (lit_is_mem(&src->ins[j])) {
				if (seen) {
					if (n >= LIT_MAXI) {
						free(v);
						return NULL;
					}
					struct lit_ins *f = &dst->ins[n++];
					memset(f, 0, sizeof *f);
					f->op = OP_MEMBAR;
					f->scope = level[i] == 1 ? SC_CTA : SC_GL;
					f->sem = SEM_SC; /* membar is fence.sc (the ptx model reads it) */
					f->pred = f->dst = -1;
					f->text = (char *)(level[i] == 1 ? "membar.cta" : "membar.gl");
				}
				seen = 1;
			}
			if (n >= LIT_MAXI) {
				free(v);
				return NULL;
			}
			dst->ins[n++] = src->ins[j];
		}
		dst->nins = n;
	}
	return v;
}

static int dominated(const int *a, const int *b, int n) /* b <= a pointwise */
{
	for (int i = 0; i < n; i++)
		if (b[i] > a[i])
			return 0;
	return 1;
}

int lit_fences(const struct litmus *t, const char *model, const char *chip,
               const struct explore_opts *o, struct strbuf *out, struct strbuf *err)
{
	int n = t->nthreads, total = 1;
	for (int i = 0; i < n; i++)
		total *= 3;
	int *forbid = xcalloc((size_t)total, sizeof *forbid);
	int level[LIT_MAXT];
	int rc = 0;
	for (int c = 0; c < total && rc == 0; c++) {
		for (int i = 0, x = c; i < n; i++, x /= 3)
			level[i] = x % 3;
		struct litmus *v = variant(t, level);
		if (!v) {
			sb_printf(err, "%s: too many instructions to add fences", t->file);
			rc = -1;
			break;
		}
		struct lit_run r;
		if (lit_run_model(v, model, chip, o, 0, &r, err)) {
			rc = -1;
		} else if (r.incomplete) { /* a limit, not an input error: nothing to say */
			sb_printf(err, "%s: exploration incomplete (%s): no fence placement reported", t->file,
			          r.why ? r.why : "limit");
			rc = 1;
		} else {
			unsigned p, q;
			lit_run_counts(&r, &p, &q);
			forbid[c] = p == 0;
		}
		lit_run_free(&r);
		free(v);
	}
	if (rc == 0) {
		struct strbuf cfg;
		sb_init(&cfg);
		litmus_config(t, &cfg);
		sb_printf(out, "Fences %s %s %s\n", t->name, model, sb_str(&cfg));
		sb_free(&cfg);
		int any = 0;
		for (int c = 0; c < total; c++) {
			if (!forbid[c])
				continue;
			int a[LIT_MAXT], b[LIT_MAXT], minimal = 1;
			for (int i = 0, x = c; i < n; i++, x /= 3)
				a[i] = x % 3;
			for (int d = 0; d < total && minimal; d++) {
				if (d == c || !forbid[d])
					continue;
				for (int i = 0, x = d; i < n; i++, x /= 3)
					b[i] = x % 3;
				if (dominated(a, b, n))
					minimal = 0;
			}
			if (!minimal)
				continue;
			any = 1;
			sb_puts(out, "  forbidden with");
			for (int i = 0; i < n; i++)
				sb_printf(out, " T%d:%s", t->thr[i].id, level_name[a[i]]);
			sb_putc(out, '\n');
		}
		if (!any)
			sb_puts(out, "  no placement of membar.cta/membar.gl forbids the condition\n");
	}
	free(forbid);
	return rc;
}
