#include "config.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("gpumc: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc_aligned(size_t align, size_t n)
{
	n = (n + align - 1) / align * align; /* aligned_alloc wants a multiple */
	void *p = aligned_alloc(align, n ? n : align);
	if (!p)
		oom();
	return memset(p, 0, n);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

void sb_init(struct strbuf *b)
{
	b->s = NULL;
	b->len = b->cap = 0;
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	sb_init(b);
}

static void reserve(struct strbuf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void sb_reset(struct strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = 0;
}

void sb_puts(struct strbuf *b, const char *s)
{
	size_t n = strlen(s);
	reserve(b, n);
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

void sb_putc(struct strbuf *b, char c)
{
	reserve(b, 1);
	b->s[b->len++] = c;
	b->s[b->len] = 0;
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	reserve(b, 63); /* most fit: formatted once (a report prints thousands) */
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->s[b->len] = 0;
		return;
	}
	if (b->len + (size_t)n >= b->cap) {
		reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
** forms, no surrogates, at most U+10FFFF), or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also a sequence cut short by the end of the string */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) || (s[0] == 0xf0 && s[1] < 0x90) ||
	    (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

void sb_json_str(struct strbuf *b, const char *s)
{
	sb_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n = c >= 0x80 ? utf8_len((const unsigned char *)s) : 1;
		if (n == 0) {
			/* not UTF-8 (a Latin-1 file name, a stray byte): JSON must be */
			sb_puts(b, "\\ufffd");
			continue;
		}
		if (n > 1) {
			for (int i = 0; i < n; i++)
				sb_putc(b, s[i]);
			s += n - 1;
			continue;
		}
		if (c == '"' || c == '\\')
			sb_printf(b, "\\%c", c);
		else if (c == '\n')
			sb_puts(b, "\\n");
		else if (c == '\t')
			sb_puts(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			sb_printf(b, "\\u%04x", c);
		else
			sb_putc(b, (char)c);
	}
	sb_putc(b, '"');
}

void sb_dot_str(struct strbuf *b, const char *s)
{
	sb_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_putc(b, '\\');
		sb_putc(b, *s);
	}
	sb_putc(b, '"');
}

const char *sb_str(const struct strbuf *b)
{
	return b->s ? b->s : "";
}

void sb_put_uint(struct strbuf *b, uint64_t v)
{
	char d[20];
	unsigned n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while (v /= 10);
	reserve(b, n);
	while (n)
		b->s[b->len++] = d[--n];
	b->s[b->len] = 0;
}
