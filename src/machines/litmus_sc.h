/*
** Sequential consistency for litmus tests: one memory, every instruction
** of every thread performed atomically in some interleaving.
*/
#ifndef GPUMC_LITMUS_SC_H
#define GPUMC_LITMUS_SC_H

#include "explore/model.h"
#include "ir/litmus.h"

struct model *litmus_sc_model(const struct litmus *t, struct strbuf *err);

#endif
