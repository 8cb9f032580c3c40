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
** for an absent one, else its values for lanes 0..n-1 at least written
** to tmp (room for 32).  Inline: three per ALU issue. */
static const uint32_t zero[32]; /* an absent source's lanes */

static inline __attribute__((always_inline)) const uint32_t *lane_values(const struct alu_lanes *x, unsigned n, uint32_t *tmp)
{
	if (x->r && !x->base)
		return x->r;
	if (x->r) {
		for (unsigned l = 0; l < n; l++)
			tmp[l] = x->base + x->r[l];
	} else if (x->step) { /* all 32 lanes, four at a time */
		lanes4 v = x->base + (lanes4){ 0, 1, 2, 3 } * x->step;
		for (unsigned l = 0; l < 32; l += 4, v += 4 * x->step)
			memcpy(tmp + l, &v, sizeof v);
	} else if (x->base) { /* an immediate: all 32 lanes, a count the compiler vectorises */
		for (unsigned l = 0; l < 32; l++)
			tmp[l] = x->base;
	} else {
		return zero;
	}
	return tmp;
}

/* Lane l of b: its own (bs 1) or b's one value b0, read once (bs 0: dst,
** a register row, is not b, which the stores would make it read again). */
#define B(l) (bs ? b[l] : b0)

/* One loop per (op, type) below: called with constants, op_inline's
** tests fold away and the loop body is the operation alone.  Lanes
** 0..n-1 all active (the common case) take a plain loop the compiler may
** vectorise (no fault to stop at there: the fast ops have none). */
static inline __attribute__((always_inline)) int op_lanes(enum opcode op, enum vtype t, uint32_t m, const uint32_t *a,
                                                         const uint32_t *b, unsigned bs, const uint32_t *c,
                                                         uint32_t *dst)
{
	int f = 0;
	const uint32_t b0 = bs ? 0 : b[0];
	if (m == 0xffffffffu) {
		/* a whole warp: a fixed count the compiler vectorises, four
		** lanes into a result of their own, then stored (dst may be a
		** source: then the same row, each four read before written) */
		for (unsigned l = 0; l < 32; l += 4) {
			uint32_t r[4];
			for (unsigned k = 0; k < 4; k++)
				r[k] = op_inline(op, t, a[l + k], B(l + k), c[l + k], &f);
			memcpy(dst + l, r, sizeof r);
		}
		return f;
	}
	if (m && !(m & (m + 1))) { /* lanes 0..n-1 */
		for (unsigned l = 0, n = 32u - (unsigned)__builtin_clz(m); l < n; l++)
			dst[l] = op_inline(op, t, a[l], B(l), c[l], &f);
		return f;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		dst[l] = op_inline(op, t, a[l], B(l), c[l], &f);
	}
	return f;
}

/* A comparison with cmp and t constants: as op_lanes. */
static inline __attribute__((always_inline)) int cmp_lanes(enum cmp_op cmp, enum vtype t, uint32_t m,
                                                          const uint32_t *a, const uint32_t *b, unsigned bs,
                                                          uint32_t *dst)
{
	const uint32_t b0 = bs ? 0 : b[0];
	if (m == 0xffffffffu) {
		for (unsigned l = 0; l < 32; l += 4) {
			uint32_t r[4];
			for (unsigned k = 0; k < 4; k++)
				r[k] = (uint32_t)cmp_inline(cmp, t, a[l + k], B(l + k));
			memcpy(dst + l, r, sizeof r);
		}
		return 0;
	}
	if (m && !(m & (m + 1))) {
		for (unsigned l = 0, n = 32u - (unsigned)__builtin_clz(m); l < n; l++)
			dst[l] = (uint32_t)cmp_inline(cmp, t, a[l], B(l));
		return 0;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		dst[l] = (uint32_t)cmp_inline(cmp, t, a[l], B(l));
	}
	return 0;
}

/* The rest (cvt, div, rem, min, max, ...): alu_exec lane by lane, up to
** the first fault. */
static inline __attribute__((always_inline)) int any_lanes(const struct instr *in, uint32_t m, const uint32_t *a,
                                                          const uint32_t *b, unsigned bs, const uint32_t *c,
                                                          uint32_t *dst)
{
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		int f = 0;
		uint32_t v = alu_exec(in, a[l], b[l * bs], c[l], &f);
		if (f)
			return f;
		dst[l] = v;
	}
	return 0;
}

/* The kernels (alu_kernel), two per loop: b in lanes (_1) or uniform,
** its one value read once (_0: an immediate, mostly). */
#define KERNEL_BS(attr, name, b_lanes, body)                                                                        \
	static attr int name(const struct instr *in, uint32_t m, const uint32_t *a, const uint32_t *b, const uint32_t *c, \
	                     uint32_t *dst)                                                                             \
	{                                                                                                               \
		const unsigned bs = b_lanes;                                                                                \
		(void)in, (void)c;                                                                                          \
		return body;                                                                                                \
	}
#define KERNEL_AS(attr, name, body) KERNEL_BS(attr, name##_1, 1, body) KERNEL_BS(attr, name##_0, 0, body)
#define KERNEL(name, body) KERNEL_AS(, name, body)
/* integer add .. shl read their type only to tell f32 apart (not: .pred
** is logical, so it takes any_lanes) */
#define OP_KERNELS(o)                                                        \
	KERNEL(k_##o##_u, op_lanes(o, VT_U32, m, a, b, bs, c, dst))           \
	KERNEL(k_##o##_f, op_lanes(o, VT_F32, m, a, b, bs, c, dst))
OP_KERNELS(OP_ADD)
OP_KERNELS(OP_SUB)
OP_KERNELS(OP_MUL)
OP_KERNELS(OP_MAD)
OP_KERNELS(OP_MOV)
OP_KERNELS(OP_AND)
OP_KERNELS(OP_OR)
OP_KERNELS(OP_XOR)
KERNEL(k_OP_SHL_u, op_lanes(OP_SHL, VT_U32, m, a, b, bs, c, dst))
KERNEL(k_OP_SHR_u, op_lanes(OP_SHR, VT_U32, m, a, b, bs, c, dst)) /* not .s32, which shifts the sign in */
#define CMP_KERNELS(k)                                                \
	KERNEL(k_##k##_u, cmp_lanes(k, VT_U32, m, a, b, bs, dst))      \
	KERNEL(k_##k##_s, cmp_lanes(k, VT_S32, m, a, b, bs, dst))      \
	KERNEL(k_##k##_f, cmp_lanes(k, VT_F32, m, a, b, bs, dst))
CMP_KERNELS(C_EQ)
CMP_KERNELS(C_NE)
CMP_KERNELS(C_LT)
CMP_KERNELS(C_LE)
CMP_KERNELS(C_GT)
CMP_KERNELS(C_GE)
KERNEL(k_any, any_lanes(in, m, a, b, bs, c, dst))

/* A whole warp's f32 mad where the CPU fuses: its fma instruction is
** fmaf (one rounding) on 8 lanes at once, where a call per lane to the
** library's fmaf cost half of conv's ALU time.  x86-64 only, chosen
** once (alu_kernel_of). */
#if defined(__x86_64__) && defined(__GNUC__)
static inline __attribute__((always_inline)) int mad_lanes(uint32_t m, const uint32_t *a, const uint32_t *b,
                                                          unsigned bs, const uint32_t *c, uint32_t *dst)
{
	if (m != 0xffffffffu)
		return op_lanes(OP_MAD, VT_F32, m, a, b, bs, c, dst);
	uint32_t r[32]; /* dst may be a source */
	for (unsigned l = 0; l < 32; l++)
		r[l] = nan_canonical(__builtin_fmaf(f(a[l]), f(b[l * bs]), f(c[l])));
	memcpy(dst, r, sizeof r);
	return 0;
}
KERNEL_AS(__attribute__((target("fma"))), k_mad_fused, mad_lanes(m, a, b, bs, c, dst))
#define MAD_FUSED() __builtin_cpu_supports("fma")
#else
#define MAD_FUSED() 0
#define k_mad_fused_1 k_OP_MAD_f_1
#define k_mad_fused_0 k_OP_MAD_f_0
#endif

alu_kernel alu_kernel_of(const struct instr *in, int b_uniform)
{
#define PICK(name) return b_uniform ? name##_0 : name##_1
#define OP_CASE(o) \
	case o: if (f32) PICK(k_##o##_f); PICK(k_##o##_u);
#define CMP_CASE(k) \
	case k: if (in->type == VT_F32) PICK(k_##k##_f); if (in->type == VT_S32) PICK(k_##k##_s); PICK(k_##k##_u);
	int f32 = in->type == VT_F32;
	switch (in->op) {
	OP_CASE(OP_ADD)
	OP_CASE(OP_SUB)
	OP_CASE(OP_MUL)
	OP_CASE(OP_MOV)
	OP_CASE(OP_AND)
	OP_CASE(OP_OR)
	OP_CASE(OP_XOR)
	case OP_MAD:
		if (f32 && MAD_FUSED())
			PICK(k_mad_fused);
		if (f32)
			PICK(k_OP_MAD_f);
		PICK(k_OP_MAD_u);
	case OP_SHL:
		if (!f32)
			PICK(k_OP_SHL_u);
		break;
	case OP_SHR:
		if (!f32 && in->type != VT_S32)
			PICK(k_OP_SHR_u);
		break;
	case OP_SETP:
		if (in->type != VT_U32 && in->type != VT_S32 && in->type != VT_F32)
			break;
		switch (in->cmp) {
		CMP_CASE(C_EQ)
		CMP_CASE(C_NE)
		CMP_CASE(C_LT)
		CMP_CASE(C_LE)
		CMP_CASE(C_GT)
		CMP_CASE(C_GE)
		}
		break;
	default:
		break;
	}
	PICK(k_any);
#undef PICK
#undef OP_CASE
#undef CMP_CASE
}

int alu_lanes_exec(const struct instr *in, uint32_t m, const struct alu_lanes src[3], uint32_t *dst)
{
	if (!m)
		return 0;
	unsigned n = 32u - (unsigned)__builtin_clz(m);
	uint32_t tmp[3][32];
	/* b uniform (an immediate, mostly): its one value, not 32 copies */
	unsigned bs = src[1].r || src[1].step;
	const uint32_t *a = lane_values(&src[0], n, tmp[0]), *b = bs ? lane_values(&src[1], n, tmp[1]) : &src[1].base,
	               *c = lane_values(&src[2], n, tmp[2]);
	return alu_kernel_of(in, !bs)(in, m, a, b, c, dst);
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
