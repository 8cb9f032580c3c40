/* Idempotency analysis of a kernel (persistency paper §IV, notes §4.7). */
#ifndef GPUMC_IDEMPOTENCY_H
#define GPUMC_IDEMPOTENCY_H

#include "ir/program.h"
#include "util/strbuf.h"

/* 1 when re-executing the kernel after a partial run gives the same
** result: no global atomics, and no global variable it may both read and
** write (an anti-dependence: Clobber = Read_in ∩ Write is empty).  Else 0
** with the reasons (the variables an undo log must cover) in why. */
int idem_kernel(const struct program *p, struct strbuf *why);

#endif
