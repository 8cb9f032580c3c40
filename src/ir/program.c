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

void program_analyse(struct program *p)
{
	int n = p->nins, N = n + 1;
	size_t words = ((size_t)N + 63) / 64;
	uint64_t *pd = xcalloc((size_t)N * words, sizeof(uint64_t));
#define PD(i) (pd + (size_t)(i) * words)
	/* pdom(exit) = {exit}; everything else starts full and shrinks */
	for (int i = 0; i < n; i++)
		memset(PD(i), 0xff, words * 8);
	PD(n)[n / 64] |= 1ull << (n % 64);
	uint64_t *tmp = xmalloc(words * 8);
	/* which nodes reach the exit at all (an infinite loop does not) */
	char *reach = xcalloc((size_t)N, 1);
	reach[n] = 1;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = n - 1; i >= 0; i--) {
			int s[2], k = succs(p, i, s);
			for (int j = 0; j < k && !reach[i]; j++)
				if (reach[s[j]])
					reach[i] = changed = 1;
		}
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = n - 1; i >= 0; i--) {
			int s[2], k = succs(p, i, s);
			memcpy(tmp, PD(s[0]), words * 8);
			for (int j = 1; j < k; j++)
				for (size_t w = 0; w < words; w++)
					tmp[w] &= PD(s[j])[w];
			tmp[i / 64] |= 1ull << (i % 64);
			if (memcmp(tmp, PD(i), words * 8)) {
				memcpy(PD(i), tmp, words * 8);
				changed = 1;
			}
		}
	}
	for (int i = 0; i < n; i++) {
		struct instr *in = &p->ins[i];
		if (in->op != OP_BRA)
			continue;
		/* the immediate post-dominator is the strict post-dominator with
		** the largest post-dominator set (it is post-dominated by all the
		** others); a branch that cannot reach the exit reconverges there */
		int best = n, bestc = -1;
		for (int d = 0; d <= n; d++) {
			if (d == i || !(PD(i)[d / 64] >> (d % 64) & 1))
				continue;
			int c = 0;
			for (size_t w = 0; w < words; w++)
				c += __builtin_popcountll(PD(d)[w]);
			if (c > bestc && c <= N) {
				bestc = c;
				best = d;
			}
		}
		in->ipdom = reach[i] ? best : n;
	}
	free(reach);
	free(tmp);
	free(pd);
#undef PD
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
