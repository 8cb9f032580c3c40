/*
** Lexer for kernel specs (and anything else written in gpumc's
** PTX-flavoured syntax).  Words may contain dots and a leading '%', so
** "ld.global.f32" and "%tid.x" are one token each; the parser splits them.
** Newlines are tokens because statements end at a newline or a ';'.
*/
#ifndef GPUMC_LEX_H
#define GPUMC_LEX_H

#include <stdint.h>

#include "util/diag.h"

enum tok {
	T_EOF = 0,
	T_NL,    /* end of statement: newline or ';' */
	T_WORD,  /* identifier, opcode, register, keyword */
	T_INT,   /* integer literal (ival) */
	T_FLOAT, /* float literal (fval; fbits for 0fXXXXXXXX) */
	T_STR,   /* "string" */
	T_PUNCT  /* one of , [ ] { } ( ) + - * = < > ! : @ / \ & | ~ ^ and ==, !=, <=, >=, <>,
	            &&, ||, /\, \/, and the UTF-8 connectives and, or */
};

struct token {
	enum tok t;
	char text[128];
	int64_t ival;
	double fval;
	int is_hexfloat;
	uint32_t fbits;
	int line, col;
};

struct lexer {
	const char *file, *src, *p;
	const char *last_end; /* end of the token before the current one */
	int line, col;
	struct token tok; /* current token */
	struct diag *d;
	char found[160]; /* lex_found() result */
};

/* "Integers must fit in 32 bits": as signed or as unsigned, so -1 and
** 4294967295 are both the word 0xffffffff, and nothing wraps. */
static inline int fits32(int64_t v)
{
	return v >= -2147483648LL && v <= 4294967295LL;
}

void lex_init(struct lexer *lx, const char *file, const char *src, struct diag *d);
/* The same for text that starts at line:col of file (a part of it). */
void lex_init_at(struct lexer *lx, const char *file, const char *src, int line, int col, struct diag *d);
/* Advance to the next token. */
void lex_next(struct lexer *lx);
int lex_is(const struct lexer *lx, const char *punct_or_word);
/* Describe the current token for "expected X, found Y" messages. */
const char *lex_found(struct lexer *lx);

#endif
