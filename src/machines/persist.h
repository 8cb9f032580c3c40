/* GPU persistency: write-back L2, write-pending queues, NVM, crashes. */
#ifndef GPUMC_PERSIST_H
#define GPUMC_PERSIST_H

#include "machines/gpu.h"

size_t pm_layout(struct gpu *g, size_t off);
void pm_init(const struct gpu *g, uint8_t *sv);
/* A plain store (or atomic) left word `word` dirty in the L2. */
void pm_dirty(const struct gpu *g, uint8_t *sv, uint32_t word);
/* Warp w issues st.wt / clwb / sfence / pcommit / l2wb / membar (lanes m);
** returns 1 when handled (advanced or blocked), 0 for the default. */
int pm_issue(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m);
/* Is some warp walking the L2 with l2wb (which blocks L2 accesses)? */
/* Release warps waiting at sfence/membar/pcommit whose acks are in. */
void pm_wake(const struct gpu *g, uint8_t *sv);
int pm_kernel_done(const struct gpu *g, const uint8_t *sv);
int pm_host_done(const struct gpu *g, const uint8_t *sv);
/* May warps issue: no launch step, or the host has passed it? */
int pm_kernel_launched(const struct gpu *g, const uint8_t *sv);
int pm_l2wb_busy(const struct gpu *g, const uint8_t *sv);
unsigned pm_enabled(const struct gpu *g, const uint8_t *sv, struct action *out, int timed);
void pm_apply(const struct gpu *g, uint8_t *sv, const struct action *a);
void pm_describe(const struct gpu *g, const uint8_t *sv, const struct action *a, struct strbuf *out);
void pm_print(const struct gpu *g, const uint8_t *sv, struct strbuf *out);
/* Run the spec's recovery program on a durable image; 0 with why when it
** fails. */
int pm_recover(const struct model *m, const struct gpu *g, uint8_t *img, struct strbuf *why);
/* Re-execute the whole kernel on an image (check idempotent). */
int pm_reexecute(const struct model *m, const struct gpu *g, uint8_t *img, struct strbuf *why);
/* The durable image: NVM, plus the WPQs when they are durable. */
void pm_durable(const struct gpu *g, const uint8_t *sv, uint8_t *img);

#endif
