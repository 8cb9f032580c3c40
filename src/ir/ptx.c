/*
** PTX opcode words: the table of opcodes, the table of modifiers with the
** opcodes each is valid on, and the acceptance rule over them.  Both
** front ends decode through ptx_decode, so an instruction means the same
** in a kernel spec and in a litmus test, and is refused with the same
** words.  Modifiers may come in any order (cvt: destination type first).
*/
#include "config.h"
#include "ir/ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define B(op) (1u << (op))

/* {=== Opcodes ============================================================ */

enum {
	OF_TYPED = 1,  /* needs a type suffix                     */
	OF_LITMUS = 2, /* in the litmus IR's instruction set       */
	OF_INT = 4     /* not defined on .f32                      */
};

static const struct opdef {
	const char *name;
	enum opcode op;
	enum ptx_form form;
	int nsrc;
	unsigned flags;
} ops[] = {
	{ "ld", OP_LD, PF_LD, 0, OF_TYPED | OF_LITMUS },
	{ "st", OP_ST, PF_ST, 0, OF_TYPED | OF_LITMUS },
	{ "atom", OP_ATOM, PF_ATOM, 0, OF_TYPED | OF_LITMUS },
	{ "red", OP_RED, PF_RED, 0, OF_TYPED | OF_LITMUS },
	{ "membar", OP_MEMBAR, PF_NONE, 0, OF_LITMUS },
	{ "fence", OP_MEMBAR, PF_NONE, 0, OF_LITMUS },
	{ "mov", OP_MOV, PF_REG, 1, OF_TYPED | OF_LITMUS },
	{ "add", OP_ADD, PF_REG, 2, OF_TYPED | OF_LITMUS },
	{ "sub", OP_SUB, PF_REG, 2, OF_TYPED | OF_LITMUS },
	{ "mul", OP_MUL, PF_REG, 2, OF_TYPED | OF_LITMUS },
	{ "mad", OP_MAD, PF_REG, 3, OF_TYPED | OF_LITMUS },
	{ "fma", OP_MAD, PF_REG, 3, OF_TYPED },
	{ "div", OP_DIV, PF_REG, 2, OF_TYPED },
	{ "rem", OP_REM, PF_REG, 2, OF_TYPED | OF_INT },
	{ "and", OP_AND, PF_REG, 2, OF_TYPED | OF_LITMUS | OF_INT },
	{ "or", OP_OR, PF_REG, 2, OF_TYPED | OF_LITMUS | OF_INT },
	{ "xor", OP_XOR, PF_REG, 2, OF_TYPED | OF_LITMUS | OF_INT },
	{ "not", OP_NOT, PF_REG, 1, OF_TYPED | OF_LITMUS | OF_INT },
	{ "shl", OP_SHL, PF_REG, 2, OF_TYPED | OF_LITMUS | OF_INT },
	{ "shr", OP_SHR, PF_REG, 2, OF_TYPED | OF_LITMUS | OF_INT },
	{ "min", OP_MIN, PF_REG, 2, OF_TYPED | OF_LITMUS },
	{ "max", OP_MAX, PF_REG, 2, OF_TYPED | OF_LITMUS },
	{ "neg", OP_NEG, PF_REG, 1, OF_TYPED | OF_LITMUS },
	{ "cvt", OP_CVT, PF_REG, 1, OF_TYPED },
	{ "setp", OP_SETP, PF_REG, 2, OF_TYPED | OF_LITMUS },
	{ "selp", OP_SELP, PF_REG, 3, OF_TYPED | OF_LITMUS },
	{ "bra", OP_BRA, PF_BRA, 0, 0 },
	{ "bar", OP_BAR, PF_BAR, 0, 0 },
	{ "barrier", OP_BAR, PF_BAR, 0, 0 },
	{ "exit", OP_EXIT, PF_NONE, 0, 0 },
	{ "ret", OP_EXIT, PF_NONE, 0, 0 },
	{ "nop", OP_NOP, PF_NONE, 0, 0 },
	{ "clwb", OP_CLWB, PF_ADDR, 0, 0 },
	{ "sfence", OP_SFENCE, PF_NONE, 0, 0 },
	{ "pcommit", OP_PCOMMIT, PF_NONE, 0, 0 },
	{ "l2wb", OP_L2WB, PF_NONE, 0, 0 },
};
enum { NOPS = sizeof ops / sizeof ops[0] };

int ptx_litmus_op(enum opcode op)
{
	for (int i = 0; i < NOPS; i++)
		if (ops[i].op == op && (ops[i].flags & OF_LITMUS))
			return 1;
	return 0;
}

const char *ptx_litmus_ops(void)
{
	static char list[256];
	if (!list[0])
		for (int i = 0; i < NOPS; i++)
			if (ops[i].flags & OF_LITMUS)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				         list[0] ? ", " : "", ops[i].name);
	return list;
}

/* }=== */

/* {=== Modifiers ========================================================== */

enum modclass {
	MC_TYPE, MC_TYPE64, MC_SPACE, MC_CACHE, MC_VOLATILE, MC_SEM, MC_SCOPE,
	MC_CMP, MC_AOP, MC_ROUND, MC_HALF, MC_SYNC, MC_WIDTH, MC_COMM, MC_NOT_SUPPORTED
};

/* How a class is named in "... is only valid on ..." messages. */
static const char *const class_name[] = {
	"a type", "a 64-bit type", "a state space", "a cache operator", "'.volatile'",
	"a memory-ordering modifier", "a scope", "a comparison modifier",
	"an atomic operation modifier", "a rounding modifier", "'.lo'", "a barrier modifier",
	"a sub-word store type", "'.comm'"
};

#define TYPED (~(B(OP_BRA) | B(OP_BAR) | B(OP_MEMBAR) | B(OP_EXIT) | B(OP_NOP)))
#define MEMOPS (B(OP_LD) | B(OP_ST) | B(OP_ATOM) | B(OP_RED))

static const struct moddef {
	const char *name;
	enum modclass cls;
	int val;
	unsigned valid;   /* opcodes it is valid on                             */
	const char *why;  /* MC_NOT_SUPPORTED: the message, %s the opcode       */
} mods[] = {
	{ "u32", MC_TYPE, VT_U32, TYPED, NULL },
	{ "b32", MC_TYPE, VT_U32, TYPED, NULL },
	{ "s32", MC_TYPE, VT_S32, TYPED, NULL },
	{ "f32", MC_TYPE, VT_F32, TYPED, NULL },
	{ "pred", MC_TYPE, VT_PRED, TYPED, NULL },
	{ "u64", MC_TYPE64, VT_U32, TYPED, NULL },
	{ "b64", MC_TYPE64, VT_U32, TYPED, NULL },
	{ "s64", MC_TYPE64, VT_S32, TYPED, NULL },
	{ "f64", MC_TYPE64, VT_F32, B(OP_ST), NULL }, /* kernels: st of a register pair's bits */
	{ "u8", MC_WIDTH, 1, B(OP_ST), NULL }, /* byte stores: the low bytes of the register */
	{ "b8", MC_WIDTH, 1, B(OP_ST), NULL },
	{ "u16", MC_WIDTH, 2, B(OP_ST), NULL },
	{ "b16", MC_WIDTH, 2, B(OP_ST), NULL },
	{ "global", MC_SPACE, SP_GLOBAL, MEMOPS | B(OP_CLWB), NULL },
	{ "shared", MC_SPACE, SP_SHARED, MEMOPS | B(OP_CLWB), NULL },
	{ "ca", MC_CACHE, CO_CA, B(OP_LD), NULL },
	{ "cg", MC_CACHE, CO_CG, B(OP_LD) | B(OP_ST), NULL },
	{ "cs", MC_CACHE, CO_CS, B(OP_LD) | B(OP_ST), NULL },
	{ "lu", MC_CACHE, CO_LU, B(OP_LD), NULL },
	{ "cv", MC_CACHE, CO_CV, B(OP_LD), NULL },
	{ "wb", MC_CACHE, CO_WB, B(OP_ST), NULL },
	{ "wt", MC_CACHE, CO_WT, B(OP_ST), NULL },
	{ "volatile", MC_VOLATILE, 1, B(OP_LD) | B(OP_ST), NULL },
	{ "weak", MC_SEM, SEM_WEAK, B(OP_LD) | B(OP_ST), NULL },
	{ "relaxed", MC_SEM, SEM_RELAXED, MEMOPS, NULL },
	{ "acquire", MC_SEM, SEM_ACQUIRE, B(OP_LD) | B(OP_ATOM), NULL },
	{ "release", MC_SEM, SEM_RELEASE, B(OP_ST) | B(OP_ATOM) | B(OP_RED), NULL },
	{ "acq_rel", MC_SEM, SEM_ACQ_REL, B(OP_ATOM) | B(OP_MEMBAR), NULL },
	{ "sc", MC_SEM, SEM_SC, B(OP_MEMBAR), NULL },
	{ "cta", MC_SCOPE, SC_CTA, B(OP_MEMBAR) | MEMOPS, NULL },
	{ "gl", MC_SCOPE, SC_GL, B(OP_MEMBAR) | MEMOPS, NULL },
	{ "gpu", MC_SCOPE, SC_GL, B(OP_MEMBAR) | MEMOPS, NULL },
	{ "sys", MC_SCOPE, SC_SYS, B(OP_MEMBAR) | MEMOPS, NULL },
	{ "eq", MC_CMP, C_EQ, B(OP_SETP), NULL },
	{ "ne", MC_CMP, C_NE, B(OP_SETP), NULL },
	{ "lt", MC_CMP, C_LT, B(OP_SETP), NULL },
	{ "le", MC_CMP, C_LE, B(OP_SETP), NULL },
	{ "gt", MC_CMP, C_GT, B(OP_SETP), NULL },
	{ "ge", MC_CMP, C_GE, B(OP_SETP), NULL },
	{ "lo", MC_CMP, C_LT, B(OP_SETP), NULL },  /* unsigned spellings */
	{ "ls", MC_CMP, C_LE, B(OP_SETP), NULL },
	{ "hi", MC_CMP, C_GT, B(OP_SETP), NULL },
	{ "hs", MC_CMP, C_GE, B(OP_SETP), NULL },
	{ "lo", MC_HALF, 0, B(OP_MUL) | B(OP_MAD), NULL },
	{ "hi", MC_NOT_SUPPORTED, 0, B(OP_MUL) | B(OP_MAD),
	  "'.hi' is not supported on '%s' (registers are 32-bit; use .lo)" },
	{ "wide", MC_NOT_SUPPORTED, 0, B(OP_MUL) | B(OP_MAD),
	  "'.wide' is not supported on '%s' (registers are 32-bit)" },
	{ "add", MC_AOP, AT_ADD, B(OP_ATOM) | B(OP_RED), NULL },
	{ "min", MC_AOP, AT_MIN, B(OP_ATOM) | B(OP_RED), NULL },
	{ "max", MC_AOP, AT_MAX, B(OP_ATOM) | B(OP_RED), NULL },
	{ "exch", MC_AOP, AT_EXCH, B(OP_ATOM) | B(OP_RED), NULL },
	{ "cas", MC_AOP, AT_CAS, B(OP_ATOM) | B(OP_RED), NULL },
	{ "inc", MC_AOP, AT_INC, B(OP_ATOM) | B(OP_RED), NULL },
	{ "dec", MC_AOP, AT_DEC, B(OP_ATOM) | B(OP_RED), NULL },
	{ "and", MC_AOP, AT_AND, B(OP_ATOM) | B(OP_RED), NULL },
	{ "or", MC_AOP, AT_OR, B(OP_ATOM) | B(OP_RED), NULL },
	{ "xor", MC_AOP, AT_XOR, B(OP_ATOM) | B(OP_RED), NULL },
	{ "rn", MC_ROUND, 0, B(OP_ADD) | B(OP_SUB) | B(OP_MUL) | B(OP_MAD) | B(OP_DIV) | B(OP_CVT), NULL },
	{ "rzi", MC_ROUND, 0, B(OP_CVT), NULL },
	{ "rni", MC_ROUND, 1, B(OP_CVT), NULL },
	{ "sync", MC_SYNC, 0, B(OP_BAR), NULL },
	{ "aligned", MC_SYNC, 0, B(OP_BAR), NULL },
	{ "uni", MC_SYNC, 0, B(OP_BRA), NULL },
	/* LAB's memory_order_comm: a commutative atomic the LAB may combine */
	{ "comm", MC_COMM, 1, B(OP_ATOM) | B(OP_RED), NULL },
};
enum { NMODS = sizeof mods / sizeof mods[0] };

/* }=== */

/* {=== Did you mean ======================================================= */

/* Optimal string alignment distance (a transposition counts one). */
static size_t distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 31 || m > 31)
		return 99;
	size_t d[32][32];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[n][m];
}

const char *ptx_nearest(const char *w, const char *const *cands, size_t ncands)
{
	size_t best = strlen(w) <= 3 ? 1 : 2; /* further is a guess, not a typo */
	const char *pick = NULL;
	for (size_t i = 0; i < ncands; i++) {
		size_t d = distance(w, cands[i]);
		if (d <= best && (!pick || d < best)) {
			best = d;
			pick = cands[i];
		}
	}
	return pick;
}

/* " (did you mean '.X'?)" or "" */
static void suggest(char *buf, size_t n, const char *prefix, const char *w, const char *const *cands, size_t nc)
{
	const char *s = ptx_nearest(w, cands, nc);
	if (s)
		snprintf(buf, n, " (did you mean '%s%s'?)", prefix, s);
	else
		buf[0] = 0;
}

/* }=== */

/* {=== The acceptance rule ================================================ */

static int fail(char *msg, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, n, fmt, ap);
	va_end(ap);
	return -1;
}

static int usable(const struct opdef *o, enum ptx_dialect d)
{
	return d == PTX_KERNEL || (o->flags & OF_LITMUS);
}

static const struct opdef *find_op(const char *base)
{
	for (int i = 0; i < NOPS; i++)
		if (!strcmp(ops[i].name, base))
			return &ops[i];
	return NULL;
}

/* "ld, st" : the opcodes a modifier is valid on, for messages. */
static void valid_list(unsigned valid, enum ptx_dialect d, char *buf, size_t n)
{
	buf[0] = 0;
	unsigned seen = 0;
	for (int i = 0; i < NOPS; i++) {
		unsigned bit = B(ops[i].op);
		if (!(valid & bit) || (seen & bit) || !usable(&ops[i], d))
			continue;
		seen |= bit;
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", ops[i].name);
	}
}

/* The row for modifier m on opcode o, or NULL with the message. */
static const struct moddef *find_mod(const char *m, const struct opdef *o, enum ptx_dialect d,
                                     char *msg, size_t n)
{
	const struct moddef *first = NULL;
	for (int i = 0; i < NMODS; i++) {
		if (strcmp(mods[i].name, m))
			continue;
		if (mods[i].valid & B(o->op))
			return &mods[i];
		if (!first)
			first = &mods[i];
	}
	if (first && first->cls == MC_TYPE64 && d == PTX_KERNEL)
		first = NULL; /* not a kernel-spec word at all */
	if (!first) {
		/* suggest among what would be valid here */
		const char *cands[NMODS];
		size_t nc = 0;
		for (int i = 0; i < NMODS; i++)
			if ((mods[i].valid & B(o->op)) && mods[i].cls != MC_NOT_SUPPORTED &&
			    !(mods[i].cls == MC_TYPE64 && d == PTX_KERNEL) &&
			    !(mods[i].cls == MC_TYPE && mods[i].val == VT_F32 && d == PTX_LITMUS))
				cands[nc++] = mods[i].name;
		char dym[64];
		suggest(dym, sizeof dym, ".", m, cands, nc);
		fail(msg, n, "unknown modifier '.%s' on '%s'%s", m, o->name, dym);
		return NULL;
	}
	char list[256];
	valid_list(first->valid, d, list, sizeof list);
	if (first->cls == MC_NOT_SUPPORTED)
		fail(msg, n, first->why, o->name);
	else if (!list[0])
		fail(msg, n, "%s ('.%s') is not valid on '%s'", class_name[first->cls], m, o->name);
	else
		fail(msg, n, "%s ('.%s') is only valid on %s, not on '%s'", class_name[first->cls], m, list, o->name);
	return NULL;
}

/* The PTX ISA's memory-ordering rules (ISA 6.0+, "Memory Consistency
** Model"): membar.{cta,gl,sys} is fence.sc at that scope; fence without
** .sem is fence.acq_rel; ld/st are .weak unless .relaxed/.acquire/.release
** (which need a scope, and a weak access takes none) or .volatile (treated
** as .relaxed.sys); atom and red default to .relaxed.gpu. */
static int sem_rule(const struct opdef *o, struct ptx_insn *out, int have_sem, int have_scope,
                    char *msg, size_t n)
{
	if (o->op == OP_MEMBAR) {
		if (!strcmp(o->name, "membar")) {
			if (have_sem)
				return fail(msg, n, "membar takes no ordering modifier (use fence.sc or fence.acq_rel)");
			out->sem = SEM_SC;
		} else if (!have_sem) {
			out->sem = SEM_ACQ_REL;
		}
		return 0;
	}
	if (o->op == OP_ATOM || o->op == OP_RED) {
		if (!have_sem)
			out->sem = SEM_RELAXED;
		return 0;
	}
	if (o->op != OP_LD && o->op != OP_ST)
		return 0;
	if (out->vol) {
		if (have_sem || have_scope)
			return fail(msg, n, "'.volatile' takes no ordering modifier or scope (it is .relaxed.sys)");
		out->sem = SEM_RELAXED;
		out->scope = SC_SYS;
		return 0;
	}
	if (out->sem == SEM_WEAK && have_scope)
		return fail(msg, n, "a scope is only valid on %s with .relaxed, .%s", o->name,
		            o->op == OP_LD ? "acquire" : "release");
	if (out->sem != SEM_WEAK && !have_scope)
		return fail(msg, n, "'%s.%s' needs a scope (.cta, .gpu or .sys)", o->name,
		            out->sem == SEM_RELAXED ? "relaxed" : out->sem == SEM_ACQUIRE ? "acquire" : "release");
	return 0;
}

int ptx_decode(const char *word, enum ptx_dialect d, struct ptx_insn *out, char *msg, size_t n)
{
	char w[128];
	snprintf(w, sizeof w, "%s", word);
	char *dot = strchr(w, '.');
	if (dot)
		*dot = 0;
	const struct opdef *o = find_op(w);
	if (!o || !usable(o, d)) {
		const char *cands[NOPS];
		size_t nc = 0;
		for (int i = 0; i < NOPS; i++)
			if (usable(&ops[i], d))
				cands[nc++] = ops[i].name;
		char dym[64];
		suggest(dym, sizeof dym, "", w, cands, nc);
		if (o)
			return fail(msg, n, "'%s' is not available in litmus tests, whose threads are straight-line "
			            "integer code (%s)", w, ptx_litmus_ops());
		return fail(msg, n, "unknown instruction '%s'%s", w, dym);
	}
	memset(out, 0, sizeof *out);
	out->op = o->op;
	out->name = o->name;
	out->form = o->form;
	out->nsrc = o->nsrc;
	out->type = out->stype = VT_U32;
	out->space = SP_GLOBAL;
	out->scope = SC_GL;
	out->cache = CO_NONE;
	enum vtype types[2];
	int ntypes = 0, have_cmp = 0, have_aop = 0, have_scope = 0, have_sem = 0;
	const char *seen[MC_NOT_SUPPORTED] = { NULL }; /* the modifier given per class */
	char *save = NULL;
	for (char *m = dot ? strtok_r(dot + 1, ".", &save) : NULL; m; m = strtok_r(NULL, ".", &save)) {
		const struct moddef *md = find_mod(m, o, d, msg, n);
		if (!md)
			return -1;
		if (md->cls == MC_NOT_SUPPORTED)
			return fail(msg, n, md->why, o->name);
		if (md->cls == MC_TYPE64 && d == PTX_KERNEL && o->op != OP_ST)
			return fail(msg, n, "'.%s' is not supported (registers are 32-bit; st.%s stores a register pair)", m, m);
		if (md->cls == MC_TYPE64 && d == PTX_KERNEL) { /* st.u64 [a], {%lo, %hi}: one 8-byte store */
			if (ntypes)
				return fail(msg, n, "'%s' takes one type", o->name);
			out->width = 8;
			types[ntypes++] = VT_U32;
			continue;
		}
		if ((md->cls == MC_TYPE || md->cls == MC_TYPE64) && md->val == VT_F32 && d == PTX_LITMUS)
			return fail(msg, n, "'.f32' is not available in litmus tests (values are 32-bit integer words)");
		if (md->cls == MC_WIDTH && d == PTX_LITMUS)
			return fail(msg, n, "'.%s' is not available in litmus tests (values are 32-bit words)", m);
		if (md->cls == MC_WIDTH) { /* a type too: st.u8 stores a u32 register's low byte */
			if (ntypes)
				return fail(msg, n, "'%s' takes one type", o->name);
			out->width = md->val;
			types[ntypes++] = VT_U32;
			continue;
		}
		if (md->cls == MC_TYPE || md->cls == MC_TYPE64) {
			if (out->width)
				return fail(msg, n, "'%s' takes one type", o->name);
			if (ntypes == 2 || (ntypes == 1 && o->op != OP_CVT))
				return fail(msg, n, "'%s' takes %s type", o->name, o->op == OP_CVT ? "a destination and a source" : "one");
			types[ntypes++] = (enum vtype)md->val;
			continue;
		}
		/* one modifier per class; .volatile is an alternative to a cache operator */
		int group = md->cls == MC_VOLATILE ? MC_CACHE : (int)md->cls;
		if (seen[group])
			return fail(msg, n, "'.%s' and '.%s' conflict on '%s'", seen[group], m, o->name);
		seen[group] = md->name;
		switch (md->cls) {
		case MC_SPACE: out->space = (enum space)md->val; break;
		case MC_CACHE: out->cache = (enum cache_op)md->val; break;
		case MC_VOLATILE: out->vol = 1; break;
		case MC_SCOPE: out->scope = (enum scope)md->val; have_scope = 1; break;
		case MC_SEM: out->sem = (enum sem)md->val; have_sem = 1; break;
		case MC_CMP: out->cmp = (enum cmp_op)md->val; have_cmp = 1; break;
		case MC_AOP: out->aop = (enum atom_op)md->val; have_aop = 1; break;
		case MC_ROUND: out->rni = md->val; break;
		case MC_COMM: out->comm = 1; break;
		default: break; /* accepted, no effect on any machine */
		}
	}
	if ((o->flags & OF_TYPED) && !ntypes)
		return fail(msg, n, "'%s' needs a type suffix such as .u32 or .f32", o->name);
	if (o->op == OP_CVT && ntypes != 2)
		return fail(msg, n, "cvt needs a destination and a source type, e.g. cvt.rn.f32.u32");
	if (ntypes) {
		out->type = types[0];
		out->stype = types[ntypes - 1];
	}
	if (out->type == VT_F32 && (o->flags & OF_INT))
		return fail(msg, n, "'%s' is not defined on .f32 (use .b32 for bit operations)", o->name);
	if (o->op == OP_SETP && !have_cmp)
		return fail(msg, n, "setp needs a comparison (.eq .ne .lt .le .gt .ge)");
	if (o->op == OP_MEMBAR && !have_scope)
		return fail(msg, n, "'%s' needs a scope (.cta, .gl or .sys)", o->name);
	if (sem_rule(o, out, have_sem, have_scope, msg, n))
		return -1;
	if (o->op == OP_ATOM || o->op == OP_RED) {
		if (!have_aop)
			return fail(msg, n, "%s needs an operation (.add .min .max .exch .cas .inc .dec .and .or .xor)", o->name);
		if (out->type == VT_F32 && out->aop != AT_ADD && out->aop != AT_EXCH && out->aop != AT_MIN &&
		    out->aop != AT_MAX)
			return fail(msg, n, "%s on .f32 supports add, min, max and exch only", o->name);
		if (o->op == OP_RED && (out->aop == AT_EXCH || out->aop == AT_CAS))
			return fail(msg, n, "red cannot do %s: use atom", out->aop == AT_CAS ? "cas" : "exch");
		if (out->comm && d == PTX_LITMUS)
			return fail(msg, n, "'.comm' is for kernel specs (the LAB machine), not litmus tests");
		/* LAB combines only ops whose partials regroup (exch, cas and the
		** wrapping inc/dec do not), and completes them at the LAB with no
		** old value to return (LAB III-B) */
		if (out->comm && (out->aop == AT_EXCH || out->aop == AT_CAS || out->aop == AT_INC || out->aop == AT_DEC))
			return fail(msg, n, "'.comm' needs a combinable operation (add, min, max, and, or, xor)");
		if (out->comm && o->op == OP_ATOM)
			return fail(msg, n, "'.comm' atomics return no value (memory_order_comm): use red.comm");
	}
	return 0;
}

/* }=== */
