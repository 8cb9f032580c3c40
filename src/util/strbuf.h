/* Growable string buffer: the one way text is built in gpumc. */
#ifndef GPUMC_STRBUF_H
#define GPUMC_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct strbuf {
	char *s;    /* always NUL-terminated once anything was added */
	size_t len, cap;
};

void sb_init(struct strbuf *b);
void sb_free(struct strbuf *b);
void sb_reset(struct strbuf *b);
void sb_puts(struct strbuf *b, const char *s);
void sb_putc(struct strbuf *b, char c);
void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* v in decimal, as "%" PRIu64 would write it (no printf on hot paths:
** a report's thousands of names and values) */
void sb_put_uint(struct strbuf *b, uint64_t v);
/* JSON string literal with quotes and escapes. */
void sb_json_str(struct strbuf *b, const char *s);
/* s as a Graphviz (DOT) string: quoted, with " and \ escaped */
void sb_dot_str(struct strbuf *b, const char *s);
const char *sb_str(const struct strbuf *b);
/* Allocation that never returns NULL: gpumc reports and exits instead. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
/* Zeroed, at an address that is a multiple of align (a power of 2). */
void *xcalloc_aligned(size_t align, size_t n);
char *xstrdup(const char *s);

#endif
