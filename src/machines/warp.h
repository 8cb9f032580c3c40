/* SIMT warps: the per-warp executor with its reconvergence stack. */
#ifndef GPUMC_WARP_H
#define GPUMC_WARP_H

#include "machines/gpu.h"

void warp_init(const struct gpu *g, uint8_t *sv, unsigned w);
/* Execute the instruction at the top of warp w's stack (status W_READY). */
void warp_issue(const struct gpu *g, uint8_t *sv, unsigned w);
/* Step past the current instruction and reconverge (barrier release,
** atomic completion). */
void warp_advance(const struct gpu *g, uint8_t *sv, unsigned w);
/* Lanes that execute the current instruction: top mask and its guard. */
uint32_t warp_exec_mask(const struct gpu *g, uint8_t *sv, unsigned w);
/* Lanes not yet exited. */
uint32_t warp_live_mask(const struct gpu *g, uint8_t *sv, unsigned w);
/* Current pc (nins when done). */
unsigned warp_pc(const struct gpu *g, const uint8_t *sv, unsigned w);
/* Byte address of the current instruction's memory operand for a lane. */
uint32_t warp_address(const struct gpu *g, uint8_t *sv, unsigned w, unsigned lane);
uint32_t warp_operand(const struct gpu *g, uint8_t *sv, unsigned w, unsigned lane,
                      const struct operand *o);
/* Is warp w's current instruction a global atom/red? */
int warp_at_global_atomic(const struct gpu *g, const uint8_t *sv, unsigned w);
/* ... any access to global memory (ld, st, atom, red, clwb, l2wb)? */
int warp_at_global_access(const struct gpu *g, const uint8_t *sv, unsigned w);
void warp_fault(const struct gpu *g, uint8_t *sv, unsigned w, int code);
const char *warp_fault_name(int code);

#endif
