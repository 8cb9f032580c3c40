/*
** Litmus reports: herd7-shaped text, JSON, model comparison rows, and the
** soundness/precision report against observed hardware counts.
*/
#ifndef GPUMC_LITMUS_REPORT_H
#define GPUMC_LITMUS_REPORT_H

#include "litmus/run.h"

struct strbuf;

/* herd7 shape: Test/States/outcomes/Ok|No/Witnesses/Condition/Observation. */
void lit_report_herd(const struct litmus *t, const struct lit_run *r, struct strbuf *out);
/* One JSON object (no trailing newline). */
void lit_report_json(const struct litmus *t, const struct lit_run *r, struct strbuf *out);
/* "Allowed" when some final state satisfies the condition's proposition. */
const char *lit_verdict(const struct lit_run *r);

/* Observed hardware counts (thesis Tables 4.1-5.8, 6.1), one line per
** test and configuration: "CONFIG NAME FERMI KEPLER MAXWELL" ('-' = not
** measured).  A line "chips NAME..." (1 to 3 names; the output of an
** --emit-cuda harness has one) renames the count columns. */
struct lit_obs {
	char config[32];
	char name[64];
	long count[3];      /* per chip of lit_obsdata; -1 unknown */
	int line;
	int used;
};

struct lit_obsdata {
	struct lit_obs *e;
	int n;
	int nchips;
	char chip[3][48];   /* Fermi Kepler Maxwell unless a chips line says */
};

int lit_obs_load(const char *path, struct lit_obsdata *d, struct strbuf *err);
void lit_obs_free(struct lit_obsdata *d);
/* The entry for test t, or NULL. */
struct lit_obs *lit_obs_find(struct lit_obsdata *d, const struct litmus *t);
/* Does the documentation forbid the outcome: every thread separates each
** pair of its memory accesses with membar.gl (or .sys), all ld/st are .cg? */
int lit_doc_forbidden(const struct litmus *t);

#endif
