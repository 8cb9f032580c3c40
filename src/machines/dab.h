/* Deterministic Atomic Buffering: atomic buffers and the flush protocol. */
#ifndef GPUMC_DAB_H
#define GPUMC_DAB_H

#include "machines/gpu.h"

/* Lay out the DAB slice starting at off; returns its size. */
size_t dab_layout(struct gpu *g, size_t off);
/* Warp w issues a global atom/red with lanes m: buffer it, or block the
** warp when its buffer is full. */
void dab_atomic(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m);
/* membar/bar.sync: may the warp pass, or must it wait for a flush? */
int dab_fence_clear(const struct gpu *g, const uint8_t *sv, unsigned w);
/* FLUSH and DRAIN actions, appended after the issue actions. */
unsigned dab_enabled(const struct gpu *g, const uint8_t *sv, int any_issue, const int *sm_issue,
                     struct action *out);
void dab_apply(const struct gpu *g, uint8_t *sv, const struct action *a);
/* Nothing buffered, nothing in flight. */
int dab_quiescent(const struct gpu *g, const uint8_t *sv);
void dab_describe(const struct gpu *g, const uint8_t *sv, const struct action *a, struct strbuf *out);
void dab_print(const struct gpu *g, const uint8_t *sv, struct strbuf *out);
/* Concrete mode: cycles a FLUSH keeps the SMs busy, entries per flush. */
unsigned dab_flush_entries(const struct gpu *g, const uint8_t *sv, const struct action *a);
unsigned dab_flush_transactions(const struct gpu *g, const uint8_t *sv, const struct action *a,
                                unsigned *per_queue);
unsigned dab_queue_count(const struct gpu *g, const uint8_t *sv, unsigned q);

#endif
