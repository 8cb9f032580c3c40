/*
** Mutation fuzzer for the spec front end (and what runs after it): mutate
** each seed spec many times with a fixed PRNG, parse, build the machine,
** bind the properties and explore a few hundred states.  Any crash, hang
** or sanitizer report fails the test; inputs that parse are counted so the
** run shows it reached past the parser.  Seeds named *.litmus go through
** the litmus parser and every memory model.  Deterministic for a given seed.
**
** usage: fuzz ITERATIONS SEED FILE...   (TAP on stdout)
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "litmus/litmus.h"
#include "litmus/run.h"
#include "machines/registry.h"
#include "util/strbuf.h"

static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static const char *const dict[] = {
	"kernel", "end", "\n", ";", "[", "]", "{", "}", "@%p0 ", "%r0", "%tid", "bra L", "L:", "exit",
	"bar.sync 0", "red.global.add.f32 [x], %f0", "atom.global.cas.u32 %r0, [x], 1, 2", "0f7FC00000",
	"-", "4294967296", "99999999999999999999", "1e40", ".reg .u32 %r<4000>", "check forall ",
	"check deterministic", "x[1000000]", "set threads_per_warp = 32", "set ctas = 4096",
	"set stack_depth = 1", "/*", "\"", "global .u32 q[16777216]", "0:%r0", " /\\ ", "\\/", "==",
	"ld.shared.u32 %r0, [%r0 + -4]", "st.global.u32 [x + 3], 1", "div.u32 %r0, 1, 0", "%laneid",
	"shared .u32 s[4]", "iota(0, -1)", "random(1, 5, 2)", "file(\"/nonexistent\")", "\t", "#",
	/* litmus (Fig. 3.2 and abstract notation) */
	"GPU_PTX", "{", "}", "|", "P0@cta 0,gpu 0", "ScopeTree", "(cta T0 T1)", "membar.gl",
	"ld.volatile.u32 r0, [x]", "atom.cas r1, [y], 0, 1", "exists (0:r0=1 /\\ ~1:r1=0)",
	"~exists", "forall", "expect ics13: allowed", "0:r9=x", "x=4294967295", "(* ", "*)",
};

/* A mutated litmus test: parse it, then run it under every model with a
** small state cap so the engines see what the parser let through. */
static int fuzz_litmus(const char *file, const char *text, long i, long *runs)
{
	struct strbuf err;
	sb_init(&err);
	struct litmus *t = litmus_parse_string(file, text, &err);
	int parsed = t != NULL;
	if (t) {
		struct explore_opts o;
		explore_opts_default(&o);
		o.max_states = 2000;
		o.search = i % 2 ? SEARCH_DFS : SEARCH_BFS;
		for (int k = 0; lit_models[k]; k++) {
			struct lit_run r;
			sb_reset(&err);
			if (lit_run_model(t, lit_models[k], NULL, &o, (int)(i % 3 == 0), &r, &err) == 0) {
				(*runs)++;
				lit_run_free(&r);
			}
		}
		litmus_free(t);
	}
	sb_free(&err);
	return parsed;
}

static char *mutate(const char *src)
{
	size_t n = strlen(src);
	char *b = xmalloc(n * 2 + 256);
	memcpy(b, src, n + 1);
	int k = 1 + (int)(rnd() % 4);
	for (int m = 0; m < k; m++) {
		size_t p = n ? rnd() % n : 0;
		switch (rnd() % 5) {
		case 0: /* flip a byte to a printable or control character */
			if (n)
				b[p] = (char)(rnd() % 2 ? 32 + rnd() % 95 : rnd() % 32);
			if (n && !b[p])
				b[p] = '\n';
			break;
		case 1: { /* insert a dictionary token */
			const char *t = dict[rnd() % (sizeof dict / sizeof dict[0])];
			size_t l = strlen(t);
			if (n + l >= n * 2 + 200)
				break;
			memmove(b + p + l, b + p, n - p + 1);
			memcpy(b + p, t, l);
			n += l;
			break;
		}
		case 2: { /* delete a range */
			size_t l = rnd() % 16;
			if (p + l > n)
				l = n - p;
			memmove(b + p, b + p + l, n - p - l + 1);
			n -= l;
			break;
		}
		case 3: /* truncate */
			b[p] = 0;
			n = p;
			break;
		default: { /* duplicate a short span */
			size_t l = rnd() % 40;
			if (p + l > n)
				l = n - p;
			if (n + l >= n * 2 + 200)
				break;
			memmove(b + p + l, b + p, n - p + 1);
			n += l;
			break;
		}
		}
	}
	return b;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fputs("usage: fuzz ITERATIONS SEED FILE...\n", stderr);
		return 2;
	}
	long iters = atol(argv[1]);
	rs = strtoull(argv[2], NULL, 0) | 1;
	printf("1..%d\n", argc - 3);
	for (int f = 3; f < argc; f++) {
		FILE *fp = fopen(argv[f], "r");
		if (!fp) {
			printf("not ok %d - cannot open %s\n", f - 2, argv[f]);
			continue;
		}
		struct strbuf src;
		sb_init(&src);
		int c;
		while ((c = fgetc(fp)) != EOF)
			sb_putc(&src, (char)c);
		fclose(fp);
		size_t fl = strlen(argv[f]);
		int litmus = fl > 7 && strcmp(argv[f] + fl - 7, ".litmus") == 0;
		long parsed = 0, built = 0;
		for (long i = 0; i < iters; i++) {
			char *m = mutate(sb_str(&src));
			if (litmus) {
				parsed += fuzz_litmus(argv[f], m, i, &built);
				free(m);
				continue;
			}
			struct diag d;
			diag_init(&d);
			struct spec *s = spec_parse(argv[f], m, &d);
			if (s) {
				parsed++;
				struct model *md = registry_build(s, &d);
				if (md) {
					built++;
					struct explore_opts o;
					explore_opts_default(&o);
					o.max_states = 300;
					o.search = i % 2 ? SEARCH_DFS : SEARCH_BFS;
					/* properties as the spec wrote them, resolved when they can be */
					struct property *props = xcalloc((size_t)s->nprops + 1, sizeof *props);
					unsigned np = 0;
					struct strbuf err;
					sb_init(&err);
					for (int k = 0; k < s->nprops; k++) {
						if (s->props[k].p.cond && !expr_resolve(s->props[k].p.cond, md, &err) &&
						    s->props[k].p.kind != P_DETERMINISTIC)
							props[np++] = s->props[k].p;
					}
					sb_free(&err);
					struct explore_result r;
					explore(md, props, np, &o, &r);
					explore_result_free(&r);
					free(props);
					md->destroy(md);
				}
				spec_free(s);
			}
			diag_free(&d);
			free(m);
		}
		printf("ok %d - %s: %ld mutants, %ld parsed, %ld %s, no crash\n", f - 2, argv[f], iters, parsed, built,
		       litmus ? "model runs" : "built and explored");
		sb_free(&src);
	}
	return 0;
}
