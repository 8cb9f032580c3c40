/*
** Condition parser (grammar in cond.h): recursive descent over lex.c
** tokens, building explore/prop.h expression trees.  Errors name the
** token's file:line:col; a failed parse frees what it built.
*/
#include "config.h"
#include "ir/cond.h"

#include <float.h>
#include <math.h>
#include <string.h>

struct cp {
	struct lexer *lx;
	const struct cond_names *nm;
	int depth; /* parentheses and negations open now */
};

/* Every tree walk after the parser (name binding, evaluation, printing,
** freeing) recurses, so the parser bounds both its own recursion and the
** height of the tree it builds: deeper input is a positioned error, not a
** stack overflow. */
enum { COND_MAX_DEPTH = 256 };

#define TOKC(C) (&(C)->lx->tok)

/* Advance; in a multi-line condition newlines are blanks. */
static void next(struct cp *c)
{
	lex_next(c->lx);
	while (c->nm && c->nm->multiline && TOKC(c)->t == T_NL)
		lex_next(c->lx);
}

static int is(const struct cp *c, const char *s)
{
	return lex_is(c->lx, s);
}

static void expected(struct cp *c, const char *what)
{
	diag_at(c->lx->d, c->lx->file, TOKC(c)->line, TOKC(c)->col, "expected %s, found %s", what,
	        lex_found(c->lx));
}

static void too_deep(struct cp *c)
{
	diag_at(c->lx->d, c->lx->file, TOKC(c)->line, TOKC(c)->col,
	        "condition nested deeper than %d levels (parentheses, negations or a chain of operators)",
	        COND_MAX_DEPTH);
}

/* Set e's height from its operands; 0, or -1 after reporting it too high. */
static int grown(struct cp *c, struct expr *e)
{
	int hl = e->l ? e->l->height : 0, hr = e->r ? e->r->height : 0;
	e->height = 1 + (hl > hr ? hl : hr);
	if (e->height <= COND_MAX_DEPTH)
		return 0;
	too_deep(c);
	return -1;
}

static struct expr *mk(struct cp *c, enum expr_op op)
{
	struct expr *e = expr_new(op);
	e->file = c->lx->file;
	e->line = TOKC(c)->line;
	e->col = TOKC(c)->col;
	e->tid = -1;
	e->index = -1;
	return e;
}

static struct expr *loc(struct cp *c)
{
	struct expr *e = mk(c, E_LOC);
	if (TOKC(c)->t == T_INT) {
		if (TOKC(c)->ival > 65535) { /* as an int it could wrap to another thread */
			expected(c, "a thread number (0 to 65535)");
			goto fail;
		}
		e->tid = (int)TOKC(c)->ival;
		next(c);
		if (!is(c, ":")) {
			expected(c, "':' after the thread number (THREAD:REGISTER)");
			goto fail;
		}
		next(c);
		if (TOKC(c)->t != T_WORD) {
			expected(c, "a register after 'THREAD:'");
			goto fail;
		}
	} else if (TOKC(c)->t != T_WORD) {
		expected(c, "a location");
		goto fail;
	}
	e->name = xstrdup(TOKC(c)->text);
	next(c);
	if (is(c, "[")) {
		next(c);
		if (TOKC(c)->t != T_INT || TOKC(c)->ival > 1 << 24) {
			expected(c, "an index (0 to 16777216)");
			goto fail;
		}
		e->index = (long)TOKC(c)->ival;
		next(c);
		if (!is(c, "]")) {
			expected(c, "']'");
			goto fail;
		}
		next(c);
	}
	return e;
fail:
	expr_free(e);
	return NULL;
}

static struct expr *or_expr(struct cp *c);

static struct expr *number(struct cp *c)
{
	struct expr *l = mk(c, E_NUM);
	int neg = 0;
	if (is(c, "-")) {
		neg = 1;
		next(c);
	}
	struct token *k = TOKC(c);
	if (k->t == T_FLOAT) {
		if (!k->is_hexfloat && !(fabs(k->fval) <= FLT_MAX)) { /* 1e40 was silently infinity */
			diag_at(c->lx->d, c->lx->file, k->line, k->col,
			        "float literal %s is not a finite f32 value (write 0f7F800000 for infinity)", k->text);
			expr_free(l);
			return NULL;
		}
		float f = k->is_hexfloat ? 0 : (float)k->fval;
		if (k->is_hexfloat)
			memcpy(&f, &k->fbits, 4);
		if (neg)
			f = -f;
		memcpy(&l->fbits, &f, 4);
		l->is_float = 1;
	} else if (k->t == T_INT) {
		l->ival = neg ? -k->ival : k->ival;
		if (!fits32(l->ival)) {
			diag_at(c->lx->d, c->lx->file, l->line, l->col, "integer literal -%s does not fit in 32 bits", k->text);
			expr_free(l);
			return NULL;
		}
	} else {
		expected(c, "a number");
		expr_free(l);
		return NULL;
	}
	next(c);
	return l;
}

static struct expr *atom(struct cp *c)
{
	if ((is(c, "(") || is(c, "!") || is(c, "~") || is(c, "not")) && c->depth >= COND_MAX_DEPTH) {
		too_deep(c);
		return NULL;
	}
	if (is(c, "(")) {
		next(c);
		c->depth++;
		struct expr *e = or_expr(c);
		c->depth--;
		if (e && !is(c, ")")) {
			expected(c, "')'");
			expr_free(e);
			return NULL;
		}
		if (e)
			next(c);
		return e;
	}
	if (is(c, "!") || is(c, "~") || is(c, "not")) {
		struct expr *e = mk(c, E_NOT);
		next(c);
		c->depth++;
		e->l = atom(c);
		c->depth--;
		if (!e->l || grown(c, e)) {
			expr_free(e);
			return NULL;
		}
		return e;
	}
	if (is(c, "true") || is(c, "false")) {
		struct expr *e = mk(c, E_NUM);
		e->ival = is(c, "true");
		next(c);
		return e;
	}
	/* a number, unless it is the thread of THREAD:REGISTER */
	if ((TOKC(c)->t == T_INT && c->lx->p[0] != ':') || TOKC(c)->t == T_FLOAT || is(c, "-"))
		return number(c);
	if (TOKC(c)->t != T_INT && TOKC(c)->t != T_WORD) {
		expected(c, "a location, a number or '('");
		return NULL;
	}
	return loc(c);
}

/* One left-associative level: operand { OP operand }, where op() names
** the node an operator token makes (-1: not one of this level's). */
static struct expr *level(struct cp *c, struct expr *(*operand)(struct cp *), int (*op)(const struct cp *))
{
	struct expr *l = operand(c);
	int k;
	while (l && (k = op(c)) >= 0) {
		struct expr *e = mk(c, (enum expr_op)k);
		next(c);
		e->l = l;
		e->r = operand(c);
		l = e;
		if (!e->r || grown(c, e)) {
			expr_free(e);
			return NULL;
		}
	}
	return l;
}

static int sum_op(const struct cp *c)
{
	return is(c, "+") ? E_ADD : is(c, "-") ? E_SUB : -1;
}

static struct expr *sum(struct cp *c)
{
	return level(c, atom, sum_op);
}

static struct expr *cmp(struct cp *c)
{
	struct expr *l = sum(c);
	if (!l)
		return NULL;
	static const struct { const char *s; enum expr_op op; } ops[] = {
		{ "==", E_EQ }, { "=", E_EQ }, { "!=", E_NE }, { "<>", E_NE }, { "<=", E_LE }, { ">=", E_GE },
		{ "<", E_LT }, { ">", E_GT }
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (!is(c, ops[i].s))
			continue;
		struct expr *e = mk(c, ops[i].op);
		next(c);
		e->l = l;
		e->r = sum(c);
		if (!e->r || grown(c, e)) {
			expr_free(e);
			return NULL;
		}
		if (e->r->op == E_LOC && e->r->tid < 0 && c->nm && c->nm->value &&
		    c->nm->value(c->nm->ctx, e->r, c->lx->d) < 0) {
			expr_free(e);
			return NULL;
		}
		return e;
	}
	if (l->op == E_LOC || l->op == E_NUM) {
		/* a bare location means "non-zero" */
		struct expr *e = mk(c, E_NE);
		e->l = l;
		e->r = expr_new(E_NUM);
		if (grown(c, e)) {
			expr_free(e);
			return NULL;
		}
		return e;
	}
	return l;
}

static int and_op(const struct cp *c)
{
	return is(c, "/\\") || is(c, "&&") || is(c, "&") || is(c, "^") || is(c, "and") || is(c, "\xe2\x88\xa7")
	       ? E_AND : -1;
}

static int or_op(const struct cp *c)
{
	return is(c, "\\/") || is(c, "||") || is(c, "or") || is(c, "\xe2\x88\xa8") ? E_OR : -1;
}

static struct expr *and_expr(struct cp *c)
{
	return level(c, cmp, and_op);
}

static struct expr *or_expr(struct cp *c)
{
	return level(c, and_expr, or_op);
}

/* Call the loc hook on every location; -1 if any fails. */
static int check_locs(struct cp *c, struct expr *e)
{
	if (!e)
		return 0;
	if (e->op == E_LOC)
		return c->nm->loc(c->nm->ctx, e, c->lx->d);
	return check_locs(c, e->l) | check_locs(c, e->r);
}

struct expr *cond_parse(struct lexer *lx, const struct cond_names *nm)
{
	struct cp c = { lx, nm, 0 };
	while (nm && nm->multiline && TOKC(&c)->t == T_NL)
		lex_next(lx);
	struct expr *e = or_expr(&c);
	if (e && nm && nm->loc && check_locs(&c, e)) {
		expr_free(e);
		return NULL;
	}
	return e;
}

struct expr *cond_parse_loc(struct lexer *lx)
{
	struct cp c = { lx, NULL, 0 };
	return loc(&c);
}
