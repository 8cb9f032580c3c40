#include "config.h"
#include "state/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

int trace_write(const char *path, const struct trace_file *tf, struct strbuf *err)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		sb_printf(err, "cannot write trace file %s: %s", path, strerror(errno));
		return -1;
	}
	/* the file is line-based: a path's newlines (and so its backslashes)
	** are escaped as backslash-n and two backslashes; trace_read undoes it */
	fputs("gpumc-trace 1\nspec ", f);
	for (const char *p = tf->spec; *p; p++)
		fputs(*p == '\n' ? "\\n" : *p == '\\' ? "\\\\" : (char[2]){ *p, 0 }, f);
	fprintf(f, "\nspec-hash %016" PRIx64 "\n", tf->hash);
	for (int i = 0; i < tf->ndefines; i++)
		fprintf(f, "define %s\n", tf->defines[i]);
	fprintf(f, "verdict %s\n", tf->verdict);
	if (tf->cycle >= 0)
		fprintf(f, "cycle %lld\n", (long long)tf->cycle);
	for (int s = 0; s < tf->nsched; s++) {
		fprintf(f, "schedule %u\n", tf->sched[s].len);
		for (uint32_t i = 0; i < tf->sched[s].len; i++)
			fprintf(f, "%u\t%s\n", tf->sched[s].step[i], tf->text[s] ? tf->text[s][i] : "");
	}
	fputs("end\n", f);
	if (fclose(f)) {
		sb_printf(err, "cannot write trace file %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static char *chomp(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

int trace_read(const char *path, struct trace_file *tf, struct diag *d)
{
	memset(tf, 0, sizeof *tf);
	tf->cycle = -1;
	FILE *f = fopen(path, "r");
	if (!f) {
		diag_at(d, path, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	int ln = 0, ok = 0;
	int s = -1;
	uint32_t want = 0;
	while (getline(&line, &cap, f) > 0) {
		ln++;
		chomp(line);
		if (ln == 1) {
			if (strcmp(line, "gpumc-trace 1")) {
				diag_at(d, path, 1, 1, "not a gpumc trace (expected 'gpumc-trace 1')");
				break;
			}
			continue;
		}
		if (s >= 0 && tf->sched[s].len < want) {
			char *tab = strchr(line, '\t');
			char *end;
			unsigned long v = strtoul(line, &end, 10);
			if (end == line || (*end && *end != '\t') || v >= TRACE_MAX_ACTIONS) {
				diag_at(d, path, ln, 1, "expected a step 'INDEX<TAB>description'");
				break;
			}
			tf->sched[s].step[tf->sched[s].len] = (uint16_t)v;
			tf->text[s][tf->sched[s].len++] = xstrdup(tab ? tab + 1 : "");
			continue;
		}
		if (!strncmp(line, "spec ", 5)) {
			free(tf->spec);
			tf->spec = xstrdup(line + 5);
			char *w = tf->spec;
			for (const char *r = tf->spec; *r; r++)
				*w++ = *r == '\\' && (r[1] == 'n' || r[1] == '\\') ? (*++r == 'n' ? '\n' : '\\') : *r;
			*w = 0;
		} else if (!strncmp(line, "spec-hash ", 10)) {
			tf->hash = strtoull(line + 10, NULL, 16);
		} else if (!strncmp(line, "define ", 7)) {
			tf->defines = xrealloc(tf->defines, sizeof(char *) * (size_t)(tf->ndefines + 1));
			tf->defines[tf->ndefines++] = xstrdup(line + 7);
		} else if (!strncmp(line, "verdict ", 8)) {
			free(tf->verdict);
			tf->verdict = xstrdup(line + 8);
		} else if (!strncmp(line, "cycle ", 6)) {
			char *end;
			unsigned long k = strtoul(line + 6, &end, 10);
			if (*end || end == line + 6 || k > 100000000ul) {
				diag_at(d, path, ln, 7, "expected the step a cycle starts after");
				break;
			}
			tf->cycle = (int64_t)k;
		} else if (!strncmp(line, "schedule ", 9)) {
			char *end;
			unsigned long n = strtoul(line + 9, &end, 10);
			if (s >= 1 || *end || n > 100000000ul) {
				diag_at(d, path, ln, 10, s >= 1 ? "at most two schedules" : "expected a step count");
				break;
			}
			s++;
			want = (uint32_t)n;
			tf->sched[s].step = xmalloc(sizeof(uint16_t) * (n ? n : 1));
			tf->text[s] = xcalloc(n ? n : 1, sizeof(char *));
			tf->nsched = s + 1;
		} else if (!strcmp(line, "end")) {
			ok = 1;
			break;
		} else {
			diag_at(d, path, ln, 1, "unexpected line in trace file");
			break;
		}
	}
	free(line);
	fclose(f);
	if (ok && (!tf->spec || !tf->nsched || tf->sched[tf->nsched - 1].len != want)) {
		diag_at(d, path, ln, 1, "incomplete trace file (missing spec or steps)");
		ok = 0;
	}
	if (!ok && d->nerr == 0)
		diag_at(d, path, ln, 1, "trace file ends early (no 'end')");
	return ok ? 0 : -1;
}

void trace_file_free(struct trace_file *tf)
{
	free(tf->spec);
	for (int i = 0; i < tf->ndefines; i++)
		free(tf->defines[i]);
	free(tf->defines);
	free(tf->verdict);
	for (int s = 0; s < tf->nsched; s++) {
		for (uint32_t i = 0; i < tf->sched[s].len; i++)
			free(tf->text[s][i]);
		free(tf->text[s]);
		free(tf->sched[s].step);
	}
	memset(tf, 0, sizeof *tf);
}
