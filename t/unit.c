/*
** Unit tests (TAP) for the pieces under the explorer: visited sets, side
** sets, the fp32 ALU, IPDOM analysis and trace files.
*/
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machines/alu.h"
#include "spec/spec.h"
#include "state/hash.h"
#include "state/sideset.h"
#include "state/slots.h"
#include "state/trace.h"
#include "state/visited.h"
#include "util/fastdiv.h"
#include "util/strbuf.h"

static int ntest, nfail;

static void ok(int cond, const char *what)
{
	ntest++;
	if (!cond)
		nfail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", ntest, what);
}

/* Vectors derived from a counter, with deliberate collisions of the high
** hash half impossible to arrange, so also a brute-force check. */
static void vec(uint8_t *v, size_t n, uint64_t i)
{
	memset(v, 0, n);
	memcpy(v, &i, sizeof i < n ? sizeof i : n);
	v[n - 1] = (uint8_t)(i * 7);
}

static void test_visited(enum vs_mode mode)
{
	const size_t n = 20;
	const uint64_t N = 300000;
	const int compact = mode == VS_COMPACT;
	const char *name = compact ? "compact" : mode == VS_TREE ? "tree" : "exact";
	struct visited *v = vs_new(n, mode);
	uint8_t buf[20];
	int is_new, all_new = 1, all_old = 1, numbers_ok = 1;
	for (uint64_t i = 0; i < N; i++) {
		vec(buf, n, i);
		uint32_t k = vs_find_or_put(v, buf, state_hash(buf, n), &is_new);
		all_new &= is_new;
		numbers_ok &= k == i;
	}
	for (uint64_t i = 0; i < N; i += 7) {
		vec(buf, n, i);
		uint32_t k = vs_find_or_put(v, buf, state_hash(buf, n), &is_new);
		all_old &= !is_new;
		if (!compact)
			numbers_ok &= k == i;
	}
	char msg[128];
	snprintf(msg, sizeof msg, "%s visited set: %llu distinct insertions are new", name, (unsigned long long)N);
	ok(all_new && vs_count(v) == N, msg);
	snprintf(msg, sizeof msg, "%s visited set: re-insertions are found, numbers stable", name);
	ok(all_old && numbers_ok, msg);
	if (!compact) {
		/* every state decodes to what was put (the tree: whichever
		** state it built or decoded last) */
		int same = 1;
		for (uint64_t i = 0; i < N; i += 997) {
			vec(buf, n, (i * 7919) % N);
			same &= memcmp(vs_state(v, (uint32_t)((i * 7919) % N)), buf, n) == 0;
			same &= vs_find(v, buf, state_hash(buf, n)) == (uint32_t)((i * 7919) % N);
		}
		vec(buf, n, N + 1);
		same &= vs_find(v, buf, state_hash(buf, n)) == UINT32_MAX;
		snprintf(msg, sizeof msg, "%s visited set returns stored vectors, finds them, not others", name);
		ok(same, msg);
		ok(vs_omission(v) == 0, "exact mode has no omission probability");
		/* raw records (vectors under 1 KB) lie at fixed places: the
		** vector, its hash (8 + chunk rounding) and the table (14 at
		** this load): ~43 bytes a state, no 8-byte record address */
		if (mode == VS_EXACT)
			ok((double)vs_bytes(v) / (double)N <= (double)n + 24,
			   "exact raw records: no record address kept (<= n + 24 bytes/state)");
	} else {
		double p = vs_omission(v);
		ok(p > 0 && p < 1e-8, "compact mode reports its omission bound n^2/2^65");
		ok((double)vs_bytes(v) / (double)N <= 16.0, "compact mode stores at most 16 bytes/state here");
	}
	vs_free(v);
}

/* Compressed records (vectors of 1 KB and more, visited.c): sizes with a
** partial last word and a partial last bitmap byte; groups of eight
** words all zero, all non-zero and mixed, so that encode's zero-group
** skip and decode's bit walk meet every case.  Each vector is new once,
** found again, decoded back; a vector one bit away is absent. */
static void test_compressed_records(void)
{
	static const size_t sizes[] = { 1024, 1029, 1100, 1157 };
	int good = 1;
	uint64_t r = 88172645463325252ull;
	for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
		size_t n = sizes[z];
		enum { N = 400 };
		uint8_t *st = xcalloc(N, n);
		struct visited *v = vs_new(n, VS_EXACT);
		int is_new;
		for (unsigned i = 0; i < N; i++) {
			uint8_t *s = st + (size_t)i * n;
			for (size_t w = 0; w * 8 < n; w++) {
				r ^= r << 13, r ^= r >> 7, r ^= r << 17; /* xorshift64 */
				unsigned kind = (unsigned)(w / 8 + i) % 3; /* the group: zero, full, mixed */
				uint64_t x = kind == 0 ? 0 : kind == 1 ? r | 1 : (r & 1 ? r : 0);
				memcpy(s + 8 * w, &x, n - 8 * w < 8 ? n - 8 * w : 8);
			}
			memcpy(s, &i, sizeof i); /* distinct */
			good &= vs_find_or_put(v, s, state_hash(s, n), &is_new) == i && is_new;
		}
		for (unsigned i = 0; i < N; i++) {
			uint8_t *s = st + (size_t)i * n;
			good &= vs_find_or_put(v, s, state_hash(s, n), &is_new) == i && !is_new;
			good &= memcmp(vs_state(v, i), s, n) == 0;
			s[n - 1] ^= 0x80;
			good &= vs_find(v, s, state_hash(s, n)) == UINT32_MAX;
			s[n - 1] ^= 0x80;
		}
		vs_free(v);
		free(st);
	}
	ok(good, "compressed records at 1024-1157 bytes: zero, full and mixed word groups put, found, decoded back");
}

/* Shared mode's runs (visited.c, VS-3), at a raw and a compressed size:
** two locals put states in turn, each numbered from a run of its own; a
** settle gives the numbers the runs left to the highest states, so that
** the states are 0..n-1 again, each found at its new number with its
** vector and hash, the moves reported; twice (a level, then the next). */
static uint32_t *shared_num;
static uint64_t shared_n;

static void shared_moved(void *ctx, uint32_t from, uint32_t to)
{
	int *good = ctx;
	uint64_t i = 0;
	while (i < shared_n && shared_num[i] != from)
		i++;
	*good &= i < shared_n && to < from;
	if (i < shared_n)
		shared_num[i] = to;
}

static void test_shared_runs(size_t n)
{
	const uint64_t N = 1000;
	struct visited *v = vs_new(n, VS_EXACT);
	vs_share(v, 64);
	struct vs_local *l[2] = { vs_local_new(v), vs_local_new(v) };
	uint8_t *buf = xcalloc(1, n);
	shared_num = xcalloc(2 * N, sizeof *shared_num);
	int good = 1, is_new;
	for (shared_n = 0; shared_n < 2 * N;) {
		uint64_t end = shared_n + N;
		for (uint64_t i = shared_n; i < end; i++) {
			vec(buf, n, i);
			shared_num[i] = vs_share_put(v, l[i % 3 == 0], buf, state_hash(buf, n), &is_new);
			good &= is_new;
			vs_share_publish(v, l[i % 3 == 0]);
		}
		shared_n = end;
		good &= vs_share_bound(v) > shared_n; /* runs left numbers */
		vs_share_settle(v, shared_moved, &good);
		good &= vs_count(v) == shared_n && vs_share_bound(v) == shared_n;
		for (uint64_t i = 0; i < shared_n; i++) {
			vec(buf, n, i);
			uint64_t h = state_hash(buf, n);
			good &= shared_num[i] < shared_n && vs_find(v, buf, h) == shared_num[i];
			good &= vs_hash(v, shared_num[i], buf) == h;
			good &= memcmp(vs_local_state(v, l[0], shared_num[i]), buf, n) == 0;
			good &= vs_share_put(v, l[1], buf, h, &is_new) == shared_num[i] && !is_new;
		}
	}
	vs_local_free(v, l[0]);
	vs_local_free(v, l[1]);
	vs_share(v, 0);
	vec(buf, n, 2 * N);
	good &= vs_find_or_put(v, buf, state_hash(buf, n), &is_new) == 2 * N && is_new;
	char msg[128];
	snprintf(msg, sizeof msg, "shared visited set (%zu-byte vectors): runs settled to numbers 0..n-1, states found", n);
	ok(good, msg);
	free(shared_num);
	free(buf);
	vs_free(v);
}

/* --tree at the vector sizes whose trees differ in shape: one word (the
** root is the word), up to five (the root is the leaves' numbers), more
** (the root is the first level of at most five entries: 3, 4 or 5 of
** them, one or two levels up), odd levels carried up; every state new
** once, found again, decoded back. */
static void test_tree_sizes(void)
{
	static const size_t sizes[] = { 1, 5, 8, 9, 16, 17, 24, 40, 41, 56, 72, 88, 200 };
	int good = 1;
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		const size_t n = sizes[s];
		const uint64_t N = n == 1 ? 256 : 5000;
		struct visited *v = vs_new(n, VS_TREE);
		uint8_t buf[200];
		int is_new;
		for (uint64_t i = 0; i < N; i++) {
			vec(buf, n, i);
			good &= vs_find_or_put(v, buf, 0, &is_new) == i && is_new;
		}
		for (uint64_t i = 0; i < N; i += 3) {
			uint64_t k = (i * 7919) % N;
			vec(buf, n, k);
			good &= memcmp(vs_state(v, (uint32_t)k), buf, n) == 0;
			good &= vs_find_or_put(v, buf, 0, &is_new) == k && !is_new;
			good &= vs_find(v, buf, 0) == k;
		}
		good &= vs_count(v) == N;
		vs_free(v);
	}
	ok(good, "tree visited set at 1 to 200 bytes: states new once, found, decoded back");
}

/* --tree's incremental build and decode (tree.c, TREE-3): successors
** that differ from a decoded or last-put state in a few words, lookups of
** absent states in between (a failed build undoes what it wrote), states
** decoded back in any order; the numbers are checked against a list. */
static void test_tree_incremental(void)
{
	enum { N = 3000, SZ = 203 }; /* 26 words, the last one partial */
	static uint8_t st[N][SZ];
	uint64_t x = 88172645463325252ull;
	int good = 1;
	for (int mode = 0; mode < 2; mode++) { /* 0: BFS-like (decode), 1: DFS-like (put only) */
		struct visited *v = vs_new(SZ, VS_TREE);
		uint32_t n = 0;
		int is_new;
		memset(st[0], 0, SZ);
		good &= vs_find_or_put(v, st[0], 0, &is_new) == 0 && is_new;
		n = 1;
		uint8_t buf[SZ];
		while (n < N) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint32_t from = mode ? n - 1 - (uint32_t)(x % (n < 4 ? n : 4)) : (uint32_t)(x % n);
			if (!mode)
				good &= memcmp(vs_state(v, from), st[from], SZ) == 0;
			memcpy(buf, st[from], SZ);
			for (unsigned k = 0; k < 1 + x % 3; k++) /* a few words change */
				buf[(x >> (8 + 8 * k)) % SZ] ^= (uint8_t)(1 + (x >> (32 + k)) % 255);
			uint32_t want = n;
			for (uint32_t i = 0; i < n; i++)
				if (!memcmp(st[i], buf, SZ)) {
					want = i;
					break;
				}
			buf[SZ - 1] ^= 0x80; /* an absent neighbour first: not found, nothing kept */
			int absent = want == n;
			for (uint32_t i = 0; i < n && absent; i++)
				absent = memcmp(st[i], buf, SZ) != 0;
			if (absent)
				good &= vs_find(v, buf, 0) == UINT32_MAX;
			buf[SZ - 1] ^= 0x80;
			good &= vs_find_or_put(v, buf, 0, &is_new) == want && is_new == (want == n);
			if (want == n)
				memcpy(st[n++], buf, SZ);
		}
		for (uint32_t i = 0; i < N; i += 7)
			good &= memcmp(vs_state(v, (N - 1 - i) * 13 % N), st[(N - 1 - i) * 13 % N], SZ) == 0;
		vs_free(v);
	}
	ok(good, "tree visited set: successors of decoded and put states, absent look-ups, decoded back");
}

static void test_exact_collisions(void)
{
	/* the same hash for different vectors must not merge them in exact mode */
	struct visited *v = vs_new(8, 0);
	uint8_t a[8] = { 1 }, b[8] = { 2 };
	int na, nb;
	uint32_t ka = vs_find_or_put(v, a, 42, &na);
	uint32_t kb = vs_find_or_put(v, b, 42, &nb);
	ok(na && nb && ka != kb && vs_count(v) == 2, "exact mode keeps states whose hashes collide");
	vs_free(v);
}

static void test_sideset(void)
{
	struct sideset *s = ss_new();
	int is_new;
	uint32_t k1[3] = { 1, 2, 3 }, k2[3] = { 1, 2, 4 };
	*ss_put(s, k1, sizeof k1, &is_new) = 7;
	int first = is_new;
	uintptr_t *v = ss_put(s, k1, sizeof k1, &is_new);
	ok(first && !is_new && *v == 7, "side set finds a key again with its value");
	ss_put(s, k2, sizeof k2, &is_new);
	ok(is_new && ss_count(s) == 2, "side set tells different keys apart");
	ss_free(s);
}

static uint32_t fb(float x)
{
	uint32_t b;
	memcpy(&b, &x, 4);
	return b;
}

static void test_alu(void)
{
	int fault = 0;
	uint32_t big = fb(1e8f), one = fb(1.0f);
	uint32_t r = alu_op(OP_ADD, VT_F32, big, one, 0, &fault);
	ok(r == big, "fp32: 1e8 + 1 rounds to 1e8 (binary32, round to nearest even)");
	uint32_t r2 = alu_op(OP_ADD, VT_F32, fb(0.1f), fb(0.2f), 0, &fault);
	ok(r2 == 0x3e99999au, "fp32: 0.1f + 0.2f is 0x3e99999a bit-exactly");
	ok(alu_op(OP_MAD, VT_F32, fb(1.0f + 0x1p-12f), fb(1.0f - 0x1p-12f), fb(-1.0f), &fault) == fb(-0x1p-24f),
	   "fp32 mad is fused (one rounding)");
	alu_op(OP_DIV, VT_U32, 1, 0, 0, &fault);
	ok(fault != 0, "integer division by zero faults");
	ok(alu_atomic(AT_INC, VT_U32, 5, 5, 0) == 0 && alu_atomic(AT_INC, VT_U32, 4, 5, 0) == 5,
	   "atom.inc wraps at its operand like PTX");
	ok(alu_atomic(AT_CAS, VT_U32, 3, 3, 9) == 9 && alu_atomic(AT_CAS, VT_U32, 4, 3, 9) == 4, "atom.cas");
	ok(alu_cvt(VT_S32, VT_F32, fb(-2.5f), 0) == (uint32_t)-2 && alu_cvt(VT_S32, VT_F32, fb(-2.5f), 1) == (uint32_t)-2 &&
	   alu_cvt(VT_S32, VT_F32, fb(3.5f), 1) == 4, "cvt.rzi truncates, cvt.rni rounds half to even");
	ok(alu_cmp(C_LT, VT_S32, (uint32_t)-1, 0) && !alu_cmp(C_LT, VT_U32, (uint32_t)-1, 0), "signed vs unsigned compare");
	ok(alu_op(OP_NEG, VT_S32, 0x80000000u, 0, 0, &fault) == 0x80000000u, "neg.s32 of INT_MIN wraps (no signed overflow)");
	ok(alu_op(OP_ADD, VT_F32, 0x7fc00001u, 0xffc00002u, 0, &fault) == 0x7fffffffu &&
	   alu_op(OP_ADD, VT_F32, 0xffc00002u, 0x7fc00001u, 0, &fault) == 0x7fffffffu &&
	   alu_op(OP_NEG, VT_F32, 0x7fc00001u, 0, 0, &fault) == 0xffc00001u,
	   "fp32 NaN results are the canonical NaN whatever the operand order; neg flips the sign bit");
}

/* alu_lanes_exec (the warp's per-opcode loops over the active lanes),
** and alu_kernel_of's loop where every source is a row or a value (as
** the warps' decoded instructions call it), against
** alu_exec lane by lane, on random register instructions, masks,
** operand forms (a register row, possibly the destination's own; an
** immediate; base + lane; an address's base + row) and values that hit
** the edges (0, -1, INT_MIN, NaN, infinities, shifts above 31): the same
** registers and the same fault, lanes before a faulting one written. */
static void test_alu_lanes(void)
{
	static const uint32_t edge[] = { 0, 1, 2, 31, 32, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x7fc00000u,
		0x7f800000u, 0xff800000u, 0x3f800000u, 0xbf800000u, 0x80000000u, 0x00000001u };
	uint64_t x = 88172645463325252ull;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	int bad = 0, faults = 0, n_rows = 0;
	for (int i = 0; i < 20000 && !bad; i++) {
		struct instr in = { 0 };
		in.op = (enum opcode)(RND() % (OP_SELP + 1));
		in.type = (enum vtype)(RND() % 4);
		in.stype = (enum vtype)(RND() % 4);
		in.cmp = (enum cmp_op)(RND() % 6);
		uint32_t regs[4][32], ref[4][32], rows[4][32];
		for (int r = 0; r < 4; r++)
			for (int l = 0; l < 32; l++)
				regs[r][l] = RND() % 3 ? edge[RND() % (sizeof edge / sizeof *edge)] : (uint32_t)RND();
		memcpy(ref, regs, sizeof regs);
		memcpy(rows, regs, sizeof regs);
		struct alu_lanes src[3], rsrc[3];
		int32_t row_k[3]; /* the decoded form where every source is a row or a value (warp.c, pc_info) */
		uint32_t base_k[3];
		int by_rows = 1;
		for (int k = 0; k < 3; k++) {
			uint32_t base = RND() % 2 ? edge[RND() % (sizeof edge / sizeof *edge)] : (uint32_t)RND();
			int row = (int)(RND() % 4);
			row_k[k] = -1, base_k[k] = base;
			switch (RND() % 4) {
			case 0:
				src[k] = (struct alu_lanes){ regs[row], 0, 0 }, rsrc[k] = (struct alu_lanes){ ref[row], 0, 0 };
				row_k[k] = row * 32, base_k[k] = 0;
				break;
			case 1: src[k] = rsrc[k] = (struct alu_lanes){ NULL, base, 0 }; break;
			case 2: src[k] = rsrc[k] = (struct alu_lanes){ NULL, base, 1 }, by_rows = 0; break;
			default:
				src[k] = (struct alu_lanes){ regs[row], base, 0 }, rsrc[k] = (struct alu_lanes){ ref[row], base, 0 };
				by_rows = 0;
				break;
			}
		}
		uint32_t m = RND() % 3 ? (uint32_t)RND() : RND() % 2 ? 0xffffffffu : (uint32_t)RND() & 0xff;
		int dst = (int)(RND() % 4);
		int f = alu_lanes_exec(&in, m, src, regs[dst]), rf = 0;
		uint32_t val[3][32];
		const uint32_t *lanes[3];
		for (int k = 0; k < 3; k++) {
			for (int l = 0; l < 32; l++)
				val[k][l] = base_k[k];
			lanes[k] = row_k[k] >= 0 ? &rows[0][0] + row_k[k] : val[k];
		}
		int f_rows = by_rows ? alu_kernel_of(&in, row_k[1] < 0)(&in, m, lanes[0], lanes[1], lanes[2], rows[dst]) : 0;
		for (unsigned l = 0; l < 32 && !rf; l++) {
			if (!(m >> l & 1))
				continue;
			uint32_t v = alu_exec(&in, alu_lane(&rsrc[0], l), alu_lane(&rsrc[1], l), alu_lane(&rsrc[2], l), &rf);
			if (!rf)
				ref[dst][l] = v;
		}
		faults += rf != 0;
		if (f != rf || memcmp(regs, ref, sizeof regs)) {
			bad = 1;
			printf("# op %d type %d cmp %d mask 0x%x: fault %d vs %d\n", in.op, in.type, in.cmp, m, f, rf);
		}
		if (by_rows && (f_rows != rf || memcmp(rows, ref, sizeof rows))) {
			bad = 1;
			printf("# alu_kernel_of: op %d type %d cmp %d mask 0x%x: fault %d vs %d\n", in.op, in.type, in.cmp, m,
			       f_rows, rf);
		}
		n_rows += by_rows;
	}
#undef RND
	printf("# %d of them faulted; %d ran through alu_kernel_of's loops on rows too\n", faults, n_rows);
	ok(!bad && faults > 0 && n_rows > 0,
	   "alu_lanes_exec (and alu_kernel_of's loops, where its sources are rows or values) equals alu_exec lane by lane on 20000 random instructions");
}

static void test_ipdom(void)
{
	struct diag d;
	diag_init(&d);
	const char *src =
		"global .u32 x = 0\n"
		"kernel\n"
		" .reg .pred %p<1>\n"
		" .reg .u32 %r<1>\n"
		" setp.eq.u32 %p0, %tid, 0\n"  /* 0 */
		" @%p0 bra A\n"                /* 1 */
		" mov.u32 %r0, 1\n"            /* 2 */
		" bra B\n"                     /* 3 */
		"A: mov.u32 %r0, 2\n"          /* 4 */
		"B: st.global.u32 [x], %r0\n"  /* 5 */
		" @%p0 bra C\n"                /* 6: if-then without else */
		" mov.u32 %r0, 3\n"            /* 7 */
		"C: exit\n"                    /* 8 */
		"end\n";
	struct spec *s = spec_parse("unit.gpu", src, &d);
	ok(s != NULL, "spec parses");
	if (s) {
		ok(s->prog.ins[1].ipdom == 5, "if/else reconverges at the join (ipdom 5)");
		ok(s->prog.ins[6].ipdom == 8, "if/then reconverges at its target (ipdom 8)");
		ok(s->prog.ins[3].ipdom == 5, "unconditional branch's post-dominator is its target");
	}
	spec_free(s);
	diag_free(&d);
}

static void test_trace_file(void)
{
	struct trace_file tf, back;
	memset(&tf, 0, sizeof tf);
	uint16_t steps[3] = { 0, 2, 1 };
	char *text[3] = { "a", "b\tc", "" };
	char *defs[1] = { "sms=2" };
	tf.spec = "x.gpu";
	tf.hash = 0x1234abcdull;
	tf.defines = defs;
	tf.ndefines = 1;
	tf.verdict = "fail deadlock_free";
	tf.sched[0].len = 3;
	tf.sched[0].step = steps;
	tf.text[0] = text;
	tf.nsched = 1;
	char path[] = "/tmp/gpumc-unit-XXXXXX";
	int fd = mkstemp(path);
	struct strbuf err;
	sb_init(&err);
	if (fd >= 0)
		close(fd);
	int w = fd >= 0 && trace_write(path, &tf, &err) == 0;
	struct diag d;
	diag_init(&d);
	int r = w && trace_read(path, &back, &d) == 0;
	ok(r && back.nsched == 1 && back.sched[0].len == 3 && back.sched[0].step[1] == 2 &&
	   back.hash == tf.hash && !strcmp(back.defines[0], "sms=2") && !strcmp(back.text[0][1], "b\tc"),
	   "trace files round-trip");
	if (r)
		trace_file_free(&back);
	diag_free(&d);
	sb_free(&err);
	remove(path);
}

/* slots_double on clustered homes: value v's hash is v >> 8, so a table
** of 64 slots holds runs that wrap from the last slot to the first; after
** each doubling every value is in its slot count and reachable (no empty
** slot between its home and where it sits, SLOTS-1). */
static uint64_t high_hash(const void *ctx, uint64_t v)
{
	(void)ctx;
	return v >> 8;
}

static int probe_runs_whole(const uint32_t *t, uint64_t mask, uint64_t n)
{
	uint64_t seen = 0;
	for (uint64_t p = 0; p <= mask; p++) {
		if (!t[p])
			continue;
		seen++;
		for (uint64_t j = high_hash(NULL, t[p]) & mask; j != p; j = (j + 1) & mask)
			if (!t[j])
				return 0;
	}
	return seen == n;
}

static void test_slots_double(void)
{
	int good = 1, parted = 1;
	uint64_t rng = 88172645463325252ull;
	for (int round = 0; round < 2000 && good; round++) {
		uint64_t mask = 63, n = 0;
		uint32_t *t = xcalloc(mask + 1, sizeof *t);
		/* 3/4 load, homes in the last eighth or the first few slots
		** of whichever table size (a round in three: anywhere), and
		** the second-to-top bit random */
		while (n < 48) {
			rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
			uint64_t home = round % 3 == 2 ? rng % 64 : rng % 4 ? 56 + rng % 8 : rng % 4, v = (home | (rng >> 40 & 7) << 6) << 8 | 1;
			uint64_t j = high_hash(NULL, v) & mask;
			while (t[j])
				j = (j + 1) & mask;
			t[j] = (uint32_t)v;
			n++;
		}
		/* and in parts (SLOTS-2), done in a rotated order: the same table */
		uint32_t *u = xmalloc((mask + 1) * sizeof *u);
		memcpy(u, t, (mask + 1) * sizeof *u);
		unsigned nparts = 1 + (unsigned)round % 9, rot = (unsigned)(rng >> 20) % nparts;
		uint64_t bound[9];
		for (int d = 0; d < 3 && good; d++) {
			void *x = t;
			slots_double_begin(&x, sizeof *t, mask, nparts, bound);
			for (unsigned i = 0; i < nparts; i++)
				slots_double_part(x, sizeof *t, mask, (i + rot) % nparts, nparts, bound, high_hash, NULL);
			t = x;
			x = u;
			slots_double(&x, sizeof *u, &mask, high_hash, NULL);
			u = x;
			good &= probe_runs_whole(u, mask, n);
			parted &= !memcmp(t, u, (mask + 1) * sizeof *t);
		}
		free(t);
		free(u);
	}
	ok(good, "slots_double: 2000 clustered, wrapping tables doubled 3 times, every value reachable");
	ok(parted, "slots_double in 1-9 parts, done in a rotated order: the same tables");
}

/* slots_grow (SLOTS-3) on tables of 1 to 400 slots (and some of 10^4 to
** 10^5) at loads up to full but one slot, grown by factors 1.0x to 3:
** values anywhere, or crowded at the top (runs that wrap round to slot 0)
** or at the bottom (new homes below old slots).  After growing, the table
** holds the values put and nothing else, every one found by the usual
** probe from its home; and the most values held aside at once. */
static uint64_t xorshift(uint64_t *r)
{
	*r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
	return *r;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void test_slots_grow(void)
{
	uint64_t rng = 88172645463325252ull;
	int good = 1;
	size_t most = 0, most_big = 0;
	for (int round = 0; round < 6000 && good; round++) {
		uint64_t n = round % 100 == 99 ? 10000 + xorshift(&rng) % 90000 : 1 + xorshift(&rng) % 400;
		uint64_t m = n + 1 + xorshift(&rng) % (round % 2 ? n / 2 + 1 : 2 * n), k = 0;
		uint64_t want = round % 3 ? n * 4 / 5 : n - 1, *t = xcalloc(n, sizeof *t), *put = xmalloc((want + 1) * sizeof *put);
		while (k < want) {
			uint64_t x = xorshift(&rng), where = round % 5;
			if (where == 1) /* the top: homes n - 1 and below, wrapping */
				x |= 0xfff0000000000000ull;
			else if (where == 2) /* the bottom */
				x >>= 12;
			uint64_t j = slots_home(x, n);
			while (t[j] && t[j] != x)
				j = j + 1 < n ? j + 1 : 0;
			if (t[j])
				continue;
			t[j] = put[k++] = x;
		}
		size_t aside = slots_grow(&t, n, m);
		most = aside > most ? aside : most;
		if (n >= 10000 && round % 3 && round % 5 != 1 && round % 5 != 2 && m * 2 < n * 3)
			most_big = aside > most_big ? aside : most_big;
		uint64_t held = 0;
		for (uint64_t i = 0; i < m; i++)
			held += t[i] != 0;
		for (uint64_t i = 0; i < k && good; i++) {
			uint64_t j = slots_home(put[i], m);
			while (t[j] && t[j] != put[i])
				j = j + 1 < m ? j + 1 : 0;
			good &= t[j] == put[i];
		}
		/* nothing else: the values held, sorted, are the values put */
		uint64_t *got = xmalloc((k + 1) * sizeof *got), g = 0;
		for (uint64_t i = 0; i < m && g <= k; i++)
			if (t[i] && g < k)
				got[g++] = t[i];
		qsort(got, g, sizeof *got, cmp_u64);
		qsort(put, k, sizeof *put, cmp_u64);
		good &= held == k && g == k && !memcmp(got, put, k * sizeof *put);
		free(got);
		free(put);
		free(t);
	}
	ok(good, "slots_grow: 6000 tables of 1-10^5 slots grown 1.0-3x hold their values, each found from its home");
	printf("# slots_grow: at most %zu values held aside (%zu on 10^4-10^5 slots at load 4/5 grown by < 1.5)\n", most,
	       most_big);
}

/* Compact mode's bytes a state at every count (issue 13: <= 16 with the
** DFS stack): its table grows by 1.375, so the load stays above 4/5 /
** 1.375 and the table under 14 bytes a state once past its first size
** (4096 slots).  Doubling left it at load 2/5, 20 bytes, just past each
** doubling. */
static void test_compact_bytes(void)
{
	struct visited *v = vs_new(8, VS_COMPACT);
	uint64_t rng = 88172645463325252ull, n = 0, worst_at = 0;
	double worst = 0;
	int is_new;
	while (n < 3000000) {
		vs_find_or_put(v, NULL, xorshift(&rng), &is_new);
		n += is_new != 0;
		double b = (double)vs_bytes(v) / (double)n;
		if (n >= 4096 && b > worst)
			worst = b, worst_at = n;
	}
	char msg[160];
	snprintf(msg, sizeof msg, "compact store: at most 14 bytes a state at every count from 4096 to 3e6 (worst %.2f at %llu)",
	         worst, (unsigned long long)worst_at);
	ok(worst <= 14.0, msg);
	vs_free(v);
}

/* --mpi --compact: a rank's states are those of one range of their
** hashes' high half (mpi.c, owner), so the fingerprints one compact set
** holds there share their top bits.  Their homes must still spread over
** the whole table: crowded into 1/ranks of it, they made one cluster
** that every insertion probed to its end (quadratic) and that each
** growth held aside (slots_grow) by the tens of thousands.  The most
** held aside is read from vs_grow_bytes when a growth is due. */
static void test_compact_one_rank(void)
{
	uint64_t rng = 88172645463325252ull;
	size_t most = 0;
	for (unsigned ranks = 2; ranks <= 4; ranks += 2)
		for (unsigned rank = 0; rank < ranks; rank++) {
			struct visited *v = vs_new(8, VS_COMPACT);
			uint64_t n = 0;
			int is_new;
			while (n < 40000) {
				uint64_t h = xorshift(&rng);
				if ((((h >> 32) * ranks) >> 32) != rank)
					continue;
				vs_find_or_put(v, NULL, h, &is_new);
				n += is_new != 0;
				size_t g = vs_grow_bytes(v) / 8, size = vs_bytes(v) / 8;
				if (g) { /* the slots added, and twice the most held aside, and 16 */
					size_t aside = (g - (size / 4 + size / 8) - 16) / 2;
					most = aside > most ? aside : most;
				}
			}
			vs_free(v);
		}
	char msg[160];
	snprintf(msg, sizeof msg, "compact store, one MPI rank's fingerprints (of 2, of 4): at most %zu held aside a growth (<= 64)",
	         most);
	ok(most <= 64, msg);
}

/* state/hash.h: a successor's hash from its parent's (state_hash_step,
** with the parent's block hashes memoized over its successors, and
** state_hash_delta) is its full hash: vectors of 1 to 300 bytes (whole
** blocks, a partial last block, a partial last word), successors that
** change one byte, a run of bytes, or nothing. */
static void test_hash_steps(void)
{
	enum { MAX = 300 };
	uint8_t src[MAX], next[MAX];
	uint64_t bh[8], sbh[8], nbh[8];
	uint8_t known[8];
	struct hash_src hs = { .bh = bh, .known = known };
	uint64_t r = 88172645463325252ull;
	hash_init(); /* the compare explore uses here */
	int good = 1;
	for (size_t n = 1; n <= MAX; n++) {
		for (size_t i = 0; i < n; i++)
			src[i] = (r = r * 6364136223846793005ull + 1442695040888963407ull) >> 60 ? 0 : (uint8_t)(r >> 33);
		uint64_t h = state_hash_blocks(src, n, sbh);
		good &= h == state_hash(src, n);
		hash_src_set(&hs, src, h, n);
		for (int k = 0; k < 40; k++) {
			memcpy(next, src, n);
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			size_t at = (size_t)(r >> 33) % n, len = k % 3 == 0 ? 1 : k % 3 == 1 ? 1 + (size_t)(r >> 20) % 70 : 0;
			for (size_t i = at; i < at + len && i < n; i++)
				next[i] ^= (uint8_t)(1 + (r >> 13) % 255);
			uint64_t full = state_hash(next, n);
			good &= state_hash_step(&hs, next, n) == full;
			good &= state_hash_delta(src, sbh, next, n, nbh) == full;
			for (size_t b = 0; b < hash_nblocks(n); b++)
				good &= nbh[b] == hash_block(next, n, b);
		}
	}
	ok(good, "hash.h: successor hashes from the parent's (step, delta) equal full hashes at 1 to 300 bytes");
}

/* fastdiv's quotient and remainder are / and %'s: every divisor up to
** 4096 and a spread of others up to UINT32_MAX, each against numerators
** at the edges (0, d - 1, d, multiples, UINT32_MAX) and pseudo-random. */
static void test_fastdiv(void)
{
	unsigned bad = 0, n_d = 0;
	uint64_t x = 88172645463325252ull;
	for (uint64_t d = 1; d <= UINT32_MAX; d = d < 4096 ? d + 1 : d * 3 + 1, n_d++) {
		struct fastdiv f = fastdiv_of((uint32_t)d);
		uint32_t edge[] = { 0, 1, (uint32_t)d - 1, (uint32_t)d, (uint32_t)(d + 1), (uint32_t)(2 * d - 1),
			            UINT32_MAX, UINT32_MAX - 1, (uint32_t)(UINT32_MAX / d * d), (uint32_t)(UINT32_MAX / d * d - 1) };
		for (unsigned i = 0; i < sizeof edge / sizeof *edge + 64; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint32_t n = i < sizeof edge / sizeof *edge ? edge[i] : (uint32_t)x;
			bad += fastdiv_div(f, n) != n / d || fastdiv_mod(f, n) != n % d;
		}
	}
	ok(bad == 0 && n_d > 4096, "fastdiv: n / d and n % d as the hardware's, every d to 4096 and a spread to 2^32 - 1");
}

int main(void)
{
	test_visited(VS_EXACT);
	test_visited(VS_COMPACT);
	test_visited(VS_TREE);
	test_exact_collisions();
	test_hash_steps();
	test_compressed_records();
	test_shared_runs(20);
	test_shared_runs(2048);
	test_tree_sizes();
	test_tree_incremental();
	test_slots_double();
	test_slots_grow();
	test_compact_bytes();
	test_compact_one_rank();
	test_sideset();
	test_alu();
	test_alu_lanes();
	test_ipdom();
	test_trace_file();
	test_fastdiv();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
