/* DAB's determinism-aware warp schedulers: SRR, GTRR, GTAR, GWAT. */
#ifndef GPUMC_DAB_SCHED_H
#define GPUMC_DAB_SCHED_H

#include "machines/gpu.h"

/* Per-scheduler state in the DAB slice (16 bytes). */
struct dab_sched_state {
	uint8_t rr;     /* SRR/GTRR: index of the next warp in round-robin order */
	uint8_t srr;    /* GTRR: switched to SRR for the rest of the kernel      */
	uint8_t token;  /* GWAT: index of the warp holding the atomic token      */
	uint8_t pad;
	uint32_t pad2;
	uint64_t todo;  /* GTAR: warps still to issue their atomic this round    */
};
_Static_assert(sizeof(struct dab_sched_state) == 16, "scheduler state is 16 bytes");

/* What a scheduler allows now, computed once per state. */
struct dab_sched_view {
	int srr;          /* strict round robin applies now                     */
	unsigned rr_warp; /* SRR: the one warp that may issue (UINT32_MAX: none) */
	uint64_t round;   /* GTAR: current round (0: none)                       */
	unsigned atom_warp; /* GTAR/GWAT: the one warp that may issue an atomic  */
};

void dab_sched_view(const struct gpu *g, const uint8_t *sv, unsigned k, struct dab_sched_view *v);
/* May warp w (READY, on scheduler k) issue under the view? */
int dab_sched_may_issue(const struct gpu *g, const uint8_t *sv, unsigned w, const struct dab_sched_view *v);
/* Update scheduler state after warp w issued; v is the view before the
** issue, `atomic` whether it was a global atom/red and `buffered` whether
** that atomic went into the buffer (not blocked on a full one). */
void dab_sched_issued(const struct gpu *g, uint8_t *sv, unsigned w, const struct dab_sched_view *v,
                      int atomic, int buffered);

#endif
