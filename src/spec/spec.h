/*
** Kernel specs (*.gpu): machine, parameters, memory, kernel, properties and
** the expected verdict.  See man/gpumc-spec.5 for the language.
*/
#ifndef GPUMC_SPEC_H
#define GPUMC_SPEC_H

#include <stdint.h>

#include "explore/prop.h"
#include "ir/program.h"
#include "util/diag.h"

struct param_set {
	char *key, *value;
	const char *file; /* spec path, or "command line" for -D */
	int line, col;
};

/* A property as written: locations are resolved once the machine exists. */
struct spec_prop {
	struct property p;
	char **loc_names;   /* deterministic: location names (NULL: defaults) */
	long *loc_index;
	int *loc_tid;
	int *loc_line, *loc_col;
	int line, col;
	int machine_line, machine_col; /* refines/equals: the machine's name */
};

struct spec {
	char *path;
	char *text;
	uint64_t text_hash;   /* XXH3 of the text: replay checks it */
	char *name;
	char *machine;        /* "baseline" unless the spec says otherwise */
	int machine_line, machine_col;
	struct param_set *params;
	int nparams;
	struct program prog;
	struct spec_prop *props;
	int nprops;
	char *expect;         /* "pass", "fail deterministic", ... ; NULL: none */
	int expect_line;
	/* `expect VERDICT on MACHINE`: the expectation when the spec runs on
	** that machine (-D machine=...); job_load() puts it in expect */
	char **expect_on, **expect_on_machine;
	int nexpect_on;
	char *note;           /* `note "..."`: printed with a violation */
};

/* Parse a spec file.  Returns NULL with messages in d on error. */
struct spec *spec_load(const char *path, struct diag *d);
struct spec *spec_parse(const char *path, const char *text, struct diag *d);
/* The expectation for the machine the spec runs on: an `expect ... on
** MACHINE` for it replaces the unkeyed one. */
void spec_expect_for(struct spec *s, const char *machine);
/* Add a -D key=value override (later ones win over the spec's `set`). */
int spec_define(struct spec *s, const char *kv, struct diag *d);
/* Look up a parameter's final value (last setting wins); NULL if unset. */
const struct param_set *spec_param(const struct spec *s, const char *key);
void spec_free(struct spec *s);
struct lexer;
/* The value of a set line at the lexer's token, read to its end; NULL when
** the token cannot start one (the printer asks whether a value reads back
** unquoted). */
char *spec_value_read(struct lexer *lx);

#endif
