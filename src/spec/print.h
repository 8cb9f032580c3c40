/*
** The spec printer: a parsed spec back as spec text (gpumc print), and the
** test that says whether two parsed specs mean the same (the print/re-parse
** oracle of issue 15: t/print.sh, t/fuzz-target.c, and print's own check).
*/
#ifndef GPUMC_SPEC_PRINT_H
#define GPUMC_SPEC_PRINT_H

#include "spec/spec.h"
#include "util/strbuf.h"

/* Canonical text of s: machine, name, note, set lines (the -D overrides
** among them), variables with every initial value written out, the kernel
** from the decoded instructions (generated labels, one register per
** .reg line), host and recovery programs, properties, expectations.
** Parsing it gives a spec that spec_same() finds equal to s.  0, or -1
** with the reason in why when a value cannot be written in the language
** (a -D value holding a '"' or a newline). */
int spec_print(const struct spec *s, struct strbuf *out, struct strbuf *why);
/* 1 when a and b mean the same: every declaration, decoded instruction
** (its text and position aside), host and recovery step, property,
** parameter and expectation; else 0 with the first difference in why. */
int spec_same(const struct spec *a, const struct spec *b, struct strbuf *why);
/* spec_print, then parse the text back (as path) and require spec_same
** and a fixpoint (printing the re-parsed spec gives the same text): 0,
** or -1 with the reason in why -- the printer's own honesty check. */
int spec_print_checked(const struct spec *s, struct strbuf *out, struct strbuf *why);

#endif
