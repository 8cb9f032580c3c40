/* "did you mean": the closest of a few known names to a misspelt one. */
#ifndef GPUMC_SUGGEST_H
#define GPUMC_SUGGEST_H

/* The candidate closest to word by edit distance (insert, delete,
** substitute, swap two neighbours), or NULL when none is close enough to
** be a likely misspelling: at most 2 edits, and fewer than half of the
** word's letters. */
const char *suggest(const char *word, const char *const *cands, unsigned n);

#endif
