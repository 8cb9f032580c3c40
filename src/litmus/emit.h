/*
** gpumc litmus --emit-cuda DIR FILE...: a CUDA testing harness per test
** (the thesis's testing framework, ch. 3-4), written as source only.
*/
#ifndef GPUMC_LITMUS_EMIT_H
#define GPUMC_LITMUS_EMIT_H

#include "litmus/litmus.h"

struct strbuf;

/* The CUDA program for t (one .cu file); 0, or -1 with a message. */
int lit_emit_cuda(const struct litmus *t, const char *stem, struct strbuf *out, struct strbuf *err);
/* The Makefile building and running the programs named stems[0..n). */
void lit_emit_makefile(const char *const *stems, int n, struct strbuf *out);
/* Write DIR/STEM.cu for each file and DIR/Makefile; the exit status
** (0, or 2 after an error, each reported on stderr). */
int lit_emit_dir(const char *dir, char **files, int n);
/* A file-name stem for the test: its name with [^A-Za-z0-9_+.-] as '_'. */
void lit_emit_stem(const struct litmus *t, char *stem, size_t n);

#endif
