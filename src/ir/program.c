/*
** Program facts shared by every machine: names of opcodes and special
** registers, symbol/register lookup, and the immediate post-dominator of
** each branch, where a diverged warp reconverges (the stack-based SIMT
** model of Fung et al., used by GPGPU-Sim).
*/
#include "config.h"
#include "ir/program.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ptx.h"
#include "util/strbuf.h"

static const char *const opnames[OP_COUNT] = {
	"mov", "add", "sub", "mul", "mad", "div", "rem", "and", "or", "xor", "not", "shl", "shr",
	"min", "max", "neg", "cvt", "setp", "selp", "bra", "bar.sync", "membar", "ld", "st", "atom",
	"red", "exit", "nop", "clwb", "sfence", "pcommit", "l2wb"
};

const char *opcode_name(enum opcode op)
{
	return op < OP_COUNT ? opnames[op] : "?";
}

static const char *const specials[SR_COUNT] = {
	"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%gtid",
	"%gwarpid", "WARP_SZ"
};

const char *special_name(enum special s)
{
	return s < SR_COUNT ? specials[s] : "?";
}

int special_lookup(const char *name)
{
	/* %tid.x is %tid: grids are one-dimensional */
	size_t n = strlen(name);
	if (n > 2 && name[n - 2] == '.' && name[n - 1] == 'x')
		n -= 2;
	for (int i = 0; i < SR_COUNT; i++)
		if (strlen(specials[i]) == n && !strncmp(specials[i], name, n))
			return i;
	return -1;
}

int program_find_sym(const struct program *p, const char *name)
{
	for (int i = 0; i < p->nsyms; i++)
		if (!strcmp(p->syms[i].name, name))
			return i;
	return -1;
}

int program_find_reg(const struct program *p, const char *name)
{
	for (int i = 0; i < p->nregs; i++)
		if (!strcmp(p->regs[i].name, name))
			return i;
	return -1;
}

void program_hint(const struct program *p, const char *name, int regs, struct strbuf *out)
{
	int n = regs ? p->nregs : p->nsyms;
	const char **names = xmalloc(sizeof(char *) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++)
		names[i] = regs ? p->regs[i].name : p->syms[i].name;
	/* a one- or two-letter name is one edit from any other: no guess */
	const char *best = strlen(name) > 2 ? ptx_nearest(name, names, (size_t)n) : NULL;
	if (best)
		sb_printf(out, "; did you mean '%s'?", best);
	free(names);
}

int program_read_only(const struct program *p, enum space sp, int sym)
{
	for (int i = 0; i < p->nins; i++) {
		const struct instr *in = &p->ins[i];
		if ((in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) && in->space == sp &&
		    (in->addr.sym < 0 || in->addr.sym == sym))
			return 0;
	}
	return 1;
}

void program_addr_name(const struct program *p, enum space sp, uint32_t byte, struct strbuf *out)
{
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space != sp || byte < s->base || byte >= s->base + 4 * s->nelems)
			continue;
		if (s->is_array)
			sb_printf(out, "%s[%u]", s->name, (byte - s->base) / 4);
		else
			sb_puts(out, s->name);
		return;
	}
	sb_printf(out, "0x%x", byte);
}

int program_reg_slots(const struct program *p, int *slot)
{
	for (int r = 0; r < p->nregs; r++)
		slot[r] = -1;
	for (int i = 0; i < p->nins; i++)
		if (p->ins[i].dst >= 0)
			slot[p->ins[i].dst] = 0;
	int n = 0;
	for (int r = 0; r < p->nregs; r++)
		if (!slot[r])
			slot[r] = n++;
	return n;
}

/* Successors of instruction i in the CFG; node n is the kernel's exit. */
static int succs(const struct program *p, int i, int s[2])
{
	const struct instr *in = &p->ins[i];
	int n = p->nins;
	if (in->op == OP_BRA) {
		s[0] = in->target;
		if (in->pred < 0)
			return 1;
		s[1] = i + 1;
		return 2;
	}
	if (in->op == OP_EXIT && in->pred < 0) {
		s[0] = n;
		return 1;
	}
	s[0] = i + 1 <= n ? i + 1 : n;
	return 1;
}

/* Uniformity.  A register is uniform when, in every reachable state, all
** live lanes of a warp hold one value in it.  Claim: every register the
** fixpoint below leaves uniform is, and a branch not marked divergent
** never splits a warp.  By induction over the steps of a warp:
**   - initially every register is 0 in every lane;
**   - a conditional branch whose guard is uniform takes all of its active
**     lanes or none: no push.  So the stack holds more than its bottom
**     entry only between a divergent branch and its reconvergence point:
**     an instruction off every divergent branch's region (what it reaches
**     before its ipdom) runs with every live lane active;
**   - a write keeps its register uniform when it runs with every live
**     lane active (off every region), under no guard or a uniform one
**     (all lanes write, or none), from sources equal in every lane:
**     immediates, symbols, the per-warp special registers, uniform
**     registers, or a load of a variable no instruction writes
**     (program_read_only: constant while warps run) at a uniform address;
**   - only instructions write registers (an atom's old values come back to
**     its destination, never uniform); lanes that exit leave the others
**     equal; a relaunch zeroes the warp.
** Starting from "all uniform" and removing what breaks a rule until
** nothing changes gives the largest such set (both sets only shrink). */
static int lane_varying(const struct operand *o, const uint8_t *var)
{
	return (o->kind == O_REG && var[o->reg]) ||
	       (o->kind == O_SPECIAL && (o->special == SR_TID || o->special == SR_LANEID || o->special == SR_GTID));
}

static int writes_varying(const struct program *p, const struct instr *in, const uint8_t *var, int partial)
{
	if (partial || (in->pred >= 0 && var[in->pred]))
		return 1;
	if (in->op == OP_LD)
		return in->addr.sym < 0 || !program_read_only(p, in->space, in->addr.sym) ||
		       (in->addr.reg >= 0 && var[in->addr.reg]);
	if (in->op > OP_SELP) /* atom: old values per lane */
		return 1;
	for (int k = 0; k < 3; k++)
		if (lane_varying(&in->src[k], var))
			return 1;
	return 0;
}

void program_divergent(const struct program *p, uint8_t *div)
{
	int n = p->nins;
	uint8_t *var = xcalloc((size_t)p->nregs + 1, 1), *partial = xcalloc((size_t)n + 1, 1);
	int *todo = xmalloc(sizeof *todo * (size_t)(n + 1) * 2), *seen = xmalloc(sizeof *seen * (size_t)(n + 1));
	memset(div, 0, (size_t)n);
	for (int i = 0; i < n; i++)
		seen[i] = -1;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 0; i < n; i++) {
			const struct instr *in = &p->ins[i];
			if (in->dst >= 0 && !var[in->dst] && writes_varying(p, in, var, partial[i]))
				var[in->dst] = changed = 1;
			if (in->op != OP_BRA || in->pred < 0 || div[i] || !var[in->pred])
				continue;
			/* its region: what its paths reach before the ipdom */
			div[i] = changed = 1;
			int nt = succs(p, i, todo);
			while (nt) {
				int v = todo[--nt];
				if (v >= n || v == in->ipdom || seen[v] == i)
					continue;
				seen[v] = i;
				partial[v] = 1;
				nt += succs(p, v, todo + nt);
			}
		}
	}
	free(var);
	free(partial);
	free(todo);
	free(seen);
}

/* Nearest common dominator of a and b in the tree idom, by postorder
** numbers (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
** Algorithm"). */
static int common(const int *idom, const int *po, int a, int b)
{
	while (a != b) {
		while (po[a] < po[b])
			a = idom[a];
		while (po[b] < po[a])
			b = idom[b];
	}
	return a;
}

/* Post-dominators are the dominators of the reversed CFG rooted at the
** exit (node n).  Iterative over reverse postorder: linear memory, and a
** few linear passes for a structured kernel (no n^2 bitsets, no cubic
** search for the closest strict post-dominator).  A node that cannot
** reach the exit (an infinite loop) gets no post-dominator: its branches
** reconverge at the exit. */
void program_analyse(struct program *p)
{
	int n = p->nins, N = n + 1;
	/* CFG predecessors, compressed rows */
	int *prow = xcalloc((size_t)N + 1, sizeof *prow), *pred = xmalloc(sizeof *pred * (size_t)N * 2);
	for (int i = 0; i < n; i++) {
		int sc[2], k = succs(p, i, sc);
		for (int j = 0; j < k; j++)
			prow[sc[j]]++;
	}
	for (int i = 0; i < N; i++)
		prow[i + 1] += prow[i];
	for (int i = 0; i < n; i++) {
		int sc[2], k = succs(p, i, sc);
		for (int j = 0; j < k; j++)
			pred[--prow[sc[j]]] = i;
	}
	/* postorder of the reversed CFG from the exit, iteratively */
	int *po = xmalloc(sizeof *po * (size_t)N), *rpo = xmalloc(sizeof *rpo * (size_t)N);
	int *stack = xmalloc(sizeof *stack * (size_t)N), *edge = xmalloc(sizeof *edge * (size_t)N);
	for (int i = 0; i < N; i++)
		po[i] = -1, edge[i] = prow[i];
	int sp = 0, np = 0;
	stack[sp++] = n;
	po[n] = -2; /* on the stack */
	while (sp) {
		int v = stack[sp - 1];
		if (edge[v] < prow[v + 1]) {
			int u = pred[edge[v]++];
			if (po[u] == -1) {
				po[u] = -2;
				stack[sp++] = u;
			}
		} else {
			po[v] = np;
			rpo[np++] = v;
			sp--;
		}
	}
	int *idom = xmalloc(sizeof *idom * (size_t)N);
	for (int i = 0; i < N; i++)
		idom[i] = -1;
	idom[n] = n;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int k = np - 2; k >= 0; k--) { /* reverse postorder, the root (last) skipped */
			int v = rpo[k], nd = -1, sc[2], m = succs(p, v, sc);
			for (int j = 0; j < m; j++)
				if (idom[sc[j]] >= 0)
					nd = nd < 0 ? sc[j] : common(idom, po, sc[j], nd);
			if (nd != idom[v]) {
				idom[v] = nd;
				changed = 1;
			}
		}
	}
	for (int i = 0; i < n; i++)
		if (p->ins[i].op == OP_BRA)
			p->ins[i].ipdom = po[i] >= 0 ? idom[i] : n;
	free(prow);
	free(pred);
	free(po);
	free(rpo);
	free(stack);
	free(edge);
	free(idom);
}

static void *dup(const void *p, size_t n)
{
	return p ? memcpy(xmalloc(n ? n : 1), p, n) : NULL;
}

void program_clone(struct program *dst, const struct program *src)
{
	*dst = *src;
	dst->ins = dup(src->ins, sizeof *src->ins * (size_t)src->nins);
	for (int i = 0; i < src->nins; i++)
		dst->ins[i].text = xstrdup(src->ins[i].text);
	dst->regs = dup(src->regs, sizeof *src->regs * (size_t)src->nregs);
	for (int i = 0; i < src->nregs; i++)
		dst->regs[i].name = xstrdup(src->regs[i].name);
	dst->syms = dup(src->syms, sizeof *src->syms * (size_t)src->nsyms);
	for (int i = 0; i < src->nsyms; i++) {
		dst->syms[i].name = xstrdup(src->syms[i].name);
		dst->syms[i].init = dup(src->syms[i].init, 4 * (size_t)src->syms[i].nelems);
	}
	dst->host = dup(src->host, sizeof *src->host * (size_t)src->nhost);
	dst->recovery = dup(src->recovery, sizeof *src->recovery * (size_t)src->nrecovery);
}

void program_free(struct program *p)
{
	for (int i = 0; i < p->nins; i++)
		free(p->ins[i].text);
	free(p->ins);
	for (int i = 0; i < p->nregs; i++)
		free(p->regs[i].name);
	free(p->regs);
	for (int i = 0; i < p->nsyms; i++) {
		free(p->syms[i].name);
		free(p->syms[i].init);
	}
	free(p->syms);
	free(p->host);
	free(p->recovery);
	memset(p, 0, sizeof *p);
}
