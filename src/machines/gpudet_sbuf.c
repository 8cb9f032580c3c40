/*
** GPUDet's per-wavefront store buffer (paper §4.3; notes A.6): the
** isolation mechanism of PARALLEL mode.  A wavefront's global stores go
** to its private linear write log, never to memory; its global loads read
** its own log, newest entry first and byte by byte, over the memory
** committed at the end of the previous quantum.  The Z-buffer commit unit
** (zbuffer.c) drains the logs in COMMIT mode, oldest entry first.
**
** An entry here is one word with a byte mask (the paper's entry is a
** 128-byte chunk with a 128-bit mask: the same log at a finer grain, which
** keeps states small and changes no result).  Lanes of one store append
** in lane order, so when two lanes of one instruction write the same
** word, the higher lane's entry is newer: it wins both the wavefront's own
** later loads and the commit (the coalescer rule "highest lane wins",
** notes A.4).  The Bloom filter only decides whether a load searches the
** log, which matters to timing alone; the search result is modelled
** exactly.  The paper's log is unbounded (private memory); the model
** bounds it at sbuf_entries, and the mode machine ends a wavefront's
** quantum before a store that would not fit (gpudet_mode.c), which is as
** deterministic as the other termination events.
**
** Component "sbuf": port sbuf (load, store, room, length, entry, pop, search);
** requires mem for the committed words.  No actions of its own.
**
** Slice: per warp { n u16, pad u16, sbuf_entries x struct sbuf_entry }.
** Invariants:
**   SBUF-1 n <= sbuf_entries; entries at and above n and the pads are zero;
**   SBUF-2 an entry names a global word and a non-empty byte mask within
**          the word, and its data is zero outside the mask.
*/
#include "config.h"

#include <string.h>

#include "machines/component.h"
#include "util/strbuf.h"

#define MEM(c) ((const struct port_mem *)port_ops(c, P_MEM))

struct sbuf {
	size_t bytes; /* bytes per warp */
};
#define S(c) ((const struct sbuf *)(c)->priv)

static uint16_t *count(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return (uint16_t *)(sv + c->off + S(c)->bytes * w);
}

static struct sbuf_entry *log_of(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return (struct sbuf_entry *)((uint8_t *)count(c, sv, w) + 4);
}

static uint32_t load(const struct comp *c, const uint8_t *sv, unsigned w, long word)
{
	uint32_t v = MEM(c)->load(REQ(c, P_MEM)->c, sv, SP_GLOBAL, 0, word);
	unsigned have = 0; /* bytes already taken from a newer entry */
	const struct sbuf_entry *e = log_of(c, sv, w);
	for (unsigned i = *count(c, sv, w); i-- > 0 && have != 0xf;) {
		if (e[i].word != (uint32_t)word)
			continue;
		uint32_t take = sbuf_bytes(e[i].mask & ~have);
		v = (v & ~take) | (e[i].data & take);
		have |= e[i].mask;
	}
	return v;
}

static void store(const struct comp *c, uint8_t *sv, unsigned w, long word, uint32_t v, unsigned mask)
{
	uint16_t *n = count(c, sv, w);
	/* the mode machine ends the quantum before a store that does not fit */
	struct sbuf_entry *e = &log_of(c, sv, w)[(*n)++];
	e->word = (uint32_t)word;
	e->data = v & sbuf_bytes(mask);
	e->mask = (uint8_t)mask;
}

static unsigned room(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return c->g->cfg.sbuf_entries - *count(c, sv, w);
}

static unsigned length(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return *count(c, sv, w);
}

static struct sbuf_entry entry(const struct comp *c, const uint8_t *sv, unsigned w, unsigned i)
{
	return log_of(c, sv, w)[i];
}

static void pop(const struct comp *c, uint8_t *sv, unsigned w)
{
	uint16_t *n = count(c, sv, w);
	struct sbuf_entry *e = log_of(c, sv, w);
	memmove(e, e + 1, sizeof *e * (*n - 1u));
	memset(&e[--*n], 0, sizeof *e);
}

/* The Bloom filter summarises the log's 128-byte chunks; it is taken as
** ideal (no false positives): a load whose chunk the wavefront wrote
** searches the whole log linearly, lat_log cycles per entry (an L1 access:
** the log lives in private memory).  So longer quanta make store-heavy
** kernels slower (notes A.6). */
static unsigned search(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t addr)
{
	unsigned n = *count(c, sv, w), chunks = 0, hit = 0;
	const struct sbuf_entry *e = log_of(c, sv, w);
	for (unsigned i = 0; i < n; i++) {
		chunks += !i || e[i].word / 32 != e[i - 1].word / 32; /* the paper's entries are chunks */
		hit |= e[i].word / 32 == addr / 128;
	}
	return hit ? chunks * c->g->cfg.lat_log : 0;
}

static const struct port_sbuf ops = { load, store, room, length, entry, pop, search };

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "sbuf_entries", 8, 1, 4096, NULL, GP(sbuf_entries), "GPUDet: words a wavefront's store buffer holds (the model's bound on the paper's unbounded log; a full log ends the quantum)" },
	{ "lat_log", 4, 0, 10000, NULL, GP(lat_log), "GPUDet concrete mode: cycles per log entry when a load searches its wavefront's store buffer" },
};

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	if (g->cfg.sbuf_entries < g->cfg.threads_per_warp) {
		diag_at(d, g->path, 0, 0, "sbuf_entries (%u) must hold one store of a whole warp (%u lanes)",
		        g->cfg.sbuf_entries, g->cfg.threads_per_warp);
		return -1;
	}
	struct sbuf *s = xcalloc(1, sizeof *s);
	s->bytes = 4 + sizeof(struct sbuf_entry) * g->cfg.sbuf_entries;
	c->priv = s;
	*align = 4;
	return (long)(s->bytes * g->nwarps);
}

static int quiescent(const struct comp *c, const uint8_t *sv)
{
	for (unsigned w = 0; w < c->g->nwarps; w++)
		if (*count(c, sv, w))
			return 0;
	return 1;
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	for (unsigned w = 0; w < g->nwarps; w++) {
		const uint16_t *n = count(c, sv, w);
		const struct sbuf_entry *e = log_of(c, sv, w);
		static const struct sbuf_entry zero;
		if (*n > g->cfg.sbuf_entries || n[1]) {
			sb_printf(why, "SBUF-1: warp %u's log holds %u of %u entries or has a non-zero pad", w, *n,
			          g->cfg.sbuf_entries);
			return 1;
		}
		for (unsigned i = 0; i < g->cfg.sbuf_entries; i++) {
			if (i >= *n) {
				if (memcmp(&e[i], &zero, sizeof zero)) {
					sb_printf(why, "SBUF-1: warp %u's log entry %u above its length %u is not zero", w, i, *n);
					return 1;
				}
				continue;
			}
			if (e[i].word >= g->prog->global_words || !e[i].mask || e[i].mask > 0xf ||
			    (e[i].data & ~sbuf_bytes(e[i].mask)) || e[i].pad[0] || e[i].pad[1] || e[i].pad[2]) {
				sb_printf(why, "SBUF-2: warp %u's log entry %u (word %u, mask 0x%x, data 0x%x) is malformed", w,
				          i, e[i].word, e[i].mask, e[i].data);
				return 1;
			}
		}
	}
	return 0;
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	for (unsigned w = 0; w < c->g->nwarps; w++) {
		unsigned n = *count(c, sv, w);
		if (!n)
			continue;
		const struct sbuf_entry *e = log_of(c, sv, w);
		sb_printf(out, "  store buffer of warp %u:", w);
		for (unsigned i = 0; i < n; i++)
			sb_printf(out, " [word %u mask 0x%x] = 0x%x", e[i].word, e[i].mask, e[i].data);
		sb_putc(out, '\n');
	}
}

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_SBUF ? &ops : NULL;
}

const struct comp_def comp_sbuf = {
	.name = "sbuf", .desc = "GPUDet per-wavefront store buffers: a write log per warp, read newest first over committed memory",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.provides = PORT(P_SBUF), .requires = PORT(P_MEM), .port_writes = SELF,
	.layout = layout, .quiescent = quiescent, .check = check, .print = print, .port = port,
};
