/*
** GPU litmus tests (Sorensen thesis, Fig. 3.2 and the abstract notation):
** the front end that reads them into the litmus IR (ir/litmus.h), names
** their GPU configuration, and the `gpumc litmus` subcommand.
*/
#ifndef GPUMC_LITMUS_H
#define GPUMC_LITMUS_H

#include "ir/litmus.h"

/* Parse one file.  Returns NULL with every error found, one
** "file:line:col: error: message" per line, in err. */
struct litmus *litmus_parse_file(const char *path, struct strbuf *err);
struct litmus *litmus_parse_string(const char *file, const char *text, struct strbuf *err);

/* The GPU configuration name of the test's placement (thesis §2.5.1):
** D-warp:S-cta-Shared, D-warp:S-cta-Global, D-cta:S-ker-Global, or a
** description of a mixed one. */
void litmus_config(const struct litmus *t, struct strbuf *out);

/* Re-place the threads and locations into one of the thesis's three
** configurations (D-warp:S-cta-Shared, D-warp:S-cta-Global,
** D-cta:S-ker-Global).  0, or -1 for an unknown name. */
int litmus_set_config(struct litmus *t, const char *config);

/* The subcommand. */
int litmus_main(int argc, char **argv);

#endif
