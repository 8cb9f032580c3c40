#!/bin/sh
# Each GPUMC_CHECK_* switch turns its check on, and only where set to
# something other than "" and "0" (util/env.h env_on): with the check's
# GPUMC_TEST_FAULT plant (a kept answer the check must find wrong), a
# run stops with the check's message (SIGABRT, exit 134) where the switch
# is on, and runs to its end without it where the switch is 0 or unset;
# without the plant the check passes.  Every other test of a check
# (t/hash.sh, t/readyset.sh, t/kept.sh, t/persist-pending.sh) passes just
# as well where the switch turns nothing on: this one does not.  A plant
# is named in a comma-separated list, in full (env_fault).  (Planting
# env_on's answer 0 turns 10 rows red; its answer for "0" as on, 5.)
. "$srcdir/t/lib.sh"
# switch, plant, what the check says, the command (run from $srcdir);
# GPUMC_CHECK_READY's three readers each: concrete.c's driver (READY-18),
# warp.c's kept branch lanes (WARP-7), compose.c's issue at once (WARP-8)
cat > "$T/rows" <<'ROWS'
GPUMC_CHECK_HASH	hash	GPUMC_CHECK_HASH: a successor's incremental hash	check --por=off specs/baseline/fp32-reduction.gpu
GPUMC_CHECK_PERSIST	persist	GPUMC_CHECK_PERSIST: 1 warps in an l2wb pass counted, 0 by a scan	run --seed 1 -D persistency=epoch-cta -D epoch_op=l2wb bench/specs/persist-lbm.gpu
GPUMC_CHECK_READY	ready	internal error: READY-18: at cycle 0	run --seed 1 -D ctas=2 bench/specs/pagerank.gpu
GPUMC_CHECK_READY	warp-7	internal error: WARP-7: warp 0's branch at pc 15	run --seed 1 -D ctas=2 bench/specs/pagerank.gpu
GPUMC_CHECK_READY	warp-8	internal error: WARP-8: issue_alone of kind	run --seed 1 -D ctas=2 bench/specs/pagerank.gpu
ROWS
checked='internal error|GPUMC_CHECK_' # what any check says
plan $(($(grep -c . "$T/rows") * 5 + 4))
# go SWITCH-VALUE PLANTS SWITCH CMD...: rc and stderr of the run
go() {
	v=$1 f=$2 s=$3
	shift 3
	if [ "$v" = unset ]; then
		( cd "$srcdir" && unset "$s" && GPUMC_TEST_FAULT=$f "$GPUMC" "$@" > "$T/out" 2> "$T/err" )
	else
		( cd "$srcdir" && env "$s=$v" GPUMC_TEST_FAULT="$f" "$GPUMC" "$@" > "$T/out" 2> "$T/err" )
	fi
	rc=$?
}
while IFS='	' read -r sw plant says cmd; do
	# shellcheck disable=SC2086
	go 1 "$plant" "$sw" $cmd
	ok "$([ $rc -eq 134 ] && grep -qF "$says" "$T/err"; echo $?)" "$sw=1, plant $plant: the check stops the run (exit $rc)"
	for v in 0 unset; do
		# shellcheck disable=SC2086
		go $v "$plant" "$sw" $cmd
		ok "$([ $rc -lt 64 ] && ! grep -Eq "$checked" "$T/err"; echo $?)" "$sw $v, plant $plant: no check (exit $rc)"
	done
	# shellcheck disable=SC2086
	go 1 "" "$sw" $cmd
	ok "$([ $rc -lt 64 ] && ! grep -Eq "$checked" "$T/err"; echo $?)" "$sw=1, no plant: the check passes (exit $rc)"
	# shellcheck disable=SC2086
	go 1 "x,$plant,y" "$sw" $cmd
	ok "$([ $rc -eq 134 ]; echo $?)" "$sw=1, plant $plant named in a list: the check stops the run (exit $rc)"
done < "$T/rows"
# a plant named in part is none
go 1 hashx GPUMC_CHECK_HASH check --por=off specs/baseline/fp32-reduction.gpu
ok "$([ $rc -lt 64 ]; echo $?)" "GPUMC_TEST_FAULT=hashx names no plant (exit $rc)"
go 1 ha GPUMC_CHECK_HASH check --por=off specs/baseline/fp32-reduction.gpu
ok "$([ $rc -lt 64 ]; echo $?)" "GPUMC_TEST_FAULT=ha names no plant (exit $rc)"

# every invariant a GPUMC_CHECK_READY run stops on ("internal error: NAME"
# in the source; MEM-2 stops any run) is named in the man page's entry,
# READY-n up to the highest in the source
sed -n '/^\.B GPUMC_CHECK_READY$/,/^\.TP$/p' "$srcdir/man/gpumc.1" | sed 's/\\-/-/g' | tr '\n' ' ' > "$T/man"
grep -rhoE 'internal error: [A-Z]+-[A-Z0-9]+' "$srcdir/src" | sed 's/.*: //' | grep -v '^READY-\|^MEM-2$' | sort -u > "$T/names"
is "$(while read -r x; do grep -qw -- "$x" "$T/man" || printf '%s ' "$x"; done < "$T/names")" "" \
	"man gpumc, GPUMC_CHECK_READY: names each of $(tr '\n' ' ' < "$T/names")"
top=$(grep -rhoE 'READY-[0-9]+' "$srcdir/src" | sort -t- -k2 -n -u | tail -1)
like "$T/man" "to $top " "man gpumc, GPUMC_CHECK_READY: READY-n up to $top, the source's highest"
