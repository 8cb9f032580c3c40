/*
** The per-thread address-queue memory of Sorensen, Gopalakrishnan and
** Grover (ICS'13), as described in the Sorensen thesis §5.4 (Fig. 5.11):
** per-thread per-address queues with fence markers, an unordered load
** array, a memory view per thread, LM/GM propagation within the CTA and
** across the device, scoped fences.  The open choices D1-D5 of
** notes/litmus.md §3.3 are documented in gpumc-litmus(5).
**
** The repaired variant (ics13-fixed) adds scope-aware loads, cumulative
** membar.gl and an incoherent per-CTA L1 for ld.ca.
*/
#ifndef GPUMC_ADDRQUEUE_H
#define GPUMC_ADDRQUEUE_H

#include "explore/model.h"
#include "ir/litmus.h"

struct aq_params {
	int load_array;    /* loads bypass each other (relaxed coherence, CoRR) */
	int scoped_loads;  /* ics13-fixed: loads older than a membar.cta may stay
	                      pending past it and then read only values written
	                      outside the CTA                                   */
	int cumulative_gl; /* ics13-fixed: membar.gl propagates every write in
	                      the fencing thread's view to all threads           */
	int l1;            /* ics13-fixed Fermi: ld.ca may hit a stale per-CTA L1
	                      line that no fence invalidates                     */
};

/* The test a model was built for. */
const struct litmus *addrqueue_test(const struct model *m);
void aq_params_ics13(struct aq_params *p);
void aq_params_fixed(struct aq_params *p, const char *chip); /* chip may be NULL */

/* Build the machine for test t (t must outlive the model).  NULL with a
** message in err when the test exceeds the machine's limits. */
struct model *addrqueue_model(const struct litmus *t, const struct aq_params *p,
                              struct strbuf *err);

#endif
