/* --check-model: the model contract of explore/model.h, verified on a state. */
#ifndef GPUMC_CONTRACT_H
#define GPUMC_CONTRACT_H

#include "explore/model.h"

struct strbuf;

#define CONTRACT_OK (-2)
/* Check state sv whose enabled actions are act[0..n): CONTRACT_OK; -1 when
** the state itself breaks the contract (enabled() not deterministic, a
** component invariant); or the index of the action whose apply() breaks it
** (not deterministic, a slice it did not declare).  why says what. */
int contract_check(const struct model *m, const uint8_t *sv, const struct action *act, unsigned n,
                   struct strbuf *why);

#endif
