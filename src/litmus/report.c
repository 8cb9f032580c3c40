/*
** Litmus reports in herd7's shape and as JSON; the observed-counts data.
*/
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/report.h"
#include "util/strbuf.h"

const char *lit_verdict(const struct lit_run *r)
{
	unsigned p, n;
	lit_run_counts(r, &p, &n);
	return p ? "Allowed" : "Forbidden";
}

static void value(const struct lit_run *r, int k, uint32_t v, struct strbuf *out)
{
	if (r->otype[k] == VT_S32)
		sb_printf(out, "%d", (int32_t)v);
	else
		sb_printf(out, "%u", v);
}

static void outcome_text(const struct litmus *t, const struct lit_run *r,
                         const struct lit_outcome *o, struct strbuf *out)
{
	for (int k = 0; k < r->nolocs; k++) {
		litmus_loc_name(t, r->olocs[k], out);
		sb_putc(out, '=');
		value(r, k, o->vals[k], out);
		sb_puts(out, "; ");
	}
}

/* The condition as herd prints it: one pair of parentheses around it. */
static void cond_text(const struct litmus *t, struct strbuf *out)
{
	const char *s = t->cond_text;
	size_t n = strlen(s);
	int wrapped = n >= 2 && s[0] == '(' && s[n - 1] == ')';
	for (size_t i = 0, depth = 0; wrapped && i < n; i++) {
		depth += s[i] == '(';
		depth -= s[i] == ')';
		if (depth == 0 && i + 1 < n)
			wrapped = 0; /* "(a) /\ (b)" */
	}
	if (wrapped)
		sb_puts(out, s);
	else
		sb_printf(out, "(%s)", s);
}

static const char *kind_word(const struct litmus *t)
{
	return t->kind == LC_EXISTS ? "exists" : t->kind == LC_NOT_EXISTS ? "~exists" : "forall";
}

void lit_report_herd(const struct litmus *t, const struct lit_run *r, struct strbuf *out)
{
	unsigned p, n;
	lit_run_counts(r, &p, &n);
	const char *head = t->kind == LC_EXISTS ? "Allowed" :
	                   t->kind == LC_NOT_EXISTS ? "Forbidden" : "Required";
	sb_printf(out, "Test %s %s\n", t->name, head);
	sb_printf(out, "States %u\n", r->nout);
	for (unsigned i = 0; i < r->nout; i++) {
		/* herd marks states satisfying the proposition; litmus uses *> */
		sb_puts(out, r->out[i].sat ? "*> " : ":> ");
		outcome_text(t, r, &r->out[i], out);
		sb_putc(out, '\n');
	}
	if (r->witness) {
		sb_puts(out, t->kind == LC_FORALL ? "Counterexample\n" : "Witness\n");
		sb_puts(out, r->witness);
	}
	if (r->incomplete)
		sb_printf(out, "Incomplete: %s\n", r->why ? r->why : "limit hit");
	/* a partial exploration settles only what it has already seen */
	int settled = !r->incomplete || (t->kind == LC_EXISTS ? p > 0 :
	                                 t->kind == LC_NOT_EXISTS ? p > 0 : n > 0);
	sb_puts(out, !settled ? "Unknown\n" : lit_run_ok(t, r) ? "Ok\n" : "No\n");
	sb_puts(out, "Witnesses\n");
	sb_printf(out, "Positive: %u Negative: %u\n", p, n);
	sb_printf(out, "Condition %s ", kind_word(t));
	cond_text(t, out);
	sb_putc(out, '\n');
	sb_printf(out, "Observation %s %s %u %u\n", t->name,
	          p == 0 ? "Never" : n == 0 ? "Always" : "Sometimes", p, n);
	struct strbuf cfg;
	sb_init(&cfg);
	litmus_config(t, &cfg);
	sb_printf(out, "Model %s %s %s\n", t->name, r->model, sb_str(&cfg));
	sb_free(&cfg);
	if (r->races) /* ptx: weak accesses racing (gpumc-litmus(5), DATA RACES) */
		sb_printf(out, "Race %s %llu of %llu executions: %s\n", t->name, (unsigned long long)r->races,
		          (unsigned long long)r->transitions, r->race);
	sb_printf(out, "Time %s %.2f\n\n", t->name, r->seconds);
}

void lit_report_json(const struct litmus *t, const struct lit_run *r, struct strbuf *out)
{
	unsigned p, n;
	lit_run_counts(r, &p, &n);
	struct strbuf cfg;
	sb_init(&cfg);
	litmus_config(t, &cfg);
	sb_puts(out, "{\"test\":");
	sb_json_str(out, t->name);
	sb_puts(out, ",\"file\":");
	sb_json_str(out, t->file);
	sb_puts(out, ",\"model\":");
	sb_json_str(out, r->model);
	sb_puts(out, ",\"config\":");
	sb_json_str(out, sb_str(&cfg));
	sb_free(&cfg);
	sb_printf(out, ",\"kind\":\"%s\",\"condition\":", kind_word(t));
	sb_json_str(out, t->cond_text);
	sb_printf(out, ",\"verdict\":\"%s\",\"ok\":%s,\"complete\":%s,\"positive\":%u,\"negative\":%u",
	          lit_verdict(r), lit_run_ok(t, r) ? "true" : "false",
	          r->incomplete ? "false" : "true", p, n);
	if (r->race) {
		sb_printf(out, ",\"races\":%llu,\"race\":", (unsigned long long)r->races);
		sb_json_str(out, r->race);
	}
	sb_puts(out, ",\"states\":[");
	for (unsigned i = 0; i < r->nout; i++) {
		sb_puts(out, i ? ",{" : "{");
		for (int k = 0; k < r->nolocs; k++) {
			struct strbuf nm;
			sb_init(&nm);
			litmus_loc_name(t, r->olocs[k], &nm);
			sb_json_str(out, sb_str(&nm));
			sb_free(&nm);
			sb_putc(out, ':');
			value(r, k, r->out[i].vals[k], out);
			sb_putc(out, ',');
		}
		sb_printf(out, "\"_sat\":%s,\"_count\":%llu}", r->out[i].sat ? "true" : "false",
		          (unsigned long long)r->out[i].count);
	}
	sb_puts(out, "]");
	if (r->witness) {
		sb_puts(out, ",\"witness\":");
		sb_json_str(out, r->witness);
	}
	sb_printf(out, ",\"statistics\":{\"%s\":%llu,\"%s\":%llu,\"seconds\":%.3f}}",
	          strcmp(r->model, "scoped-rmo") ? "states" : "candidates",
	          (unsigned long long)r->states,
	          strcmp(r->model, "scoped-rmo") ? "transitions" : "consistent",
	          (unsigned long long)r->transitions, r->seconds);
}

/* ---- observed hardware counts ------------------------------------------- */

int lit_obs_load(const char *path, struct lit_obsdata *d, struct strbuf *err)
{
	memset(d, 0, sizeof *d);
	d->nchips = 3;
	strcpy(d->chip[0], "Fermi");
	strcpy(d->chip[1], "Kepler");
	strcpy(d->chip[2], "Maxwell");
	int named = 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		sb_printf(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char line[512];
	int ln = 0;
	while (fgets(line, sizeof line, f)) {
		ln++;
		char *h = strchr(line, '#');
		if (h)
			*h = 0;
		char *tok[8];
		int nt = 0;
		char *save = NULL;
		for (char *s = strtok_r(line, " \t\r\n", &save); s && nt < 8; s = strtok_r(NULL, " \t\r\n", &save))
			tok[nt++] = s;
		if (nt == 0)
			continue;
		int col = (int)(tok[0] - line) + 1;
		if (strcmp(tok[0], "chips") == 0) {
			int same = named && nt - 1 == d->nchips;
			for (int c = 1; same && c < nt; c++)
				same = strcmp(tok[c], d->chip[c - 1]) == 0;
			if (same)
				continue; /* harness outputs of one chip, concatenated */
			if (named || d->n || nt < 2 || nt > 4) {
				sb_printf(err, "%s:%d:%d: %s", path, ln, col,
				          nt < 2 || nt > 4 ? "expected chips NAME... (1 to 3 names)"
				                           : "a file holds the counts of one set of chips");
				goto bad;
			}
			for (int c = 1; c < nt; c++) {
				if (strlen(tok[c]) >= sizeof d->chip[0]) {
					sb_printf(err, "%s:%d:%d: name too long", path, ln, (int)(tok[c] - line) + 1);
					goto bad;
				}
				strcpy(d->chip[c - 1], tok[c]);
			}
			d->nchips = nt - 1;
			named = 1;
			continue;
		}
		if (nt != 2 + d->nchips) {
			if (d->nchips == 3)
				sb_printf(err, "%s:%d:%d: expected CONFIG TEST %s %s %s", path, ln, col, d->chip[0],
				          d->chip[1], d->chip[2]);
			else
				sb_printf(err, "%s:%d:%d: expected CONFIG TEST and %d count%s", path, ln, col, d->nchips,
				          d->nchips > 1 ? "s" : "");
			goto bad;
		}
		if (strlen(tok[0]) >= sizeof d->e[0].config || strlen(tok[1]) >= sizeof d->e[0].name) {
			sb_printf(err, "%s:%d:%d: name too long", path, ln, col);
			goto bad;
		}
		d->e = xrealloc(d->e, (size_t)(d->n + 1) * sizeof *d->e);
		struct lit_obs *o = &d->e[d->n];
		memset(o, 0, sizeof *o);
		strcpy(o->config, tok[0]);
		strcpy(o->name, tok[1]);
		o->line = ln;
		for (int c = 0; c < 3; c++) {
			if (c >= d->nchips) {
				o->count[c] = -1;
				continue;
			}
			const char *s = tok[2 + c];
			if (strcmp(s, "-") == 0) {
				o->count[c] = -1;
				continue;
			}
			char *e;
			errno = 0;
			long v = strtol(s, &e, 10);
			if (*e || errno || v < 0) {
				sb_printf(err, "%s:%d:%d: expected a count or '-', got '%s'", path, ln,
				          (int)(s - line) + 1, s);
				goto bad;
			}
			o->count[c] = v;
		}
		d->n++;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	lit_obs_free(d);
	return -1;
}

void lit_obs_free(struct lit_obsdata *d)
{
	free(d->e);
	d->e = NULL;
	d->n = 0;
}

struct lit_obs *lit_obs_find(struct lit_obsdata *d, const struct litmus *t)
{
	struct strbuf cfg;
	sb_init(&cfg);
	litmus_config(t, &cfg);
	struct lit_obs *found = NULL;
	for (int i = 0; i < d->n && !found; i++)
		if (strcmp(d->e[i].name, t->name) == 0 && strcmp(d->e[i].config, sb_str(&cfg)) == 0)
			found = &d->e[i];
	sb_free(&cfg);
	return found;
}

int lit_doc_forbidden(const struct litmus *t)
{
	for (int i = 0; i < t->nthreads; i++) {
		const struct lit_thread *th = &t->thr[i];
		int accesses = 0, fenced = 1;
		for (int j = 0; j < th->nins; j++) {
			const struct lit_ins *in = &th->ins[j];
			if (in->op == OP_MEMBAR) {
				if (in->scope != SC_CTA)
					fenced = 1;
				continue;
			}
			if (in->op != OP_LD && in->op != OP_ST && in->op != OP_ATOM)
				continue;
			if (in->op != OP_ATOM && in->cache != CO_CG)
				return 0;
			if (accesses && !fenced)
				return 0;
			accesses++;
			fenced = 0;
		}
	}
	return 1;
}
