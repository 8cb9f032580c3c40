/*
** The ALU of a SIMT lane.  Floats are handled through their bits so the
** state vector holds exact IEEE-754 binary32 values; the build uses
** -ffp-contract=off so a*b+c is two roundings unless fmaf is asked for
** (PTX mad.f32/fma.rn.f32 are fused: one rounding).
*/
#include "config.h"
#include "machines/alu.h"

#include <math.h>
#include <string.h>

#include "machines/gpu.h"

static float f(uint32_t b)
{
	float x;
	memcpy(&x, &b, 4);
	return x;
}

static uint32_t bits(float x)
{
	uint32_t b;
	memcpy(&b, &x, 4);
	return b;
}

/* A NaN result is the one NaN 0x7fffffff (PTX's canonical NaN): IEEE
** leaves which input's payload a NaN result carries open, and the C
** compiler may swap the operands of a + b, so two compilations of one
** operation (alu_op, alu_lanes_exec's loops) could differ in the bits of
** a NaN; neg only flips the sign bit. */
static uint32_t nan_canonical(float x)
{
	return isnan(x) ? 0x7fffffffu : bits(x);
}

static uint32_t fop(enum opcode op, float a, float b, float c)
{
	switch (op) {
	case OP_ADD: return nan_canonical(a + b);
	case OP_SUB: return nan_canonical(a - b);
	case OP_MUL: return nan_canonical(a * b);
	case OP_MAD: return nan_canonical(fmaf(a, b, c));
	case OP_DIV: return nan_canonical(a / b);
	case OP_MIN: return nan_canonical(fminf(a, b));
	case OP_MAX: return nan_canonical(fmaxf(a, b));
	case OP_NEG: return bits(-a);
	default: return 0;
	}
}

/* Always inline so that alu_lanes_exec's loops, calling it with op and t
** constant, fold its switches away: one definition of each operation. */
static inline __attribute__((always_inline)) uint32_t op_inline(enum opcode op, enum vtype t, uint32_t a, uint32_t b,
                                                                uint32_t c, int *fault)
{
	if (t == VT_F32 && op != OP_MOV && op != OP_AND && op != OP_OR && op != OP_XOR &&
	    op != OP_NOT && op != OP_SELP)
		return fop(op, f(a), f(b), f(c));
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	switch (op) {
	case OP_MOV: return a;
	case OP_ADD: return a + b;
	case OP_SUB: return a - b;
	case OP_MUL: return a * b; /* .lo */
	case OP_MAD: return a * b + c;
	case OP_DIV:
	case OP_REM:
		if (b == 0 || (t == VT_S32 && sa == INT32_MIN && sb == -1)) {
			*fault = F_DIVZERO;
			return 0;
		}
		if (t == VT_S32)
			return (uint32_t)(op == OP_DIV ? sa / sb : sa % sb);
		return op == OP_DIV ? a / b : a % b;
	case OP_AND: return a & b;
	case OP_OR: return a | b;
	case OP_XOR: return a ^ b;
	case OP_NOT: return t == VT_PRED ? !a : ~a;
	/* PTX clamps shift amounts above 31 */
	case OP_SHL: return b > 31 ? 0 : a << b;
	case OP_SHR:
		if (t == VT_S32)
			return (uint32_t)(sa >> (b > 31 ? 31 : b));
		return b > 31 ? 0 : a >> b;
	case OP_MIN: return t == VT_S32 ? (uint32_t)(sa < sb ? sa : sb) : (a < b ? a : b);
	case OP_MAX: return t == VT_S32 ? (uint32_t)(sa > sb ? sa : sb) : (a > b ? a : b);
	case OP_NEG: return 0u - a; /* -INT_MIN wraps to itself, as in PTX (no signed overflow) */
	case OP_SELP: return c ? a : b;
	default: return 0;
	}
}

uint32_t alu_op(enum opcode op, enum vtype t, uint32_t a, uint32_t b, uint32_t c, int *fault)
{
	return op_inline(op, t, a, b, c, fault);
}

uint32_t alu_cvt(enum vtype dst, enum vtype src, uint32_t v, int round_nearest)
{
	if (dst == src || (dst != VT_F32 && src != VT_F32))
		return v;
	if (dst == VT_F32)
		return bits(src == VT_S32 ? (float)(int32_t)v : (float)v);
	/* float to integer: truncate (.rzi) or round to nearest even (.rni),
	** saturating as PTX does; NaN gives 0 */
	float x = f(v);
	if (isnan(x))
		return 0;
	double r = round_nearest ? nearbyint((double)x) : trunc((double)x);
	if (dst == VT_S32) {
		if (r < -2147483648.0)
			return 0x80000000u;
		if (r > 2147483647.0)
			return 0x7fffffffu;
		return (uint32_t)(int32_t)r;
	}
	if (r < 0)
		return 0;
	if (r > 4294967295.0)
		return 0xffffffffu;
	return (uint32_t)r;
}

static inline __attribute__((always_inline)) int cmp_inline(enum cmp_op c, enum vtype t, uint32_t a, uint32_t b)
{
	/* order: -1, 0, 1, or 2 when unordered (a NaN: only != holds) */
	int o;
	if (t == VT_F32) {
		float x = f(a), y = f(b);
		o = x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
	} else if (t == VT_S32) {
		o = (int32_t)a < (int32_t)b ? -1 : (int32_t)a > (int32_t)b;
	} else {
		o = a < b ? -1 : a > b;
	}
	switch (c) {
	case C_EQ: return o == 0;
	case C_NE: return o != 0;
	case C_LT: return o == -1;
	case C_LE: return o == -1 || o == 0;
	case C_GT: return o == 1;
	case C_GE: return o == 1 || o == 0;
	}
	return 0;
}

int alu_cmp(enum cmp_op c, enum vtype t, uint32_t a, uint32_t b)
{
	return cmp_inline(c, t, a, b);
}

/* {=== A register instruction in all lanes of a warp ==================== */

/* Lanes a source is read in: its register row where it has one, zeros
** for an absent one, else its values for lanes 0..n-1 written to tmp
** (room for 32).  Inline: three per ALU issue. */
static const uint32_t zero[32]; /* an absent source's lanes */

static inline __attribute__((always_inline)) const uint32_t *lane_values(const struct alu_lanes *x, unsigned n, uint32_t *tmp)
{
	if (x->r && !x->base)
		return x->r;
	if (x->r) {
		for (unsigned l = 0; l < n; l++)
			tmp[l] = x->base + x->r[l];
	} else if (x->step) {
		for (unsigned l = 0; l < n; l++)
			tmp[l] = x->base + x->step * l;
	} else if (x->base) { /* an immediate: all 32 lanes, a count the compiler vectorises */
		for (unsigned l = 0; l < 32; l++)
			tmp[l] = x->base;
	} else {
		return zero;
	}
	return tmp;
}

/* One loop per (op, type) below: called with constants, op_inline's
** tests fold away and the loop body is the operation alone.  Lanes
** 0..n-1 all active (the common case) take a plain loop the compiler may
** vectorise (no fault to stop at there: the fast ops have none). */
static inline __attribute__((always_inline)) int op_lanes(enum opcode op, enum vtype t, uint32_t m, unsigned n,
                                                         const uint32_t *a, const uint32_t *b, unsigned bs,
                                                         const uint32_t *c, uint32_t *dst)
{
	int f = 0;
	if (m == 0xffffffffu) {
		/* a whole warp: a fixed count the compiler vectorises, four
		** lanes into a result of their own, then stored (dst may be a
		** source: then the same row, each four read before written) */
		for (unsigned l = 0; l < 32; l += 4) {
			uint32_t r[4];
			for (unsigned k = 0; k < 4; k++)
				r[k] = op_inline(op, t, a[l + k], b[(l + k) * bs], c[l + k], &f);
			memcpy(dst + l, r, sizeof r);
		}
		return f;
	}
	if (m == 0xffffffffu >> (32 - n)) {
		for (unsigned l = 0; l < n; l++)
			dst[l] = op_inline(op, t, a[l], b[l * bs], c[l], &f);
		return f;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		dst[l] = op_inline(op, t, a[l], b[l * bs], c[l], &f);
	}
	return f;
}

/* op_lanes with b uniform across the lanes (bs 0: an immediate, read
** once) or not (bs 1): each a loop of its own. */
static inline __attribute__((always_inline)) int op_lanes_b(enum opcode op, enum vtype t, uint32_t m, unsigned n,
                                                           const uint32_t *a, const uint32_t *b, unsigned bs,
                                                           const uint32_t *c, uint32_t *dst)
{
	return bs ? op_lanes(op, t, m, n, a, b, 1, c, dst) : op_lanes(op, t, m, n, a, b, 0, c, dst);
}

/* A whole warp's f32 mad where the CPU fuses: its fma instruction is
** fmaf (one rounding) on 8 lanes at once, where a call per lane to the
** library's fmaf cost half of conv's ALU time.  x86-64 only, chosen at
** run time (mad_fused). */
#if defined(__x86_64__) && defined(__GNUC__)
static inline __attribute__((always_inline)) void mad_lanes(const uint32_t *a, const uint32_t *b, unsigned bs,
                                                          const uint32_t *c, uint32_t *dst)
{
	uint32_t r[32]; /* dst may be a source */
	for (unsigned l = 0; l < 32; l++)
		r[l] = nan_canonical(__builtin_fmaf(f(a[l]), f(b[l * bs]), f(c[l])));
	memcpy(dst, r, sizeof r);
}

static __attribute__((target("fma"))) void mad_fused(const uint32_t *a, const uint32_t *b, unsigned bs,
                                                     const uint32_t *c, uint32_t *dst)
{
	if (bs)
		mad_lanes(a, b, 1, c, dst);
	else
		mad_lanes(a, b, 0, c, dst);
}
#define MAD_FUSED(m, t) ((m) == 0xffffffffu && (t) == VT_F32 && __builtin_cpu_supports("fma"))
#else
#define MAD_FUSED(m, t) 0
#define mad_fused(a, b, bs, c, dst) ((void)0)
#endif

/* A comparison with cmp and t constants: lanes 0..n-1 all active take a
** plain loop, as op_lanes, a whole warp one of a fixed count the
** compiler vectorises (four lanes at a time, as op_lanes). */
static inline __attribute__((always_inline)) void cmp_loop(enum cmp_op cmp, enum vtype t, uint32_t m, unsigned n,
                                                          const uint32_t *a, const uint32_t *b, unsigned bs,
                                                          uint32_t *dst)
{
	if (m == 0xffffffffu) {
		for (unsigned l = 0; l < 32; l += 4) {
			uint32_t r[4];
			for (unsigned k = 0; k < 4; k++)
				r[k] = (uint32_t)cmp_inline(cmp, t, a[l + k], b[(l + k) * bs]);
			memcpy(dst + l, r, sizeof r);
		}
		return;
	}
	if (m == 0xffffffffu >> (32 - n)) {
		for (unsigned l = 0; l < n; l++)
			dst[l] = (uint32_t)cmp_inline(cmp, t, a[l], b[l * bs]);
		return;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		dst[l] = (uint32_t)cmp_inline(cmp, t, a[l], b[l * bs]);
	}
}

/* The comparison chosen once, not per lane (b uniform or not, as
** op_lanes_b). */
static inline __attribute__((always_inline)) int cmp_lanes(enum cmp_op cmp, enum vtype t, uint32_t m, unsigned n,
                                                          const uint32_t *a, const uint32_t *b, unsigned bs,
                                                          uint32_t *dst)
{
	switch (cmp) {
#define CMP_CASE(k) \
	case k: bs ? cmp_loop(k, t, m, n, a, b, 1, dst) : cmp_loop(k, t, m, n, a, b, 0, dst); break;
	CMP_CASE(C_EQ)
	CMP_CASE(C_NE)
	CMP_CASE(C_LT)
	CMP_CASE(C_LE)
	CMP_CASE(C_GT)
	CMP_CASE(C_GE)
#undef CMP_CASE
	}
	return 0;
}

/* shr (not .s32) in its loops.  Out of line: inlined, they changed how
** the compiler laid out the other loops (shl's, in specs/baseline/barrier.gpu). */
static __attribute__((noinline)) int shr_lanes(uint32_t m, unsigned n, const uint32_t *a, const uint32_t *b,
                                               unsigned bs, const uint32_t *c, uint32_t *dst)
{
	return op_lanes_b(OP_SHR, VT_U32, m, n, a, b, bs, c, dst);
}

/* alu_lanes_exec of m (not empty) once its sources are lanes: a and c
** (lanes 0..n-1 at least), b too where bs is 1, else b's one value.
** Inline in alu_lanes_exec and alu_lanes_rows: out of line, the call
** cost exhaustive mode's small warps more than the rows saved. */
static inline __attribute__((always_inline)) int lanes_exec(const struct instr *in, uint32_t m, const uint32_t *a, const uint32_t *b,
                                                unsigned bs, const uint32_t *c, uint32_t *dst)
{
	unsigned n = 32u - (unsigned)__builtin_clz(m);
	/* integer add .. shl read their type only to tell f32 apart (not:
	** .pred is logical, so it stays on the general path) */
	enum vtype t = in->type == VT_F32 ? VT_F32 : VT_U32;
	switch (in->op) {
#define OP_CASE(o) \
	case o: return t == VT_F32 ? op_lanes_b(o, VT_F32, m, n, a, b, bs, c, dst) : op_lanes_b(o, VT_U32, m, n, a, b, bs, c, dst);
	OP_CASE(OP_ADD)
	OP_CASE(OP_SUB)
	OP_CASE(OP_MUL)
	case OP_MAD:
		if (MAD_FUSED(m, t)) {
			mad_fused(a, b, bs, c, dst);
			return 0;
		}
		return t == VT_F32 ? op_lanes_b(OP_MAD, VT_F32, m, n, a, b, bs, c, dst) : op_lanes_b(OP_MAD, VT_U32, m, n, a, b, bs, c, dst);
	OP_CASE(OP_MOV)
	OP_CASE(OP_AND)
	OP_CASE(OP_OR)
	OP_CASE(OP_XOR)
#undef OP_CASE
	case OP_SHL:
		if (t == VT_U32)
			return op_lanes_b(OP_SHL, VT_U32, m, n, a, b, bs, c, dst);
		break;
	case OP_SHR: /* not .s32, which shifts the sign in */
		if (t == VT_U32 && in->type != VT_S32)
			return shr_lanes(m, n, a, b, bs, c, dst);
		break;
	case OP_SETP:
		switch (in->type) {
		case VT_U32: return cmp_lanes(in->cmp, VT_U32, m, n, a, b, bs, dst);
		case VT_S32: return cmp_lanes(in->cmp, VT_S32, m, n, a, b, bs, dst);
		case VT_F32: return cmp_lanes(in->cmp, VT_F32, m, n, a, b, bs, dst);
		default: break;
		}
		break;
	default:
		break;
	}
	for (; m; m &= m - 1) { /* the rest: lane by lane */
		unsigned l = (unsigned)__builtin_ctz(m);
		int f = 0;
		uint32_t v = alu_exec(in, a[l], b[l * bs], c[l], &f);
		if (f)
			return f;
		dst[l] = v;
	}
	return 0;
}

int alu_lanes_exec(const struct instr *in, uint32_t m, const struct alu_lanes src[3], uint32_t *dst)
{
	if (!m)
		return 0;
	unsigned n = 32u - (unsigned)__builtin_clz(m);
	uint32_t tmp[3][32];
	/* b uniform (an immediate, mostly): its one value, not 32 copies,
	** where a loop is specialised for it (bs 0) */
	unsigned bs = src[1].r || src[1].step;
	const uint32_t *a = lane_values(&src[0], n, tmp[0]), *b = bs ? lane_values(&src[1], n, tmp[1]) : &src[1].base,
	               *c = lane_values(&src[2], n, tmp[2]);
	return lanes_exec(in, m, a, b, bs, c, dst);
}

/* Source lanes from a row (row >= 0) of regs or a uniform value. */
static inline __attribute__((always_inline)) const uint32_t *row_values(const uint32_t *regs, int32_t row, uint32_t base,
                                                                       uint32_t *tmp)
{
	if (row >= 0)
		return regs + row;
	if (!base)
		return zero;
	for (unsigned l = 0; l < 32; l++) /* all 32 lanes, a count the compiler vectorises */
		tmp[l] = base;
	return tmp;
}

int alu_lanes_rows(const struct instr *in, uint32_t m, const uint32_t *regs, const int32_t row[3], const uint32_t base[3],
                   uint32_t *dst)
{
	if (!m)
		return 0;
	uint32_t tmp[2][32];
	unsigned bs = row[1] >= 0;
	return lanes_exec(in, m, row_values(regs, row[0], base[0], tmp[0]), bs ? regs + row[1] : &base[1], bs,
	                  row_values(regs, row[2], base[2], tmp[1]), dst);
}

/* }=== */

uint32_t alu_atomic(enum atom_op op, enum vtype t, uint32_t old, uint32_t b, uint32_t c)
{
	int fault = 0;
	switch (op) { /* op_inline with op constant: one per performed lane */
	case AT_ADD: return op_inline(OP_ADD, t, old, b, 0, &fault);
	case AT_MIN: return op_inline(OP_MIN, t, old, b, 0, &fault);
	case AT_MAX: return op_inline(OP_MAX, t, old, b, 0, &fault);
	case AT_EXCH: return b;
	case AT_CAS: return old == b ? c : old;
	case AT_INC: return old >= b ? 0 : old + 1; /* PTX: ((old >= b) ? 0 : old+1) */
	case AT_DEC: return (old == 0 || old > b) ? b : old - 1;
	case AT_AND: return old & b;
	case AT_OR: return old | b;
	case AT_XOR: return old ^ b;
	}
	return old;
}
