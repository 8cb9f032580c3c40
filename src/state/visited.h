/*
** Visited sets.  Exact: every state is kept (compressed: a bitmap of its
** non-zero words and those words), the table holds (32 hash bits, state
** number); equal hashes are confirmed with memcmp, so nothing is ever
** lost.  Tree: exact too, each state a root in a table of shared subtrees
** (state/tree.c), a few bytes a state; sequential only.  Compact: the table holds 64-bit XXH3
** fingerprints only (8 bytes a slot); two different states with the same
** fingerprint are merged, with probability bounded by vs_omission().
** States are numbered 0, 1, 2, ... in insertion order in both modes.
*/
#ifndef GPUMC_VISITED_H
#define GPUMC_VISITED_H

#include <stddef.h>
#include <stdint.h>

struct visited;

enum vs_mode { VS_EXACT, VS_COMPACT, VS_TREE };
struct visited *vs_new(size_t sv_size, enum vs_mode mode);
void vs_free(struct visited *v);
/* Look sv (with hash h) up; insert it when absent.  Returns its number;
** *is_new tells which happened. */
uint32_t vs_find_or_put(struct visited *v, const uint8_t *sv, uint64_t h, int *is_new);
/* Exact mode only: the number of state sv (hash h), or UINT32_MAX when it
** was never put. */
uint32_t vs_find(struct visited *v, const uint8_t *sv, uint64_t h);
/* The hash of state number idx, whose vector is sv: the one memoized in
** exact mode (no rehash), 0 in tree mode (which takes no hash), else
** computed from sv. */
uint64_t vs_hash(const struct visited *v, uint32_t idx, const uint8_t *sv);
/* State number idx (exact mode only), decoded into a buffer of the set's
** that stays valid until the next vs_state call. */
const uint8_t *vs_state(const struct visited *v, uint32_t idx);
/* The same, decoded into out (sv_size bytes) when it is compressed. */
const uint8_t *vs_decode(const struct visited *v, uint32_t idx, uint8_t *out);
uint64_t vs_count(const struct visited *v);
/* Whether vs_find_or_put and vs_find read their hash argument (tree mode
** does not: a caller may pass 0 and spare the hashing). */
int vs_takes_hash(const struct visited *v);
/* "flat", "tree" or "fingerprints": how states are kept (reports) */
const char *vs_store_name(const struct visited *v);
size_t vs_bytes(const struct visited *v);
/* The bytes the next insertion may allocate at once, growing a table (0:
** none is due): a --memory check made before it keeps the growth from
** overshooting the limit. */
size_t vs_grow_bytes(const struct visited *v);
/* Upper bound on the probability that a compact run omitted any state:
** n(n-1)/2 pairs, each colliding with probability 2^-64 (0 when exact). */
double vs_omission(const struct visited *v);

/* Shared mode (VS_EXACT only; visited.c says how): between vs_share(v, run)
** and vs_share(v, 0) threads put states with vs_share_put, each with its
** own vs_local, and read states another thread put once they hold its
** number; vs_count and vs_bytes may be asked at any time.  When
** vs_share_full says so, every thread stops and they grow the table
** (vs_share_grow_begin).
** A put that finds sv new leaves its number unpublished: the thread
** stores what others must see with it, then calls vs_share_publish, and
** waits for no other thread in between (one that meets the slot waits). */
struct vs_local;
/* run: the numbers a thread takes at once (1: the states are numbered in
** the order they are put, and numbers are counts); 0: shared mode off */
void vs_share(struct visited *v, unsigned run);
struct vs_local *vs_local_new(struct visited *v);
void vs_local_free(struct visited *v, struct vs_local *l);
uint32_t vs_share_put(struct visited *v, struct vs_local *l, const uint8_t *sv, uint64_t h, int *is_new);
/* State idx, decoded into the thread's own buffer (valid until its next call). */
const uint8_t *vs_local_state(const struct visited *v, struct vs_local *l, uint32_t idx);
void vs_share_publish(struct visited *v, struct vs_local *l);
/* Start loading the slot where a put of a state with hash h begins, and
** when before is not NULL, the record that the slot of hash *before
** names (loaded by now) when that slot may be its state's: one call a
** successor. */
void vs_share_prefetch(const struct visited *v, uint64_t h, const uint64_t *before);
/* Start loading state idx and its hash, to be read soon. */
void vs_share_prefetch_state(const struct visited *v, uint32_t idx);
/* Numbers handed out so far: above every state's, and above vs_count by
** the numbers the runs have left (vs_share_settle renumbers; call it,
** with every thread stopped, before vs_share(v, 0)). */
uint64_t vs_share_bound(const struct visited *v);
void vs_share_settle(struct visited *v, void (*moved)(void *ctx, uint32_t from, uint32_t to), void *ctx);
int vs_share_full(const struct visited *v);
/* With every thread stopped: when vs_share_full, the table doubled in
** parts (state/slots.c); returns how many (at most most; 0: not full),
** each to be done once by vs_share_grow_part, by any thread, before any
** other call.  Then again until it returns 0. */
unsigned vs_share_grow_begin(struct visited *v, unsigned most);
void vs_share_grow_part(struct visited *v, unsigned part);

#endif
