/*
** Kernel-spec parser.  One pass over the tokens of lex.c; every error names
** file:line:col and what was expected, then parsing resumes at the next
** statement so one run reports several mistakes.
**
** Grammar (statements end at a newline or ';'):
**   name "text" | note "text" | machine WORD | set KEY = VALUE
**   global|shared TYPE NAME ['[' N ']'] [= INIT]
**   kernel NL { .reg TYPE REGS | LABEL: | [@[!]%p] OPCODE OPERANDS } end
**   check PROPERTY | expect pass | expect fail KIND
*/
#include "config.h"
#include "spec/spec.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "ir/cond.h"
#include "ir/lex.h"
#include "ir/ptx.h"
#include "state/sideset.h"

struct parser {
	struct lexer lx;
	struct spec *s;
	struct diag *d;
	/* labels and pending branch fixups */
	struct label { char *name; int ins; int line, col; } *labels;
	int nlabels;
	struct fix { char *name; int ins; int line, col; } *fixes;
	int nfixes;
	/* variables ('s'), registers ('r') and labels ('l') by name, to their
	** index + 1: declaring and looking up n names is not quadratic in n */
	struct sideset *names;
	int too_long; /* instructions past MAX_INS */
};

/* Program counters are 16-bit in the state vector, with one value for
** "exited" (machines/compose.c). */
enum { MAX_INS = 65534 };

/* Room for element n of an array of n: the capacity doubles when n is a
** power of two, so appending n elements copies O(n) bytes, not O(n^2). */
static void *room(void *p, size_t size, int n)
{
	if (n & (n - 1))
		return p;
	return xrealloc(p, size * (size_t)(n ? 2 * n : 1));
}

/* The index slot of name (0 when it is not declared). */
static uintptr_t *name_slot(struct parser *P, char kind, const char *name)
{
	char key[256];
	size_t n = strlen(name);
	if (n >= sizeof key - 1)
		n = sizeof key - 2; /* longer names are lexer errors */
	key[0] = kind;
	memcpy(key + 1, name, n);
	int is_new;
	return ss_put(P->names, key, n + 1, &is_new);
}

static int find_name(struct parser *P, char kind, const char *name)
{
	return (int)*name_slot(P, kind, name) - 1;
}

#define TOK(P) (&(P)->lx.tok)

static void err(struct parser *P, const char *fmt, const char *a)
{
	diag_at(P->d, P->lx.file, TOK(P)->line, TOK(P)->col, fmt, a);
}

static void expected(struct parser *P, const char *what)
{
	char buf[256];
	snprintf(buf, sizeof buf, "expected %s, found %s", what, lex_found(&P->lx));
	diag_at(P->d, P->lx.file, TOK(P)->line, TOK(P)->col, "%s", buf);
}

/* Skip to the start of the next statement after an error. */
static void recover(struct parser *P)
{
	while (TOK(P)->t != T_NL && TOK(P)->t != T_EOF)
		lex_next(&P->lx);
}

static void skip_nl(struct parser *P)
{
	while (TOK(P)->t == T_NL)
		lex_next(&P->lx);
}

static int accept(struct parser *P, const char *s)
{
	if (lex_is(&P->lx, s)) {
		lex_next(&P->lx);
		return 1;
	}
	return 0;
}

static int expect_punct(struct parser *P, const char *s)
{
	if (accept(P, s))
		return 1;
	char buf[32];
	snprintf(buf, sizeof buf, "'%s'", s);
	expected(P, buf);
	return 0;
}

static int end_stmt(struct parser *P)
{
	if (TOK(P)->t == T_NL || TOK(P)->t == T_EOF)
		return 1;
	expected(P, "end of statement");
	recover(P);
	return 0;
}

/* {=== Types and literals ================================================ */

static int parse_type_name(const char *w, enum vtype *t)
{
	if (!strcmp(w, "u32") || !strcmp(w, "b32"))
		*t = VT_U32;
	else if (!strcmp(w, "s32"))
		*t = VT_S32;
	else if (!strcmp(w, "f32"))
		*t = VT_F32;
	else if (!strcmp(w, "pred"))
		*t = VT_PRED;
	else
		return 0;
	return 1;
}

static int put_num(uint32_t *dst, enum vtype t, double v);

/* A numeric literal (optionally negative) as 32-bit bits of type t. */
static int parse_value(struct parser *P, enum vtype t, uint32_t *bits)
{
	int neg = 0, line = TOK(P)->line, col = TOK(P)->col;
	if (accept(P, "-"))
		neg = 1;
	struct token *k = TOK(P);
	if (k->t == T_INT) {
		if (t == VT_F32) {
			float f = (float)k->ival;
			if (neg)
				f = -f;
			memcpy(bits, &f, 4);
		} else {
			int64_t v = neg ? -k->ival : k->ival;
			if (!fits32(v))
				diag_at(P->d, P->lx.file, line, col, "integer literal %s%s does not fit in 32 bits",
				        neg ? "-" : "", k->text);
			*bits = (uint32_t)v;
		}
	} else if (k->t == T_FLOAT) {
		if (t != VT_F32) {
			err(P, "float literal %s where an integer is expected", k->text);
			lex_next(&P->lx);
			return 0;
		}
		if (k->is_hexfloat) {
			*bits = k->fbits ^ (neg ? 0x80000000u : 0);
		} else if (!put_num(bits, VT_F32, neg ? -k->fval : k->fval)) {
			/* 1e40 is no f32: it was silently infinity */
			err(P, "float literal %s is not a finite f32 value (write 0f7F800000 for infinity)", k->text);
			lex_next(&P->lx);
			return 0;
		}
	} else {
		expected(P, "a number");
		return 0;
	}
	lex_next(&P->lx);
	return 1;
}

static int parse_int(struct parser *P, long lo, long hi, long *out, const char *what)
{
	if (TOK(P)->t != T_INT) {
		expected(P, what);
		return 0;
	}
	if (TOK(P)->ival < lo || TOK(P)->ival > hi) {
		char buf[128];
		snprintf(buf, sizeof buf, "%s must be between %ld and %ld", what, lo, hi);
		err(P, "%s", buf);
		lex_next(&P->lx);
		return 0;
	}
	*out = (long)TOK(P)->ival;
	lex_next(&P->lx);
	return 1;
}

/* }=== */

/* {=== Memory declarations =============================================== */

/* Deterministic generator for `random(seed, lo, hi)` initialisers
** (splitmix64: the same seed gives the same data on every machine). */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* v as a word of type t, or 0 when it has none: integer types take
** integers that fit in 32 bits, f32 takes finite values in float range
** (a conversion outside either is undefined behaviour, and a wrapped
** value is a silently different input). */
static int put_num(uint32_t *dst, enum vtype t, double v)
{
	if (t == VT_F32) {
		if (!isfinite(v) || fabs(v) > FLT_MAX)
			return 0;
		float f = (float)v;
		memcpy(dst, &f, 4);
		return 1;
	}
	if (!(v == floor(v)) || v < -2147483648.0 || v > 4294967295.0)
		return 0;
	*dst = (uint32_t)(int64_t)v;
	return 1;
}

static const char *type_desc(enum vtype t)
{
	return t == VT_F32 ? "a finite f32 value" : "an integer that fits in 32 bits";
}

/* One whitespace-separated word of a data file as a value of type t: the
** whole word must be a number (no trailing junk), integers in decimal
** without leading zeros (010 is neither ten nor eight). */
static int data_value(const char *w, enum vtype t, uint32_t *dst)
{
	char *end;
	errno = 0;
	if (t == VT_F32) {
		double v = strtod(w, &end);
		return *end == 0 && end != w && put_num(dst, t, v);
	}
	const char *d = w + (*w == '-');
	if (!isdigit((unsigned char)*d) || (d[0] == '0' && d[1]))
		return 0;
	long long v = strtoll(w, &end, 10);
	return *end == 0 && errno == 0 && put_num(dst, t, (double)v);
}

static int parse_file_init(struct parser *P, struct symbol *sym, const char *fname, int line, int col)
{
	/* Relative to the spec's directory. */
	char path[4096];
	const char *slash = strrchr(P->s->path, '/');
	if (fname[0] != '/' && slash)
		snprintf(path, sizeof path, "%.*s/%s", (int)(slash - P->s->path), P->s->path, fname);
	else
		snprintf(path, sizeof path, "%s", fname);
	FILE *f = fopen(path, "r");
	if (!f) {
		diag_at(P->d, P->lx.file, line, col, "cannot open data file '%s': %s", path, strerror(errno));
		return 0;
	}
	uint32_t i = 0;
	int ok = 1, fl = 1, fc = 0, wl = 0, wc = 0, ch;
	char w[64];
	size_t n = 0;
	do {
		ch = getc(f);
		fc++;
		if (ch != EOF && !isspace(ch)) {
			if (!n)
				wl = fl, wc = fc;
			if (n + 1 < sizeof w)
				w[n] = (char)ch;
			n++;
		} else if (n) {
			/* a word ends: it is the next value */
			w[n < sizeof w ? n : sizeof w - 1] = 0;
			if (i < sym->nelems && (n >= sizeof w || !data_value(w, sym->type, &sym->init[i]))) {
				diag_at(P->d, path, wl, wc, "'%s' is not %s", w, type_desc(sym->type));
				ok = 0;
				break;
			}
			i++;
			n = 0;
		}
		if (ch == '\n')
			fl++, fc = 0;
	} while (ch != EOF);
	fclose(f);
	if (ok && i != sym->nelems) {
		diag_at(P->d, P->lx.file, line, col, "data file '%s' holds %s values than the %u of '%s'",
		        path, i > sym->nelems ? "more" : "fewer", sym->nelems, sym->name);
		return 0;
	}
	return ok;
}

static void parse_init(struct parser *P, struct symbol *sym)
{
	uint32_t n = sym->nelems;
	int line = TOK(P)->line, col = TOK(P)->col;
	if (accept(P, "{")) {
		uint32_t i = 0;
		skip_nl(P);
		while (!lex_is(&P->lx, "}")) {
			uint32_t v;
			if (!parse_value(P, sym->type, &v))
				return;
			if (i < n)
				sym->init[i] = v;
			i++;
			skip_nl(P);
			if (!accept(P, ","))
				break;
			skip_nl(P);
		}
		if (!expect_punct(P, "}"))
			return;
		if (i != n)
			diag_at(P->d, P->lx.file, line, col, "'%s' has %u elements but %u initial values",
			        sym->name, n, i);
		return;
	}
	if (TOK(P)->t == T_WORD && strcmp(TOK(P)->text, "-")) {
		char fn[32];
		snprintf(fn, sizeof fn, "%.31s", TOK(P)->text);
		lex_next(&P->lx);
		double a[3] = { 0, 1, 0 };
		int na = 0, isint[3] = { 1, 1, 1 };
		char fname[128] = "";
		if (accept(P, "(")) {
			while (!lex_is(&P->lx, ")") && na < 3) {
				if (TOK(P)->t == T_STR && !strcmp(fn, "file") && na == 0) {
					snprintf(fname, sizeof fname, "%s", TOK(P)->text);
					lex_next(&P->lx);
					na++;
				} else {
					int neg = accept(P, "-");
					if (TOK(P)->t == T_INT) {
						a[na++] = (double)TOK(P)->ival * (neg ? -1 : 1);
					} else if (TOK(P)->t == T_FLOAT) {
						isint[na] = 0;
						a[na++] = TOK(P)->fval * (neg ? -1 : 1);
					} else {
						expected(P, "a number");
						return;
					}
					lex_next(&P->lx);
				}
				if (!accept(P, ","))
					break;
			}
			if (!expect_punct(P, ")"))
				return;
		}
		if (sym->type != VT_F32 && !(isint[0] && isint[1] && isint[2])) {
			diag_at(P->d, P->lx.file, line, col, "%s for the integer array '%s' takes integer arguments", fn,
			        sym->name);
			return;
		}
		/* every element must be a value of the type: report the first that is not */
#define PUT(i, v)                                                                                      \
	do {                                                                                           \
		double v_ = (v);                                                                       \
		if (!put_num(&sym->init[i], sym->type, v_)) {                                          \
			diag_at(P->d, P->lx.file, line, col, "%s gives %.10g for %s[%u], which is not %s", fn, \
			        v_, sym->name, (unsigned)(i), type_desc(sym->type));                       \
			return;                                                                        \
		}                                                                                      \
	} while (0)
		if (!strcmp(fn, "iota")) { /* iota(start, step): start + i*step */
			if (na < 2)
				a[1] = 1;
			for (uint32_t i = 0; i < n; i++)
				PUT(i, a[0] + a[1] * i);
		} else if (!strcmp(fn, "fill")) {
			if (na != 1) {
				diag_at(P->d, P->lx.file, line, col, "fill takes one value: fill(v)");
				return;
			}
			for (uint32_t i = 0; i < n; i++)
				PUT(i, a[0]);
		} else if (!strcmp(fn, "random")) { /* random(seed, lo, hi): uniform in [lo, hi] */
			uint32_t lo, hi;
			if (na != 3 || !isint[0] || a[0] < 0 || !put_num(&lo, sym->type, a[1]) ||
			    !put_num(&hi, sym->type, a[2]) || !(a[1] <= a[2])) {
				diag_at(P->d, P->lx.file, line, col,
				        "random takes (seed, lo, hi): a non-negative integer seed, lo <= hi, both %s",
				        type_desc(sym->type));
				return;
			}
			uint64_t st = (uint64_t)a[0];
			for (uint32_t i = 0; i < n; i++) {
				uint64_t r = splitmix(&st);
				/* both bounds fit in 32 bits: hi - lo + 1 is at most 2^33 */
				if (sym->type == VT_F32)
					PUT(i, a[1] + (a[2] - a[1]) * ((double)(r >> 11) / 9007199254740992.0));
				else
					PUT(i, a[1] + (double)(r % (uint64_t)(a[2] - a[1] + 1)));
			}
#undef PUT
		} else if (!strcmp(fn, "file")) {
			if (!fname[0]) {
				diag_at(P->d, P->lx.file, line, col, "file takes a quoted path: file(\"data.txt\")");
				return;
			}
			parse_file_init(P, sym, fname, line, col);
		} else {
			diag_at(P->d, P->lx.file, line, col,
			        "unknown initialiser '%s' (expected a value, {...}, iota, fill, random or file)", fn);
		}
		return;
	}
	uint32_t v;
	if (!parse_value(P, sym->type, &v))
		return;
	for (uint32_t i = 0; i < n; i++)
		sym->init[i] = v;
}

static void parse_decl(struct parser *P, enum space sp)
{
	struct program *pg = &P->s->prog;
	enum vtype t;
	if (TOK(P)->t != T_WORD || TOK(P)->text[0] != '.' || !parse_type_name(TOK(P)->text + 1, &t) ||
	    t == VT_PRED) {
		expected(P, "a type (.u32, .s32, .f32 or .b32)");
		recover(P);
		return;
	}
	lex_next(&P->lx);
	if (TOK(P)->t != T_WORD || TOK(P)->text[0] == '%' || TOK(P)->text[0] == '.') {
		expected(P, "a variable name");
		recover(P);
		return;
	}
	uintptr_t *slot = name_slot(P, 's', TOK(P)->text);
	if (*slot) {
		err(P, "'%s' is declared twice", TOK(P)->text);
		recover(P);
		return;
	}
	*slot = (uintptr_t)pg->nsyms + 1;
	pg->syms = room(pg->syms, sizeof *pg->syms, pg->nsyms);
	struct symbol *sym = &pg->syms[pg->nsyms++];
	memset(sym, 0, sizeof *sym);
	sym->name = xstrdup(TOK(P)->text);
	sym->line = TOK(P)->line;
	sym->col = TOK(P)->col;
	sym->space = sp;
	sym->type = t;
	sym->nelems = 1;
	lex_next(&P->lx);
	if (accept(P, "[")) {
		long n;
		if (!parse_int(P, 1, 1 << 24, &n, "an array size") || !expect_punct(P, "]")) {
			sym->init = xcalloc(1, 4);
			recover(P);
			return;
		}
		sym->nelems = (uint32_t)n;
		sym->is_array = 1;
	}
	sym->init = xcalloc(sym->nelems, 4);
	uint32_t *seg = sp == SP_GLOBAL ? &pg->global_words : &pg->shared_words;
	sym->base = *seg * 4;
	*seg += sym->nelems;
	if (sp == SP_SHARED)
		pg->uses_shared = 1;
	if (accept(P, "=")) {
		if (sp == SP_SHARED) {
			err(P, "%s", "shared memory cannot be initialised (it is undefined at launch); zero it in the kernel");
			recover(P);
			return;
		}
		parse_init(P, sym);
	}
	end_stmt(P);
}

/* }=== */

/* {=== Kernel ============================================================= */

static int reg_or_die(struct parser *P, const char *name)
{
	int r = find_name(P, 'r', name);
	if (r < 0)
		err(P, "undeclared register '%s' (declare it with .reg)", name);
	return r;
}

static void parse_reg_decl(struct parser *P)
{
	struct program *pg = &P->s->prog;
	enum vtype t;
	if (TOK(P)->t != T_WORD || TOK(P)->text[0] != '.' || !parse_type_name(TOK(P)->text + 1, &t)) {
		expected(P, "a register type (.u32, .s32, .b32, .f32 or .pred)");
		recover(P);
		return;
	}
	lex_next(&P->lx);
	for (;;) {
		if (TOK(P)->t != T_WORD || TOK(P)->text[0] != '%') {
			expected(P, "a register name such as %r or %f");
			recover(P);
			return;
		}
		char base[128];
		snprintf(base, sizeof base, "%s", TOK(P)->text);
		int line = TOK(P)->line, col = TOK(P)->col;
		lex_next(&P->lx);
		long count = -1;
		if (accept(P, "<")) {
			if (!parse_int(P, 1, 4096, &count, "a register count") || !expect_punct(P, ">")) {
				recover(P);
				return;
			}
		}
		/* %r<N> names %r0 .. %r<N-1>: each must be a name an instruction
		** can write (the printer, spec/print.c, writes them one by one) */
		if (count > 0 && strlen(base) + (size_t)snprintf(NULL, 0, "%ld", count - 1) >= sizeof TOK(P)->text) {
			diag_at(P->d, P->lx.file, line, col, "register names %s0 .. %s%ld are longer than %d characters",
			        base, base, count - 1, (int)sizeof TOK(P)->text - 1);
			recover(P);
			return;
		}
		if (special_lookup(base) >= 0) {
			diag_at(P->d, P->lx.file, line, col, "'%s' is a special register", base);
			recover(P);
			return;
		}
		for (long i = 0; i < (count < 0 ? 1 : count); i++) {
			char name[160];
			if (count < 0)
				snprintf(name, sizeof name, "%s", base);
			else
				snprintf(name, sizeof name, "%s%ld", base, i);
			uintptr_t *slot = name_slot(P, 'r', name);
			if (*slot) {
				diag_at(P->d, P->lx.file, line, col, "register '%s' is declared twice", name);
				continue;
			}
			*slot = (uintptr_t)pg->nregs + 1;
			pg->regs = room(pg->regs, sizeof *pg->regs, pg->nregs);
			pg->regs[pg->nregs].name = xstrdup(name);
			pg->regs[pg->nregs].type = t;
			pg->nregs++;
		}
		if (!accept(P, ","))
			break;
	}
	end_stmt(P);
}

static int parse_operand(struct parser *P, struct operand *o, enum vtype t)
{
	memset(o, 0, sizeof *o);
	struct token *k = TOK(P);
	if (k->t == T_WORD && k->text[0] == '%') {
		int sr = special_lookup(k->text);
		if (sr >= 0) {
			o->kind = O_SPECIAL;
			o->special = sr;
		} else {
			o->kind = O_REG;
			o->reg = reg_or_die(P, k->text);
			if (o->reg < 0) {
				lex_next(&P->lx);
				return 0;
			}
		}
		lex_next(&P->lx);
		return 1;
	}
	if (k->t == T_WORD && special_lookup(k->text) >= 0) { /* WARP_SZ */
		o->kind = O_SPECIAL;
		o->special = special_lookup(k->text);
		lex_next(&P->lx);
		return 1;
	}
	if (k->t == T_WORD && k->text[0] != '.') {
		int s = find_name(P, 's', k->text);
		if (s < 0) {
			err(P, "unknown name '%s' (expected a register, a number or a variable)", k->text);
			lex_next(&P->lx);
			return 0;
		}
		o->kind = O_SYM;
		o->sym = s;
		lex_next(&P->lx);
		return 1;
	}
	o->kind = O_IMM;
	return parse_value(P, t == VT_PRED ? VT_U32 : t, &o->imm);
}

/* [sym + %r + imm], terms in any order, at most one of each kind but the
** immediate, which may be added or subtracted. */
static int parse_address(struct parser *P, struct address *a)
{
	a->sym = a->reg = -1;
	a->offset = 0;
	if (!expect_punct(P, "["))
		return 0;
	int sign = 1, first = 1;
	for (;;) {
		struct token *k = TOK(P);
		if (k->t == T_INT) {
			/* offsets add up in 64 bits: their sum, not a wrapped one, must fit */
			int64_t sum = (int64_t)a->offset + sign * k->ival;
			if (sum < INT32_MIN || sum > INT32_MAX) {
				err(P, "byte offset %s takes the address offset out of the 32-bit signed range", k->text);
				return 0;
			}
			a->offset = (int32_t)sum;
			lex_next(&P->lx);
		} else if (sign < 0) {
			expected(P, "a byte offset after '-'");
			return 0;
		} else if (k->t == T_WORD && k->text[0] == '%' && special_lookup(k->text) < 0) {
			if (a->reg >= 0) {
				err(P, "%s", "an address may use at most one register");
				return 0;
			}
			a->reg = reg_or_die(P, k->text);
			if (a->reg < 0)
				return 0;
			lex_next(&P->lx);
		} else if (k->t == T_WORD && find_name(P, 's', k->text) >= 0) {
			if (a->sym >= 0) {
				err(P, "%s", "an address may name at most one variable");
				return 0;
			}
			a->sym = find_name(P, 's', k->text);
			lex_next(&P->lx);
		} else {
			expected(P, first ? "a variable, register or offset inside [ ]"
			                  : "a variable, register or offset after '+'");
			return 0;
		}
		first = 0;
		if (accept(P, "+"))
			sign = 1;
		else if (accept(P, "-"))
			sign = -1;
		else
			break;
	}
	return expect_punct(P, "]");
}

static int parse_dst(struct parser *P, struct instr *in)
{
	if (TOK(P)->t != T_WORD || TOK(P)->text[0] != '%' || special_lookup(TOK(P)->text) >= 0) {
		expected(P, "a destination register");
		return 0;
	}
	in->dst = reg_or_die(P, TOK(P)->text);
	lex_next(&P->lx);
	return in->dst >= 0;
}

static int parse_operands(struct parser *P, struct instr *in, const struct ptx_insn *pi);

/* The opcode word through the shared decoder (ir/ptx.c), then the operands. */
static int parse_instr(struct parser *P, struct instr *in)
{
	int line = TOK(P)->line, col = TOK(P)->col;
	struct ptx_insn pi;
	char msg[512];
	if (ptx_decode(TOK(P)->text, PTX_KERNEL, &pi, msg, sizeof msg)) {
		diag_at(P->d, P->lx.file, line, col, "%s", msg);
		return 0;
	}
	in->op = pi.op;
	in->type = pi.type;
	in->stype = pi.stype;
	in->cmp = pi.op == OP_CVT ? (enum cmp_op)pi.rni : pi.cmp; /* cvt: 1 = round to nearest */
	in->aop = pi.aop;
	in->space = pi.space;
	in->scope = pi.scope;
	in->sem = pi.sem;
	in->cache = pi.cache;
	in->vol = pi.vol;
	in->comm = pi.comm;
	in->wt = pi.cache == CO_WT;
	in->width = pi.width;
	in->dst = -1;
	lex_next(&P->lx);
	int ok = parse_operands(P, in, &pi);
	enum opcode op = in->op;
	if (ok && (op == OP_LD || op == OP_ST || op == OP_ATOM || op == OP_RED || op == OP_CLWB) && in->addr.sym >= 0 &&
	    P->s->prog.syms[in->addr.sym].space != in->space) {
		const struct symbol *sy = &P->s->prog.syms[in->addr.sym];
		char m2[256];
		snprintf(m2, sizeof m2, "'%.64s' is in %s memory but the instruction accesses %s memory (write .%s)",
		         sy->name, sy->space == SP_SHARED ? "shared" : "global",
		         in->space == SP_SHARED ? "shared" : "global", sy->space == SP_SHARED ? "shared" : "global");
		diag_at(P->d, P->lx.file, line, col, "%s", m2);
		return 0;
	}
	return ok;
}

/* The operands of instruction in, in the shape its opcode takes. */
static int parse_operands(struct parser *P, struct instr *in, const struct ptx_insn *pi)
{
	enum opcode op = in->op;
	switch (pi->form) {
	case PF_BRA:
		if (TOK(P)->t != T_WORD) {
			expected(P, "a label");
			return 0;
		}
		P->fixes = room(P->fixes, sizeof *P->fixes, P->nfixes);
		P->fixes[P->nfixes++] = (struct fix){ xstrdup(TOK(P)->text), P->s->prog.nins, TOK(P)->line, TOK(P)->col };
		lex_next(&P->lx);
		return 1;
	case PF_BAR: {
		long id = 0;
		if (TOK(P)->t == T_INT && !parse_int(P, 0, 15, &id, "a barrier id (0..15)"))
			return 0;
		in->barrier = (int)id;
		return 1;
	}
	case PF_NONE:
		return 1;
	case PF_ADDR: /* clwb [addr]: write the line back to the WPQ */
		return parse_address(P, &in->addr);
	case PF_LD:
		if (!parse_dst(P, in) || !expect_punct(P, ",") || !parse_address(P, &in->addr))
			return 0;
		return 1;
	case PF_ST:
		if (!parse_address(P, &in->addr) || !expect_punct(P, ","))
			return 0;
		if (in->width == 8) /* st.u64 [a], {%lo, %hi}: registers are 32-bit */
			return expect_punct(P, "{") && parse_operand(P, &in->src[0], in->type) && expect_punct(P, ",") &&
			       parse_operand(P, &in->src[1], in->type) && expect_punct(P, "}");
		return parse_operand(P, &in->src[0], in->type);
	case PF_ATOM:
	case PF_RED: {
		if (pi->form == PF_ATOM && (!parse_dst(P, in) || !expect_punct(P, ",")))
			return 0;
		if (!parse_address(P, &in->addr) || !expect_punct(P, ",") ||
		    !parse_operand(P, &in->src[0], in->type))
			return 0;
		if (in->aop == AT_CAS)
			return expect_punct(P, ",") && parse_operand(P, &in->src[1], in->type);
		return 1;
	}
	case PF_REG:
		break;
	}
	/* register-form instructions: dst, src... */
	if (!parse_dst(P, in))
		return 0;
	for (int i = 0; i < pi->nsrc; i++) {
		if (!expect_punct(P, ","))
			return 0;
		enum vtype t = in->type;
		if (op == OP_CVT)
			t = in->stype;
		if (op == OP_SELP && i == 2)
			t = VT_PRED;
		if (!parse_operand(P, &in->src[i], t))
			return 0;
	}
	if (op == OP_SETP && in->dst >= 0 && P->s->prog.regs[in->dst].type != VT_PRED) {
		diag_at(P->d, P->lx.file, in->line, in->col, "setp writes a predicate register (.reg .pred)");
		return 0;
	}
	return 1;
}

static void parse_kernel(struct parser *P)
{
	struct program *pg = &P->s->prog;
	int kline = TOK(P)->line, kcol = TOK(P)->col;
	lex_next(&P->lx);
	if (pg->nins) {
		diag_at(P->d, P->lx.file, kline, kcol, "a spec holds one kernel");
	}
	end_stmt(P);
	for (;;) {
		skip_nl(P);
		struct token *k = TOK(P);
		if (k->t == T_EOF) {
			diag_at(P->d, P->lx.file, kline, kcol, "kernel has no 'end'");
			return;
		}
		if (k->t != T_WORD && !lex_is(&P->lx, "@")) {
			expected(P, "an instruction, label, .reg or 'end'");
			recover(P);
			continue;
		}
		if (!strcmp(k->text, "end")) {
			lex_next(&P->lx);
			end_stmt(P);
			return;
		}
		if (!strcmp(k->text, ".reg")) {
			lex_next(&P->lx);
			parse_reg_decl(P);
			continue;
		}
		const char *stmt_start = P->lx.p - strlen(k->text);
		/* label? */
		char word[128];
		snprintf(word, sizeof word, "%s", k->text);
		int wl = k->line, wc = k->col;
		if (k->t == T_WORD && word[0] != '%' && word[0] != '.') {
			lex_next(&P->lx);
			if (accept(P, ":")) {
				uintptr_t *slot = name_slot(P, 'l', word);
				if (*slot)
					diag_at(P->d, P->lx.file, wl, wc, "label '%s' is defined twice (first at line %d)",
					        word, P->labels[*slot - 1].line);
				else
					*slot = (uintptr_t)P->nlabels + 1;
				P->labels = room(P->labels, sizeof *P->labels, P->nlabels);
				P->labels[P->nlabels++] = (struct label){ xstrdup(word), pg->nins, wl, wc };
				continue;
			}
			/* not a label: rewind by re-lexing from the word */
			P->lx.p = stmt_start;
			P->lx.line = wl;
			P->lx.col = wc;
			lex_next(&P->lx);
		}
		struct instr in;
		memset(&in, 0, sizeof in);
		in.pred = -1;
		in.line = TOK(P)->line;
		in.col = TOK(P)->col;
		const char *text_start = P->lx.p - strlen(TOK(P)->text);
		if (accept(P, "@")) {
			int neg = accept(P, "!");
			if (TOK(P)->t != T_WORD || TOK(P)->text[0] != '%') {
				expected(P, "a predicate register after '@'");
				recover(P);
				continue;
			}
			in.pred = reg_or_die(P, TOK(P)->text);
			in.pred_neg = neg;
			if (in.pred >= 0 && pg->regs[in.pred].type != VT_PRED) {
				err(P, "'%s' is not a predicate register", TOK(P)->text);
				in.pred = -1;
			}
			lex_next(&P->lx);
			if (TOK(P)->t != T_WORD) {
				expected(P, "an instruction after the guard");
				recover(P);
				continue;
			}
		}
		int nfixes0 = P->nfixes;
		if (!parse_instr(P, &in) || !end_stmt(P)) {
			/* a branch whose statement failed is not in the program:
			   its target fix would patch past the instruction list */
			while (P->nfixes > nfixes0)
				free(P->fixes[--P->nfixes].name);
			recover(P);
			continue;
		}
		const char *e = P->lx.p;
		while (e > text_start && (e[-1] == '\n' || e[-1] == ';' || e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		size_t n = (size_t)(e - text_start);
		/* keep the text as written, with runs of blanks collapsed */
		in.text = xmalloc(n + 1);
		size_t o = 0;
		for (size_t i = 0; i < n; i++) {
			char ch = text_start[i] == '\t' ? ' ' : text_start[i];
			if (ch == ' ' && o && in.text[o - 1] == ' ')
				continue;
			in.text[o++] = ch;
		}
		in.text[o] = 0;
		/* drop a trailing comment from the text */
		char *c = strstr(in.text, "//");
		if (c) {
			*c = 0;
			while (c > in.text && (c[-1] == ' ' || c[-1] == '\t'))
				*--c = 0;
		}
		if (pg->nins == MAX_INS) { /* checked before any analysis sized by the kernel */
			if (!P->too_long++)
				diag_at(P->d, P->lx.file, in.line, in.col, "kernel too long: at most %d instructions", MAX_INS);
			free(in.text);
			continue;
		}
		pg->ins = room(pg->ins, sizeof *pg->ins, pg->nins);
		pg->ins[pg->nins++] = in;
	}
}

/* }=== */

/* {=== Properties ========================================================= */

static void spec_prop_free(struct spec_prop *sp)
{
	for (unsigned j = 0; j < sp->p.nlocs; j++)
		free(sp->loc_names[j]);
	free(sp->loc_names);
	free(sp->loc_index);
	free(sp->loc_tid);
	free(sp->loc_line);
	free(sp->loc_col);
	prop_free(&sp->p);
}

static void parse_check(struct parser *P)
{
	struct spec *s = P->s;
	int line = TOK(P)->line, col = TOK(P)->col;
	const char *start = P->lx.p;
	int kind = TOK(P)->t == T_WORD ? prop_kind_parse(TOK(P)->text) : -1;
	if (kind < 0 || kind == P_FAULT) {
		expected(P, "a property (deterministic, exists, ~exists, forall, invariant, deadlock_free, recoverable, durable, persisted, idempotent, refines, equals, race_free, comm_race_free or persist_order)");
		recover(P);
		return;
	}
	start = P->lx.p;
	while (*start == ' ' || *start == '\t')
		start++;
	lex_next(&P->lx);
	struct spec_prop sp;
	memset(&sp, 0, sizeof sp);
	sp.p.kind = (enum prop_kind)kind;
	sp.line = line;
	sp.col = col;
	if (kind == P_REFINES || kind == P_EQUALS) {
		/* check refines MACHINE [locations]: the machine is a name */
		if (TOK(P)->t != T_WORD) {
			expected(P, "the name of the reference machine (e.g. baseline)");
			recover(P);
			return;
		}
		sp.p.machine = xstrdup(TOK(P)->text);
		sp.machine_line = TOK(P)->line;
		sp.machine_col = TOK(P)->col;
		lex_next(&P->lx);
	}
	if (kind == P_DETERMINISTIC || kind == P_REFINES || kind == P_EQUALS) {
		while (TOK(P)->t != T_NL && TOK(P)->t != T_EOF) {
			struct expr *e = cond_parse_loc(&P->lx);
			if (!e) {
				recover(P);
				spec_prop_free(&sp);
				return;
			}
			unsigned n = sp.p.nlocs + 1;
			sp.loc_names = xrealloc(sp.loc_names, sizeof(char *) * n);
			sp.loc_index = xrealloc(sp.loc_index, sizeof(long) * n);
			sp.loc_tid = xrealloc(sp.loc_tid, sizeof(int) * n);
			sp.loc_line = xrealloc(sp.loc_line, sizeof(int) * n);
			sp.loc_col = xrealloc(sp.loc_col, sizeof(int) * n);
			sp.loc_names[n - 1] = e->name;
			e->name = NULL;
			sp.loc_index[n - 1] = e->index;
			sp.loc_tid[n - 1] = e->tid;
			sp.loc_line[n - 1] = e->line;
			sp.loc_col[n - 1] = e->col;
			sp.p.nlocs = n;
			expr_free(e);
			accept(P, ",");
		}
	} else if (kind == P_PERSIST_ORDER) {
		/* check persist_order strict|epoch: the model is a name */
		sp.p.mode = accept(P, "strict") ? PO_STRICT : accept(P, "epoch") ? PO_EPOCH : PO_NONE;
		if (!sp.p.mode) {
			expected(P, "the persistency model (strict or epoch)");
			recover(P);
			return;
		}
	} else if (kind != P_DEADLOCK && kind != P_IDEMPOTENT && kind != P_COMM_RACE && kind != P_RACE_FREE) {
		sp.p.cond = cond_parse(&P->lx, NULL); /* names resolve against the machine */
		if (!sp.p.cond) {
			recover(P);
			return;
		}
	}
	const char *e = P->lx.p;
	if (TOK(P)->t == T_NL)
		e--;
	while (e > start && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (!end_stmt(P)) {
		spec_prop_free(&sp);
		return;
	}
	struct strbuf t;
	sb_init(&t);
	sb_printf(&t, "%s", prop_kind_name(sp.p.kind));
	if (e > start)
		sb_printf(&t, " %.*s", (int)(e - start), start);
	sp.p.text = xstrdup(sb_str(&t));
	sb_free(&t);
	s->props = xrealloc(s->props, sizeof *s->props * (size_t)(s->nprops + 1));
	s->props[s->nprops++] = sp;
}

/* }=== */

/* A variable of a host step: NAME, NAME[i] or (launch where) NAME[cta]. */
/* A recovery register %h0..%h7 next?  Its number, else -1. */
static int host_reg(struct parser *P)
{
	const char *t = TOK(P)->text;
	if (TOK(P)->t != T_WORD || t[0] != '%' || t[1] != 'h' || t[2] < '0' || t[2] >= '0' + HOST_REGS || t[3])
		return -1;
	return t[2] - '0';
}

/* %hK or a value: *reg the register (-1: *value holds the value). */
static int parse_host_operand(struct parser *P, int *reg, uint32_t *value)
{
	*reg = host_reg(P);
	if (*reg < 0)
		return parse_value(P, VT_U32, value);
	lex_next(&P->lx);
	return 1;
}

static int parse_host_var(struct parser *P, struct host_step *h, int allow_cta)
{
	if (TOK(P)->t != T_WORD) {
		expected(P, "a global variable");
		return 0;
	}
	h->sym = find_name(P, 's', TOK(P)->text);
	if (h->sym < 0 || P->s->prog.syms[h->sym].space != SP_GLOBAL) {
		err(P, "'%s' is not a global variable", TOK(P)->text);
		return 0;
	}
	const struct symbol *sy = &P->s->prog.syms[h->sym];
	lex_next(&P->lx);
	h->index = -1;
	if (accept(P, "[")) {
		if (allow_cta && lex_is(&P->lx, "cta")) {
			lex_next(&P->lx);
			h->index = HOST_CTA;
		} else if (host_reg(P) >= 0) {
			/* a computed element: %hK [+ offset], bounds checked as it runs */
			h->ireg = host_reg(P);
			lex_next(&P->lx);
			long i = 0;
			if (accept(P, "+") && !parse_int(P, 0, (long)sy->nelems - 1, &i, "an element offset"))
				return 0;
			h->index = i;
		} else {
			long i;
			if (!parse_int(P, 0, (long)sy->nelems - 1, &i, "an element index"))
				return 0;
			h->index = i;
		}
		if (!expect_punct(P, "]"))
			return 0;
	}
	return 1;
}

static int parse_host_cmp(struct parser *P, struct host_step *h)
{
	static const struct { const char *s; enum cmp_op c; } ops[] = {
		{ "==", C_EQ }, { "=", C_EQ }, { "!=", C_NE }, { "<=", C_LE }, { ">=", C_GE }, { "<", C_LT }, { ">", C_GT }
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (accept(P, ops[i].s)) {
			h->cmp = ops[i].c;
			if (host_reg(P) >= 0) /* the right side: a register */
				return parse_host_operand(P, &h->reg[2], &h->value);
			return parse_value(P, h->sym >= 0 ? P->s->prog.syms[h->sym].type : VT_U32, &h->value);
		}
	expected(P, "a comparison (==, !=, <, <=, >, >=)");
	return 0;
}

/* [where VAR[cta] CMP V]: a recovery step for the CTAs it selects. */
static int parse_where(struct parser *P, struct host_step *h, int recovery)
{
	if (!lex_is(&P->lx, "where"))
		return 1;
	if (!recovery) {
		err(P, "%s", "'where' is for recovery steps: the host works on every CTA");
		return 0;
	}
	lex_next(&P->lx);
	struct host_step c = { .sym = -1, .sym2 = -1, .index = -1, .ireg = -1, .reg = { -1, -1, -1 } };
	if (!parse_host_var(P, &c, 1) || !parse_host_cmp(P, &c))
		return 0;
	if (c.index != HOST_CTA || c.reg[2] >= 0) {
		err(P, "%s", "'where' selects CTAs: write VAR[cta]");
		return 0;
	}
	h->where = 1;
	h->wsym = c.sym;
	h->wcmp = c.cmp;
	h->wvalue = c.value;
	return 1;
}

/* if|while LHS CMP RHS: LHS a variable (element) or a register. */
static int parse_host_cond(struct parser *P, struct host_step *h)
{
	if (host_reg(P) >= 0) {
		h->reg[1] = host_reg(P);
		lex_next(&P->lx);
	} else if (!parse_host_var(P, h, 0)) {
		return 0;
	}
	return parse_host_cmp(P, h);
}

/* mov %hD, A | add|sub|mul %hD, A, B | ld %hD, VAR[i] */
static int parse_host_alu(struct parser *P, struct host_step *h)
{
	h->reg[0] = host_reg(P);
	if (h->reg[0] < 0) {
		expected(P, "a recovery register (%h0 .. %h7)");
		return 0;
	}
	lex_next(&P->lx);
	if (!expect_punct(P, ","))
		return 0;
	if (h->op == H_LD) {
		if (!parse_host_var(P, h, 0))
			return 0;
		if (h->index < 0 && P->s->prog.syms[h->sym].nelems != 1) {
			err(P, "%s", "ld reads one word: write VAR[i]");
			return 0;
		}
		return 1;
	}
	if (!parse_host_operand(P, &h->reg[1], &h->value))
		return 0;
	return h->op == H_MOV || (expect_punct(P, ",") && parse_host_operand(P, &h->reg[2], &h->value2));
}

/* host NL { STEP NL } end: the host program around the kernel (launch
** marks where the kernel runs; without it the kernel runs first).
** recovery NL { STEP NL } end: run on every crash image, with if/end,
** while/end and registers %h0..%h7.
** Steps: sync, l2wb, pcommit, launch [where VAR[cta] CMP V], copy DST,
** SRC, store VAR[i] = A, persist VAR[i], if C ... end; recovery also
** ld %hD, VAR[i], mov %hD, A, add|sub|mul %hD, A, B, while C ... end,
** where an element i is N, %hK or %hK + N, A and B are %hK or N, and C is
** VAR[i] or %hK, a comparison, and N or %hK. */
static void parse_host(struct parser *P, int recovery)
{
	struct program *pg = &P->s->prog;
	const char *what = recovery ? "recovery" : "host";
	int hline = TOK(P)->line, hcol = TOK(P)->col;
	end_stmt(P);
	if (recovery ? pg->recovery != NULL : pg->host != NULL)
		diag_at(P->d, P->lx.file, hline, hcol, "a spec holds one %s block", what);
	struct host_step *steps = xmalloc(sizeof *steps);
	enum { MAX_OPEN = 4 };
	int n = 0, open[MAX_OPEN], nopen = 0, loops = 0; /* open if/while blocks; whiles among them */
	for (;;) {
		skip_nl(P);
		if (TOK(P)->t == T_EOF) {
			diag_at(P->d, P->lx.file, hline, hcol, "%s block has no 'end'", what);
			free(steps);
			return;
		}
		struct host_step h;
		memset(&h, 0, sizeof h);
		h.sym = h.sym2 = -1;
		h.index = -1;
		h.ireg = h.reg[0] = h.reg[1] = h.reg[2] = -1;
		h.line = TOK(P)->line;
		int ok = 1, line = TOK(P)->line, col = TOK(P)->col;
		if (lex_is(&P->lx, "end")) {
			lex_next(&P->lx);
			end_stmt(P);
			if (!nopen)
				break;
			int b = open[--nopen];
			h.op = steps[b].op == H_WHILE ? H_LOOP : H_END;
			h.skip = b; /* a loop's end goes back to its while */
			steps[b].skip = n;
			loops -= h.op == H_LOOP;
		} else if (loops && (lex_is(&P->lx, "sync") || lex_is(&P->lx, "l2wb") || lex_is(&P->lx, "pcommit") ||
		                     lex_is(&P->lx, "launch") || lex_is(&P->lx, "copy"))) {
			/* the device's queue is in program order: no loop back over it */
			err(P, "'%s' is device work: a while body holds ld, mov, add, sub, mul, store, persist and if", TOK(P)->text);
			ok = 0;
		} else if (accept(P, "sync")) {
			h.op = H_SYNC;
		} else if (accept(P, "l2wb")) {
			h.op = H_L2WB;
		} else if (accept(P, "pcommit")) {
			h.op = H_PCOMMIT;
		} else if (accept(P, "launch")) {
			h.op = H_LAUNCH;
			ok = parse_where(P, &h, recovery);
		} else if (accept(P, "copy")) {
			h.op = H_COPY;
			struct host_step src = { .sym = -1, .sym2 = -1, .index = -1, .ireg = -1 };
			ok = parse_host_var(P, &h, 0) && expect_punct(P, ",") && parse_host_var(P, &src, 0);
			if (ok && (h.ireg >= 0 || src.ireg >= 0)) { /* the device copies; it reads no register */
				diag_at(P->d, P->lx.file, line, col, "%s", "copy names elements by number, not %hK");
				ok = 0;
			}
			int elem = ok && h.index >= 0 && src.index >= 0;
			if (ok && !elem && (h.index >= 0 || src.index >= 0 ||
			                    pg->syms[h.sym].nelems != pg->syms[src.sym].nelems)) {
				err(P, "%s", "copy takes two whole variables of the same size, or two elements");
				ok = 0;
			}
			h.sym2 = src.sym;
			h.value = elem ? (uint32_t)src.index : 0; /* element copy: the source index */
			if (elem && lex_is(&P->lx, "where")) {
				err(P, "%s", "an element copy has no 'where'");
				ok = 0;
			}
			ok = ok && parse_where(P, &h, recovery);
		} else if (accept(P, "store")) {
			h.op = H_STORE;
			ok = parse_host_var(P, &h, 0) && expect_punct(P, "=");
			if (ok && host_reg(P) >= 0 && !recovery) {
				err(P, "%s", "registers are the recovery's: the host stores values");
				ok = 0;
			}
			ok = ok && (host_reg(P) >= 0 ? parse_host_operand(P, &h.reg[1], &h.value)
			                             : parse_value(P, pg->syms[h.sym].type, &h.value));
		} else if (accept(P, "persist")) {
			h.op = H_PERSIST;
			ok = parse_host_var(P, &h, 0);
		} else if (recovery && (lex_is(&P->lx, "if") || lex_is(&P->lx, "while"))) {
			h.op = lex_is(&P->lx, "if") ? H_IF : H_WHILE;
			lex_next(&P->lx);
			if (nopen == MAX_OPEN) {
				err(P, "%s", "if and while blocks nest at most 4 deep");
				ok = 0;
			} else {
				ok = parse_host_cond(P, &h);
			}
		} else if (recovery && (lex_is(&P->lx, "ld") || lex_is(&P->lx, "mov") || lex_is(&P->lx, "add") ||
		                        lex_is(&P->lx, "sub") || lex_is(&P->lx, "mul"))) {
			static const char *const names[] = { "ld", "mov", "add", "sub", "mul" };
			for (int k = 0; k < 5; k++)
				if (lex_is(&P->lx, names[k]))
					h.op = (enum host_op)(H_LD + k);
			lex_next(&P->lx);
			ok = parse_host_alu(P, &h);
		} else {
			expected(P, recovery ? "a recovery step (if, while, ld, mov, add, sub, mul, copy, store, persist, launch, sync, l2wb, pcommit) or 'end'"
			                     : "a host step (launch, copy, store, persist, sync, l2wb, pcommit) or 'end'");
			ok = 0;
		}
		if (ok && !recovery && h.ireg >= 0) {
			diag_at(P->d, P->lx.file, line, col, "%s", "registers are the recovery's: the host names elements by number");
			ok = 0;
		}
		if (h.op == H_END || h.op == H_LOOP)
			;
		else if (!ok || !end_stmt(P)) {
			recover(P);
			continue;
		}
		if (h.op == H_LAUNCH && !recovery && pg->launch_at < 0) /* the first launch */
			pg->launch_at = n;
		steps = xrealloc(steps, sizeof *steps * (size_t)(n + 1));
		steps[n++] = h;
		if (h.op == H_IF || h.op == H_WHILE) { /* only once it is in the list: its `end` patches it */
			open[nopen++] = n - 1;
			loops += h.op == H_WHILE;
		}
	}
	if (recovery) {
		free(pg->recovery);
		pg->recovery = steps;
		pg->nrecovery = n;
	} else {
		free(pg->host);
		pg->host = steps;
		pg->nhost = n;
	}
}

char *spec_value_read(struct lexer *lx)
{
	struct token *k = &lx->tok;
	if (k->t == T_NL || k->t == T_EOF || k->t == T_PUNCT)
		return NULL;
	/* a value is one word, or words and numbers joined by '-' with no
	** blanks between them: nr-of, strict-clwb */
	struct strbuf v;
	sb_init(&v);
	sb_puts(&v, k->text);
	int line = k->line, end = k->col + (int)strlen(k->text);
	lex_next(lx);
	while (k->line == line && k->col == end && (k->t == T_WORD || k->t == T_INT || lex_is(lx, "-"))) {
		sb_puts(&v, k->text);
		end = k->col + (int)strlen(k->text);
		lex_next(lx);
	}
	char *r = xstrdup(sb_str(&v));
	sb_free(&v);
	return r;
}

static void parse_set(struct parser *P)
{
	if (TOK(P)->t != T_WORD) {
		expected(P, "a parameter name");
		recover(P);
		return;
	}
	struct param_set ps = { xstrdup(TOK(P)->text), NULL, P->lx.file, TOK(P)->line, TOK(P)->col };
	lex_next(&P->lx);
	if (!expect_punct(P, "=")) {
		free(ps.key);
		recover(P);
		return;
	}
	ps.value = spec_value_read(&P->lx);
	if (!ps.value) {
		expected(P, "a value");
		free(ps.key);
		recover(P);
		return;
	}
	if (!end_stmt(P)) {
		free(ps.key);
		free(ps.value);
		return;
	}
	P->s->params = xrealloc(P->s->params, sizeof *P->s->params * (size_t)(P->s->nparams + 1));
	P->s->params[P->s->nparams++] = ps;
}

/* The verdict in v: for every machine, or `on MACHINE` only for that one. */
static void set_expect(struct parser *P, const char *v)
{
	struct spec *s = P->s;
	if (!accept(P, "on")) {
		free(s->expect);
		s->expect = xstrdup(v);
		return;
	}
	if (TOK(P)->t != T_WORD) {
		expected(P, "a machine name after 'on'");
		return;
	}
	s->expect_on = xrealloc(s->expect_on, sizeof(char *) * (size_t)(s->nexpect_on + 1));
	s->expect_on_machine = xrealloc(s->expect_on_machine, sizeof(char *) * (size_t)(s->nexpect_on + 1));
	s->expect_on[s->nexpect_on] = xstrdup(v);
	s->expect_on_machine[s->nexpect_on++] = xstrdup(TOK(P)->text);
	lex_next(&P->lx);
}

void spec_expect_for(struct spec *s, const char *machine)
{
	for (int i = 0; i < s->nexpect_on; i++)
		if (!strcmp(s->expect_on_machine[i], machine)) {
			free(s->expect);
			s->expect = xstrdup(s->expect_on[i]);
		}
}

static void parse_expect(struct parser *P)
{
	int line = TOK(P)->line;
	if (accept(P, "pass")) {
		set_expect(P, "pass");
	} else if (accept(P, "fail")) {
		int k = TOK(P)->t == T_WORD ? prop_kind_parse(TOK(P)->text) : -1;
		if (k < 0) {
			expected(P, "the property kind expected to fail (deterministic, exists, ~exists, forall, invariant, deadlock_free, fault, recoverable, persisted, durable, idempotent, refines, equals, race_free, comm_race_free, persist_order)");
			recover(P);
			return;
		}
		char buf[64];
		snprintf(buf, sizeof buf, "fail %s", prop_kind_name((enum prop_kind)k));
		lex_next(&P->lx);
		set_expect(P, buf);
	} else {
		expected(P, "'pass' or 'fail KIND'");
		recover(P);
		return;
	}
	P->s->expect_line = line;
	end_stmt(P);
}

static void parse_string_stmt(struct parser *P, char **dst)
{
	if (TOK(P)->t != T_STR) {
		expected(P, "a quoted string");
		recover(P);
		return;
	}
	free(*dst);
	*dst = xstrdup(TOK(P)->text);
	lex_next(&P->lx);
	end_stmt(P);
}

struct spec *spec_parse(const char *path, const char *text, struct diag *d)
{
	struct spec *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->text = xstrdup(text);
	s->text_hash = XXH3_64bits(text, strlen(text));
	s->machine = xstrdup("baseline");
	s->prog.launch_at = -1;
	struct parser P;
	memset(&P, 0, sizeof P);
	P.s = s;
	P.d = d;
	P.names = ss_new();
	int nerr0 = d->nerr;
	lex_init(&P.lx, s->path, s->text, d);
	for (;;) {
		skip_nl(&P);
		if (TOK(&P)->t == T_EOF)
			break;
		if (TOK(&P)->t != T_WORD) {
			expected(&P, "a statement (machine, set, global, shared, kernel, host, recovery, check, expect, name, note)");
			recover(&P);
			continue;
		}
		char kw[32];
		snprintf(kw, sizeof kw, "%.31s", TOK(&P)->text);
		int line = TOK(&P)->line, col = TOK(&P)->col;
		if (!strcmp(kw, "kernel")) {
			parse_kernel(&P);
			continue;
		}
		lex_next(&P.lx);
		if (!strcmp(kw, "machine")) {
			if (TOK(&P)->t != T_WORD) {
				expected(&P, "a machine name");
				recover(&P);
				continue;
			}
			free(s->machine);
			s->machine = xstrdup(TOK(&P)->text);
			s->machine_line = TOK(&P)->line;
			s->machine_col = TOK(&P)->col;
			lex_next(&P.lx);
			end_stmt(&P);
		} else if (!strcmp(kw, "set")) {
			parse_set(&P);
		} else if (!strcmp(kw, "global")) {
			parse_decl(&P, SP_GLOBAL);
		} else if (!strcmp(kw, "shared")) {
			parse_decl(&P, SP_SHARED);
		} else if (!strcmp(kw, "check")) {
			parse_check(&P);
		} else if (!strcmp(kw, "expect")) {
			parse_expect(&P);
		} else if (!strcmp(kw, "name")) {
			parse_string_stmt(&P, &s->name);
		} else if (!strcmp(kw, "note")) {
			parse_string_stmt(&P, &s->note);
		} else if (!strcmp(kw, "host")) {
			parse_host(&P, 0);
		} else if (!strcmp(kw, "recovery")) {
			parse_host(&P, 1);
		} else {
			diag_at(d, P.lx.file, line, col,
			        "unknown statement '%s' (expected machine, set, global, shared, kernel, host, recovery, check, expect, name or note)", kw);
			recover(&P);
		}
	}
	/* resolve branch targets */
	for (int i = 0; i < P.nfixes; i++) {
		int l = find_name(&P, 'l', P.fixes[i].name);
		int found = l >= 0 ? P.labels[l].ins : -1;
		if (found < 0)
			diag_at(d, P.lx.file, P.fixes[i].line, P.fixes[i].col, "undefined label '%s'", P.fixes[i].name);
		else
			s->prog.ins[P.fixes[i].ins].target = found;
		free(P.fixes[i].name);
	}
	for (int j = 0; j < P.nlabels; j++)
		free(P.labels[j].name);
	free(P.fixes);
	free(P.labels);
	ss_free(P.names);
	if (d->nerr == nerr0 && s->prog.nins == 0)
		diag_at(d, s->path, 0, 0, "no kernel: a spec needs 'kernel' ... 'end'");
	if (!s->name) {
		const char *b = strrchr(path, '/');
		b = b ? b + 1 : path;
		s->name = xstrdup(b);
		char *dot = strrchr(s->name, '.');
		if (dot && dot != s->name)
			*dot = 0;
	}
	if (d->nerr != nerr0) {
		spec_free(s);
		return NULL;
	}
	program_analyse(&s->prog);
	return s;
}

struct spec *spec_load(const char *path, struct diag *d)
{
	/* "-": the spec comes on standard input (gpumc check -) */
	int in = !strcmp(path, "-");
	if (in)
		path = "<stdin>";
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f) {
		diag_at(d, path, 0, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct strbuf b;
	sb_init(&b);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (memchr(buf, 0, n)) {
			if (!in)
				fclose(f);
			sb_free(&b);
			diag_at(d, path, 0, 0, "not a text file (contains a NUL byte)");
			return NULL;
		}
		for (size_t i = 0; i < n; i++)
			sb_putc(&b, buf[i]);
	}
	int bad = ferror(f);
	if (!in)
		fclose(f);
	if (bad) {
		sb_free(&b);
		diag_at(d, path, 0, 0, "read error");
		return NULL;
	}
	struct spec *s = spec_parse(path, sb_str(&b), d);
	sb_free(&b);
	return s;
}

int spec_define(struct spec *s, const char *kv, struct diag *d)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv || !eq[1]) {
		diag_at(d, "command line", 0, 0, "-D expects key=value, got '%s'", kv);
		return -1;
	}
	s->params = xrealloc(s->params, sizeof *s->params * (size_t)(s->nparams + 1));
	struct param_set *ps = &s->params[s->nparams++];
	ps->key = xmalloc((size_t)(eq - kv) + 1);
	memcpy(ps->key, kv, (size_t)(eq - kv));
	ps->key[eq - kv] = 0;
	ps->value = xstrdup(eq + 1);
	ps->file = "command line";
	ps->line = ps->col = 0;
	return 0;
}

const struct param_set *spec_param(const struct spec *s, const char *key)
{
	for (int i = s->nparams - 1; i >= 0; i--)
		if (!strcmp(s->params[i].key, key))
			return &s->params[i];
	return NULL;
}

void spec_free(struct spec *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nparams; i++) {
		free(s->params[i].key);
		free(s->params[i].value);
	}
	free(s->params);
	for (int i = 0; i < s->nprops; i++)
		spec_prop_free(&s->props[i]);
	free(s->props);
	program_free(&s->prog);
	free(s->path);
	free(s->text);
	free(s->name);
	free(s->machine);
	free(s->expect);
	for (int i = 0; i < s->nexpect_on; i++) {
		free(s->expect_on[i]);
		free(s->expect_on_machine[i]);
	}
	free(s->expect_on);
	free(s->expect_on_machine);
	free(s->note);
	free(s);
}
