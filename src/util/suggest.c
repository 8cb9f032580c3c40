#include "config.h"
#include "util/suggest.h"

#include <string.h>

/* Optimal string alignment distance; words longer than 63 are never close. */
static unsigned distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	unsigned d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

const char *suggest(const char *word, const char *const *cands, unsigned n)
{
	const char *best = NULL;
	unsigned bd = 3;
	for (unsigned i = 0; i < n; i++) {
		unsigned dd = distance(word, cands[i]);
		if (dd < bd && 2 * dd < strlen(word)) {
			bd = dd;
			best = cands[i];
		}
	}
	return best;
}
