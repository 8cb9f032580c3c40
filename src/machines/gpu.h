/*
** The baseline GPU machine: SMs with warp schedulers, SIMT warps, SC global
** and shared memory, CTA barriers, and atomics performed at the L2/ROP of
** their memory partition.  gpu.c composes the components below; each
** component owns a slice of the state vector described here.
**
** State vector (all little-endian, fixed size, canonical):
**
**   offset          size                      component   contents
**   0               4*G                       memory.c    global words
**   4*G             4*S*ctas                  memory.c    shared words, per CTA
**   warp_off        warp_bytes * nwarps       warp.c      one record per warp
**   rop_off         rop_bytes * sms*parts     rop.c       per (SM, partition) FIFO
**
** Warp record (struct warp_hdr, then the SIMT stack, then registers):
**   status   u8   W_READY | W_BARRIER | W_ATOMIC | W_FAULT | W_DONE
**   sp       u8   SIMT stack entries in use (0 once every lane exited)
**   fault    u8   fault code when status == W_FAULT
**   pending  u8   baseline: the warp's atomics in the ROP FIFOs (rop.c);
**                 dab: owed atom results and flags (dab.c)
**   stack    sp x { pc u16, rpc u16, mask u32 }, unused entries zero
**   regs     nregs x lanes x u32, register-major
**
** ROP FIFO (per SM x partition): count u16, pad u16, then cap atomic
** entries (atomic_entry.h) in arrival order, unused zero.
*/
#ifndef GPUMC_GPU_H
#define GPUMC_GPU_H

#include <stdint.h>

#include "explore/model.h"
#include "ir/program.h"
#include "spec/spec.h"

enum warp_status { W_READY = 0, W_BARRIER, W_ATOMIC, W_FAULT, W_DONE, W_FLUSHWAIT };

enum fault_code {
	F_NONE = 0, F_OOB, F_ALIGN, F_STACK, F_DIVZERO
};

/* Action kinds of the GPU machine. */
enum {
	GPU_A_ISSUE = ACT_MODEL, /* subject warp issues its next instruction  */
	GPU_A_ROP,               /* a ROP performs the head of a FIFO (arg = queue) */
	GPU_A_FLUSH,             /* DAB: buffers flush (arg = SM for nr-cif, else all) */
	GPU_A_DRAIN,             /* DAB: a partition applies a flushed entry (arg = queue) */
	GPU_A_EVICT,             /* persist: the L2 evicts a dirty word (arg = word) */
	GPU_A_CLWB_DONE,         /* persist: a clwb reached the WPQ (arg = word) */
	GPU_A_WPQ_DRAIN,         /* persist: a WPQ entry reaches NVM (arg = word) */
	GPU_A_HOST               /* persist: the host's next step (arg = step) */
};

/* DAB options (machine "dab"). */
enum dab_sched { DS_GTO, DS_SRR, DS_GTRR, DS_GTAR, DS_GWAT };
enum dab_flush { DF_ORDERED, DF_NR, DF_NR_OF, DF_NR_CIF };

struct gpu_cfg {
	/* machine */
	unsigned sms, schedulers, partitions, stack_depth, line_bytes;
	/* launch */
	unsigned ctas, warps_per_cta, threads_per_warp;
	/* concrete-mode latencies (cycles) */
	unsigned lat_alu, lat_shared, lat_global, global_jitter, lat_icnt, icnt_jitter, lat_rop, lat_bar;
	unsigned sched_policy; /* concrete mode: 0 GTO, 1 any ready warp at random */
	/* DAB (machine "dab"; dab = 0 on the baseline) */
	unsigned dab, dab_sched, buffer_level, entries, fusion, coalesce, offset_flush, flush;
	unsigned lat_flush;
	unsigned icnt_queue; /* ROP FIFO entries per SM and partition; 0: 2 x lanes */
	/* persistency (machine "persist") */
	unsigned persist, wpq_durable, lat_nvm_write, persistency, scope;
	unsigned memory; /* 0 SC (memory.c), 1 ics13, 2 ics13-fixed (weakmem.c) */
};

struct stack_entry {
	uint16_t pc, rpc;
	uint32_t mask;
};

struct warp_hdr {
	uint8_t status, sp, fault, pending;
};
_Static_assert(sizeof(struct warp_hdr) == 4, "warp header is 4 bytes");
_Static_assert(sizeof(struct stack_entry) == 8, "stack entry is 8 bytes");

/* The built machine: configuration, program and layout. */
struct gpu {
	struct gpu_cfg cfg;
	const struct program *prog;
	unsigned nwarps;        /* ctas * warps_per_cta                         */
	unsigned warps_per_sm;  /* upper bound, for FIFO capacity               */
	size_t shared_off, warp_off, warp_bytes, stack_off, reg_off, rop_off, rop_bytes;
	unsigned nqueues;       /* sms * partitions                             */
	unsigned rop_cap;       /* entries per ROP FIFO                         */
	/* DAB slice (dab.c): see the layout comment there */
	size_t dab_off, dab_sched_off, dab_buf_off, dab_buf_bytes, dab_prr_off, dab_q_off, dab_q_bytes;
	unsigned dab_nbufs, dab_qcap;
	/* warps of each scheduler, in id order: sched_warps[sched_first[k] ..
	** sched_first[k+1]); warp_idx[w] is w's place in its scheduler's list */
	unsigned *sched_warps, *sched_first, *warp_idx;
	size_t pm_off;          /* persistency slice (persist.c)                */
	uint8_t *pc_atomic;     /* per instruction: a global atom/red?          */
	struct program *own;    /* the kernel rewritten for a persistency model */
};

/* Warp w's record and its parts. */
static inline struct warp_hdr *gpu_warp(const struct gpu *g, uint8_t *sv, unsigned w)
{
	return (struct warp_hdr *)(sv + g->warp_off + g->warp_bytes * w);
}
static inline struct stack_entry *gpu_stack(const struct gpu *g, uint8_t *sv, unsigned w)
{
	return (struct stack_entry *)(sv + g->warp_off + g->warp_bytes * w + g->stack_off);
}
static inline uint32_t *gpu_regs(const struct gpu *g, uint8_t *sv, unsigned w)
{
	return (uint32_t *)(sv + g->warp_off + g->warp_bytes * w + g->reg_off);
}
static inline unsigned gpu_cta_of(const struct gpu *g, unsigned w)
{
	return w / g->cfg.warps_per_cta;
}
static inline unsigned gpu_sm_of(const struct gpu *g, unsigned w)
{
	return gpu_cta_of(g, w) % g->cfg.sms;
}
static inline unsigned gpu_sched_of(const struct gpu *g, unsigned w)
{
	return gpu_sm_of(g, w) * g->cfg.schedulers + (w % g->cfg.warps_per_cta) % g->cfg.schedulers;
}

/* Build the baseline machine for a spec; NULL with messages in d. */
struct model *gpu_build(const struct spec *s, struct diag *d);

#endif
