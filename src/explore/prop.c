/* Properties: names, condition trees, resolution and evaluation. */
#include "config.h"
#include "explore/prop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "state/sideset.h"
#include "util/strbuf.h"

static const char *const kind_names[P_NKINDS] = {
	"deterministic", "exists", "~exists", "forall", "invariant", "deadlock_free", "fault",
	"recoverable", "persisted", "durable", "idempotent", "refines", "equals", "comm_race_free", "race_free",
	"persist_order"
};

const char *prop_kind_name(enum prop_kind k)
{
	return k < P_NKINDS ? kind_names[k] : k == P_CONTRACT ? "model_contract" : k == P_OUTCOMES ? "outcomes"
	       : k == P_PROGRESS ? "progress" : "?";
}

int prop_kind_parse(const char *s)
{
	for (int i = 0; i < P_NKINDS; i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	if (!strcmp(s, "deadlock"))
		return P_DEADLOCK;
	return -1;
}

struct expr *expr_new(enum expr_op op)
{
	struct expr *e = xcalloc(1, sizeof *e);
	e->op = op;
	e->tid = -1;
	e->index = -1;
	e->loc = -1;
	return e;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	expr_free(e->l);
	expr_free(e->r);
	free(e->name);
	free(e);
}

int expr_resolve(struct expr *e, const struct model *m, struct strbuf *err)
{
	if (!e)
		return 0;
	if (e->op == E_LOC) {
		struct strbuf why;
		sb_init(&why);
		unsigned count = 0;
		e->loc = model_lookup(m, e->tid, e->name, e->index, &e->type, &count, &why);
		if (e->loc >= 0 && count != 1) {
			sb_printf(&why, "'%s' is an array: name one element, e.g. %s[0]", e->name, e->name);
			e->loc = -1;
		}
		if (e->loc < 0) {
			sb_printf(err, "%s:%d:%d: error: %s\n", e->file ? e->file : "condition", e->line, e->col,
			          sb_str(&why));
			sb_free(&why);
			return -1;
		}
		sb_free(&why);
		return 0;
	}
	return expr_resolve(e->l, m, err) | expr_resolve(e->r, m, err);
}

/* Values are compared as doubles when either side is f32, as signed when
** either side is s32 (or a literal is negative), else unsigned. */
struct val {
	double f;
	int64_t i;
	int is_float;
};

static struct val eval_val(const struct expr *e, const struct model *m, const uint8_t *sv)
{
	struct val v = { 0, 0, 0 };
	switch (e->op) {
	case E_NUM:
		if (e->is_float) {
			float f;
			memcpy(&f, &e->fbits, 4);
			v.f = f;
			v.is_float = 1;
		} else {
			v.i = e->ival;
			v.f = (double)e->ival;
		}
		return v;
	case E_LOC: {
		uint32_t x = m->read(m, sv, e->loc);
		if (e->type == VT_F32) {
			float f;
			memcpy(&f, &x, 4);
			v.f = f;
			v.is_float = 1;
		} else if (e->type == VT_S32) {
			v.i = (int32_t)x;
			v.f = (double)v.i;
		} else {
			v.i = x;
			v.f = (double)x;
		}
		return v;
	}
	case E_ADD:
	case E_SUB: {
		struct val a = eval_val(e->l, m, sv), b = eval_val(e->r, m, sv);
		v.is_float = a.is_float || b.is_float;
		if (v.is_float)
			v.f = e->op == E_ADD ? a.f + b.f : a.f - b.f;
		else
			v.i = e->op == E_ADD ? a.i + b.i : a.i - b.i;
		v.f = v.is_float ? v.f : (double)v.i;
		return v;
	}
	default:
		v.i = expr_eval(e, m, sv);
		v.f = (double)v.i;
		return v;
	}
}

int expr_eval(const struct expr *e, const struct model *m, const uint8_t *sv)
{
	switch (e->op) {
	case E_NOT: return !expr_eval(e->l, m, sv);
	case E_AND: return expr_eval(e->l, m, sv) && expr_eval(e->r, m, sv);
	case E_OR: return expr_eval(e->l, m, sv) || expr_eval(e->r, m, sv);
	case E_EQ: case E_NE: case E_LT: case E_LE: case E_GT: case E_GE: {
		struct val a = eval_val(e->l, m, sv), b = eval_val(e->r, m, sv);
		int c;
		if (a.is_float || b.is_float)
			c = a.f < b.f ? -1 : a.f > b.f ? 1 : a.f == b.f ? 0 : 2; /* 2: unordered (NaN) */
		else
			c = a.i < b.i ? -1 : a.i > b.i;
		switch (e->op) {
		case E_EQ: return c == 0;
		case E_NE: return c != 0;
		case E_LT: return c == -1;
		case E_LE: return c == -1 || c == 0;
		case E_GT: return c == 1;
		default: return c == 1 || c == 0;
		}
	}
	default: {
		struct val v = eval_val(e, m, sv);
		return v.is_float ? v.f != 0 : v.i != 0;
	}
	}
}

unsigned expr_locs(const struct expr *e, int *locs, unsigned n, unsigned max)
{
	if (!e)
		return n;
	if (e->op == E_LOC) {
		for (unsigned i = 0; i < n; i++)
			if (locs[i] == e->loc)
				return n;
		if (n < max)
			locs[n++] = e->loc;
		return n;
	}
	return expr_locs(e->r, locs, expr_locs(e->l, locs, n, max), max);
}

void expr_print(const struct expr *e, struct strbuf *out)
{
	static const char *const ops[] = { "", "", "!", " /\\ ", " \\/ ", " == ", " != ", " < ",
		" <= ", " > ", " >= ", " + ", " - " };
	switch (e->op) {
	case E_NUM:
		if (e->is_float)
			value_print(e->fbits, VT_F32, out);
		else
			sb_printf(out, "%lld", (long long)e->ival);
		return;
	case E_LOC:
		if (e->tid >= 0)
			sb_printf(out, "%d:", e->tid);
		sb_puts(out, e->name);
		if (e->index >= 0)
			sb_printf(out, "[%ld]", e->index);
		return;
	case E_NOT:
		sb_puts(out, "!(");
		expr_print(e->l, out);
		sb_puts(out, ")");
		return;
	default:
		sb_puts(out, "(");
		expr_print(e->l, out);
		sb_puts(out, ops[e->op]);
		expr_print(e->r, out);
		sb_puts(out, ")");
	}
}

void value_print(uint32_t v, enum vtype t, struct strbuf *out)
{
	if (t == VT_F32) {
		float f;
		memcpy(&f, &v, 4);
		/* %.9g round-trips every binary32 value; the bits make it exact */
		sb_printf(out, "%.9g (0x%08x)", (double)f, v);
	} else if (t == VT_S32) {
		sb_printf(out, "%d", (int32_t)v);
	} else {
		sb_printf(out, "%u", v);
	}
}

void value_json(uint32_t v, enum vtype t, struct strbuf *out)
{
	float f;
	memcpy(&f, &v, 4);
	if (t == VT_F32 && !isfinite(f))
		sb_printf(out, "\"%s\"", isnan(f) ? "nan" : f > 0 ? "inf" : "-inf");
	else if (t == VT_F32 && f == 0) /* as %.9g writes it: common in large arrays */
		sb_puts(out, signbit(f) ? "-0" : "0");
	else if (t == VT_F32)
		sb_printf(out, "%.9g", (double)f);
	else {
		if (t == VT_S32 && (int32_t)v < 0) {
			sb_putc(out, '-');
			v = -v;
		}
		sb_put_uint(out, v);
	}
}

void prop_free(struct property *p)
{
	expr_free(p->cond);
	free(p->locs);
	free(p->text);
	free(p->machine);
	ss_free(p->ref);
	free(p->ref_vals);
	free(p->ref_limit);
	memset(p, 0, sizeof *p);
}
