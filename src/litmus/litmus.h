/*
** GPU litmus tests (Sorensen thesis, Fig. 3.2 and the abstract notation):
** the parsed test, shared by every model that runs it.
*/
#ifndef GPUMC_LITMUS_H
#define GPUMC_LITMUS_H

#include <stdint.h>

#include "explore/prop.h"

struct strbuf;

/* Static limits; a test exceeding them is rejected with a message. */
enum {
	LIT_MAXT = 8,    /* testing threads                      */
	LIT_MAXL = 8,    /* memory locations                      */
	LIT_MAXR = 16,   /* registers per thread                  */
	LIT_MAXI = 24,   /* instructions per thread               */
	LIT_MAXX = 8     /* expectation declarations per test     */
};

/* Addresses held in registers: location i lives at LIT_ADDR(i). */
#define LIT_ADDR_BASE 0x1000u
#define LIT_ADDR_STRIDE 0x100u
#define LIT_ADDR(i) (LIT_ADDR_BASE + (uint32_t)(i) * LIT_ADDR_STRIDE)

enum lit_op { LI_LD, LI_ST, LI_ATOM, LI_FENCE, LI_MOV, LI_ALU, LI_SETP };
enum lit_cache { LC_NONE, LC_CA, LC_CG, LC_CS, LC_WB, LC_VOLATILE };
enum lit_fence { LF_CTA, LF_GL, LF_SYS };
enum lit_alu { AL_ADD, AL_SUB, AL_MUL, AL_XOR, AL_AND, AL_OR };
enum lit_atom { LA_CAS, LA_EXCH, LA_ADD };
enum lit_cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
enum lit_region { RG_GLOBAL, RG_SHARED };
enum lit_cond { LC_EXISTS, LC_NOT_EXISTS, LC_FORALL };

enum lit_opnd_kind { OK_NONE, OK_REG, OK_IMM, OK_LOC };
struct lit_opnd {
	enum lit_opnd_kind kind;
	int reg;        /* OK_REG: register index in the thread      */
	uint32_t imm;   /* OK_IMM                                    */
	int loc;        /* OK_LOC: the location's address            */
};

struct lit_ins {
	enum lit_op op;
	int cache;      /* enum lit_cache (ld/st)                    */
	int fence;      /* enum lit_fence                            */
	int alu;        /* enum lit_alu                              */
	int atom;       /* enum lit_atom                             */
	int cmp;        /* enum lit_cmp                              */
	int is_signed;  /* .s32: signed comparison                   */
	int pred;       /* guard register, -1 if none                */
	int pred_neg;   /* @!p                                       */
	int dst;        /* destination register, -1 if none          */
	struct lit_opnd addr;    /* ld/st/atom address                */
	struct lit_opnd a, b, c; /* value operands                    */
	int line, col;
	char *text;     /* as written, for traces                    */
};

struct lit_thread {
	int id;          /* n of Tn, as used in conditions n:reg      */
	int cta, warp;   /* from the ScopeTree (dense indices)        */
	int nins;
	struct lit_ins ins[LIT_MAXI];
	int nregs;
	char regname[LIT_MAXR][16];
	uint32_t reginit[LIT_MAXR];
	int regpred[LIT_MAXR];   /* declared .pred                   */
};

struct lit_loc {
	char name[16];
	int region;      /* enum lit_region                          */
	uint32_t init;
	int mapped;      /* given a region in the memory map          */
};

/* "// expect: ics13=Allowed sc=Forbidden" lines: what the suite checks. */
struct lit_expect {
	char model[24];
	int allowed;
};

struct litmus {
	char *file;
	char name[64];
	char arch[16];
	int nthreads;
	struct lit_thread thr[LIT_MAXT];
	int nlocs;
	struct lit_loc loc[LIT_MAXL];
	int nctas;
	int has_scope;   /* a ScopeTree was given                    */
	enum lit_cond kind;
	struct expr *cond;
	char *cond_text;
	int nexpect;
	struct lit_expect expect[LIT_MAXX];
	/* where the condition starts, for messages */
	int cond_line;
};

/* Parse one file.  Returns NULL with "file:line:col: message" in err. */
struct litmus *litmus_parse_file(const char *path, struct strbuf *err);
struct litmus *litmus_parse_string(const char *file, const char *text, struct strbuf *err);
void litmus_free(struct litmus *t);

/* The GPU configuration name of the test's placement (thesis §2.5.1):
** D-warp:S-cta-Shared, D-warp:S-cta-Global, D-cta:S-ker-Global, or a
** description of a mixed one. */
void litmus_config(const struct litmus *t, struct strbuf *out);

/* Re-place the threads and locations into one of the thesis's three
** configurations (D-warp:S-cta-Shared, D-warp:S-cta-Global,
** D-cta:S-ker-Global).  0, or -1 for an unknown name. */
int litmus_set_config(struct litmus *t, const char *config);

/* Location numbering shared by all models: memory locations are
** 0..nlocs-1, register r of thread index i is nlocs + i*LIT_MAXR + r. */
int litmus_lookup(const struct litmus *t, int tid, const char *name,
                  enum vtype *type, struct strbuf *err);
void litmus_loc_name(const struct litmus *t, int loc, struct strbuf *out);
enum vtype litmus_loc_type(const struct litmus *t, int loc);
/* Index of the location whose address is v, or -1. */
int litmus_addr_loc(const struct litmus *t, uint32_t v);

/* The subcommand. */
int litmus_main(int argc, char **argv);

#endif
