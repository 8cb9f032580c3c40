#!/bin/sh
# --json of every command (issue 16 item 4), validated with jq (Debian's
# jq, installed by quickstart.sh): valid UTF-8 JSON, numbers as numbers,
# structured trace steps, persistency images, per-run cycles, final values.
. "$srcdir/t/lib.sh"
if ! command -v jq >/dev/null; then
	echo "1..0 # SKIP jq not installed (apt-get install jq; quickstart.sh does)"
	exit 0
fi
plan 20
# jqok FILE FILTER DESCRIPTION: jq -e FILTER holds on FILE
jqok() {
	jq -e "$2" "$1" >"$T/jq" 2>&1
	ok $? "$3"
	[ "$(cat "$T/jq")" = true ] || sed 's/^/# /' "$T/jq" | head -5
}
run "$GPUMC" check --json "$SPECS/baseline/fp32-reduction.gpu"
jqok "$T/out" '.verdict == "fail deterministic" and (.stats.states | type) == "number" and .stats.states > 0' \
	"check, violation: verdict and numeric statistics"
jqok "$T/out" '(.result.sum | type) == "number" and (.result2.sum | type) == "number" and .result.sum != .result2.sum' \
	"check, determinism: the two results as numbers"
jqok "$T/out" '[.trace[] | (.step | type) == "number" and (.text | type) == "string"] | all and length == 12' \
	"check: structured trace steps"
jqok "$T/out" '[.trace[] | .changes // [] | .[] | .location == "sum" and (.to | type) == "number"] | any' \
	"check: steps carry the values they change"
run "$GPUMC" check --json "$SPECS/baseline/int-reduction.gpu"
jqok "$T/out" '.verdict == "pass" and .final_values.sum == 26' "check, pass: final values"
run "$GPUMC" check --json --outcomes "$SPECS/baseline/fp32-reduction.gpu"
jqok "$T/out" '[.outcomes[].values.sum] | sort == [0, 1, 2]' "check --outcomes: the outcome list"
run "$GPUMC" check --json "$SPECS/persist/T5.gpu"
jqok "$T/out" '.durable_image.flag == 1 and .durable_image."out[0]" == 10 and .recovered_image."out[0]" == 3' \
	"check, persistency: the durable image and the image after recovery"
run "$GPUMC" run --json --runs 5 "$SPECS/baseline/fp32-reduction.gpu"
jqok "$T/out" '(.cycles_per_run | length) == 5 and ([.cycles_per_run[] | type == "number"] | all) and (.cycles.min | type) == "number"' \
	"run: per-run cycles"
jqok "$T/out" '[.results[].values.sum | type == "number"] | all' "run: result values as numbers"
run "$GPUMC" suite --json "$SPECS/weakmem"
jqok "$T/out" '.total == 9 and .mismatches == 0 and .interrupted == false and ([.specs[].states | type == "number"] | all)' \
	"suite: rows and totals"
run "$GPUMC" litmus --json --model ics13 "$SPECS/litmus/cta-global/MP+membar.ctas.litmus"
jqok "$T/out" '.[0].verdict == "Allowed" and .[0].positive == 1' "litmus: verdict and counts"
run "$GPUMC" list --json
jqok "$T/out" '[.machines[].name] | index("dab") != null' "list: the machines"
# errors are JSON too, and a file name that is not UTF-8 still gives valid JSON
bad=$(printf 'caf\351.gpu')
printf 'machine baseline\nkernel\n    exit\nend\ncheck deterministic nosuch\n' >"$T/$bad"
run "$GPUMC" check --json "$T/$bad"
jqok "$T/out" '.verdict == "error" and (.errors | test("unknown variable"))' "input error: JSON with the message"
# (jq itself accepts bad UTF-8 silently: iconv checks the bytes)
iconv -f UTF-8 -t UTF-8 "$T/out" >/dev/null 2>&1 && grep -qF 'caf\ufffd.gpu' "$T/out"
ok $? "a Latin-1 file name is written as \\ufffd: the output is valid UTF-8"

# run --timeline: Chrome trace-event JSON, one row per lane
run "$GPUMC" run --timeline "$T/tl.json" "$SPECS/dab/D2.gpu"
jqok "$T/tl.json" '[.traceEvents[] | select(.ph == "X") | (.ts | type) == "number" and .dur >= 1] | all and length > 10' \
	"run --timeline: one complete event per action, in cycles"
jqok "$T/tl.json" '[.traceEvents[] | select(.ph == "M") | .args.name] | (index("warp 0") != null) and (index("DAB flush") != null) and (index("partition 0") != null)' \
	"run --timeline: rows for the warps, the DAB flush and the partition"
jqok "$T/tl.json" '[.traceEvents[] | select(.ph == "X" and (.name | test("partition 0 performs")))] | length == 8' \
	"run --timeline: D2's eight flushed atomics reach partition 0"

# check: which store kept the states (stats.store)
for m in "--exact flat" "--tree tree" "--compact fingerprints"; do
	set -- $m
	run "$GPUMC" check --json "$1" "$SPECS/baseline/int-reduction.gpu"
	jqok "$T/out" ".stats.store == \"$2\"" "check $1: stats.store \"$2\""
done
