/*
** The CUDA testing harness generator (gpumc litmus --emit-cuda): for each
** litmus test a self-contained CUDA program that runs many instances of
** the test per kernel launch with the thesis's incantations (ch. 3-4:
** memory stress, bank conflicts, thread randomisation, thread
** synchronisation, each selectable with --incant), places each instance's
** testing threads in the same warp / same CTA / different CTAs as the
** test's ScopeTree says (at random free slots with "shuffle"), collects
** every register and the final memory of every instance, and prints the
** outcome histogram plus one line in the format of `gpumc litmus
** --observed` (a "chips NAME" line, then "CONFIG TEST COUNT").
**
** Instruction order: each testing thread's instructions are one
** `asm volatile` statement with a "memory" clobber, its mnemonics exactly
** as written in the test (the compiler neither splits nor reorders an asm
** statement).  ptxas may still reorder independent weak accesses, as the
** thesis found; `make sass` dumps the SASS of every program (cuobjdump)
** for that check.
**
** PTX adaptations (the litmus IR reads 64-bit registers as words): a
** register initialised with a location, written by a 64-bit operation or
** used as an address is declared .b64, the others .b32 (.pred for
** predicates); a source of the other width is converted into a
** temporary; immediate stored values are moved into a temporary first.
** Every line the harness adds to the test's own ends in "// gpumc".
*/
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/ptx.h"
#include "litmus/emit.h"
#include "litmus/run.h"
#include "util/strbuf.h"

void lit_emit_stem(const struct litmus *t, char *stem, size_t n)
{
	size_t k = 0;
	for (const char *s = t->name; *s && k + 1 < n; s++)
		stem[k++] = (isalnum((unsigned char)*s) || strchr("_+.-", *s)) ? *s : '_';
	stem[k] = 0;
}

/* ---- the testing threads' inline PTX ------------------------------------- */

struct thr_emit {
	const struct litmus *t;
	const struct lit_thread *th;
	int wide[LIT_MAXR];     /* declared .b64                       */
	int pred[LIT_MAXR];     /* declared .pred: so declared, a setp
	                           destination or a guard              */
	int ntmp;               /* temporaries used                    */
	int tmpw[2 * LIT_MAXI * 3]; /* their widths: 64 or 32          */
	struct strbuf body;     /* PTX lines                           */
	struct strbuf *err;
	int bad;
};

static int is64(const char *mn)
{
	return strstr(mn, ".u64") || strstr(mn, ".s64") || strstr(mn, ".b64");
}

/* The opcode word of an instruction's text, after any guard. */
static void mnemonic(const struct lit_ins *in, char *mn, size_t n)
{
	const char *s = in->text;
	if (*s == '@') {
		while (*s && !isspace((unsigned char)*s))
			s++;
		while (isspace((unsigned char)*s))
			s++;
	}
	size_t k = 0;
	while (*s && !isspace((unsigned char)*s) && k + 1 < n)
		mn[k++] = *s++;
	mn[k] = 0;
}

static void classify(struct thr_emit *e)
{
	const struct lit_thread *th = e->th;
	for (int r = 0; r < th->nregs; r++)
		e->pred[r] = th->regpred[r];
	for (int i = 0; i < th->nins; i++) {
		if (th->ins[i].op == OP_SETP)
			e->pred[th->ins[i].dst] = 1;
		if (th->ins[i].pred >= 0)
			e->pred[th->ins[i].pred] = 1;
	}
	for (int r = 0; r < th->nregs; r++)
		e->wide[r] = !e->pred[r] && litmus_addr_loc(e->t, th->reginit[r]) >= 0;
	for (int i = 0; i < th->nins; i++) {
		const struct lit_ins *in = &th->ins[i];
		char mn[64];
		mnemonic(in, mn, sizeof mn);
		if (lit_is_mem(in) && in->addr.kind == OK_REG)
			e->wide[in->addr.reg] = 1;
		else if (!lit_is_mem(in) && in->op != OP_MEMBAR && in->op != OP_SETP && in->dst >= 0 && is64(mn))
			e->wide[in->dst] = 1;
	}
}

static void fail(struct thr_emit *e, const struct lit_ins *in, const char *msg)
{
	if (!e->bad)
		sb_printf(e->err, "%s:%d:%d: error: --emit-cuda: %s", e->t->file, in->line, in->col, msg);
	e->bad = 1;
}

/* A value operand at width 64 (wide) or 32, as PTX text in out; converts
** into a temporary first where needed (immediates too, when imm_reg). */
static void value(struct thr_emit *e, const struct lit_opnd *o, int wide, int imm_reg, char *out, size_t n)
{
	const char *src_w = NULL;
	char src[32];
	if (o->kind == OK_IMM) {
		if (!imm_reg) {
			snprintf(out, n, "%u", o->imm);
			return;
		}
		e->tmpw[e->ntmp] = wide ? 64 : 32;
		snprintf(out, n, "gpumc_t%d", e->ntmp++);
		sb_printf(&e->body, "mov.b%d %s, %u; // gpumc\n", wide ? 64 : 32, out, o->imm);
		return;
	}
	if (o->kind == OK_LOC) {
		snprintf(src, sizeof src, "%%%d", e->th->nregs + o->loc);
		src_w = "64";
	} else {
		snprintf(src, sizeof src, "%s", e->th->regname[o->reg]);
		src_w = e->pred[o->reg] ? NULL : e->wide[o->reg] ? "64" : "32";
	}
	if (!src_w || (wide == (src_w[0] == '6'))) {
		snprintf(out, n, "%s", src);
		return;
	}
	e->tmpw[e->ntmp] = wide ? 64 : 32;
	snprintf(out, n, "gpumc_t%d", e->ntmp++);
	sb_printf(&e->body, wide ? "cvt.u64.u32 %s, %s; // gpumc\n" : "cvt.u32.u64 %s, %s; // gpumc\n", out, src);
}

static void emit_ins(struct thr_emit *e, const struct lit_ins *in)
{
	const struct lit_thread *th = e->th;
	char mn[64], msg[256], a[32], b[32], c[32], addr[40] = "";
	mnemonic(in, mn, sizeof mn);
	struct ptx_insn pi;
	if (ptx_decode(mn, PTX_LITMUS, &pi, msg, sizeof msg)) {
		fail(e, in, msg);
		return;
	}
	if (lit_is_mem(in)) {
		char base[32] = "";
		if (in->addr.kind == OK_LOC)
			snprintf(base, sizeof base, "%%%d", th->nregs + in->addr.loc);
		else if (in->addr.kind == OK_REG)
			snprintf(base, sizeof base, "%s", th->regname[in->addr.reg]);
		else
			fail(e, in, "an absolute address has no meaning on a GPU; use a location name");
		/* the harness passes generic addresses; an explicit state space
		** takes that window's address */
		const char *space = strstr(mn, ".shared") ? "shared" : strstr(mn, ".global") ? "global" : NULL;
		if (space) {
			e->tmpw[e->ntmp] = 64;
			sb_printf(&e->body, "cvta.to.%s.u64 gpumc_t%d, %s; // gpumc\n", space, e->ntmp, base);
			snprintf(base, sizeof base, "gpumc_t%d", e->ntmp++);
		}
		snprintf(addr, sizeof addr, "[%s]", base);
	}
	struct strbuf line;
	sb_init(&line);
	if (in->pred >= 0)
		sb_printf(&line, "@%s%s ", in->pred_neg ? "!" : "", th->regname[in->pred]);
	sb_puts(&line, mn);
	switch (pi.form) {
	case PF_LD:
		sb_printf(&line, " %s, %s", th->regname[in->dst], addr);
		break;
	case PF_ST:
		value(e, &in->a, 0, 1, a, sizeof a);
		sb_printf(&line, " %s, %s", addr, a);
		break;
	case PF_ATOM:
	case PF_RED:
		if (in->dst >= 0 && e->wide[in->dst])
			fail(e, in, "an atom's destination must be a 32-bit register");
		value(e, &in->b, 0, 1, b, sizeof b);
		if (in->dst >= 0)
			sb_printf(&line, " %s,", th->regname[in->dst]);
		sb_printf(&line, " %s, %s", addr, b);
		if (in->aop == AT_CAS) {
			value(e, &in->c, 0, 1, c, sizeof c);
			sb_printf(&line, ", %s", c);
		}
		break;
	case PF_REG: {
		int w = is64(mn);
		if (in->op != OP_SETP && !e->pred[in->dst] && e->wide[in->dst] != w)
			fail(e, in, "a register written at both 32 and 64 bits");
		sb_printf(&line, " %s", th->regname[in->dst]);
		const struct lit_opnd *src[3] = { &in->a, &in->b, &in->c };
		for (int k = 0; k < pi.nsrc; k++) {
			value(e, src[k], w, 0, a, sizeof a);
			sb_printf(&line, ", %s", a);
		}
		break;
	}
	default:
		break;
	}
	sb_printf(&e->body, "%s;\n", sb_str(&line));
	sb_free(&line);
}

/* The asm statement of thread index ti, as C source. */
static int emit_thread(const struct litmus *t, int ti, struct strbuf *out, struct strbuf *err)
{
	struct thr_emit e;
	memset(&e, 0, sizeof e);
	e.t = t;
	e.th = &t->thr[ti];
	e.err = err;
	sb_init(&e.body);
	classify(&e);
	const struct lit_thread *th = e.th;
	for (int r = 0; r < th->nregs; r++) {
		int l = litmus_addr_loc(t, th->reginit[r]);
		if (e.pred[r])
			sb_printf(&e.body, "setp.ne.u32 %s, %u, 0; // gpumc\n", th->regname[r], th->reginit[r]);
		else if (e.wide[r] && l >= 0)
			sb_printf(&e.body, "mov.b64 %s, %%%d; // gpumc\n", th->regname[r], th->nregs + l);
		else
			sb_printf(&e.body, "mov.b%d %s, %u; // gpumc\n", e.wide[r] ? 64 : 32, th->regname[r], th->reginit[r]);
	}
	for (int i = 0; i < th->nins; i++)
		emit_ins(&e, &th->ins[i]);
	/* every register out, as a 32-bit word */
	for (int r = 0; r < th->nregs; r++) {
		if (e.pred[r])
			sb_printf(&e.body, "selp.u32 %%%d, 1, 0, %s; // gpumc\n", r, th->regname[r]);
		else
			sb_printf(&e.body, e.wide[r] ? "cvt.u32.u64 %%%d, %s; // gpumc\n" : "mov.b32 %%%d, %s; // gpumc\n", r, th->regname[r]);
	}
	if (!e.bad) {
		sb_printf(out, "\tcase %d: /* T%d */\n\t\tasm volatile(\"{\\n\"\n", ti, th->id);
		for (int r = 0; r < th->nregs; r++)
			sb_printf(out, "\t\t\t\"\\t.reg .%s %s;\\n\"\n", e.pred[r] ? "pred" : e.wide[r] ? "b64" : "b32",
			          th->regname[r]);
		for (int k = 0; k < e.ntmp; k++)
			sb_printf(out, "\t\t\t\"\\t.reg .b%d gpumc_t%d;\\n\"\n", e.tmpw[k], k);
		for (const char *s = sb_str(&e.body); *s;) {
			const char *nl = strchr(s, '\n');
			sb_printf(out, "\t\t\t\"\\t%.*s\\n\"\n", (int)(nl - s), s);
			s = nl + 1;
		}
		sb_puts(out, "\t\t\t\"}\"\n\t\t\t:");
		for (int r = 0; r < th->nregs; r++)
			sb_printf(out, "%s \"=r\"(rg[%d])", r ? "," : "", r);
		sb_puts(out, "\n\t\t\t:");
		for (int l = 0; l < t->nlocs; l++)
			sb_printf(out, "%s \"l\"(loc[%d])", l ? "," : "", l);
		sb_puts(out, "\n\t\t\t: \"memory\");\n\t\tbreak;\n");
	}
	sb_free(&e.body);
	return e.bad ? -1 : 0;
}

/* ---- the condition, in C over m[location] and rg[thread][register] ------- */

static void cexpr(const struct litmus *t, const struct expr *x, struct strbuf *out)
{
	static const char *const bin[] = {
		[E_AND] = "&&", [E_OR] = "||", [E_EQ] = "==", [E_NE] = "!=", [E_LT] = "<",
		[E_LE] = "<=", [E_GT] = ">", [E_GE] = ">=", [E_ADD] = "+", [E_SUB] = "-"
	};
	switch (x->op) {
	case E_NUM:
		sb_printf(out, "%lldLL", (long long)x->ival);
		break;
	case E_LOC: {
		const char *cast = x->type == VT_S32 ? "(long long)(int)" : "(long long)(unsigned)";
		if (x->loc < t->nlocs)
			sb_printf(out, "%sm[%d]", cast, x->loc);
		else
			sb_printf(out, "%srg[%d]", cast, x->loc - t->nlocs);
		break;
	}
	case E_NOT:
		sb_puts(out, "!(");
		cexpr(t, x->l, out);
		sb_putc(out, ')');
		break;
	default:
		sb_putc(out, '(');
		cexpr(t, x->l, out);
		sb_printf(out, " %s ", bin[x->op]);
		cexpr(t, x->r, out);
		sb_putc(out, ')');
		break;
	}
}

/* ---- the program ----------------------------------------------------------- */

/* Everything that does not depend on the test: placement, incantations,
** the launch loop, the histogram and the report. */
static const char *const program_tail =
"#define F_STRESS 1\n"
"#define F_BANK 2\n"
"#define F_SHUFFLE 4\n"
"#define F_SYNC 8\n"
"#define SCRATCH (1 << 20)\n"
"#define BANKW 1024\n"
"\n"
"#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\\n"
"\tfprintf(stderr, \"%s:%d: %s\\n\", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)\n"
"\n"
"__global__ void litmus_kernel(const int *role, const int *slot, int *glob, int *shfin, int *res,\n"
"                              int *sync, int *scratch, int flags)\n"
"{\n"
"\t__shared__ int smem[MAXSLOTS * (NSHARED > 0 ? NSHARED : 1)];\n"
"\t__shared__ int bank[BANKW];\n"
"\tint gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
"\tint ro = role[gid], inst = ro / NT, t = ro % NT;\n"
"\tint *loc[NLOCS > 0 ? NLOCS : 1];\n"
"\tfor (int l = 0; ro >= 0 && l < NLOCS; l++)\n"
"\t\tloc[l] = c_shidx[l] >= 0 ? &smem[slot[gid] * NSHARED + c_shidx[l]] : &glob[(inst * NLOCS + l) * STRIDE];\n"
"\tif (ro >= 0 && t == 0)\n"
"\t\tfor (int l = 0; l < NLOCS; l++)\n"
"\t\t\tif (c_shidx[l] >= 0)\n"
"\t\t\t\t*loc[l] = c_init[l];\n"
"\t__syncthreads();\n"
"\tif (ro >= 0) {\n"
"\t\tif (flags & F_SYNC) { /* start the instance's threads together */\n"
"\t\t\tatomicAdd(&sync[inst], 1);\n"
"\t\t\tfor (int spin = 0; ((volatile int *)sync)[inst] < NT && spin < (1 << 20); spin++)\n"
"\t\t\t\t;\n"
"\t\t}\n"
"\t\tunsigned rg[MAXR > 0 ? MAXR : 1] = { 0 };\n"
"\t\tswitch (t) {\n"
"\t\tTHREAD_CASES\n"
"\t\t}\n"
"\t\tfor (int r = 0; r < MAXR; r++)\n"
"\t\t\tres[(inst * NT + t) * MAXR + r] = (int)rg[r];\n"
"\t} else if (flags & (F_STRESS | F_BANK)) {\n"
"\t\tfor (int k = 0; k < 256; k++) {\n"
"\t\t\tif (flags & F_STRESS) /* memory stress: scattered global traffic */\n"
"\t\t\t\t((volatile int *)scratch)[(gid * 97 + k * 4099) & (SCRATCH - 1)] += 1;\n"
"\t\t\tif (flags & F_BANK) /* bank conflicts: a warp's lanes on one bank */\n"
"\t\t\t\t((volatile int *)bank)[((threadIdx.x & 31) * 32 + k) & (BANKW - 1)] += 1;\n"
"\t\t}\n"
"\t}\n"
"\t__syncthreads();\n"
"\tif (ro >= 0 && t == 0)\n"
"\t\tfor (int l = 0; l < NLOCS; l++)\n"
"\t\t\tif (c_shidx[l] >= 0)\n"
"\t\t\t\tshfin[inst * NLOCS + l] = *loc[l];\n"
"}\n"
"\n"
"static unsigned rnd(unsigned *s)\n"
"{\n"
"\t*s ^= *s << 13;\n"
"\t*s ^= *s >> 17;\n"
"\t*s ^= *s << 5;\n"
"\treturn *s;\n"
"}\n"
"\n"
"/* Place each instance's testing threads at free slots as the ScopeTree\n"
"** says: a test CTA per distinct block, a test warp per distinct warp of\n"
"** it, a test thread per distinct lane.  Returns the instances placed. */\n"
"static int place(int *role, int *slot, int nb, int tpb, int ninst, int shuffle, unsigned *seed)\n"
"{\n"
"\tint warps = tpb / 32, placed = 0;\n"
"\tint *used_slots = (int *)calloc((size_t)nb, sizeof(int));\n"
"\tfor (int g = 0; g < nb * tpb; g++)\n"
"\t\trole[g] = -1;\n"
"\tfor (int i = 0; i < ninst; i++) {\n"
"\t\tint ok = 0;\n"
"\t\tfor (int attempt = 0; attempt < 64 && !ok; attempt++) {\n"
"\t\t\tint blk[NT], gl[NT];\n"
"\t\t\tok = 1;\n"
"\t\t\tfor (int k = 0; k < NT && ok; k++) {\n"
"\t\t\t\tint b = -1, w = -1, lane;\n"
"\t\t\t\tfor (int j = 0; j < k; j++) /* same test CTA, same block; same warp, same warp */\n"
"\t\t\t\t\tif (tcta[j] == tcta[k]) {\n"
"\t\t\t\t\t\tb = blk[j];\n"
"\t\t\t\t\t\tif (twarp[j] == twarp[k])\n"
"\t\t\t\t\t\t\tw = gl[j] % tpb / 32;\n"
"\t\t\t\t\t}\n"
"\t\t\t\tfor (int tries = 0; b < 0 && tries < 64; tries++) {\n"
"\t\t\t\t\tint c = shuffle ? (int)(rnd(seed) % (unsigned)nb) : (i * NCTAS + tcta[k] + tries) % nb;\n"
"\t\t\t\t\tint taken = 0;\n"
"\t\t\t\t\tfor (int j = 0; j < k; j++)\n"
"\t\t\t\t\t\ttaken |= blk[j] == c && tcta[j] != tcta[k];\n"
"\t\t\t\t\tif (!taken)\n"
"\t\t\t\t\t\tb = c;\n"
"\t\t\t\t}\n"
"\t\t\t\tfor (int tries = 0; w < 0 && b >= 0 && tries < 64; tries++) {\n"
"\t\t\t\t\tint c = shuffle ? (int)(rnd(seed) % (unsigned)warps) : (i + twarp[k] + tries) % warps;\n"
"\t\t\t\t\tint taken = 0;\n"
"\t\t\t\t\tfor (int j = 0; j < k; j++)\n"
"\t\t\t\t\t\ttaken |= blk[j] == b && gl[j] % tpb / 32 == c && twarp[j] != twarp[k];\n"
"\t\t\t\t\tif (!taken)\n"
"\t\t\t\t\t\tw = c;\n"
"\t\t\t\t}\n"
"\t\t\t\tint g = -1;\n"
"\t\t\t\tfor (int tries = 0; g < 0 && w >= 0 && tries < 64; tries++) {\n"
"\t\t\t\t\tlane = shuffle ? (int)(rnd(seed) % 32u) : (k + tries) % 32;\n"
"\t\t\t\t\tint c = b * tpb + w * 32 + lane, taken = role[c] >= 0;\n"
"\t\t\t\t\tfor (int j = 0; j < k; j++)\n"
"\t\t\t\t\t\ttaken |= gl[j] == c;\n"
"\t\t\t\t\tif (!taken)\n"
"\t\t\t\t\t\tg = c;\n"
"\t\t\t\t}\n"
"\t\t\t\tif (g < 0 || (NSHARED > 0 && used_slots[b] >= MAXSLOTS))\n"
"\t\t\t\t\tok = 0;\n"
"\t\t\t\tblk[k] = b;\n"
"\t\t\t\tgl[k] = g;\n"
"\t\t\t}\n"
"\t\t\tif (!ok)\n"
"\t\t\t\tcontinue;\n"
"\t\t\tfor (int k = 0; k < NT; k++) {\n"
"\t\t\t\trole[gl[k]] = placed * NT + k;\n"
"\t\t\t\tslot[gl[k]] = used_slots[blk[k]];\n"
"\t\t\t}\n"
"\t\t\tif (NSHARED > 0)\n"
"\t\t\t\tused_slots[blk[0]]++;\n"
"\t\t\tplaced++;\n"
"\t\t}\n"
"\t}\n"
"\tfree(used_slots);\n"
"\treturn placed;\n"
"}\n"
"\n"
"struct outcome { int v[NOUT > 0 ? NOUT : 1]; long long n; };\n"
"\n"
"int main(int argc, char **argv)\n"
"{\n"
"\tint iters = 1000, tpb = 256, nb = 0, ninst = 0, flags = F_STRESS | F_BANK | F_SHUFFLE | F_SYNC;\n"
"\tunsigned seed = 1;\n"
"\tconst char *chip = NULL;\n"
"\tfor (int a = 1; a < argc; a++) {\n"
"\t\tconst char *v = a + 1 < argc ? argv[a + 1] : NULL;\n"
"\t\tif (v && !strcmp(argv[a], \"-n\")) iters = atoi(argv[++a]);\n"
"\t\telse if (v && !strcmp(argv[a], \"-b\")) nb = atoi(argv[++a]);\n"
"\t\telse if (v && !strcmp(argv[a], \"-t\")) tpb = atoi(argv[++a]);\n"
"\t\telse if (v && !strcmp(argv[a], \"-i\")) ninst = atoi(argv[++a]);\n"
"\t\telse if (v && !strcmp(argv[a], \"-s\")) seed = (unsigned)atoi(argv[++a]) | 1u;\n"
"\t\telse if (v && !strcmp(argv[a], \"--chip\")) chip = argv[++a];\n"
"\t\telse if (v && !strcmp(argv[a], \"--incant\")) {\n"
"\t\t\tconst char *s = argv[++a];\n"
"\t\t\tflags = (strstr(s, \"stress\") ? F_STRESS : 0) | (strstr(s, \"bank\") ? F_BANK : 0) |\n"
"\t\t\t        (strstr(s, \"shuffle\") ? F_SHUFFLE : 0) | (strstr(s, \"sync\") ? F_SYNC : 0);\n"
"\t\t} else {\n"
"\t\t\tfprintf(stderr, \"usage: %s [-n ITERATIONS] [-b BLOCKS] [-t THREADS_PER_BLOCK] [-i INSTANCES]\\n\"\n"
"\t\t\t        \"  [-s SEED] [--chip NAME] [--incant stress,bank,shuffle,sync|none]\\n\", argv[0]);\n"
"\t\t\treturn 2;\n"
"\t\t}\n"
"\t}\n"
"\tcudaDeviceProp prop;\n"
"\tCK(cudaGetDeviceProperties(&prop, 0));\n"
"\tif (tpb < 32 || tpb % 32 || tpb > prop.maxThreadsPerBlock) {\n"
"\t\tfprintf(stderr, \"-t must be a multiple of 32 up to %d\\n\", prop.maxThreadsPerBlock);\n"
"\t\treturn 2;\n"
"\t}\n"
"\tif (nb <= 0) /* co-resident blocks, so that sync cannot wait on an unscheduled one */\n"
"\t\tnb = prop.multiProcessorCount * 2;\n"
"\tif (ninst <= 0)\n"
"\t\tninst = nb * tpb / 32 / NT;\n"
"\tchar name[256];\n"
"\tsnprintf(name, sizeof name, \"%s\", chip ? chip : prop.name);\n"
"\tfor (char *c = name; *c; c++)\n"
"\t\tif (*c == ' ' || *c == '#')\n"
"\t\t\t*c = '_';\n"
"\tint ng = nb * tpb;\n"
"\tint *role = (int *)malloc(ng * sizeof(int)), *slot = (int *)calloc(ng, sizeof(int));\n"
"\tint *hglob = (int *)calloc((size_t)ninst * NLOCS * STRIDE + 1, sizeof(int));\n"
"\tint *hres = (int *)malloc((size_t)ninst * NT * MAXR * sizeof(int) + 1);\n"
"\tint *hsh = (int *)calloc((size_t)ninst * NLOCS + 1, sizeof(int));\n"
"\tint *drole, *dslot, *dglob, *dres, *dsh, *dsync, *dscratch;\n"
"\tCK(cudaMalloc(&drole, ng * sizeof(int)));\n"
"\tCK(cudaMalloc(&dslot, ng * sizeof(int)));\n"
"\tCK(cudaMalloc(&dglob, ((size_t)ninst * NLOCS * STRIDE + 1) * sizeof(int)));\n"
"\tCK(cudaMalloc(&dres, (size_t)ninst * NT * MAXR * sizeof(int) + 1));\n"
"\tCK(cudaMalloc(&dsh, ((size_t)ninst * NLOCS + 1) * sizeof(int)));\n"
"\tCK(cudaMalloc(&dsync, (size_t)ninst * sizeof(int)));\n"
"\tCK(cudaMalloc(&dscratch, SCRATCH * sizeof(int)));\n"
"\tCK(cudaMemset(dscratch, 0, SCRATCH * sizeof(int)));\n"
"\tstruct outcome *out = NULL;\n"
"\tint nout = 0;\n"
"\tlong long runs = 0, weak = 0;\n"
"\tint placed = place(role, slot, nb, tpb, ninst, flags & F_SHUFFLE, &seed);\n"
"\tfor (int it = 0; it < iters; it++) {\n"
"\t\tif (it && (flags & F_SHUFFLE))\n"
"\t\t\tplaced = place(role, slot, nb, tpb, ninst, 1, &seed);\n"
"\t\tfor (int i = 0; i < placed; i++)\n"
"\t\t\tfor (int l = 0; l < NLOCS; l++)\n"
"\t\t\t\thglob[(i * NLOCS + l) * STRIDE] = h_init[l];\n"
"\t\tCK(cudaMemcpy(drole, role, ng * sizeof(int), cudaMemcpyHostToDevice));\n"
"\t\tCK(cudaMemcpy(dslot, slot, ng * sizeof(int), cudaMemcpyHostToDevice));\n"
"\t\tCK(cudaMemcpy(dglob, hglob, (size_t)placed * NLOCS * STRIDE * sizeof(int), cudaMemcpyHostToDevice));\n"
"\t\tCK(cudaMemset(dsync, 0, (size_t)ninst * sizeof(int)));\n"
"\t\tlitmus_kernel<<<nb, tpb>>>(drole, dslot, dglob, dsh, dres, dsync, dscratch, flags);\n"
"\t\tCK(cudaGetLastError());\n"
"\t\tCK(cudaDeviceSynchronize());\n"
"\t\tCK(cudaMemcpy(hglob, dglob, (size_t)placed * NLOCS * STRIDE * sizeof(int), cudaMemcpyDeviceToHost));\n"
"\t\tCK(cudaMemcpy(hres, dres, (size_t)placed * NT * MAXR * sizeof(int), cudaMemcpyDeviceToHost));\n"
"\t\tCK(cudaMemcpy(hsh, dsh, (size_t)placed * NLOCS * sizeof(int), cudaMemcpyDeviceToHost));\n"
"\t\tfor (int i = 0; i < placed; i++) {\n"
"\t\t\tint m[NLOCS > 0 ? NLOCS : 1], v[NOUT > 0 ? NOUT : 1];\n"
"\t\t\tconst int *rg = &hres[i * NT * MAXR];\n"
"\t\t\tfor (int l = 0; l < NLOCS; l++)\n"
"\t\t\t\tm[l] = h_shidx[l] >= 0 ? hsh[i * NLOCS + l] : hglob[(i * NLOCS + l) * STRIDE];\n"
"\t\t\tfor (int k = 0; k < NOUT; k++)\n"
"\t\t\t\tv[k] = oloc[k] < NLOCS ? m[oloc[k]] : rg[oloc[k] - NLOCS];\n"
"\t\t\truns++;\n"
"\t\t\tweak += cond(m, rg);\n"
"\t\t\tint o = 0;\n"
"\t\t\twhile (o < nout && memcmp(out[o].v, v, sizeof v))\n"
"\t\t\t\to++;\n"
"\t\t\tif (o == nout) {\n"
"\t\t\t\tout = (struct outcome *)realloc(out, (size_t)(nout + 1) * sizeof *out);\n"
"\t\t\t\tmemcpy(out[nout].v, v, sizeof v);\n"
"\t\t\t\tout[nout++].n = 0;\n"
"\t\t\t}\n"
"\t\t\tout[o].n++;\n"
"\t\t}\n"
"\t}\n"
"\tprintf(\"# gpumc litmus harness: %s (%s) on %s\\n\", TEST, CONFIG, name);\n"
"\tprintf(\"# %d iterations x %d instances = %lld runs, %d blocks x %d threads, incantations:%s%s%s%s\\n\",\n"
"\t       iters, placed, runs, nb, tpb, flags & F_STRESS ? \" stress\" : \"\", flags & F_BANK ? \" bank\" : \"\",\n"
"\t       flags & F_SHUFFLE ? \" shuffle\" : \"\", flags & F_SYNC ? \" sync\" : \"\");\n"
"\tfor (int o = 0; o < nout; o++) {\n"
"\t\tprintf(\"# %12lld %s \", out[o].n, cond_v(out[o].v) ? \"*>\" : \":>\");\n"
"\t\tfor (int k = 0; k < NOUT; k++)\n"
"\t\t\tprintf(\"%s=%d; \", oname[k], out[o].v[k]);\n"
"\t\tprintf(\"\\n\");\n"
"\t}\n"
"\tprintf(\"chips %s\\n%s %s %lld  # of %lld runs: %s\\n\", name, CONFIG, TEST, weak, runs, CONDITION);\n"
"\treturn 0;\n"
"}\n";

int lit_emit_cuda(const struct litmus *t, const char *stem, struct strbuf *out, struct strbuf *err)
{
	struct strbuf cases, cfg;
	sb_init(&cases);
	sb_init(&cfg);
	int rc = 0;
	for (int i = 0; i < t->nthreads && rc == 0; i++)
		rc = emit_thread(t, i, &cases, err);
	int nsh = 0, shidx[LIT_MAXL];
	for (int l = 0; l < t->nlocs; l++)
		shidx[l] = t->loc[l].region == SP_SHARED ? nsh++ : -1;
	if (nsh && t->nctas > 1) {
		sb_printf(err, "%s: error: --emit-cuda: shared locations need every thread in one CTA", t->file);
		rc = -1;
	}
	int maxr = 0;
	for (int i = 0; i < t->nthreads; i++)
		if (t->thr[i].nregs > maxr)
			maxr = t->thr[i].nregs;
	int locs[LIT_MAXO + 1];
	unsigned nout = t->cond ? expr_locs(t->cond, locs, 0, LIT_MAXO + 1) : 0;
	if (nout > LIT_MAXO) {
		sb_printf(err, "%s: error: --emit-cuda: condition uses more than %d locations", t->file, LIT_MAXO);
		rc = -1;
	}
	if (rc) {
		sb_free(&cases);
		sb_free(&cfg);
		return -1;
	}
	litmus_config(t, &cfg);
	sb_printf(out, "/* %s.cu: CUDA litmus harness for %s, generated by gpumc litmus --emit-cuda.\n"
	          "** Build with the Makefile beside it (nvcc); run ./%s -h for options. */\n",
	          stem, t->name, stem);
	sb_puts(out, "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
	sb_printf(out, "#define TEST \"%s\"\n#define CONFIG \"%s\"\n", t->name, sb_str(&cfg));
	sb_puts(out, "#define CONDITION \"");
	for (const char *s = t->cond_text ? t->cond_text : ""; *s; s++)
		if (*s != '\n' && *s != '"' && *s != '\\')
			sb_putc(out, *s);
	sb_puts(out, "\"\n");
	sb_printf(out, "#define NT %d\n#define NCTAS %d\n#define NLOCS %d\n#define NSHARED %d\n#define MAXR %d\n"
	          "#define NOUT %u\n#ifndef STRIDE\n#define STRIDE 32 /* words between locations: one 128-byte line each */\n"
	          "#endif\n#define MAXSLOTS 32\n\n", t->nthreads, t->nctas, t->nlocs, nsh, maxr, nout);
	sb_puts(out, "/* the ScopeTree: test CTA and warp of each testing thread */\nstatic const int tcta[NT] = {");
	for (int i = 0; i < t->nthreads; i++)
		sb_printf(out, "%s%d", i ? ", " : " ", t->thr[i].cta);
	sb_puts(out, " };\nstatic const int twarp[NT] = {");
	for (int i = 0; i < t->nthreads; i++)
		sb_printf(out, "%s%d", i ? ", " : " ", t->thr[i].cta * LIT_MAXT + t->thr[i].warp);
	sb_puts(out, " };\n/* locations: initial values; index among the shared ones, or -1 (global) */\n"
	        "#define INIT {");
	for (int l = 0; l < t->nlocs; l++)
		sb_printf(out, "%s%d", l ? ", " : " ", (int)t->loc[l].init);
	sb_puts(out, " }\n#define SHIDX {");
	for (int l = 0; l < t->nlocs; l++)
		sb_printf(out, "%s%d", l ? ", " : " ", shidx[l]);
	sb_puts(out, " }\nstatic const int h_init[NLOCS > 0 ? NLOCS : 1] = INIT, h_shidx[NLOCS > 0 ? NLOCS : 1] = SHIDX;\n"
	        "__constant__ int c_init[NLOCS > 0 ? NLOCS : 1] = INIT, c_shidx[NLOCS > 0 ? NLOCS : 1] = SHIDX;\n");
	sb_puts(out, "/* the condition's locations: memory l < NLOCS, else NLOCS + thread * MAXR + register */\n"
	        "static const int oloc[NOUT > 0 ? NOUT : 1] = {");
	for (unsigned k = 0; k < nout; k++) {
		int id = locs[k] < t->nlocs ? locs[k] : t->nlocs + (locs[k] - t->nlocs) / LIT_MAXR * maxr +
		                                          (locs[k] - t->nlocs) % LIT_MAXR;
		sb_printf(out, "%s%d", k ? ", " : " ", id);
	}
	sb_puts(out, " };\nstatic const char *const oname[NOUT > 0 ? NOUT : 1] = {");
	for (unsigned k = 0; k < nout; k++) {
		struct strbuf nm;
		sb_init(&nm);
		litmus_loc_name(t, locs[k], &nm);
		sb_printf(out, "%s\"%s\"", k ? ", " : " ", sb_str(&nm));
		sb_free(&nm);
	}
	sb_puts(out, " };\n\n/* the test's final condition over memory m and registers rg[thread * MAXR + r] */\n"
	        "static int cond(const int *m, const int *rg)\n{\n\t(void)m;\n\t(void)rg;\n\treturn ");
	struct strbuf ce;
	sb_init(&ce);
	if (t->cond)
		cexpr(t, t->cond, &ce);
	else
		sb_puts(&ce, "0");
	/* registers are numbered thread * LIT_MAXR + r in the IR, * MAXR here */
	for (const char *s = sb_str(&ce); *s; s++) {
		int id;
		if (!strncmp(s, "rg[", 3) && sscanf(s + 3, "%d", &id) == 1) {
			sb_printf(out, "rg[%d]", id / LIT_MAXR * maxr + id % LIT_MAXR);
			s = strchr(s, ']');
		} else {
			sb_putc(out, *s);
		}
	}
	sb_free(&ce);
	sb_puts(out, ";\n}\n\n/* the same over an outcome's values, for the histogram's marks */\n"
	        "static int cond_v(const int *v)\n{\n\tint m[NLOCS > 0 ? NLOCS : 1] = { 0 }, rg[NT * MAXR + 1] = { 0 };\n"
	        "\tfor (int k = 0; k < NOUT; k++) {\n\t\tif (oloc[k] < NLOCS)\n\t\t\tm[oloc[k]] = v[k];\n"
	        "\t\telse\n\t\t\trg[oloc[k] - NLOCS] = v[k];\n\t}\n\treturn cond(m, rg);\n}\n\n");
	/* the kernel and host code, with the testing threads' cases inserted */
	const char *mark = strstr(program_tail, "THREAD_CASES\n");
	sb_printf(out, "%.*s", (int)(mark - program_tail), program_tail);
	/* drop the placeholder's own indentation: cases carry theirs */
	while (out->len && out->s[out->len - 1] == '\t')
		out->s[--out->len] = 0;
	sb_puts(out, sb_str(&cases));
	sb_puts(out, mark + strlen("THREAD_CASES\n"));
	sb_free(&cases);
	sb_free(&cfg);
	return 0;
}

void lit_emit_makefile(const char *const *stems, int n, struct strbuf *out)
{
	sb_puts(out, "# CUDA litmus harnesses generated by gpumc litmus --emit-cuda.\n"
	        "#   make            build every test (NVCC, ARCH: sm_70 or later for fence.sc/.acq_rel)\n"
	        "#   make run        run them all (RUNFLAGS, e.g. -n 10000 --incant stress,shuffle);\n"
	        "#                   observed.txt is read by gpumc litmus --observed observed.txt FILE...\n"
	        "#   make sass       SASS of each test (cuobjdump) into NAME.sass, to check that the\n"
	        "#                   memory instructions kept the test's order\n"
	        "NVCC ?= nvcc\nARCH ?= sm_70\nNVCCFLAGS ?= -O3 -arch=$(ARCH)\nRUNFLAGS ?=\n\nTESTS =");
	for (int i = 0; i < n; i++)
		sb_printf(out, " \\\n\t%s", stems[i]);
	sb_puts(out, "\n\nall: $(TESTS)\n\n"
	        "%: %.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n\n"
	        "run: all\n\trm -f observed.txt\n\tfor t in $(TESTS); do ./$$t $(RUNFLAGS) | tee -a observed.txt || exit 1; done\n\n"
	        "sass: all\n\tfor t in $(TESTS); do cuobjdump -sass $$t | grep -E 'LD|ST|ATOM|RED|MEMBAR|FENCE|CCTL' > $$t.sass; done\n\n"
	        "clean:\n\trm -f $(TESTS) *.sass observed.txt\n\n.PHONY: all run sass clean\n");
}

static int write_file(const char *dir, const char *name, const struct strbuf *text)
{
	struct strbuf path;
	sb_init(&path);
	sb_printf(&path, "%s/%s", dir, name);
	FILE *f = fopen(sb_str(&path), "w");
	int rc = f && fputs(text->s ? text->s : "", f) >= 0 ? 0 : -1;
	if (f && fclose(f))
		rc = -1;
	if (rc)
		fprintf(stderr, "gpumc litmus: cannot write %s: %s\n", sb_str(&path), strerror(errno));
	sb_free(&path);
	return rc;
}

int lit_emit_dir(const char *dir, char **files, int n)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "gpumc litmus: cannot create %s: %s\n", dir, strerror(errno));
		return 2;
	}
	char (*stems)[64] = xcalloc((size_t)n + 1, sizeof *stems);
	const char **names = xcalloc((size_t)n + 1, sizeof *names);
	int errors = 0, nok = 0;
	struct strbuf err, text;
	sb_init(&err);
	sb_init(&text);
	for (int i = 0; i < n; i++) {
		sb_reset(&err);
		sb_reset(&text);
		struct litmus *t = litmus_parse_file(files[i], &err);
		struct model vm;
		if (t) {
			lit_valuation_model(t, &vm);
			if (t->cond && expr_resolve(t->cond, &vm, &err)) {
				litmus_free(t);
				t = NULL;
			}
		}
		if (!t) {
			fprintf(stderr, "%s\n", sb_str(&err));
			errors++;
			continue;
		}
		lit_emit_stem(t, stems[nok], sizeof stems[nok]);
		for (int j = 0; j < nok; j++)
			if (!strcmp(stems[j], stems[nok])) { /* a name in several configurations */
				struct strbuf cfg;
				sb_init(&cfg);
				litmus_config(t, &cfg);
				for (char *c = cfg.s; *c; c++)
					if (*c == ':')
						*c = '_';
				size_t len = strlen(stems[nok]);
				snprintf(stems[nok] + len, sizeof stems[nok] - len, "@%s", sb_str(&cfg));
				sb_free(&cfg);
				break;
			}
		struct strbuf fname;
		sb_init(&fname);
		sb_printf(&fname, "%s.cu", stems[nok]);
		if (lit_emit_cuda(t, stems[nok], &text, &err)) {
			fprintf(stderr, "%s\n", sb_str(&err));
			errors++;
		} else if (write_file(dir, sb_str(&fname), &text)) {
			errors++;
		} else {
			names[nok] = stems[nok];
			nok++;
		}
		sb_free(&fname);
		litmus_free(t);
	}
	sb_reset(&text);
	lit_emit_makefile(names, nok, &text);
	if (write_file(dir, "Makefile", &text))
		errors++;
	sb_free(&err);
	sb_free(&text);
	free(names);
	free(stems);
	return errors ? 2 : 0;
}
