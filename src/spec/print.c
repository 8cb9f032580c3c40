/*
** The spec printer (gpumc print) and spec equality (the print/re-parse
** oracle).  The printer writes what the parser decoded, never the text as
** written: instructions from their opcode, type, space, cache operator,
** scope and operands; conditions from their trees; data from the words a
** generator (iota, fill, random, file) produced.  So a printer that drops
** a guard or a modifier prints a different spec, and spec_same(), which
** compares the decoded forms, reports it.
**
** Output order (each part as man/gpumc-spec.5 writes it):
**   name, note, machine, set lines, global/shared variables, kernel,
**   host, recovery, check lines, expect lines.
** Choices that make the text canonical (printing it again after parsing
** gives the same bytes):
**   - every register on a .reg line of its type, in declaration order
**     (that order is the state layout); no %r<N> ranges;
**   - labels L<index> before each branch target (index = instruction);
**   - memory instructions name their space; ld/st an ordering (with its
**     scope, .gpu for gl) only when not weak, or .volatile (.relaxed.sys);
**     atom/red an ordering only when not .relaxed, a scope when not .gpu;
**     membar.SCOPE for a .sc fence, fence.acq_rel.SCOPE for the other;
**   - recovery steps indented by their if/while depth;
**   - f32 values as PTX hex floats 0fXXXXXXXX (exact bits), s32 values
**     signed, others unsigned;
**   - an initialiser only when some value is non-zero: "= V" when all are
**     V, else the list;
**   - conditions with the fewest parentheses the grammar (ir/cond.h) needs,
**     so a condition the parser accepted (its height bounded) re-parses
**     within the same bound.
*/
#include "config.h"
#include "spec/print.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir/lex.h"
#include "util/diag.h"

/* The longest name or string the lexer reads (ir/lex.h: struct token). */
#define TOKEN_MAX (sizeof ((struct token *)0)->text - 1)

/* {=== Values and names =================================================== */

static const char *type_name(enum vtype t)
{
	switch (t) {
	case VT_U32: return "u32";
	case VT_S32: return "s32";
	case VT_F32: return "f32";
	case VT_PRED: return "pred";
	}
	return "?";
}

static void put_value(struct strbuf *out, uint32_t v, enum vtype t)
{
	if (t == VT_F32)
		sb_printf(out, "0f%08X", v);
	else if (t == VT_S32)
		sb_printf(out, "%d", (int32_t)v);
	else
		sb_printf(out, "%u", v);
}

static const char *cmp_text(enum cmp_op c)
{
	static const char *const t[] = { "==", "!=", "<", "<=", ">", ">=" };
	return (unsigned)c < sizeof t / sizeof t[0] ? t[c] : "?";
}

/* A string the lexer reads back as one T_STR: no '"', no newline, no NUL,
** at most 127 bytes (ir/lex.h: struct token). */
static int quotable(const char *s)
{
	return strlen(s) <= TOKEN_MAX && !strpbrk(s, "\"\n");
}

/* Does text read back, unquoted, as what `read` makes of it: one word for
** a key, spec_value_read() for a set value (words and numbers joined by
** '-': nr-of, strict-clwb, 64)? */
static int reads_back(const char *text, int key)
{
	struct diag d;
	diag_init(&d);
	struct lexer lx;
	lex_init(&lx, "", text, &d);
	char *r = key ? (lx.tok.t == T_WORD ? xstrdup(lx.tok.text) : NULL) : spec_value_read(&lx);
	if (r && key)
		lex_next(&lx);
	int ok = r && !d.nerr && lx.tok.t == T_EOF && !strcmp(r, text);
	free(r);
	diag_free(&d);
	return ok;
}

/* }=== */

/* {=== Conditions ========================================================= */

/* Binding strength in the condition grammar (ir/cond.h), loosest first. */
enum { PR_OR = 1, PR_AND, PR_CMP, PR_SUM, PR_ATOM };

static int prec(const struct expr *e)
{
	switch (e->op) {
	case E_OR: return PR_OR;
	case E_AND: return PR_AND;
	case E_EQ: case E_NE: case E_LT: case E_LE: case E_GT: case E_GE: return PR_CMP;
	case E_ADD: case E_SUB: return PR_SUM;
	case E_NUM: case E_LOC: case E_NOT: return PR_ATOM;
	}
	return PR_ATOM;
}

static void put_loc(struct strbuf *out, int tid, const char *name, long index)
{
	if (tid >= 0)
		sb_printf(out, "%d:", tid);
	sb_puts(out, name);
	if (index >= 0)
		sb_printf(out, "[%ld]", index);
}

/* e where the grammar needs at least strength min: parenthesised when it
** binds more loosely.  The levels are left-associative, so a right operand
** at its parent's level needs the parentheses (a - (b - c)). */
static void put_cond(struct strbuf *out, const struct expr *e, int min)
{
	static const char *const ops[] = { [E_AND] = " /\\ ", [E_OR] = " \\/ ", [E_EQ] = " == ",
		[E_NE] = " != ", [E_LT] = " < ", [E_LE] = " <= ", [E_GT] = " > ", [E_GE] = " >= ",
		[E_ADD] = " + ", [E_SUB] = " - " };
	int p = prec(e), paren = p < min;
	if (paren)
		sb_putc(out, '(');
	switch (e->op) {
	case E_NUM:
		if (e->is_float)
			sb_printf(out, "0f%08X", e->fbits);
		else
			sb_printf(out, "%lld", (long long)e->ival);
		break;
	case E_LOC:
		put_loc(out, e->tid, e->name, e->index);
		break;
	case E_NOT:
		sb_putc(out, '!');
		put_cond(out, e->l, PR_ATOM);
		break;
	default:
		/* comparisons take sums on both sides; the others chain left */
		put_cond(out, e->l, p == PR_CMP ? PR_SUM : p);
		sb_puts(out, ops[e->op]);
		put_cond(out, e->r, p == PR_CMP ? PR_SUM : p + 1);
	}
	if (paren)
		sb_putc(out, ')');
}

/* }=== */

/* {=== Instructions ======================================================= */

static void put_operand(struct strbuf *out, const struct program *pg, const struct operand *o, enum vtype t)
{
	switch (o->kind) {
	case O_REG: sb_puts(out, pg->regs[o->reg].name); break;
	case O_SPECIAL: sb_puts(out, special_name((enum special)o->special)); break;
	case O_SYM: sb_puts(out, pg->syms[o->sym].name); break;
	case O_IMM: put_value(out, o->imm, t == VT_PRED ? VT_U32 : t); break;
	case O_NONE: break;
	}
}

static void put_address(struct strbuf *out, const struct program *pg, const struct address *a)
{
	sb_putc(out, '[');
	const char *sep = "";
	if (a->sym >= 0) {
		sb_puts(out, pg->syms[a->sym].name);
		sep = " + ";
	}
	if (a->reg >= 0) {
		sb_printf(out, "%s%s", sep, pg->regs[a->reg].name);
		sep = " + ";
	}
	if (a->offset < 0) /* [-4] does not parse: [0 - 4] */
		sb_printf(out, "%s - %lld", *sep ? "" : "0", -(long long)a->offset);
	else if (a->offset || !*sep)
		sb_printf(out, "%s%d", sep, a->offset);
	sb_putc(out, ']');
}

static const char *const scope_name[] = { [SC_CTA] = "cta", [SC_GL] = "gl", [SC_SYS] = "sys" };
/* PTX ISA 6+ spelling of the scopes for the ordered forms (ir/ptx.c) */
static const char *const scope_ptx[] = { [SC_CTA] = "cta", [SC_GL] = "gpu", [SC_SYS] = "sys" };
static const char *const sem_name[] = { [SEM_WEAK] = "weak", [SEM_RELAXED] = "relaxed",
	[SEM_ACQUIRE] = "acquire", [SEM_RELEASE] = "release", [SEM_ACQ_REL] = "acq_rel", [SEM_SC] = "sc" };
static const char *const cache_name[] = { [CO_CA] = "ca", [CO_CG] = "cg", [CO_CS] = "cs", [CO_LU] = "lu",
	[CO_CV] = "cv", [CO_WB] = "wb", [CO_WT] = "wt" };
static const char *const aop_name[] = { [AT_ADD] = "add", [AT_MIN] = "min", [AT_MAX] = "max",
	[AT_EXCH] = "exch", [AT_CAS] = "cas", [AT_INC] = "inc", [AT_DEC] = "dec", [AT_AND] = "and",
	[AT_OR] = "or", [AT_XOR] = "xor" };
static const char *const setp_name[] = { [C_EQ] = "eq", [C_NE] = "ne", [C_LT] = "lt", [C_LE] = "le",
	[C_GT] = "gt", [C_GE] = "ge" };

/* The opcode word: every modifier the decoder (ir/ptx.c) keeps. */
static void put_opcode(struct strbuf *out, const struct instr *in)
{
	const char *sp = in->space == SP_SHARED ? ".shared" : ".global";
	switch (in->op) {
	case OP_LD:
	case OP_ST:
		sb_puts(out, in->op == OP_LD ? "ld" : "st");
		if (in->vol)
			sb_puts(out, ".volatile"); /* .relaxed.sys (ir/ptx.c sem_rule) */
		else if (in->sem != SEM_WEAK) /* an ordered ld/st needs its scope */
			sb_printf(out, ".%s.%s", sem_name[in->sem], scope_ptx[in->scope]);
		sb_puts(out, sp);
		if (in->cache != CO_NONE)
			sb_printf(out, ".%s", cache_name[in->cache]);
		if (in->width)
			sb_printf(out, ".u%d", 8 * in->width);
		else
			sb_printf(out, ".%s", type_name(in->type));
		return;
	case OP_ATOM:
	case OP_RED:
		sb_puts(out, opcode_name(in->op));
		if (in->sem != SEM_RELAXED) /* atom/red default to .relaxed.gpu */
			sb_printf(out, ".%s", sem_name[in->sem]);
		sb_puts(out, sp);
		if (in->scope != SC_GL)
			sb_printf(out, ".%s", scope_ptx[in->scope]);
		if (in->comm)
			sb_puts(out, ".comm");
		sb_printf(out, ".%s.%s", aop_name[in->aop], type_name(in->type));
		return;
	case OP_CLWB:
		sb_printf(out, "clwb%s", sp);
		return;
	case OP_MEMBAR: /* membar is fence.sc; fence.acq_rel the other ordering */
		if (in->sem == SEM_SC)
			sb_printf(out, "membar.%s", scope_name[in->scope]);
		else
			sb_printf(out, "fence.%s.%s", sem_name[in->sem], scope_ptx[in->scope]);
		return;
	case OP_SETP:
		sb_printf(out, "setp.%s.%s", setp_name[in->cmp], type_name(in->type));
		return;
	case OP_CVT: /* cmp holds .rni (spec.c parse_instr); .rn and .rzi are the defaults */
		sb_printf(out, "cvt%s.%s.%s",
		          in->cmp ? ".rni" : in->type == VT_F32 && in->stype != VT_F32 ? ".rn"
		                    : in->stype == VT_F32 && in->type != VT_F32 ? ".rzi" : "",
		          type_name(in->type), type_name(in->stype));
		return;
	case OP_MUL:
	case OP_MAD: /* as PTX spells them: mul.lo.u32, mad.lo.s32, mul.rn.f32, fma.rn.f32 */
		if (in->type == VT_F32)
			sb_printf(out, "%s.rn.f32", in->op == OP_MAD ? "fma" : "mul");
		else
			sb_printf(out, "%s.lo.%s", opcode_name(in->op), type_name(in->type));
		return;
	case OP_BRA: case OP_BAR: case OP_EXIT: case OP_NOP: case OP_SFENCE: case OP_PCOMMIT: case OP_L2WB:
		sb_puts(out, opcode_name(in->op));
		return;
	case OP_MOV: case OP_ADD: case OP_SUB: case OP_DIV: case OP_REM: case OP_AND: case OP_OR: case OP_XOR:
	case OP_NOT: case OP_SHL: case OP_SHR: case OP_MIN: case OP_MAX: case OP_NEG: case OP_SELP:
	case OP_COUNT:
		break;
	}
	sb_printf(out, "%s.%s", opcode_name(in->op), type_name(in->type));
}

/* The operands in the order parse_operands() (spec.c) reads them, each
** immediate in the type it is read as. */
static void put_operands(struct strbuf *out, const struct program *pg, const struct instr *in)
{
	switch (in->op) {
	case OP_BRA:
		sb_printf(out, " L%d", in->target);
		return;
	case OP_BAR:
		sb_printf(out, " %d", in->barrier);
		return;
	case OP_CLWB:
		sb_putc(out, ' ');
		put_address(out, pg, &in->addr);
		return;
	case OP_LD:
		sb_printf(out, " %s, ", pg->regs[in->dst].name);
		put_address(out, pg, &in->addr);
		return;
	case OP_ST:
		if (in->width == 8) { /* st.u64 [a], {lo, hi}: a register pair */
			sb_putc(out, ' ');
			put_address(out, pg, &in->addr);
			for (int i = 0; i < 2; i++) {
				sb_puts(out, i ? ", " : ", {");
				put_operand(out, pg, &in->src[i], in->type);
			}
			sb_putc(out, '}');
			return;
		}
		/* fall through */
	case OP_ATOM:
	case OP_RED:
		sb_putc(out, ' ');
		if (in->op == OP_ATOM)
			sb_printf(out, "%s, ", pg->regs[in->dst].name);
		put_address(out, pg, &in->addr);
		for (int i = 0; i < (in->op == OP_ATOM && in->aop == AT_CAS ? 2 : 1); i++) {
			sb_puts(out, ", ");
			put_operand(out, pg, &in->src[i], in->type);
		}
		return;
	case OP_MEMBAR: case OP_EXIT: case OP_NOP: case OP_SFENCE: case OP_PCOMMIT: case OP_L2WB:
		return;
	default:
		break;
	}
	sb_printf(out, " %s", pg->regs[in->dst].name);
	for (int i = 0; i < 3 && in->src[i].kind != O_NONE; i++) {
		enum vtype t = in->op == OP_CVT ? in->stype : in->op == OP_SELP && i == 2 ? VT_PRED : in->type;
		sb_puts(out, ", ");
		put_operand(out, pg, &in->src[i], t);
	}
}

static void put_instr(struct strbuf *out, const struct program *pg, const struct instr *in)
{
	if (in->pred >= 0)
		sb_printf(out, "@%s%s ", in->pred_neg ? "!" : "", pg->regs[in->pred].name);
	put_opcode(out, in);
	put_operands(out, pg, in);
}

static void put_kernel(struct strbuf *out, const struct program *pg)
{
	sb_puts(out, "kernel\n");
	for (int i = 0; i < pg->nregs;) {
		enum vtype t = pg->regs[i].type;
		sb_printf(out, "    .reg .%s", type_name(t));
		for (int k = 0; i < pg->nregs && pg->regs[i].type == t && k < 8; i++, k++)
			sb_printf(out, "%s %s", k ? "," : "", pg->regs[i].name);
		sb_putc(out, '\n');
	}
	char *target = xcalloc((size_t)pg->nins + 1, 1);
	for (int i = 0; i < pg->nins; i++)
		if (pg->ins[i].op == OP_BRA)
			target[pg->ins[i].target] = 1;
	for (int i = 0; i <= pg->nins; i++) {
		if (target[i])
			sb_printf(out, "L%d:\n", i);
		if (i == pg->nins)
			break;
		sb_puts(out, "    ");
		put_instr(out, pg, &pg->ins[i]);
		sb_putc(out, '\n');
	}
	free(target);
	sb_puts(out, "end\n");
}

/* }=== */

/* {=== Declarations, host programs, properties ============================ */

static void put_symbol(struct strbuf *out, const struct symbol *sy)
{
	sb_printf(out, "%s .%s %s", sy->space == SP_SHARED ? "shared" : "global", type_name(sy->type), sy->name);
	if (sy->is_array)
		sb_printf(out, "[%u]", sy->nelems);
	uint32_t same = 1, zero = sy->init[0] == 0;
	for (uint32_t i = 1; i < sy->nelems; i++) {
		same &= sy->init[i] == sy->init[0];
		zero &= sy->init[i] == 0;
	}
	if (!zero && same) {
		sb_puts(out, " = ");
		put_value(out, sy->init[0], sy->type);
	} else if (!zero) {
		sb_puts(out, " = {");
		for (uint32_t i = 0; i < sy->nelems; i++) {
			if (i)
				sb_puts(out, i % 16 ? ", " : ",\n    ");
			put_value(out, sy->init[i], sy->type);
		}
		sb_putc(out, '}');
	}
	sb_putc(out, '\n');
}

/* A variable of a host step: NAME, NAME[i], NAME[cta], NAME[%hK + i]. */
static void put_host_var(struct strbuf *out, const struct program *pg, int sym, int ireg, long index)
{
	sb_puts(out, pg->syms[sym].name);
	if (index == HOST_CTA)
		sb_puts(out, "[cta]");
	else if (ireg >= 0 && index > 0)
		sb_printf(out, "[%%h%d + %ld]", ireg, index);
	else if (ireg >= 0)
		sb_printf(out, "[%%h%d]", ireg);
	else if (index >= 0)
		sb_printf(out, "[%ld]", index);
}

/* A recovery operand: %hK (reg >= 0) or the value in type t. */
static void put_host_operand(struct strbuf *out, int reg, uint32_t value, enum vtype t)
{
	if (reg >= 0)
		sb_printf(out, "%%h%d", reg);
	else
		put_value(out, value, t);
}

static void put_host(struct strbuf *out, const struct program *pg, const struct host_step *st, int n,
                     const char *what)
{
	static const char *const alu[] = { [H_LD] = "ld", [H_MOV] = "mov", [H_ADD] = "add", [H_SUB] = "sub",
		[H_MUL] = "mul" };
	sb_printf(out, "%s\n", what);
	int depth = 1; /* the if/while blocks open, plus one */
	for (int i = 0; i < n; i++) {
		const struct host_step *h = &st[i];
		depth -= h->op == H_END || h->op == H_LOOP;
		for (int k = 0; k < depth; k++)
			sb_puts(out, "    ");
		/* a variable's values read in its type, a register's as u32 */
		enum vtype t = h->sym >= 0 ? pg->syms[h->sym].type : VT_U32;
		switch (h->op) {
		case H_SYNC: sb_puts(out, "sync"); break;
		case H_L2WB: sb_puts(out, "l2wb"); break;
		case H_PCOMMIT: sb_puts(out, "pcommit"); break;
		case H_LAUNCH: sb_puts(out, "launch"); break;
		case H_END: case H_LOOP: sb_puts(out, "end"); break;
		case H_COPY: /* an element copy keeps the source index in value */
			sb_puts(out, "copy ");
			put_host_var(out, pg, h->sym, h->ireg, h->index);
			sb_puts(out, ", ");
			put_host_var(out, pg, h->sym2, -1, h->index >= 0 ? (long)h->value : -1);
			break;
		case H_STORE:
			sb_puts(out, "store ");
			put_host_var(out, pg, h->sym, h->ireg, h->index);
			sb_puts(out, " = ");
			put_host_operand(out, h->reg[1], h->value, t);
			break;
		case H_PERSIST:
			sb_puts(out, "persist ");
			put_host_var(out, pg, h->sym, h->ireg, h->index);
			break;
		case H_IF:
		case H_WHILE:
			sb_puts(out, h->op == H_IF ? "if " : "while ");
			if (h->sym >= 0)
				put_host_var(out, pg, h->sym, h->ireg, h->index);
			else
				sb_printf(out, "%%h%d", h->reg[1]);
			sb_printf(out, " %s ", cmp_text(h->cmp));
			put_host_operand(out, h->reg[2], h->value, t);
			break;
		case H_LD:
			sb_printf(out, "ld %%h%d, ", h->reg[0]);
			put_host_var(out, pg, h->sym, h->ireg, h->index);
			break;
		case H_MOV: case H_ADD: case H_SUB: case H_MUL:
			sb_printf(out, "%s %%h%d, ", alu[h->op], h->reg[0]);
			put_host_operand(out, h->reg[1], h->value, VT_U32);
			if (h->op != H_MOV) {
				sb_puts(out, ", ");
				put_host_operand(out, h->reg[2], h->value2, VT_U32);
			}
			break;
		}
		depth += h->op == H_IF || h->op == H_WHILE;
		if (h->where) {
			sb_puts(out, " where ");
			put_host_var(out, pg, h->wsym, -1, HOST_CTA);
			sb_printf(out, " %s ", cmp_text(h->wcmp));
			put_value(out, h->wvalue, pg->syms[h->wsym].type);
		}
		sb_putc(out, '\n');
	}
	sb_puts(out, "end\n");
}

static void put_prop(struct strbuf *out, const struct spec_prop *sp)
{
	sb_printf(out, "check %s", prop_kind_name(sp->p.kind));
	if (sp->p.machine)
		sb_printf(out, " %s", sp->p.machine);
	for (unsigned i = 0; i < sp->p.nlocs; i++) {
		sb_puts(out, i ? ", " : " ");
		put_loc(out, sp->loc_tid[i], sp->loc_names[i], sp->loc_index[i]);
	}
	if (sp->p.mode) /* persist_order's model */
		sb_puts(out, sp->p.mode == PO_STRICT ? " strict" : " epoch");
	if (sp->p.cond) {
		sb_putc(out, ' ');
		put_cond(out, sp->p.cond, PR_OR);
	}
	sb_putc(out, '\n');
}

/* }=== */

int spec_print(const struct spec *s, struct strbuf *out, struct strbuf *why)
{
	const struct program *pg = &s->prog;
	if (quotable(s->name)) /* else the name a re-parse derives from its path */
		sb_printf(out, "name \"%s\"\n", s->name);
	if (s->note)
		sb_printf(out, "note \"%s\"\n", s->note);
	sb_printf(out, "machine %s\n", s->machine);
	for (int i = 0; i < s->nparams; i++) {
		const struct param_set *ps = &s->params[i];
		int bare = reads_back(ps->value, 0);
		if (!reads_back(ps->key, 1) || (!bare && !quotable(ps->value))) {
			sb_printf(why, "%s:%d:%d: '%s=%s' cannot be written as a set line (a key is one word; a value "
			          "holds no '\"' or newline, at most 127 characters)", ps->file, ps->line, ps->col,
			          ps->key, ps->value);
			return -1;
		}
		sb_printf(out, bare ? "set %s = %s\n" : "set %s = \"%s\"\n", ps->key, ps->value);
	}
	for (int i = 0; i < pg->nsyms; i++)
		put_symbol(out, &pg->syms[i]);
	put_kernel(out, pg);
	if (pg->host)
		put_host(out, pg, pg->host, pg->nhost, "host");
	if (pg->recovery)
		put_host(out, pg, pg->recovery, pg->nrecovery, "recovery");
	for (int i = 0; i < s->nprops; i++)
		put_prop(out, &s->props[i]);
	if (s->expect)
		sb_printf(out, "expect %s\n", s->expect);
	for (int i = 0; i < s->nexpect_on; i++)
		sb_printf(out, "expect %s on %s\n", s->expect_on[i], s->expect_on_machine[i]);
	return 0;
}

/* {=== Equality =========================================================== */

static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int cond_eq(const struct expr *a, const struct expr *b)
{
	if (!a || !b)
		return a == b;
	return a->op == b->op && a->ival == b->ival && a->fbits == b->fbits && a->is_float == b->is_float &&
	       a->tid == b->tid && str_eq(a->name, b->name) && a->index == b->index && cond_eq(a->l, b->l) &&
	       cond_eq(a->r, b->r);
}

static int host_eq(const struct host_step *a, const struct host_step *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].op != b[i].op || a[i].sym != b[i].sym || a[i].sym2 != b[i].sym2 || a[i].index != b[i].index ||
		    a[i].cmp != b[i].cmp || a[i].value != b[i].value || a[i].where != b[i].where ||
		    a[i].wsym != b[i].wsym || a[i].wcmp != b[i].wcmp || a[i].wvalue != b[i].wvalue ||
		    a[i].skip != b[i].skip || a[i].ireg != b[i].ireg || a[i].value2 != b[i].value2 ||
		    memcmp(a[i].reg, b[i].reg, sizeof a[i].reg))
			return 0;
	return 1;
}

static int prop_eq(const struct spec_prop *a, const struct spec_prop *b)
{
	if (a->p.kind != b->p.kind || a->p.mode != b->p.mode || !str_eq(a->p.machine, b->p.machine) ||
	    a->p.nlocs != b->p.nlocs ||
	    !cond_eq(a->p.cond, b->p.cond))
		return 0;
	for (unsigned i = 0; i < a->p.nlocs; i++)
		if (strcmp(a->loc_names[i], b->loc_names[i]) || a->loc_index[i] != b->loc_index[i] ||
		    a->loc_tid[i] != b->loc_tid[i])
			return 0;
	return 1;
}

#define DIFF(...)                                  \
	do {                                       \
		sb_printf(why, __VA_ARGS__);       \
		return 0;                          \
	} while (0)

static int program_same(const struct program *a, const struct program *b, struct strbuf *why)
{
	if (a->nregs != b->nregs)
		DIFF("%d registers, then %d", a->nregs, b->nregs);
	for (int i = 0; i < a->nregs; i++)
		if (strcmp(a->regs[i].name, b->regs[i].name) || a->regs[i].type != b->regs[i].type)
			DIFF("register %d: %s .%s, then %s .%s", i, a->regs[i].name, type_name(a->regs[i].type),
			     b->regs[i].name, type_name(b->regs[i].type));
	if (a->nsyms != b->nsyms || a->global_words != b->global_words || a->shared_words != b->shared_words ||
	    a->uses_shared != b->uses_shared)
		DIFF("the variables differ in number or size");
	for (int i = 0; i < a->nsyms; i++) {
		const struct symbol *x = &a->syms[i], *y = &b->syms[i];
		if (strcmp(x->name, y->name) || x->space != y->space || x->type != y->type || x->nelems != y->nelems ||
		    x->is_array != y->is_array || x->base != y->base || memcmp(x->init, y->init, 4 * (size_t)x->nelems))
			DIFF("variable '%s' (line %d) differs", x->name, x->line);
	}
	if (a->nins != b->nins)
		DIFF("%d instructions, then %d", a->nins, b->nins);
	/* Every field of struct instr before `line` is what the instruction
	** does (program.h keeps line, col and text last); comparing the bytes
	** covers a field added later without a change here. */
	for (int i = 0; i < a->nins; i++)
		if (memcmp(&a->ins[i], &b->ins[i], offsetof(struct instr, line)))
			DIFF("instruction %d, line %d: '%s' reads back as '%s'", i, a->ins[i].line, a->ins[i].text,
			     b->ins[i].text);
	if (!a->host != !b->host || a->nhost != b->nhost || !host_eq(a->host, b->host, a->nhost) ||
	    a->launch_at != b->launch_at)
		DIFF("the host program differs");
	if (!a->recovery != !b->recovery || a->nrecovery != b->nrecovery ||
	    !host_eq(a->recovery, b->recovery, a->nrecovery))
		DIFF("the recovery program differs");
	return 1;
}

int spec_same(const struct spec *a, const struct spec *b, struct strbuf *why)
{
	if (!str_eq(a->name, b->name) || !str_eq(a->note, b->note) || !str_eq(a->machine, b->machine))
		DIFF("the name, note or machine differs");
	if (a->nparams != b->nparams)
		DIFF("%d set lines, then %d", a->nparams, b->nparams);
	for (int i = 0; i < a->nparams; i++)
		if (strcmp(a->params[i].key, b->params[i].key) || strcmp(a->params[i].value, b->params[i].value))
			DIFF("set %s = %s reads back as %s = %s", a->params[i].key, a->params[i].value, b->params[i].key,
			     b->params[i].value);
	if (!program_same(&a->prog, &b->prog, why))
		return 0;
	if (a->nprops != b->nprops)
		DIFF("%d properties, then %d", a->nprops, b->nprops);
	for (int i = 0; i < a->nprops; i++)
		if (!prop_eq(&a->props[i], &b->props[i]))
			DIFF("property '%s' (line %d) reads back as '%s'", a->props[i].p.text, a->props[i].line,
			     b->props[i].p.text);
	if (!str_eq(a->expect, b->expect) || a->nexpect_on != b->nexpect_on)
		DIFF("the expectations differ");
	for (int i = 0; i < a->nexpect_on; i++)
		if (strcmp(a->expect_on[i], b->expect_on[i]) || strcmp(a->expect_on_machine[i], b->expect_on_machine[i]))
			DIFF("expectation '%s on %s' differs", a->expect_on[i], a->expect_on_machine[i]);
	return 1;
}

#undef DIFF

/* }=== */

int spec_print_checked(const struct spec *s, struct strbuf *out, struct strbuf *why)
{
	if (spec_print(s, out, why))
		return -1;
	struct diag d;
	diag_init(&d);
	struct spec *back = spec_parse(s->path, sb_str(out), &d);
	int rc = -1;
	if (!back) {
		sb_printf(why, "the printed spec does not parse:\n%s", sb_str(&d.msg));
	} else if (!spec_same(s, back, why)) {
		sb_puts(why, " (the printed spec means something else)");
	} else {
		struct strbuf again, w2;
		sb_init(&again);
		sb_init(&w2);
		spec_print(back, &again, &w2);
		if (strcmp(sb_str(&again), sb_str(out)))
			sb_puts(why, "printing the re-parsed spec gives other text (not a fixpoint)");
		else
			rc = 0;
		sb_free(&again);
		sb_free(&w2);
	}
	spec_free(back);
	diag_free(&d);
	return rc;
}
