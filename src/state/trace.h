/*
** Counterexample files (--trace FILE, read by `gpumc replay`).  Plain text,
** one step per line, like SPIN's trail but self-describing:
**
**   gpumc-trace 1
**   spec PATH
**   spec-hash HEX          XXH3 of the spec text; replay warns on mismatch
**   define KEY=VALUE       one per -D, in order
**   verdict fail KIND      what the run found
**   cycle K                a livelock: the trace is a lasso, its steps after
**                          the K-th return to the state after step K
**   schedule N             then N lines "INDEX<TAB>description"
**   [schedule M ...]       a determinism violation has two
**   end
*/
#ifndef GPUMC_TRACE_H
#define GPUMC_TRACE_H

#include <stdint.h>

#include "util/diag.h"

/* A path from the initial state: at each step, the index of the action
** taken in the list the model's enabled() gives in that state (the model
** contract makes that list deterministic, so the indices are all a replay
** needs).  Indices are 16 bits, here and in the file, which bounds a
** model's enabled() list to TRACE_MAX_ACTIONS entries. */
#define TRACE_MAX_ACTIONS 65536u
struct trace {
	uint32_t len;
	uint16_t *step;
};

struct trace_file {
	char *spec;
	uint64_t hash;
	char **defines;
	int ndefines;
	char *verdict;
	int64_t cycle; /* -1, or a lasso's loop start (steps after it repeat) */
	struct trace sched[2];
	char **text[2]; /* description of each step, as recorded */
	int nsched;
};

int trace_write(const char *path, const struct trace_file *tf, struct strbuf *err);
int trace_read(const char *path, struct trace_file *tf, struct diag *d);
void trace_file_free(struct trace_file *tf);

#endif
