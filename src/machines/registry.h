/* The machines gpumc can build, their parameters and defaults. */
#ifndef GPUMC_REGISTRY_H
#define GPUMC_REGISTRY_H

#include <stddef.h>

#include "explore/model.h"
#include "spec/spec.h"

/* An integer row whose max is PARAM_INF also takes the value `inf`. */
#define PARAM_INF 0xffffffffu
struct param_def {
	const char *name;
	unsigned def, min, max;
	const char *choices; /* "gto|any": value is the index; NULL: integer */
	size_t off;          /* offset of an unsigned in the config struct */
	const char *desc;
};

struct wiring;

/* A machine: a wiring row of components (component.h). */
struct machine_def {
	const char *name;
	const char *desc;
	const struct wiring *wiring;
};

const struct machine_def *registry_find(const char *name);
/* The machine a spec asks for: `machine NAME`, overridden by -D machine=NAME. */
const char *registry_machine(const struct spec *s);
const struct machine_def *registry_all(unsigned *n);
/* Build the spec's machine with its parameters and -D overrides. */
struct model *registry_build(const struct spec *s, struct diag *d);
/* Another instance of the machine registry_build(s) built without errors
** (a thread's own: gpumc run --threads), without printing its warnings
** again; NULL if it cannot be built. */
struct model *registry_rebuild(const struct spec *s);
/* Build machine `name` (a reference for refines/equals) on the spec's
** kernel: the spec's settings and -D overrides that `name` has a parameter
** for apply, the others (the spec's own machine's) are left out.  Errors
** at file:line:col as for registry_build; an unknown name is an error at
** (line, col) of the spec. */
struct model *registry_build_as(struct spec *s, const char *name, int line, int col, struct diag *d);
/* Set the machine's defaults, then apply every `set`/-D in order; unknown
** keys and bad values are errors at their file:line:col. */
int params_apply(const struct machine_def *md, const struct spec *s, void *cfg, struct diag *d);
void registry_print(FILE *f, int json);
/* Make the machine a spec runs on its `machine` statement: -D machine=OTHER
** (or set machine = OTHER) moves there, and under -D the spec's own settings
** OTHER cannot take are dropped with params_apply's warnings -- so gpumc
** print writes a spec that means what the spec with its -D does. */
void registry_resolve_machine(struct spec *s);

#endif
