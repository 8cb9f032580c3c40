/*
** SIGINT and SIGTERM end a long run the way SPIN and TLC do: the search
** stops at its next state, the statistics so far are printed with the
** verdict "incomplete", and gpumc exits 3.  A second signal kills at once.
*/
#ifndef GPUMC_INTERRUPT_H
#define GPUMC_INTERRUPT_H

#include <signal.h>
#include <stdatomic.h>

/* 0, or the signal that asked gpumc to stop.  Atomic, not volatile
** sig_atomic_t: the threads of --threads read it while the handler writes
** (a lock-free atomic int is safe in a signal handler too). */
extern _Atomic int interrupted;

void interrupt_install(void);
/* "SIGINT" or "SIGTERM": the signal received, for reports */
const char *interrupt_name(void);

#endif
