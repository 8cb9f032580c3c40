/* Diagnostics for input errors: "file:line:col: message", collected so a
** caller can print them (or return them in JSON) and exit with code 2. */
#ifndef GPUMC_DIAG_H
#define GPUMC_DIAG_H

#include "util/strbuf.h"

struct diag {
	struct strbuf msg; /* every error so far, one per line */
	int nerr;
};

void diag_init(struct diag *d);
void diag_free(struct diag *d);
void diag_at(struct diag *d, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif
