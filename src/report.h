/* Rendering results, as text for people or JSON for programs. */
#ifndef GPUMC_REPORT_H
#define GPUMC_REPORT_H

#include "cli.h"
#include "explore/concrete.h"
#include "util/strbuf.h"

/* "pass", "fail deterministic", "incomplete" */
void verdict_string(const struct explore_result *r, struct strbuf *out);
/* The spec, its machine and what is checked: printed before exploring, so
** a long run says what it is doing before its progress lines */
void report_header(struct strbuf *out, const struct job *j);
/* Verdict, counterexample and statistics of an explored job (text: after
** report_header) */
void report_check(struct strbuf *out, const struct job *j, const struct explore_result *r, const struct run_opts *o,
                  const char *const *status);
/* The counterexample (or exists witness) of r as a Graphviz digraph:
** steps as nodes in one cluster per component lane, the two schedules of a
** determinism violation branching after their shared prefix, the
** conflicting pair in red. */
void report_dot(struct strbuf *out, const struct job *j, const struct explore_result *r);
/* A step's lane: the unit its text starts with ("warp 3", "partition 0",
** "host step", "DAB flush", "CRASH:"), its first two words. */
void report_lane(const char *desc, struct strbuf *lane);
/* Values of the locations, "name = value, ..." */
void report_locs(const struct model *m, const uint8_t *sv, const int *locs, unsigned n,
                 struct strbuf *out, int json);
void report_stats_json(struct strbuf *out, const struct explore_result *r, size_t sv_size);

#endif
