/*
** What every GPU component shares: the machine's parameters, the kernel,
** the grid (which CTA, SM and scheduler a warp belongs to) and the layout
** of the warp records, which the warps component (warp.c) owns and the
** property layer reads registers from.  Each component's own slice and
** private data live in its struct comp (component.h).
**
** Warp record (struct warp_hdr, then the SIMT stack, then registers):
**   status   u8   W_READY | W_BARRIER | W_ATOMIC | W_FAULT | W_DONE | W_WAIT
**   sp       u8   SIMT stack entries in use (0 once every lane exited)
**   fault    u8   fault code when status == W_FAULT
**   pending  u8   owned by the warp's atomics provider (rop.c: atomics in
**                 flight; dab.c: owed results and a dirty flag)
**   stack    sp x { pc u16, rpc u16, mask u32 }, unused entries zero
**   regs     lanes x u32 per register some instruction writes, in
**            declaration order (program_reg_slots; reg_row): a register
**            never written is 0 in every state and has no row
*/
#ifndef GPUMC_GPU_H
#define GPUMC_GPU_H

#include <stdint.h>

#include "explore/model.h"
#include "ir/program.h"
#include "spec/spec.h"
#include "util/fastdiv.h"

/* W_ATOMIC: its atomic was taken, the warp waits for old values owed to
** it; W_WAIT: its instruction waits (a fence, a full buffer, pcommit). */
enum warp_status { W_READY = 0, W_BARRIER, W_ATOMIC, W_FAULT, W_DONE, W_WAIT };

enum fault_code {
	F_NONE = 0, F_OOB, F_ALIGN, F_STACK, F_DIVZERO, F_WINDOW,
	F_UNIFORM /* a branch program_divergent calls uniform split the warp: a gpumc bug (WARP-5) */
};

struct gpu_cfg {
	/* machine */
	unsigned sms, schedulers, partitions, stack_depth, line_bytes;
	/* launch */
	unsigned ctas, warps_per_cta, threads_per_warp;
	/* concrete-mode latencies (cycles) */
	unsigned lat_alu, lat_shared, lat_global, global_jitter, lat_icnt, icnt_jitter, lat_rop, lat_bar, icnt_bw;
	unsigned icnt_eject; /* transactions a partition's ejection port takes per cycle (0: no limit) */
	unsigned sched_policy; /* concrete mode: 0 GTO, 1 any ready warp at random */
	/* DAB (dab.c, dab_sched.c) */
	unsigned sched_rule, buffer_level, entries, fusion, coalesce, offset_flush, flush; /* sched_rule: enum dab_sched */
	unsigned lat_flush;
	unsigned icnt_queue; /* ROP FIFO entries per SM and partition; 0: 2 x lanes */
	unsigned icnt_order; /* 0 FIFO per SM and partition, 1 any order (rop.c) */
	/* LAB (lab.c) */
	unsigned lab_size, lab_ways, lab_line, lab_mutant, lat_lab;
	/* persistency (persist.c) */
	unsigned wpq_durable, lat_nvm_write, pm_model, scope, crashes, epoch_op;
	unsigned mc_bw, l2_kb; /* persist: bytes per cycle a memory controller writes to NVM; L2 per partition */
	unsigned l2wb_scan;    /* persist, concrete mode: an l2wb pass costs 0 the dirty lines, 1 every L2 line */
	unsigned loop_sync;    /* persist, epoch-loop: 0 each warp ends its epoch, 1 the CTA (Fig. 5) */
	unsigned memory; /* 0 SC (memory.c), 1 ics13, 2 ics13-fixed, 3 ptx (weakmem.c) */
	/* GPUDet (gpudet_mode.c, gpudet_sbuf.c, zbuffer.c) */
	unsigned quantum, quanta, serial, bta, slots, distribution, sbuf_entries, ztest, commit, lat_gbar, lat_z, lat_log;
	/* occupancy and CTA dispatch (cta_dispatch.c) */
	unsigned cta_slots, warp_slots, dispatch;
};

/* DAB's warp scheduling rules (dab_sched.c), the values of sched_rule:
** DS_BAR + a rule is its -bar variant (gtrr-bar, gtar-bar, gwat-bar). */
enum dab_sched { DS_GTO, DS_SRR, DS_GTRR, DS_GTAR, DS_GWAT, DS_BAR = 3 };

/* The paper's rule that sched_rule names (gtrr-bar: GTRR, and so on). */
static inline unsigned dab_rule(const struct gpu_cfg *cf)
{
	return cf->sched_rule > DS_GWAT ? cf->sched_rule - DS_BAR : cf->sched_rule;
}

struct stack_entry {
	uint16_t pc, rpc;
	uint32_t mask;
};

struct warp_hdr {
	uint8_t status, sp, fault, pending;
};
_Static_assert(sizeof(struct warp_hdr) == 4, "warp header is 4 bytes");
_Static_assert(sizeof(struct stack_entry) == 8, "stack entry is 8 bytes");

/* The machine-wide context every component reads. */
struct gpu {
	struct gpu_cfg cfg;
	/* divisors (util/fastdiv.h): cfg's, for the helpers below, and
	** nqueues' (dab.c's FIFOs); set with cfg and by grid (compose.c) */
	struct fastdiv by_wpc, by_sms, by_partitions, by_line, by_schedulers, by_nqueues;
	const struct program *prog;
	const char *path;       /* the spec, for messages                       */
	unsigned nwarps;        /* ctas * warps_per_cta                         */
	unsigned warps_per_sm;  /* upper bound, for FIFO capacity               */
	unsigned nqueues;       /* sms * partitions                             */
	unsigned resident;      /* CTAs resident per SM at once: a batch's size */
	/* global and shared words (memory.c), warp records (warp.c) */
	size_t shared_off, warp_off, warp_bytes, reg_off; /* a record's stack: gpu_stack_of */
	int *reg_row; /* per program register: its row's first word in a warp's registers; -1: none (always 0) */
	/* Global word w (its location id) is at byte gword[w] of the vector,
	** or, when gword[w] is GWORD_CONST, read-only: no instruction writes
	** its variable, so it is ginit[w] in every state and kept out of the
	** vector (memory.c decides).  ginit: every global word's initial value. */
	uint32_t *gword, *ginit;
	int globals_in_place; /* a component reads the global words in place (comp_def) */
	/* warps of each scheduler, in id order: sched_warps[sched_first[k] ..
	** sched_first[k+1]); warp_idx[w] is w's place in its scheduler's list */
	unsigned *sched_warps, *sched_first, *warp_idx;
	uint8_t *pc_atomic;     /* per instruction: a global atom/red?          */
	uint8_t *pc_fragile;    /* per instruction: may a warp-local issue of it leave its warp at one, or done? (compose.c) */
	struct program *own;    /* the kernel rewritten by a component          */
	int comm_race;          /* the spec checks comm_race_free (lab.c)       */
	int persist_order;      /* the spec checks persist_order (persist_order.c) */
	int slot_holds_atomics; /* a CTA's slot is held until its warps' atomics are performed (cta_dispatch.c) */
	/* concrete mode: per pc, whether a warp's issue of it is taken at
	** once (comp_def.issue_alone; compose.c, kind_do.alone), read by the
	** warps provider's issue_alone; NULL: none is */
	const uint8_t *alone;
	/* concrete mode's clock while the composed model lists (compose.c,
	** m_enabled_now), else NULL: only one concrete run uses a model at a
	** time (compose_now) */
	const struct timed_now *now;
};

#define GWORD_CONST UINT32_MAX

/* Global word w of state sv (a read-only word from the constant area),
** given g->gword and g->ginit. */
static inline uint32_t gpu_global_at(const uint32_t *gword, const uint32_t *ginit, const uint8_t *sv, uint32_t w)
{
	uint32_t off = gword[w];
	return off == GWORD_CONST ? ginit[w] : *(const uint32_t *)(sv + off);
}
static inline uint32_t gpu_global(const struct gpu *g, const uint8_t *sv, uint32_t w)
{
	return gpu_global_at(g->gword, g->ginit, sv, w);
}

/* Warp w's record and its parts. */
static inline struct warp_hdr *gpu_warp(const struct gpu *g, uint8_t *sv, unsigned w)
{
	return (struct warp_hdr *)(sv + g->warp_off + g->warp_bytes * w);
}
/* The SIMT stack of the warp whose header is h: right after it. */
static inline struct stack_entry *gpu_stack_of(struct warp_hdr *h)
{
	return (struct stack_entry *)(h + 1);
}
static inline struct stack_entry *gpu_stack(const struct gpu *g, uint8_t *sv, unsigned w)
{
	return gpu_stack_of(gpu_warp(g, sv, w));
}
static inline uint32_t *gpu_regs(const struct gpu *g, uint8_t *sv, unsigned w)
{
	return (uint32_t *)(sv + g->warp_off + g->warp_bytes * w + g->reg_off);
}
/* Register r's lanes in warp w, or NULL for a register no instruction
** writes (0 in every lane). */
static inline uint32_t *gpu_reg(const struct gpu *g, uint8_t *sv, unsigned w, int r)
{
	int row = g->reg_row[r];
	return row < 0 ? NULL : gpu_regs(g, sv, w) + row;
}
/* Warp w's current pc (nins once it is done). */
static inline unsigned gpu_pc(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	uint8_t *s = (uint8_t *)sv;
	int sp = gpu_warp(g, s, w)->sp; /* signed: the load takes sp - 1 as its offset */
	return sp ? gpu_stack(g, s, w)[sp - 1].pc : (unsigned)g->prog->nins;
}
/* Is warp w at a global atom/red (what the atomics port takes)? */
static inline int gpu_at_global_atomic(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	return g->pc_atomic[gpu_pc(g, sv, w)]; /* one entry past the end: 0 */
}
/* Is warp w blocked at a bar.sync: arrived (BARRIER), or waiting for its
** fence part to clear (WAIT with its pc on the bar.sync, WARP-3)? */
static inline int gpu_at_barrier(const struct gpu *g, uint8_t *sv, unsigned w)
{
	uint8_t st = gpu_warp(g, sv, w)->status;
	return st == W_BARRIER || (st == W_WAIT && g->prog->ins[gpu_pc(g, sv, w)].op == OP_BAR);
}
static inline unsigned gpu_cta_of(const struct gpu *g, unsigned w)
{
	return fastdiv_div(g->by_wpc, w);
}
static inline unsigned gpu_sm_of(const struct gpu *g, unsigned w)
{
	return fastdiv_mod(g->by_sms, gpu_cta_of(g, w));
}
/* The memory partition (L2 slice, ROP, memory controller) of an address:
** interleaved every line_bytes. */
static inline unsigned gpu_partition_of(const struct gpu *g, uint32_t addr)
{
	return fastdiv_mod(g->by_partitions, fastdiv_div(g->by_line, addr));
}
/* The batch of warp w's CTA (DAB IV-C5): SM s runs hardware CTA
** positions s, s + sms, s + 2 sms, ... in that order, `resident` at a
** time; the b-th `resident` of them are its batch b. */
static inline unsigned gpu_batch_of(const struct gpu *g, unsigned w)
{
	return gpu_cta_of(g, w) / g->cfg.sms / g->resident;
}
static inline unsigned gpu_sched_of(const struct gpu *g, unsigned w)
{
	return gpu_sm_of(g, w) * g->cfg.schedulers + fastdiv_mod(g->by_schedulers, fastdiv_mod(g->by_wpc, w));
}


#endif
