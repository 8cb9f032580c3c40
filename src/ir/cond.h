/*
** The final-state condition grammar shared by kernel specs (`check
** exists ...`) and litmus tests (`exists (...)`): one parser over the
** PTX-flavoured tokens of ir/lex.c, parameterised by how the front end
** resolves names.
**
**   or   := and { ('\/' | '||' | 'or' | '∨') and }
**   and  := cmp { ('/\' | '&&' | '&' | '^' | 'and' | '∧') cmp }
**   cmp  := sum [ ('==' | '=' | '!=' | '<>' | '<' | '<=' | '>' | '>=') sum ]
**           (a bare location or number means "!= 0")
**   sum  := atom { ('+' | '-') atom }
**   atom := '(' or ')' | ('!' | '~' | 'not') atom | true | false
**         | ['-'] NUMBER | NAME ['[' INDEX ']'] | TID ':' REGISTER
*/
#ifndef GPUMC_IR_COND_H
#define GPUMC_IR_COND_H

#include "explore/prop.h"
#include "ir/lex.h"

/* How names resolve; every hook may be NULL. */
struct cond_names {
	/* A bare NAME on the right of a comparison (litmus: the location's
	** address): turn e into a constant and return 1, keep it a location
	** with 0, or report at e and return -1. */
	int (*value)(void *ctx, struct expr *e, struct diag *d);
	/* Every location the condition reads, once parsed: 0, or report at e
	** and return -1. */
	int (*loc)(void *ctx, struct expr *e, struct diag *d);
	void *ctx;
	int multiline; /* newlines are blanks (litmus), not the end (spec) */
};

/* Parse a condition at the lexer's token; NULL after reporting errors.
** Leaves the lexer at the first token after it. */
struct expr *cond_parse(struct lexer *lx, const struct cond_names *nm);
/* One location as written (NAME, NAME[i], TID:REGISTER), as an E_LOC. */
struct expr *cond_parse_loc(struct lexer *lx);

#endif
