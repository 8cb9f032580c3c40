/*
** GPUDet's commit unit (paper §4.4, after CoreDet; notes A.7): in COMMIT
** mode every wavefront's store buffer is published through the Z-buffer
** unit of the memory partition that owns each word.  The unit keeps a
** depth per global word; a request carries the depth of its wavefront in
** this quantum,
**     depth = -(quantum << m) + hardware wavefront id   (gpudet_mode.c),
** and writes its bytes (and its depth) only when it passes the depth test
** against the word's stored depth, initially INT32_MAX.  So a later
** quantum always wins, and within a quantum the lower wavefront id wins,
** whatever order the requests arrive in.
**
** A request is the leading entries of a log in one 128-byte chunk and
** partition (the paper's request: a coalesced chunk with a byte mask), its
** words tested and written in log order.  Arrival order is free: every
** wavefront with a non-empty log may deliver its oldest request next, so
** the checker explores every interleaving of the logs at the Z units
** (the interconnect keeps one wavefront's requests in order, and deferred
** requests replay in order: the paper's Z-cache lock and defer paths
** reorder nothing beyond that).  Two entries of one
** wavefront have the same depth (hazard A.7.4a), so the test is `<=`: the
** later entry of the same wavefront wins, as program order requires.
**
** Depth is per word but a request's mask is per byte (A.7.4b): two
** wavefronts writing different bytes of one word in one quantum leave a
** result that depends on arrival order -- the paper's byte-granularity
** limitation, which the checker finds.
**
** Variants (parameter ztest): le (the design), lt (strict `<`: a
** wavefront's second write to a word in one quantum is lost), off (no depth
** test: the last arrival wins, nondeterministic).
**
** Component "zbuffer": action COMMIT (unit: the word's partition, subject:
** the warp's request stream, arg: the warp), enabled in COMMIT mode only;
** requires sbuf (the logs), mem (the committed words) and quantum (the
** mode and depths).
**
** Slice: depth int32 per global word.
** Invariants:
**   ZB-1 no word holds a depth from a later quantum than the current one
**        (every depth is INT32_MAX or at least the current quantum's
**        smallest depth).
*/
#include "config.h"

#include <limits.h>

#include "machines/component.h"
#include "util/strbuf.h"

#define MEM(c) ((const struct port_mem *)port_ops(c, P_MEM))
#define SBUF(c) ((const struct port_sbuf *)port_ops(c, P_SBUF))
#define QUANTUM(c) ((const struct port_quantum *)port_ops(c, P_QUANTUM))
#define SB(c) (REQ(c, P_SBUF)->c)
#define QC(c) (REQ(c, P_QUANTUM)->c)

enum { ZT_LE, ZT_LT, ZT_OFF };
enum { CM_ZBUFFER, CM_LOCK };

static int32_t *zdepth(const struct comp *c, const uint8_t *sv)
{
	return (int32_t *)(sv + c->off);
}

/* Does a request of depth d pass the test against the stored depth z? */
static int passes(const struct comp *c, int32_t d, int32_t z)
{
	switch (c->g->cfg.ztest) {
	case ZT_LT: return d < z;
	case ZT_OFF: return 1;
	default: return d <= z;
	}
}

static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before;
	(void)nb;
	(void)timed;
	unsigned n = 0;
	if (QUANTUM(c)->mode(QC(c), sv) != GM_COMMIT)
		return 0;
	for (unsigned w = 0; w < c->g->nwarps; w++)
		if (SBUF(c)->length(SB(c), sv, w)) {
			struct sbuf_entry e = SBUF(c)->entry(SB(c), sv, w, 0);
			unsigned p = gpu_partition_of(c->g, e.word * 4);
			out[n++] = (struct action){ (uint16_t)c->kind0, (uint16_t)(c->unit0[0] + p), c->subj0[0] + w, w };
		}
	return n;
}

/* A commit request is one coalesced chunk: the leading log entries in the
** same 128-byte chunk and partition (the paper's request carries 32 words
** and a byte mask).  How many entries warp w's next request takes. */
static unsigned request(const struct comp *c, const uint8_t *sv, unsigned w)
{
	unsigned n = SBUF(c)->length(SB(c), sv, w), k = 1;
	uint32_t first = SBUF(c)->entry(SB(c), sv, w, 0).word;
	while (k < n) {
		uint32_t x = SBUF(c)->entry(SB(c), sv, w, k).word;
		if (x / 32 != first / 32 || gpu_partition_of(c->g, x * 4) != gpu_partition_of(c->g, first * 4))
			break;
		k++;
	}
	return k;
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	unsigned w = a->arg;
	int32_t d = QUANTUM(c)->depth(QC(c), sv, w);
	const struct comp *mc = REQ(c, P_MEM)->c;
	for (unsigned k = request(c, sv, w); k > 0; k--) { /* word by word, in log order */
		struct sbuf_entry e = SBUF(c)->entry(SB(c), sv, w, 0);
		SBUF(c)->pop(SB(c), sv, w);
		int32_t *z = &zdepth(c, sv)[e.word];
		if (!passes(c, d, *z))
			continue;
		uint32_t old = MEM(c)->load(mc, sv, SP_GLOBAL, 0, e.word), keep = ~sbuf_bytes(e.mask);
		MEM(c)->store(mc, sv, SP_GLOBAL, 0, e.word, (old & keep) | e.data);
		*z = d;
	}
}

/* The depth word x holds when entry i of warp w's request reaches it:
** stored, or written by an earlier entry of the same request. */
static int32_t depth_before(const struct comp *c, const uint8_t *sv, unsigned w, unsigned i, int32_t d)
{
	uint32_t x = SBUF(c)->entry(SB(c), sv, w, i).word;
	int32_t z = zdepth(c, sv)[x];
	for (unsigned j = 0; j < i; j++)
		if (SBUF(c)->entry(SB(c), sv, w, j).word == x && passes(c, d, z))
			z = d;
	return z;
}

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "ztest", 0, 0, 2, "le|lt|off", GP(ztest), "GPUDet Z-buffer depth test: le (the design: smaller or equal depth wins), lt (strict: a wavefront's second write in a quantum is lost), off (last arrival wins)" },
	{ "commit", 0, 0, 1, "zbuffer|lock", GP(commit), "GPUDet commit timing: the Z-buffer units, or a CoreDet-style lock per entry (two atomics and two round trips; same result)" },
	{ "lat_z", 2, 0, 1000000, NULL, GP(lat_z), "GPUDet: cycles a Z unit spends on one commit request (the 650 MHz unit behind a 1.4 GHz core, about 2)" },
};

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	(void)d;
	*align = 4;
	c->max_actions = g->nwarps;
	c->units[0] = (struct pool_req){ "partition", g->cfg.partitions };
	c->subjects[0] = (struct pool_req){ "commit stream", g->nwarps };
	c->subjects[1] = (struct pool_req){ "mode", 1 }; /* gpudet_mode.c's global barrier */
	return (long)g->prog->global_words * 4;
}

static void init(const struct comp *c, uint8_t *sv)
{
	for (unsigned i = 0; i < c->g->prog->global_words; i++)
		zdepth(c, sv)[i] = INT32_MAX;
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	int32_t least = INT32_MAX;
	for (unsigned w = 0; w < c->g->nwarps; w++) {
		int32_t d = QUANTUM(c)->depth(QC(c), sv, w);
		if (d < least)
			least = d;
	}
	for (unsigned i = 0; i < c->g->prog->global_words; i++)
		if (zdepth(c, sv)[i] < least) {
			sb_printf(why, "ZB-1: word %u holds depth %d, below this quantum's smallest depth %d", i,
			          zdepth(c, sv)[i], least);
			return 1;
		}
	return 0;
}

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	unsigned w = a->arg, n = request(c, sv, w);
	int32_t d = QUANTUM(c)->depth(QC(c), sv, w);
	sb_printf(out, "Z unit of partition %u takes warp %u's commit request",
	          gpu_partition_of(c->g, SBUF(c)->entry(SB(c), sv, w, 0).word * 4), w);
	for (unsigned i = 0; i < n; i++) {
		struct sbuf_entry e = SBUF(c)->entry(SB(c), sv, w, i);
		int32_t z = depth_before(c, sv, w, i, d);
		sb_printf(out, "%s word %u mask 0x%x = 0x%x, depth %d vs %d: %s", i ? ";" : "", e.word, e.mask, e.data, d, z,
		          passes(c, d, z) ? "written" : "rejected");
	}
}

/* A Z unit takes one request per lat_z cycles and a wavefront streams
** its log to it: its next request follows over the interconnect with its
** jitter.  commit=lock times the CoreDet-style software commit the paper
** compares with: per entry the wavefront takes the chunk's lock with an
** atomic at the partition, compares priorities, writes and releases --
** two atomics at the ROP and two round trips before its next entry.  (The
** result is the same: the priority test is the same.) */
static void timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng)
{
	(void)sv;
	const struct gpu_cfg *cf = &c->g->cfg;
	unsigned jitter = cf->icnt_jitter ? (unsigned)(rnd(rng) % (cf->icnt_jitter + 1)) : 0;
	int lock = cf->commit == CM_LOCK;
	t->busy = lock ? 2 * cf->lat_rop : cf->lat_z;
	t->upd[t->n].subject = a->subject;
	t->upd[t->n++].delay = (lock ? 4 * cf->lat_icnt + t->busy : 1) + jitter;
	/* the global barrier after COMMIT waits for this write to land */
	t->upd[t->n].subject = c->subj0[1];
	t->upd[t->n++].delay = t->busy + (lock ? 2 * cf->lat_icnt : cf->lat_icnt);
}

static const char *const counters[] = { "commit requests", "committed words rejected by depth" };

static void count(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	unsigned w = a->arg, n = request(c, sv, w);
	int32_t d = QUANTUM(c)->depth(QC(c), sv, w);
	comp_count(c, ct, 0, 1);
	for (unsigned i = 0; i < n; i++)
		if (!passes(c, d, depth_before(c, sv, w, i, d)))
			comp_count(c, ct, 1, 1);
}

static const struct kind_def kinds[] = { { "commit", SELF | PORT(P_SBUF) | PORT(P_MEM), 0 } };

const struct comp_def comp_zbuffer = {
	.name = "zbuffer", .desc = "GPUDet Z-buffer commit unit per partition: smaller depth wins, any arrival order",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.requires = PORT(P_SBUF) | PORT(P_MEM) | PORT(P_QUANTUM),
	.kinds = kinds, .nkinds = 1,
	.counters = counters, .ncounters = 2,
	.layout = layout, .init = init, .enabled = enabled, .apply = apply, .check = check, .describe = describe,
	.timing = timing, .count = count,
};
