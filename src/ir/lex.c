#include "config.h"
#include "ir/lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void lex_init(struct lexer *lx, const char *file, const char *src, struct diag *d)
{
	lex_init_at(lx, file, src, 1, 1, d);
}

void lex_init_at(struct lexer *lx, const char *file, const char *src, int line, int col, struct diag *d)
{
	lx->file = file;
	lx->src = lx->p = src;
	lx->line = line;
	lx->col = col;
	lx->d = d;
	lex_next(lx);
}

static void adv(struct lexer *lx)
{
	if (*lx->p == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->p++;
}

static int word_start(int c)
{
	return isalpha(c) || c == '_' || c == '%' || c == '$' || c == '.';
}

static int word_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$' || c == '%';
}

static void skip_space(struct lexer *lx)
{
	for (;;) {
		char c = *lx->p;
		if (c == ' ' || c == '\t' || c == '\r') {
			adv(lx);
		} else if (c == '#' || (c == '/' && lx->p[1] == '/')) {
			while (*lx->p && *lx->p != '\n')
				adv(lx);
		} else if (c == '/' && lx->p[1] == '*') {
			int l = lx->line, col = lx->col;
			adv(lx);
			adv(lx);
			while (*lx->p && !(*lx->p == '*' && lx->p[1] == '/'))
				adv(lx);
			if (!*lx->p) {
				diag_at(lx->d, lx->file, l, col, "unterminated comment");
				return;
			}
			adv(lx);
			adv(lx);
		} else {
			return;
		}
	}
}

/* Names and strings longer than a token holds are errors: truncating
** them could bind an undeclared name to a declared one. */
static void too_long(struct lexer *lx, const struct token *t, const char *what)
{
	diag_at(lx->d, lx->file, t->line, t->col, "%s longer than %d characters", what, (int)sizeof t->text - 1);
}

static void lex_number(struct lexer *lx, struct token *t)
{
	const char *s = lx->p;
	char *end;
	if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F') && isxdigit((unsigned char)s[2])) {
		/* PTX hex float 0fXXXXXXXX: the exact single-precision bits */
		unsigned long v = strtoul(s + 2, &end, 16);
		if (end - (s + 2) != 8)
			diag_at(lx->d, lx->file, lx->line, lx->col,
			        "hex float literal needs exactly 8 hex digits after 0f");
		t->t = T_FLOAT;
		t->is_hexfloat = 1;
		t->fbits = (uint32_t)v;
	} else {
		int isf = 0;
		const char *q = s;
		if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
			q += 2;
			while (isxdigit((unsigned char)*q))
				q++;
		} else {
			while (isdigit((unsigned char)*q))
				q++;
			if (*q == '.' || *q == 'e' || *q == 'E')
				isf = 1;
		}
		if (isf) {
			t->t = T_FLOAT;
			t->fval = strtod(s, &end);
		} else {
			t->t = T_INT;
			errno = 0;
			unsigned long long v = strtoull(s, &end, 0);
			/* integers are 32-bit everywhere: a longer literal must not
			** wrap (strtoull saturates, and the cast would make it -1) */
			if (errno == ERANGE || v > 0xffffffffull) {
				diag_at(lx->d, lx->file, lx->line, lx->col, "integer literal %.*s does not fit in 32 bits",
				        (int)(end - s), s);
				v = 0;
			}
			t->ival = (int64_t)v;
		}
		if (isalpha((unsigned char)*end) || *end == '_') {
			diag_at(lx->d, lx->file, lx->line, lx->col, "malformed number");
			while (word_char((unsigned char)*end))
				end++;
		}
	}
	size_t n = (size_t)(end - s);
	if (n >= sizeof t->text)
		n = sizeof t->text - 1;
	memcpy(t->text, s, n);
	t->text[n] = 0;
	while (lx->p < end)
		adv(lx);
}

void lex_next(struct lexer *lx)
{
	struct token *t = &lx->tok;
	lx->last_end = lx->p;
again:
	skip_space(lx);
	memset(t, 0, sizeof *t);
	t->line = lx->line;
	t->col = lx->col;
	char c = *lx->p;
	if (!c) {
		t->t = T_EOF;
		strcpy(t->text, "end of file");
		return;
	}
	if (c == '\n' || c == ';') {
		t->t = T_NL;
		strcpy(t->text, c == ';' ? ";" : "end of line");
		adv(lx);
		return;
	}
	if (isdigit((unsigned char)c)) {
		lex_number(lx, t);
		return;
	}
	if (c == '"') {
		size_t n = 0;
		adv(lx);
		while (*lx->p && *lx->p != '"' && *lx->p != '\n') {
			if (n + 1 < sizeof t->text)
				t->text[n++] = *lx->p;
			else if (n++ + 1 == sizeof t->text)
				too_long(lx, t, "string");
			adv(lx);
		}
		if (*lx->p != '"')
			diag_at(lx->d, lx->file, t->line, t->col, "unterminated string");
		else
			adv(lx);
		t->t = T_STR;
		return;
	}
	/* ~exists is a word; ~ before anything else is negation */
	if ((word_start((unsigned char)c) && !(c == '.' && isdigit((unsigned char)lx->p[1]))) ||
	    strncmp(lx->p, "~exists", 7) == 0) {
		size_t n = 0;
		do {
			if (n + 1 < sizeof t->text)
				t->text[n++] = *lx->p;
			else if (n++ + 1 == sizeof t->text)
				too_long(lx, t, "name");
			adv(lx);
		} while (word_char((unsigned char)*lx->p));
		t->t = T_WORD;
		return;
	}
	/* longest first: the logical connectives as UTF-8 (and, or) */
	static const char *multi[] = { "\xe2\x88\xa7", "\xe2\x88\xa8", "==", "!=", "<=", ">=", "<>", "&&", "||",
	                               "/\\", "\\/", NULL };
	for (int i = 0; multi[i]; i++) {
		size_t n = strlen(multi[i]);
		if (strncmp(lx->p, multi[i], n) == 0) {
			t->t = T_PUNCT;
			memcpy(t->text, multi[i], n + 1);
			for (size_t k = 0; k < n; k++)
				adv(lx);
			return;
		}
	}
	if (strchr(",[]{}()+-*=<>!:@/\\&|~^", c)) {
		t->t = T_PUNCT;
		t->text[0] = c;
		adv(lx);
		return;
	}
	diag_at(lx->d, lx->file, t->line, t->col, "unexpected character '%c'",
	        isprint((unsigned char)c) ? c : '?');
	adv(lx);
	goto again; /* a loop, not a recursion: a long run of junk must not overflow the stack */
}

int lex_is(const struct lexer *lx, const char *s)
{
	return (lx->tok.t == T_PUNCT || lx->tok.t == T_WORD) && strcmp(lx->tok.text, s) == 0;
}

const char *lex_found(struct lexer *lx)
{
	char *buf = lx->found;
	switch (lx->tok.t) {
	case T_EOF: return "end of file";
	case T_NL: return lx->tok.text[0] == ';' ? "';'" : "end of line";
	case T_STR: snprintf(buf, sizeof lx->found, "string \"%s\"", lx->tok.text); return buf;
	default: snprintf(buf, sizeof lx->found, "'%s'", lx->tok.text); return buf;
	}
}
