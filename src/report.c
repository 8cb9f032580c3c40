/*
** Reports.  A counterexample is stored as action indices only; to print it
** the trace is replayed from the initial state, so descriptions are those
** of the machine itself and cannot disagree with what was explored.
*/
#include "config.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "explore/replay.h"

void verdict_string(const struct explore_result *r, struct strbuf *out)
{
	switch (r->verdict) {
	case V_PASS: sb_puts(out, "pass"); break;
	case V_FAIL: sb_printf(out, "fail %s", prop_kind_name(r->failed_kind)); break;
	case V_INCOMPLETE: sb_puts(out, "incomplete"); break;
	default: sb_puts(out, "error"); break;
	}
}

void report_locs(const struct model *m, const uint8_t *sv, const int *locs, unsigned n,
                 struct strbuf *out, int json)
{
	struct strbuf name;
	sb_init(&name);
	if (json)
		sb_putc(out, '{');
	for (unsigned i = 0; i < n; i++) {
		sb_reset(&name);
		model_loc_name(m, locs[i], &name);
		uint32_t v = m->read(m, sv, locs[i]);
		enum vtype t = model_loc_type(m, locs[i]);
		const char *nm = sb_str(&name);
		if (json) {
			if (i)
				sb_putc(out, ',');
			sb_json_str(out, nm);
			sb_putc(out, ':');
			struct strbuf v2;
			sb_init(&v2);
			value_print(v, t, &v2);
			sb_json_str(out, sb_str(&v2));
			sb_free(&v2);
		} else {
			sb_printf(out, "%s%s = ", i ? ", " : "", nm);
			value_print(v, t, out);
		}
	}
	if (json)
		sb_putc(out, '}');
	sb_free(&name);
}

static void print_schedule(struct strbuf *out, const struct model *m, const struct trace *t,
                           uint32_t mark, int json, uint8_t *sv)
{
	char **desc = xcalloc(t->len + 1, sizeof(char *));
	uint32_t n = trace_replay(m, t, sv, desc, NULL);
	if (json)
		sb_putc(out, '[');
	for (uint32_t i = 0; i < n; i++) {
		if (json) {
			sb_printf(out, "%s{\"step\":%u,\"action\":%u,\"text\":", i ? "," : "", i + 1, t->step[i]);
			sb_json_str(out, desc[i]);
			sb_putc(out, '}');
		} else {
			sb_printf(out, "  %4u. %s%s\n", i + 1, desc[i], i == mark ? "   <-- schedules diverge here" : "");
		}
		free(desc[i]);
	}
	if (json)
		sb_putc(out, ']');
	free(desc);
}

void report_stats_json(struct strbuf *out, const struct explore_result *r, size_t sv_size)
{
	sb_printf(out,
	          "{\"states\":%llu,\"transitions\":%llu,\"depth\":%u,\"terminal_states\":%llu,"
	          "\"crash_images\":%llu,\"seconds\":%.6f,\"states_per_second\":%.0f,"
	          "\"bytes_per_state\":%.2f,\"state_vector_bytes\":%zu,\"memory_bytes\":%llu,"
	          "\"omission_probability\":%.3g}",
	          (unsigned long long)r->states, (unsigned long long)r->transitions, r->depth,
	          (unsigned long long)r->terminals, (unsigned long long)r->crash_images, r->seconds,
	          r->seconds > 0 ? (double)r->states / r->seconds : 0.0,
	          r->states ? (double)r->bytes / (double)r->states : 0.0, sv_size,
	          (unsigned long long)r->bytes, r->omission);
}

/* What a pass rests on: final-state properties hold on how many terminal
** states, and whether every state can still finish. */
static void report_checked(struct strbuf *out, const struct job *j, const struct explore_result *r)
{
	unsigned nfinal = 0;
	for (unsigned k = 0; k < j->nprops; k++) {
		enum prop_kind pk = j->props[k].kind;
		nfinal += pk == P_DETERMINISTIC || pk == P_EXISTS || pk == P_NOT_EXISTS || pk == P_FORALL ||
		          pk == P_PERSISTED;
	}
	if (nfinal)
		sb_printf(out, "  %u final-state propert%s checked on %llu terminal state%s\n", nfinal,
		          nfinal == 1 ? "y" : "ies", (unsigned long long)r->terminals, r->terminals == 1 ? "" : "s");
	if (r->stuck == 0)
		sb_puts(out, "  progress: every reachable state can reach a terminal state\n");
	else if (r->stuck < 0)
		sb_puts(out, "  progress: not checked (--compact keeps no states to re-expand)\n");
}

void report_check(struct strbuf *out, const struct job *j, const struct explore_result *r, int json)
{
	const struct model *m = j->model;
	struct strbuf v;
	sb_init(&v);
	verdict_string(r, &v);
	uint8_t *sv = xmalloc(m->sv_size);
	const struct property *fp = r->failed >= 0 ? &j->props[r->failed] : NULL;
	if (json) {
		sb_puts(out, "{\"spec\":");
		sb_json_str(out, j->spec->path);
		sb_puts(out, ",\"name\":");
		sb_json_str(out, j->spec->name);
		sb_puts(out, ",\"machine\":");
		sb_json_str(out, m->name);
		sb_puts(out, ",\"properties\":[");
		for (unsigned k = 0; k < j->nprops; k++) {
			if (k)
				sb_putc(out, ',');
			sb_json_str(out, j->props[k].text);
		}
		sb_puts(out, "],\"verdict\":");
		sb_json_str(out, sb_str(&v));
		sb_puts(out, ",\"expected\":");
		if (j->spec->expect)
			sb_json_str(out, j->spec->expect);
		else
			sb_puts(out, "null");
		if (r->limit) {
			sb_puts(out, ",\"limit\":");
			sb_json_str(out, r->limit);
		}
		if (r->verdict == V_FAIL) {
			sb_puts(out, ",\"failed\":{\"kind\":");
			sb_json_str(out, prop_kind_name(r->failed_kind));
			sb_puts(out, ",\"property\":");
			sb_json_str(out, fp ? fp->text : prop_kind_name(r->failed_kind));
			sb_puts(out, ",\"why\":");
			sb_json_str(out, r->why ? r->why : "");
			sb_puts(out, "}");
		}
		int has_trace = r->verdict == V_FAIL ? r->failed_kind != P_EXISTS && r->states : r->witness;
		if (has_trace && r->failed_kind == P_DETERMINISTIC && r->verdict == V_FAIL) {
			/* schedule A is the one found first, as in the text report */
			sb_puts(out, ",\"trace\":");
			print_schedule(out, m, &r->trace2, UINT32_MAX, 1, sv);
			sb_puts(out, ",\"result\":");
			report_locs(m, sv, fp->locs, fp->nlocs, out, 1);
			sb_puts(out, ",\"trace2\":");
			print_schedule(out, m, &r->trace, UINT32_MAX, 1, sv);
			sb_puts(out, ",\"result2\":");
			report_locs(m, sv, fp->locs, fp->nlocs, out, 1);
			sb_printf(out, ",\"diverge_step\":%u", r->diverge + 1);
		} else if (has_trace) {
			sb_puts(out, r->verdict == V_FAIL ? ",\"trace\":" : ",\"witness\":");
			print_schedule(out, m, &r->trace, UINT32_MAX, 1, sv);
			struct strbuf st;
			sb_init(&st);
			model_print_state(m, sv, &st);
			sb_puts(out, ",\"final_state\":");
			sb_json_str(out, sb_str(&st));
			sb_free(&st);
		}
		if (r->terminals == 0 && r->verdict == V_PASS)
			sb_puts(out, ",\"warning\":\"no terminal state: final-state properties hold vacuously\"");
		if (r->verdict == V_FAIL && r->failed_kind == P_PROGRESS)
			sb_printf(out, ",\"cycle_step\":%u", r->cycle + 1);
		if (r->stuck >= 0)
			sb_printf(out, ",\"progress_checked\":true,\"stuck_states\":%lld", (long long)r->stuck);
		sb_puts(out, ",\"stats\":");
		report_stats_json(out, r, m->sv_size);
		sb_puts(out, "}\n");
	} else {
		sb_printf(out, "spec %s (%s), machine %s\n", j->spec->name, j->spec->path, m->name);
		for (unsigned k = 0; k < j->nprops; k++)
			sb_printf(out, "  check %s\n", j->props[k].text);
		if (r->verdict == V_FAIL) {
			sb_printf(out, "VIOLATED: %s: %s\n", fp ? fp->text : prop_kind_name(r->failed_kind),
			          r->why ? r->why : "");
			if (r->failed_kind == P_DETERMINISTIC) {
				sb_printf(out, "schedule A (%u steps):\n", r->trace2.len);
				print_schedule(out, m, &r->trace2, r->diverge, 0, sv);
				sb_puts(out, "  result A: ");
				report_locs(m, sv, fp->locs, fp->nlocs, out, 0);
				sb_printf(out, "\nschedule B (%u steps):\n", r->trace.len);
				print_schedule(out, m, &r->trace, r->diverge, 0, sv);
				sb_puts(out, "  result B: ");
				report_locs(m, sv, fp->locs, fp->nlocs, out, 0);
				sb_printf(out, "\n  the schedules share their first %u steps and diverge at step %u\n",
				          r->diverge, r->diverge + 1);
			} else if (r->failed_kind == P_EXISTS) {
				sb_puts(out, "  (no trace: the condition holds in no final state)\n");
			} else if (r->failed_kind == P_IDEMPOTENT && r->states == 0) {
				sb_puts(out, "  (found by the static analysis, before exploring; what it names is what an undo log must cover)\n");
			} else {
				sb_printf(out, "trace (%u step%s):\n", r->trace.len, r->trace.len == 1 ? "" : "s");
				print_schedule(out, m, &r->trace, UINT32_MAX, 0, sv);
				if (r->failed_kind == P_PROGRESS)
					sb_printf(out, "  steps %u..%u form a cycle: they return to the state after step %u, and no\n"
					          "  run from these states reaches a terminal state (livelock)\n",
					          r->cycle + 1, r->trace.len, r->cycle);
				sb_puts(out, "state at the end of the trace:\n");
				model_print_state(m, sv, out);
				if ((r->failed_kind == P_RECOVERABLE || r->failed_kind == P_PERSISTED ||
				     r->failed_kind == P_DURABLE) && m->durable) {
					/* what survives: the durable image, after recovery */
					uint8_t *img = xmalloc(m->sv_size);
					m->durable(m, sv, img);
					unsigned nl = model_observables(m, NULL, 0);
					int *locs = xmalloc(sizeof(int) * (nl ? nl : 1));
					model_observables(m, locs, nl);
					struct strbuf why;
					sb_init(&why);
					if (m->recover && r->failed_kind == P_RECOVERABLE) {
						sb_puts(out, "durable image after the crash: ");
						report_locs(m, img, locs, nl, out, 0);
						sb_putc(out, '\n');
						if (m->recover(m, img, &why))
							sb_puts(out, "recovery program ran on the durable image\n");
						else
							sb_printf(out, "recovery program failed: %s\n", sb_str(&why));
					}
					sb_free(&why);
					sb_puts(out, r->failed_kind == P_RECOVERABLE ? "image after the crash and recovery: "
					             : r->failed_kind == P_DURABLE ? "durable image after the crash: "
					                                           : "durable image at the end: ");
					report_locs(m, img, locs, nl, out, 0);
					sb_printf(out, "\nbroken invariant: %s\n", fp ? fp->text : "?");
					free(locs);
					free(img);
				}
			}
			if (j->spec->note)
				sb_printf(out, "note: %s\n", j->spec->note);
		} else if (r->verdict == V_INCOMPLETE) {
			sb_printf(out, "INCOMPLETE: %s reached before the state space was exhausted; nothing violated so far\n",
			          r->limit);
		} else {
			sb_puts(out, "all properties hold\n");
		}
		if (r->terminals == 0 && r->verdict == V_PASS)
			sb_puts(out, "warning: no run of the kernel finishes (every path loops), so properties about\n"
			             "  final states hold vacuously\n");
		if (r->verdict == V_PASS)
			report_checked(out, j, r);
		if (r->witness && r->verdict != V_FAIL)
			sb_printf(out, "  exists: witness found (%u steps)\n", r->trace.len);
		sb_printf(out, "states %llu, transitions %llu, depth %u, terminal %llu",
		          (unsigned long long)r->states, (unsigned long long)r->transitions, r->depth,
		          (unsigned long long)r->terminals);
		if (r->crash_images)
			sb_printf(out, ", crash images %llu", (unsigned long long)r->crash_images);
		sb_printf(out, "\n%.3f s, %.0f states/s, %zu-byte state vector, %.1f bytes/state stored, %.1f MB\n",
		          r->seconds, r->seconds > 0 ? (double)r->states / r->seconds : 0.0, m->sv_size,
		          r->states ? (double)r->bytes / (double)r->states : 0.0, (double)r->bytes / 1048576.0);
		if (r->omission > 0)
			sb_printf(out, "compact mode: P[some state omitted] <= %.3g\n", r->omission);
		sb_printf(out, "no reductions applied\nverdict: %s", sb_str(&v));
		if (j->spec->expect)
			sb_printf(out, " (expected: %s%s)", j->spec->expect,
			          strcmp(j->spec->expect, sb_str(&v)) ? ", MISMATCH" : "");
		sb_puts(out, "\n");
	}
	free(sv);
	sb_free(&v);
}
