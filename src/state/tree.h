/*
** Tree (collapse) compression of exact states (tree.c says how): the
** visited set's store in --tree mode.  States are numbered 0, 1, 2, ... in
** insertion order; nothing is ever lost.  Sequential only (the node table
** is not shared between threads).
*/
#ifndef GPUMC_TREE_H
#define GPUMC_TREE_H

#include <stddef.h>
#include <stdint.h>

struct tree;

struct tree *tree_new(size_t sv_size);
void tree_free(struct tree *t);
/* Look sv up; insert it when absent.  Its number; *is_new tells which. */
uint32_t tree_find_or_put(struct tree *t, const uint8_t *sv, int *is_new);
/* The number of sv, or UINT32_MAX when it was never put. */
uint32_t tree_find(struct tree *t, const uint8_t *sv);
/* State number k, decoded into out (sv_size bytes); returns out. */
const uint8_t *tree_decode(struct tree *t, uint32_t k, uint8_t *out);
uint64_t tree_count(const struct tree *t);
uint64_t tree_nodes(const struct tree *t);
/* Bytes held: both tables, the node keys and the roots. */
size_t tree_bytes(const struct tree *t);
/* The bytes the next insertion may allocate at once (visited.h). */
size_t tree_grow_bytes(const struct tree *t);

#endif
