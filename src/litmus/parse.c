/*
** Parser for GPU litmus files: the GPU_PTX format of thesis Fig. 3.2 and
** the abstract notation of its figures (initial state line, immediate
** operands, [x] operands, assert:), plus ~exists and forall.  Grammar and
** errata: notes/litmus.md §1.7 and §0.2.  The scanner is column-oriented;
** opcode words go through the shared PTX decoder (ir/ptx.c) and the final
** condition through the shared condition parser (ir/cond.c).  An error in
** an instruction is reported and parsing goes on with the next cell, so
** one run reports every bad instruction; other errors end the parse.
*/
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cond.h"
#include "ir/ptx.h"
#include "litmus/litmus.h"
#include "util/diag.h"
#include "util/strbuf.h"

struct parser {
	const char *file;
	char *text;          /* comments blanked out, newlines kept   */
	size_t len, pos, end; /* end: current scanning limit          */
	struct litmus *t;
	struct diag *d;
	jmp_buf *fail;       /* where an error goes: the parse, or the cell */
	int have_decls;      /* a { } register block was given        */
	int bad_cells;       /* instructions that failed to parse      */
	int have_map;
	size_t loc_pos[LIT_MAXL]; /* first mention of each location       */
};

static void where(const struct parser *p, size_t pos, int *line, int *col)
{
	int l = 1, c = 1;
	for (size_t i = 0; i < pos && i < p->len; i++) {
		if (p->text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static _Noreturn void __attribute__((format(printf, 3, 4)))
fail_at(struct parser *p, size_t pos, const char *fmt, ...)
{
	int line, col;
	va_list ap;
	char msg[512];
	where(p, pos, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_at(p->d, p->file, line, col, "%s", msg);
	longjmp(*p->fail, 1);
}

/* ---- low-level scanning ------------------------------------------------ */

static int cur(const struct parser *p)
{
	return p->pos < p->end ? (unsigned char)p->text[p->pos] : 0;
}

static void skip_blank(struct parser *p) /* not newlines */
{
	while (p->pos < p->end && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
	                           p->text[p->pos] == '\r'))
		p->pos++;
}

static void skip_space(struct parser *p) /* newlines too */
{
	while (p->pos < p->end && isspace((unsigned char)p->text[p->pos]))
		p->pos++;
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '%' || c == '.' || c == '-' || c == '+';
}

/* A word: letters, digits, _ % . - +  (test names use + and .). */
/* A name that does not fit buf (n bytes) is an error: truncated, two
** locations or registers sharing a prefix would silently merge. */
static void fits(struct parser *p, size_t start, size_t k, size_t n)
{
	if (k >= n)
		fail_at(p, start, "name '%.*s' longer than %zu characters", (int)k, p->text + start, n - 1);
}

static size_t word(struct parser *p, char *buf, size_t n)
{
	size_t k = 0, start = p->pos;
	while (p->pos < p->end && is_ident((unsigned char)p->text[p->pos])) {
		if (k + 1 < n)
			buf[k] = p->text[p->pos];
		k++;
		p->pos++;
	}
	fits(p, start, k, n);
	buf[k] = 0;
	return k;
}

/* An identifier for locations and registers: letters, digits, _ %. */
static size_t ident(struct parser *p, char *buf, size_t n)
{
	size_t k = 0, start = p->pos;
	while (p->pos < p->end && (isalnum(cur(p)) || cur(p) == '_' || cur(p) == '%')) {
		if (k + 1 < n)
			buf[k] = p->text[p->pos];
		k++;
		p->pos++;
	}
	fits(p, start, k, n);
	buf[k] = 0;
	return k;
}

static int accept(struct parser *p, const char *s)
{
	size_t n = strlen(s);
	if (p->pos + n <= p->end && strncmp(p->text + p->pos, s, n) == 0) {
		p->pos += n;
		return 1;
	}
	return 0;
}

static void expect(struct parser *p, const char *s, const char *what)
{
	if (!accept(p, s))
		fail_at(p, p->pos, "expected %s", what);
}

static int64_t number(struct parser *p, const char *what)
{
	const char *s = p->text + p->pos;
	char *e;
	int neg = 0;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (!isdigit((unsigned char)*s))
		fail_at(p, p->pos, "expected %s", what);
	errno = 0;
	unsigned long long v = strtoull(s, &e, 0);
	if (errno || v > 0xffffffffull || (neg && v > 0x80000000ull))
		fail_at(p, p->pos, "number out of 32-bit range");
	if ((size_t)(e - p->text) > p->end)
		fail_at(p, p->pos, "expected %s", what);
	p->pos = (size_t)(e - p->text);
	return neg ? -(int64_t)v : (int64_t)v;
}

/* A thread number: small and non-negative (a cast of a 32-bit one to
** int could wrap to another thread, or to -1, "no thread"). */
static int thread_number(struct parser *p, const char *what)
{
	size_t pos = p->pos;
	int64_t v = number(p, what);
	if (v < 0 || v > 65535)
		fail_at(p, pos, "thread number %lld out of range (0 to 65535)", (long long)v);
	return (int)v;
}

static int at_line_end(struct parser *p)
{
	skip_blank(p);
	return p->pos >= p->end || cur(p) == '\n';
}

static void next_line(struct parser *p)
{
	while (p->pos < p->end && cur(p) != '\n')
		p->pos++;
	if (p->pos < p->end)
		p->pos++;
}

/* ---- names --------------------------------------------------------------- */

static int is_regname(const char *s)
{
	if (*s == '%')
		s++;
	if (*s != 'r' && *s != 'p')
		return 0;
	s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return *s == 0;
}

static int find_loc(const struct litmus *t, const char *name)
{
	for (int i = 0; i < t->nlocs; i++)
		if (strcmp(t->loc[i].name, name) == 0)
			return i;
	return -1;
}

static int add_loc(struct parser *p, const char *name, size_t pos)
{
	int i = find_loc(p->t, name);
	if (i >= 0)
		return i;
	if (!islower((unsigned char)name[0]) && name[0] != '_')
		fail_at(p, pos, "expected a location name (lower-case identifier), got '%s'", name);
	if (p->t->nlocs >= LIT_MAXL)
		fail_at(p, pos, "too many locations (at most %d)", LIT_MAXL);
	if (strlen(name) >= sizeof p->t->loc[0].name)
		fail_at(p, pos, "location name '%s' too long", name);
	i = p->t->nlocs++;
	strcpy(p->t->loc[i].name, name);
	p->loc_pos[i] = pos;
	return i;
}

static int thread_index(const struct litmus *t, int id)
{
	for (int i = 0; i < t->nthreads; i++)
		if (t->thr[i].id == id)
			return i;
	return -1;
}

static int find_reg(const struct lit_thread *th, const char *name)
{
	const char *n = name[0] == '%' ? name + 1 : name;
	for (int i = 0; i < th->nregs; i++) {
		const char *m = th->regname[i][0] == '%' ? th->regname[i] + 1 : th->regname[i];
		if (strcmp(m, n) == 0)
			return i;
	}
	return -1;
}

static int add_reg(struct parser *p, struct lit_thread *th, const char *name, size_t pos)
{
	int r = find_reg(th, name);
	if (r >= 0)
		return r;
	if (th->nregs >= LIT_MAXR)
		fail_at(p, pos, "too many registers in T%d (at most %d)", th->id, LIT_MAXR);
	if (strlen(name) >= sizeof th->regname[0])
		fail_at(p, pos, "register name '%s' too long", name);
	r = th->nregs++;
	strcpy(th->regname[r], name);
	return r;
}

/* A register used in the program: declared, or implicitly 0 in the
** abstract notation (no declaration block). */
static int use_reg(struct parser *p, struct lit_thread *th, const char *name, size_t pos)
{
	int r = find_reg(th, name);
	if (r >= 0)
		return r;
	if (p->have_decls)
		fail_at(p, pos, "register %s of T%d is not declared in the { } block", name, th->id);
	return add_reg(p, th, name, pos);
}

/* ---- comments and expectations ---------------------------------------- */

static void expectation(struct parser *p, const char *s, size_t n, size_t pos)
{
	/* "expect: model=Allowed model=Forbidden ..." */
	char buf[512];
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	/* only a comment that starts with "expect:" declares verdicts */
	char *e = buf + 2;
	while (*e == ' ' || *e == '\t')
		e++;
	if (strncmp(e, "expect:", 7) != 0)
		return;
	char *save = NULL;
	for (char *tok = strtok_r(e + 7, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq)
			fail_at(p, pos, "expected model=Allowed or model=Forbidden in expect: comment, got '%s'", tok);
		*eq = 0;
		int allowed;
		if (strcmp(eq + 1, "Allowed") == 0)
			allowed = 1;
		else if (strcmp(eq + 1, "Forbidden") == 0)
			allowed = 0;
		else
			fail_at(p, pos, "expected Allowed or Forbidden after '%s=' in expect: comment", tok);
		if (p->t->nexpect >= LIT_MAXX || strlen(tok) >= sizeof p->t->expect[0].model)
			fail_at(p, pos, "too many or too long expect: entries");
		strcpy(p->t->expect[p->t->nexpect].model, tok);
		p->t->expect[p->t->nexpect++].allowed = allowed;
	}
}

/* Blank out // and (* *) comments, keeping newlines so positions hold. */
static void strip_comments(struct parser *p)
{
	char *s = p->text;
	for (size_t i = 0; i < p->len; i++) {
		if (s[i] == '/' && i + 1 < p->len && s[i + 1] == '/') {
			size_t j = i;
			while (j < p->len && s[j] != '\n')
				j++;
			expectation(p, s + i, j - i, i);
			memset(s + i, ' ', j - i);
			i = j;
		} else if (s[i] == '(' && i + 1 < p->len && s[i + 1] == '*') {
			size_t j = i + 2;
			while (j + 1 < p->len && !(s[j] == '*' && s[j + 1] == ')'))
				j++;
			if (j + 1 >= p->len)
				fail_at(p, i, "unterminated (* comment");
			expectation(p, s + i, j - i, i);
			for (size_t k = i; k < j + 2; k++)
				if (s[k] != '\n')
					s[k] = ' ';
			i = j + 1;
		}
	}
}

/* ---- header, declarations, initial state ------------------------------- */

static void header(struct parser *p)
{
	skip_space(p);
	size_t pos = p->pos;
	if (!ident(p, p->t->arch, sizeof p->t->arch))
		fail_at(p, pos, "expected the architecture name (GPU_PTX) and test name");
	if (strcmp(p->t->arch, "GPU_PTX") != 0 && strcmp(p->t->arch, "PTX") != 0)
		fail_at(p, pos, "expected architecture GPU_PTX, got '%s'", p->t->arch);
	skip_blank(p);
	pos = p->pos;
	if (!word(p, p->t->name, sizeof p->t->name))
		fail_at(p, pos, "expected a test name after %s", p->t->arch);
	if (!at_line_end(p))
		fail_at(p, p->pos, "expected end of line after the test name");
}

static struct lit_thread *thread_by_id(struct parser *p, int id, size_t pos, int create)
{
	int i = thread_index(p->t, id);
	if (i >= 0)
		return &p->t->thr[i];
	if (!create)
		fail_at(p, pos, "no thread T%d in this test", id);
	if (p->t->nthreads >= LIT_MAXT)
		fail_at(p, pos, "too many threads (at most %d)", LIT_MAXT);
	struct lit_thread *th = &p->t->thr[p->t->nthreads++];
	th->id = id;
	th->cta = th->warp = -1;
	return th;
}

static void parse_type(struct parser *p, int *is_pred)
{
	static const char *const types[] = { ".s32", ".u32", ".b32", ".b64", ".s64", ".u64", ".pred", NULL };
	char buf[16];
	size_t pos = p->pos;
	word(p, buf, sizeof buf);
	for (int i = 0; types[i]; i++)
		if (strcmp(buf, types[i]) == 0) {
			*is_pred = strcmp(buf, ".pred") == 0;
			return;
		}
	fail_at(p, pos, "expected a register type (.s32 .u32 .b32 .b64 .pred), got '%s'", buf);
}

/* Inside { }: "0: .reg .s32 r0;", "0: .reg .b64 r1 = x;", "x = 1;",
** "0:r1 = x;". */
static void decl_block(struct parser *p)
{
	p->have_decls = 1;
	for (;;) {
		skip_space(p);
		size_t pos = p->pos;
		if (accept(p, "}"))
			return;
		if (p->pos >= p->end)
			fail_at(p, pos, "expected '}' to close the register block");
		if (accept(p, ";"))
			continue;
		if (isdigit(cur(p))) {
			int id = thread_number(p, "a thread number");
			skip_blank(p);
			expect(p, ":", "':' after the thread number");
			skip_blank(p);
			struct lit_thread *th = thread_by_id(p, id, pos, 1);
			int is_pred = 0;
			if (accept(p, ".reg")) {
				skip_blank(p);
				parse_type(p, &is_pred);
				skip_blank(p);
			}
			char rn[16];
			size_t rpos = p->pos;
			if (!ident(p, rn, sizeof rn) || !is_regname(rn))
				fail_at(p, rpos, "expected a register name (r0..r9)");
			if (find_reg(th, rn) >= 0)
				fail_at(p, rpos, "register %s of T%d declared twice", rn, id);
			int r = add_reg(p, th, rn, rpos);
			th->regpred[r] = is_pred;
			skip_blank(p);
			if (accept(p, "=")) {
				skip_blank(p);
				size_t vpos = p->pos;
				if (isdigit(cur(p)) || cur(p) == '-') {
					th->reginit[r] = (uint32_t)number(p, "an initial value");
				} else {
					char ln[16];
					if (!ident(p, ln, sizeof ln))
						fail_at(p, vpos, "expected a location or a number after '='");
					th->reginit[r] = LIT_ADDR(add_loc(p, ln, vpos));
				}
				skip_blank(p);
			}
			if (!accept(p, ";") && !at_line_end(p))
				fail_at(p, p->pos, "expected ';' after the declaration");
		} else {
			char ln[16];
			if (!ident(p, ln, sizeof ln))
				fail_at(p, pos, "expected a declaration 'N: .reg .TYPE rN;' or 'x = VALUE;'");
			int l = add_loc(p, ln, pos);
			skip_blank(p);
			expect(p, "=", "'=' after the location name");
			skip_blank(p);
			p->t->loc[l].init = (uint32_t)number(p, "an initial value");
			skip_blank(p);
			if (!accept(p, ";") && !accept(p, ",") && !at_line_end(p))
				fail_at(p, p->pos, "expected ';' after the initial value");
		}
	}
}

/* "initial state: x = 0, y = 1" */
static void initial_state(struct parser *p)
{
	for (;;) {
		skip_blank(p);
		if (at_line_end(p))
			return;
		char ln[16];
		size_t pos = p->pos;
		if (!ident(p, ln, sizeof ln))
			fail_at(p, pos, "expected 'location = value' in the initial state");
		int l = add_loc(p, ln, pos);
		skip_blank(p);
		expect(p, "=", "'=' in the initial state");
		skip_blank(p);
		p->t->loc[l].init = (uint32_t)number(p, "an initial value");
		skip_blank(p);
		if (!accept(p, ",") && !accept(p, ";") && !at_line_end(p))
			fail_at(p, p->pos, "expected ',' between initial values");
	}
}

/* ---- instructions -------------------------------------------------------- */

static void operand(struct parser *p, struct lit_thread *th, struct lit_opnd *o, int allow_imm)
{
	skip_blank(p);
	size_t pos = p->pos;
	if (isdigit(cur(p)) || cur(p) == '-') {
		if (!allow_imm)
			fail_at(p, pos, "expected a register, not an immediate");
		o->kind = OK_IMM;
		o->imm = (uint32_t)number(p, "a number");
		return;
	}
	char n[16];
	if (!ident(p, n, sizeof n))
		fail_at(p, pos, "expected a register, location or number");
	if (is_regname(n) || find_reg(th, n) >= 0) {
		o->kind = OK_REG;
		o->reg = use_reg(p, th, n, pos);
	} else {
		o->kind = OK_LOC;
		o->loc = add_loc(p, n, pos);
	}
}

static void dst_reg(struct parser *p, struct lit_thread *th, struct lit_ins *in)
{
	skip_blank(p);
	size_t pos = p->pos;
	char n[16];
	if (!ident(p, n, sizeof n) || !(is_regname(n) || find_reg(th, n) >= 0))
		fail_at(p, pos, "expected a destination register");
	in->dst = use_reg(p, th, n, pos);
}

static void address(struct parser *p, struct lit_thread *th, struct lit_ins *in)
{
	skip_blank(p);
	expect(p, "[", "'[' to start an address");
	operand(p, th, &in->addr, 0);
	skip_blank(p);
	expect(p, "]", "']' to close the address");
}

static void comma(struct parser *p)
{
	skip_blank(p);
	expect(p, ",", "','");
}

/* One instruction in [p->pos, p->end). */
static void instruction(struct parser *p, struct lit_thread *th, struct lit_ins *in)
{
	skip_blank(p);
	size_t start = p->pos;
	in->pred = -1;
	in->dst = -1;
	if (accept(p, "@")) {
		if (accept(p, "!"))
			in->pred_neg = 1;
		char n[16];
		size_t pos = p->pos;
		if (!ident(p, n, sizeof n))
			fail_at(p, pos, "expected a predicate register after '@'");
		in->pred = use_reg(p, th, n, pos);
		skip_blank(p);
	}
	char mn[64];
	size_t mpos = p->pos;
	if (!word(p, mn, sizeof mn))
		fail_at(p, mpos, "expected an instruction");
	struct ptx_insn pi;
	char msg[512];
	if (ptx_decode(mn, PTX_LITMUS, &pi, msg, sizeof msg))
		fail_at(p, mpos, "%s", msg);
	in->op = pi.op == OP_RED ? OP_ATOM : pi.op; /* red: an atom without a destination */
	in->type = pi.type;
	in->cmp = pi.cmp;
	in->aop = pi.aop;
	in->scope = pi.scope;
	in->sem = pi.sem;
	in->cache = pi.cache;
	in->vol = pi.vol;
	struct lit_opnd *src[3] = { &in->a, &in->b, &in->c };
	switch (pi.form) {
	case PF_LD:
		dst_reg(p, th, in);
		comma(p);
		address(p, th, in);
		break;
	case PF_ST:
		address(p, th, in);
		comma(p);
		operand(p, th, &in->a, 1);
		break;
	case PF_ATOM:
	case PF_RED:
		if (pi.form == PF_ATOM) {
			dst_reg(p, th, in);
			comma(p);
		}
		address(p, th, in);
		comma(p);
		operand(p, th, &in->b, 1);
		if (in->aop == AT_CAS) {
			comma(p);
			operand(p, th, &in->c, 1);
		}
		break;
	case PF_REG:
		dst_reg(p, th, in);
		for (int i = 0; i < pi.nsrc; i++) {
			comma(p);
			operand(p, th, src[i], 1);
		}
		break;
	default: /* PF_NONE: membar, fence; the decoder refuses the others here */
		break;
	}
	skip_blank(p);
	accept(p, ";");
	skip_blank(p);
	if (p->pos < p->end)
		fail_at(p, p->pos, "expected end of instruction");
	int line, col;
	where(p, start, &line, &col);
	in->line = line;
	in->col = col;
	size_t n = p->end - start;
	while (n && (isspace((unsigned char)p->text[start + n - 1]) || p->text[start + n - 1] == ';'))
		n--;
	in->text = xmalloc(n + 1);
	memcpy(in->text, p->text + start, n);
	in->text[n] = 0;
}

/* ---- program ------------------------------------------------------------ */

/* One instruction cell: 1, or 0 once its error is reported, so that the
** parse goes on with the next cell. */
static int cell(struct parser *p, struct lit_thread *th, struct lit_ins *in)
{
	jmp_buf here, *outer = p->fail;
	p->fail = &here;
	if (setjmp(here)) {
		p->fail = outer;
		p->bad_cells++;
		return 0;
	}
	instruction(p, th, in);
	p->fail = outer;
	return 1;
}

static int line_starts_with(struct parser *p, const char *kw)
{
	size_t save = p->pos;
	skip_blank(p);
	int r = accept(p, kw);
	p->pos = save;
	return r;
}

/* Is the line at p->pos a memory map entry "x: global"? */
static int is_map_line(struct parser *p)
{
	size_t save = p->pos;
	char n[16];
	skip_blank(p);
	int r = 0;
	if (ident(p, n, sizeof n) && !isdigit((unsigned char)n[0])) {
		skip_blank(p);
		if (accept(p, ":")) {
			skip_blank(p);
			r = accept(p, "global") || accept(p, "shared");
		}
	}
	p->pos = save;
	return r;
}

static int program_ends(struct parser *p)
{
	return line_starts_with(p, "ScopeTree") || line_starts_with(p, "exists") ||
	       line_starts_with(p, "~exists") || line_starts_with(p, "forall") ||
	       line_starts_with(p, "assert") || line_starts_with(p, "Assert") ||
	       line_starts_with(p, "locations") || is_map_line(p);
}

/* Split [pos, eol) at '|' into at most LIT_MAXT cells. */
static int cells(struct parser *p, size_t eol, size_t *cs, size_t *ce)
{
	int n = 0;
	size_t s = p->pos;
	for (size_t i = p->pos; i <= eol; i++) {
		if (i == eol || p->text[i] == '|') {
			if (n >= LIT_MAXT)
				fail_at(p, i, "too many columns (at most %d)", LIT_MAXT);
			cs[n] = s;
			ce[n] = i;
			n++;
			s = i + 1;
		}
	}
	return n;
}

static size_t eol_of(const struct parser *p)
{
	size_t e = p->pos;
	while (e < p->len && p->text[e] != '\n')
		e++;
	return e;
}

static void program(struct parser *p)
{
	size_t cs[LIT_MAXT], ce[LIT_MAXT];
	int col_thread[LIT_MAXT];
	skip_space(p);
	size_t eol = eol_of(p);
	size_t save_end = p->end;
	int n = cells(p, eol, cs, ce);
	/* header row: T0 | T1 ... ; (a trailing ';' may follow the last) */
	for (int i = 0; i < n; i++) {
		p->pos = cs[i];
		p->end = ce[i];
		skip_blank(p);
		size_t pos = p->pos;
		if (!accept(p, "T") && !accept(p, "P"))
			fail_at(p, pos, "expected a thread name T0..T9 heading column %d", i + 1);
		int id = thread_number(p, "a thread number after 'T'");
		skip_blank(p);
		accept(p, ";");
		skip_blank(p);
		if (p->pos < p->end)
			fail_at(p, p->pos, "expected '|' or ';' after T%d", id);
		for (int j = 0; j < i; j++)
			if (p->t->thr[col_thread[j]].id == id)
				fail_at(p, pos, "thread T%d heads two columns", id);
		thread_by_id(p, id, pos, 1);
		col_thread[i] = thread_index(p->t, id);
	}
	p->end = save_end;
	p->pos = eol;
	int ncols = n;
	/* rows until the scope tree, memory map or condition */
	while (p->pos < p->len) {
		if (cur(p) == '\n')
			p->pos++;
		size_t line_start = p->pos;
		if (at_line_end(p)) {
			next_line(p);
			continue;
		}
		p->pos = line_start;
		if (program_ends(p))
			return;
		eol = eol_of(p);
		n = cells(p, eol, cs, ce);
		if (n > ncols) {
			/* allow "a | b ;" where the last cell is only the row terminator */
			int extra_blank = 1;
			for (int i = ncols; i < n; i++)
				for (size_t k = cs[i]; k < ce[i]; k++)
					if (!isspace((unsigned char)p->text[k]) && p->text[k] != ';')
						extra_blank = 0;
			if (!extra_blank)
				fail_at(p, cs[ncols], "row has %d columns but the program has %d threads", n, ncols);
		}
		for (int i = 0; i < n && i < ncols; i++) {
			/* drop the row's trailing ';' and blanks */
			size_t e = ce[i];
			while (e > cs[i] && isspace((unsigned char)p->text[e - 1]))
				e--;
			size_t s = cs[i];
			while (s < e && isspace((unsigned char)p->text[s]))
				s++;
			if (s == e || (e == s + 1 && p->text[s] == ';'))
				continue;
			struct lit_thread *th = &p->t->thr[col_thread[i]];
			if (th->nins >= LIT_MAXI)
				fail_at(p, s, "too many instructions in T%d (at most %d)", th->id, LIT_MAXI);
			p->pos = s;
			p->end = e;
			struct lit_ins *in = &th->ins[th->nins];
			memset(in, 0, sizeof *in);
			if (cell(p, th, in))
				th->nins++;
			p->end = save_end;
		}
		p->end = save_end;
		p->pos = eol;
	}
}

/* ---- scope tree and memory map ---------------------------------------- */

static void sexpr(struct parser *p, int level, int *cta, int *warp)
{
	/* level 0 device, 1 cta, 2 warp */
	static const char *const names[] = { "device", "cta", "warp" };
	skip_space(p);
	expect(p, "(", "'(' in the scope tree");
	skip_space(p);
	char kw[16];
	size_t pos = p->pos;
	ident(p, kw, sizeof kw);
	if (level == 0 && strcmp(kw, "kernel") == 0)
		strcpy(kw, "device");
	if (strcmp(kw, names[level]) != 0)
		fail_at(p, pos, "expected '%s' in the scope tree, got '%s'", names[level], kw);
	if (level == 1)
		(*cta)++;
	if (level == 2)
		(*warp)++;
	for (;;) {
		skip_space(p);
		if (accept(p, ")"))
			return;
		if (cur(p) == '(') {
			if (level == 2)
				fail_at(p, p->pos, "expected thread names T0..T9 inside a warp");
			sexpr(p, level + 1, cta, warp);
			continue;
		}
		if (level != 2)
			fail_at(p, p->pos, "expected '(%s' or ')' in the scope tree", names[level + 1]);
		pos = p->pos;
		if (!accept(p, "T") && !accept(p, "P"))
			fail_at(p, pos, "expected a thread name or ')' in the warp");
		int id = thread_number(p, "a thread number");
		struct lit_thread *th = thread_by_id(p, id, pos, 0);
		if (th->cta >= 0)
			fail_at(p, pos, "thread T%d placed twice in the scope tree", id);
		th->cta = *cta;
		th->warp = *warp;
	}
}

static void scope_tree(struct parser *p)
{
	int cta = -1, warp = -1;
	skip_space(p);
	expect(p, "ScopeTree", "ScopeTree");
	sexpr(p, 0, &cta, &warp);
	p->t->has_scope = 1;
	for (int i = 0; i < p->t->nthreads; i++)
		if (p->t->thr[i].cta < 0)
			fail_at(p, p->pos, "thread T%d is missing from the scope tree", p->t->thr[i].id);
	/* renumber CTAs densely in order of first use */
	int map[LIT_MAXT * 2 + 2];
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		map[i] = -1;
	int n = 0;
	for (int i = 0; i < p->t->nthreads; i++) {
		int c = p->t->thr[i].cta;
		if (c >= (int)(sizeof map / sizeof map[0]))
			fail_at(p, p->pos, "too many CTAs in the scope tree");
		if (map[c] < 0)
			map[c] = n++;
		p->t->thr[i].cta = map[c];
	}
	p->t->nctas = n;
}

static void memory_map(struct parser *p)
{
	p->have_map = 1;
	for (;;) {
		skip_space(p);
		char n[16];
		size_t pos = p->pos;
		if (!is_map_line(p))
			return;
		ident(p, n, sizeof n);
		int l = add_loc(p, n, pos);
		skip_blank(p);
		expect(p, ":", "':'");
		skip_blank(p);
		if (accept(p, "global"))
			p->t->loc[l].region = SP_GLOBAL;
		else if (accept(p, "shared"))
			p->t->loc[l].region = SP_SHARED;
		p->t->loc[l].mapped = 1;
		skip_blank(p);
		accept(p, ",");
		accept(p, ";");
	}
}

/* ---- condition ------------------------------------------------------------ */

/* Name hooks of the shared condition parser: N:reg names a register of
** thread N, a bare name a location; on the right of '=' a location name
** stands for its address (0:r1=x). */
static int cond_value(void *ctx, struct expr *e, struct diag *d)
{
	(void)d;
	struct parser *p = ctx;
	int l = e->index < 0 ? find_loc(p->t, e->name) : -1;
	if (l < 0)
		return 0; /* left to cond_loc, which reports it */
	e->op = E_NUM;
	e->ival = LIT_ADDR(l);
	free(e->name);
	e->name = NULL;
	return 1;
}

static int cond_loc(void *ctx, struct expr *e, struct diag *d)
{
	struct parser *p = ctx;
	if (p->bad_cells)
		return 0; /* its register may be one a bad instruction would have declared */
	if (e->index >= 0) {
		diag_at(d, p->file, e->line, e->col, "litmus locations have no index");
		return -1;
	}
	if (e->tid < 0) {
		if (find_loc(p->t, e->name) >= 0)
			return 0;
		diag_at(d, p->file, e->line, e->col, "unknown location '%s' in the condition", e->name);
		return -1;
	}
	int ti = thread_index(p->t, e->tid);
	if (ti < 0) {
		diag_at(d, p->file, e->line, e->col, "no thread T%d in this test", e->tid);
		return -1;
	}
	if (find_reg(&p->t->thr[ti], e->name) >= 0)
		return 0;
	diag_at(d, p->file, e->line, e->col, "T%d has no register %s", e->tid, e->name);
	return -1;
}

static void condition(struct parser *p)
{
	skip_space(p);
	size_t pos = p->pos;
	if (accept(p, "~exists"))
		p->t->kind = LC_NOT_EXISTS;
	else if (accept(p, "exists"))
		p->t->kind = LC_EXISTS;
	else if (accept(p, "forall"))
		p->t->kind = LC_FORALL;
	else if (accept(p, "assert:") || accept(p, "Assert:"))
		p->t->kind = LC_EXISTS;
	else
		fail_at(p, pos, "expected exists, ~exists, forall or assert: with the final condition");
	int line, col;
	where(p, pos, &line, &col);
	p->t->cond_line = line;
	skip_space(p);
	size_t cstart = p->pos;
	where(p, cstart, &line, &col);
	struct lexer lx;
	int nerr = p->d->nerr;
	lex_init_at(&lx, p->file, p->text + cstart, line, col, p->d);
	struct cond_names nm = { cond_value, cond_loc, p, 1 };
	p->t->cond = cond_parse(&lx, &nm);
	if (!p->t->cond || p->d->nerr > nerr)
		longjmp(*p->fail, 1);
	size_t cend = (size_t)(lx.last_end - p->text);
	while (lx.tok.t == T_NL)
		lex_next(&lx);
	if (lx.tok.t != T_EOF) {
		diag_at(p->d, p->file, lx.tok.line, lx.tok.col, "expected end of file after the condition, found %s",
		        lex_found(&lx));
		longjmp(*p->fail, 1);
	}
	/* the condition as written, whitespace collapsed */
	struct strbuf b;
	sb_init(&b);
	int sp = 0;
	for (size_t i = cstart; i < cend; i++) {
		if (isspace((unsigned char)p->text[i])) {
			sp = 1;
			continue;
		}
		if (sp && b.len)
			sb_putc(&b, ' ');
		sp = 0;
		sb_putc(&b, p->text[i]);
	}
	p->t->cond_text = xstrdup(b.len ? sb_str(&b) : "");
	sb_free(&b);
}

/* Check what the grammar cannot: every location used is mapped when a map
** was given, threads in the tree, registers defined. */
static void check(struct parser *p)
{
	struct litmus *t = p->t;
	if (t->nthreads == 0)
		fail_at(p, 0, "expected a program with at least one thread");
	if (!t->has_scope) {
		/* abstract notation: every thread in its own CTA (D-cta:S-ker-Global) */
		for (int i = 0; i < t->nthreads; i++) {
			t->thr[i].cta = i;
			t->thr[i].warp = i;
		}
		t->nctas = t->nthreads;
	}
	if (p->have_map)
		for (int i = 0; i < t->nlocs; i++)
			if (!t->loc[i].mapped)
				fail_at(p, p->loc_pos[i], "location %s is not placed in a memory region "
				        "(expected '%s: global' or '%s: shared' in the memory map)",
				        t->loc[i].name, t->loc[i].name, t->loc[i].name);
}

struct litmus *litmus_parse_string(const char *file, const char *text, struct strbuf *err)
{
	struct parser p;
	memset(&p, 0, sizeof p);
	p.file = file;
	p.len = strlen(text);
	p.text = xstrdup(text);
	p.end = p.len;
	struct diag d;
	diag_init(&d);
	p.d = &d;
	p.t = xcalloc(1, sizeof *p.t);
	p.t->file = xstrdup(file);
	jmp_buf fail;
	p.fail = &fail;
	if (setjmp(fail)) {
		/* every message, without the last newline */
		if (d.msg.len && d.msg.s[d.msg.len - 1] == '\n')
			d.msg.s[--d.msg.len] = 0;
		sb_puts(err, sb_str(&d.msg));
		diag_free(&d);
		free(p.text);
		litmus_free(p.t);
		return NULL;
	}
	strip_comments(&p);
	header(&p);
	next_line(&p);
	skip_space(&p);
	if (accept(&p, "{")) {
		decl_block(&p);
		skip_space(&p);
	}
	if (line_starts_with(&p, "initial state:")) {
		skip_blank(&p);
		accept(&p, "initial state:");
		initial_state(&p);
		skip_space(&p);
	}
	program(&p);
	skip_space(&p);
	if (line_starts_with(&p, "ScopeTree"))
		scope_tree(&p);
	skip_space(&p);
	if (is_map_line(&p))
		memory_map(&p);
	skip_space(&p);
	condition(&p);
	check(&p);
	if (p.bad_cells)
		longjmp(fail, 1);
	diag_free(&d);
	free(p.text);
	return p.t;
}

struct litmus *litmus_parse_file(const char *path, struct strbuf *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		sb_printf(err, "%s: error: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct strbuf b;
	sb_init(&b);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		for (size_t i = 0; i < n; i++) {
			if (buf[i] == 0) {
				fclose(f);
				sb_free(&b);
				sb_printf(err, "%s: error: binary file (NUL byte)", path);
				return NULL;
			}
			sb_putc(&b, buf[i]);
		}
	fclose(f);
	struct litmus *t = litmus_parse_string(path, b.s ? b.s : "", err);
	sb_free(&b);
	return t;
}
