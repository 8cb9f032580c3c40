#!/bin/bash
# bench/explore.sh -- exhaustive-exploration throughput of gpumc, side by
# side with SPIN on Promela twins (DESIGN.md section 7).
#
# For every spec and size (grown with -D: more CTAs/warps, more lanes and so
# more atomics per warp, more SMs) it prints gpumc's states, transitions,
# states/s, bytes/state and peak RSS in the default exact mode and with
# --compact.  For the two specs with a Promela twin (bench/promela/*.pml,
# whose state graph is isomorphic to the gpumc model, so SPIN stores exactly
# as many states) it also runs SPIN in the same invocation and prints SPIN's
# states, states/s, peak RSS, whether the counts match, and the ratio
# gpumc states/s / SPIN states/s for both gpumc modes.
#
# Builds nothing: expects ./build/gpumc (or $GPUMC).  SPIN is optional
# (`apt-get install spin`, done by quickstart.sh); without it, or without a
# C compiler for pan.c, the SPIN columns are skipped.  Peak RSS comes from
# /usr/bin/time -v, else from a tiny getrusage() wrapper compiled on the fly,
# else it is shown as "-".
#
# A last table grows D2 (bench/specs/d2-scale.gpu) from 2 to 16 warps and
# gives states, transitions and seconds with and without partial-order
# reduction (POR_TIMEOUT seconds per run without, default 60).
#
# usage: bench/explore.sh [--quick] [--repeat N] [--no-spin] [--no-baseline] [--no-twins]
#   --quick        only the smaller sizes (about fifteen seconds in all)
#   --repeat N     run every measurement N times and keep the best states/s
#                  (default 1; the machine may be shared, so 3 is steadier)
#   --no-spin      gpumc columns only
#   --no-baseline  skip the bundled specs of specs/baseline
#   --no-twins     skip the specs with Promela twins
# environment: GPUMC (gpumc binary), SPIN (spin binary), CC (compiler for
#   pan.c, default gcc), PAN_CFLAGS (default -O2), SPIN_TIMEOUT (seconds
#   per pan run, default 300)
#
# How SPIN is run: spin -o3 -a (statement merging off, so one Promela
# statement or d_step is one transition, as one warp-instruction or ROP step
# is one gpumc transition), pan.c compiled with -O2 -DSAFETY -DNOREDUCE
# -DNOCLAIM (no partial-order reduction, like gpumc), ./pan -m100000 -wN with
# N sized to the state count (as a SPIN user would).  SPIN's states/s is
# states stored / pan's elapsed time; gpumc's is its own stats (exploration
# time only, like pan's).  SPIN's "transitions" counts stored+matched, one
# more than gpumc's edge count (the initial state).

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
GPUMC=${GPUMC:-$root/build/gpumc}
SPIN=${SPIN:-spin}
CC=${CC:-gcc}
PAN_CFLAGS=${PAN_CFLAGS:--O2}
SPIN_TIMEOUT=${SPIN_TIMEOUT:-300}

quick=0 use_spin=1 do_base=1 do_twins=1 repeat=1
while [ $# -gt 0 ]; do
	a=$1
	shift
	case $a in
	--quick) quick=1 ;;
	--repeat) repeat=${1:-}; shift
		case $repeat in ''|*[!0-9]*|0) echo "explore.sh: --repeat needs a positive number" >&2; exit 2 ;; esac ;;
	--repeat=*) repeat=${a#--repeat=}
		case $repeat in ''|*[!0-9]*|0) echo "explore.sh: --repeat needs a positive number" >&2; exit 2 ;; esac ;;
	--no-spin) use_spin=0 ;;
	--no-baseline) do_base=0 ;;
	--no-twins) do_twins=0 ;;
	-h|--help) sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "explore.sh: unknown option $a (see --help)" >&2; exit 2 ;;
	esac
done

if [ ! -x "$GPUMC" ]; then
	echo "explore.sh: no gpumc binary at $GPUMC (build it, or set GPUMC=...)" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpumc-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# run a private copy, so a rebuild during the run cannot mix two binaries
gpumc_src=$GPUMC
cp "$GPUMC" "$tmp/gpumc" && GPUMC=$tmp/gpumc

# {=== peak RSS ===========================================================

rss_mode=none
if [ -x /usr/bin/time ] && /usr/bin/time -v -o "$tmp/t" true >/dev/null 2>&1 &&
   grep -q 'Maximum resident set size' "$tmp/t"; then
	rss_mode=time
elif command -v "$CC" >/dev/null 2>&1; then
	cat > "$tmp/rss.c" <<'EOF'
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
/* rss OUT CMD ARGS...: run CMD, write its peak RSS in KiB to OUT */
int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	pid_t p = fork();
	if (p == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	int st = 0;
	waitpid(p, &st, 0);
	struct rusage r;
	getrusage(RUSAGE_CHILDREN, &r);
	FILE *f = fopen(argv[1], "w");
	if (f) {
		fprintf(f, "%ld\n", r.ru_maxrss);
		fclose(f);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
EOF
	"$CC" -O1 -o "$tmp/rss" "$tmp/rss.c" >/dev/null 2>&1 && rss_mode=wrap
fi

# measure OUTFILE CMD...: run CMD with stdout to OUTFILE; sets $rss (KiB or -)
# and $rc.
measure() {
	local out=$1
	shift
	rss=-
	case $rss_mode in
	time)
		/usr/bin/time -v -o "$tmp/t" "$@" > "$out" 2> "$tmp/err"
		rc=$?
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$tmp/t")
		;;
	wrap)
		"$tmp/rss" "$tmp/r" "$@" > "$out" 2> "$tmp/err"
		rc=$?
		rss=$(cat "$tmp/r" 2>/dev/null)
		;;
	*)
		"$@" > "$out" 2> "$tmp/err"
		rc=$?
		;;
	esac
	[ -n "$rss" ] || rss=-
}

# }===

# jget FILE KEY: a scalar from gpumc's one-line JSON
jget() {
	grep -o "\"$2\":\"\{0,1\}[^,}\"]*" "$1" | head -n 1 | sed 's/^[^:]*:"\{0,1\}//'
}

# human-readable numbers
hnum() { # 1234567 -> 1.23M
	awk -v x="$1" 'BEGIN { if (x == "" || x == "-") { print "-"; exit }
		if (x >= 1e9) printf "%.2fG\n", x / 1e9; else if (x >= 1e6) printf "%.2fM\n", x / 1e6;
		else if (x >= 1e4) printf "%.1fK\n", x / 1e3; else printf "%d\n", x }'
}
mib() { # KiB -> MiB
	awk -v x="$1" 'BEGIN { if (x == "" || x == "-") print "-"; else printf "%.0f\n", x / 1024 }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b + 0 == 0) print "-";
		else printf "%.2fx\n", a / b }'
}

# {=== SPIN availability ==================================================

spin_ok=0
spin_why=
if [ $use_spin = 0 ]; then
	spin_why="--no-spin given"
elif ! command -v "$SPIN" >/dev/null 2>&1; then
	spin_why="spin is not installed (apt-get install spin): SPIN columns skipped"
elif ! command -v "$CC" >/dev/null 2>&1; then
	spin_why="no C compiler ($CC) for pan.c: SPIN columns skipped"
else
	spin_ok=1
fi

# }===

# best_of VAR VALUE: keep the larger number in VAR
best_of() {
	local cur=${!1:-}
	if [ -z "$cur" ] || awk -v a="$2" -v b="$cur" 'BEGIN { exit !(a + 0 > b + 0) }'; then
		printf -v "$1" '%s' "$2"
	fi
}

# gpumc_run SPEC DEFINES...: sets g_* (exact) and c_* (compact)
gpumc_run() {
	local spec=$1
	shift
	local defs=() k
	for d in "$@"; do defs+=(-D "$d"); done
	g_sps= c_sps= g_note=
	for ((k = 0; k < repeat; k++)); do
		measure "$tmp/g.json" "$GPUMC" check --json -q --por=off "${defs[@]}" "$spec"
		g_rss=$rss g_rc=$rc
		best_of g_sps "$(jget "$tmp/g.json" states_per_second)"
	done
	g_states=$(jget "$tmp/g.json" states)
	g_trans=$(jget "$tmp/g.json" transitions)
	g_bps=$(jget "$tmp/g.json" bytes_per_state)
	g_sv=$(jget "$tmp/g.json" state_vector_bytes)
	g_verdict=$(jget "$tmp/g.json" verdict)
	[ -n "$g_verdict" ] || g_verdict="error rc=$g_rc: $(head -n 1 "$tmp/err")"
	[ "$g_verdict" != error ] || g_verdict="error: $(sed -n 's/.*"errors":"\([^"]*\)".*/\1/p' "$tmp/g.json" | sed 's/\\n$//')"
	for ((k = 0; k < repeat; k++)); do
		measure "$tmp/c.json" "$GPUMC" check --json -q --compact --por=off "${defs[@]}" "$spec"
		c_rss=$rss
		best_of c_sps "$(jget "$tmp/c.json" states_per_second)"
	done
	c_states=$(jget "$tmp/c.json" states)
	c_bps=$(jget "$tmp/c.json" bytes_per_state)
	[ "$c_states" = "$g_states" ] || g_note="--compact found $c_states states (exact: $g_states)"
}

# spin_run PML EXPECTED_STATES SPIN_DEFINES...: sets s_*
spin_run() {
	local pml=$1 want=$2
	shift 2
	s_states=- s_sps=- s_rss=- s_sv=- s_note=
	local d="$tmp/spin"
	rm -rf "$d"
	mkdir -p "$d"
	local sdefs=()
	for x in "$@"; do sdefs+=("-D$x"); done
	if ! (cd "$d" && "$SPIN" -o3 "${sdefs[@]}" -a "$pml" > spin.out 2>&1); then
		s_note="spin -a failed: $(tail -n 1 "$d/spin.out")"
		return
	fi
	if ! (cd "$d" && "$CC" $PAN_CFLAGS -DSAFETY -DNOREDUCE -DNOCLAIM -o pan pan.c > cc.out 2>&1); then
		s_note="pan.c did not compile: $(head -n 1 "$d/cc.out")"
		return
	fi
	# hash table of about twice the expected number of states
	local w=18
	while [ $w -lt 28 ] && [ $((1 << w)) -lt $((2 * ${want:-0})) ]; do w=$((w + 1)); done
	local to=()
	command -v timeout >/dev/null 2>&1 && to=(timeout "$SPIN_TIMEOUT")
	local secs errs k best=
	for ((k = 0; k < repeat; k++)); do
		measure "$d/pan.out" "${to[@]}" "$d/pan" -m100000 -w$w
		s_rss=$rss
		s_states=$(awk '/states, stored/ { print $1; exit }' "$d/pan.out")
		s_sv=$(sed -n 's/^State-vector \([0-9]*\) byte.*/\1/p' "$d/pan.out")
		secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$d/pan.out")
		errs=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$d/pan.out")
		[ -n "$s_states" ] || { s_states=-; s_note="pan failed (rc $rc): $(tail -n 1 "$d/pan.out")"; return; }
		[ "${errs:-0}" = 0 ] || s_note="pan reported $errs error(s)"
		best_of best "$(awk -v n="$s_states" -v t="$secs" 'BEGIN { if (t + 0 > 0) printf "%.0f\n", n / t; else print "" }')"
	done
	s_sps=${best:--}
}

fmt_g='%-36s %10s %10s %9s %8s %7s %9s %7s %7s'
hdr_g() {
	printf "$fmt_g\n" "size (-D ...)" states transitions "states/s" "B/state" "RSS MiB" \
		"cmp st/s" "cmp B/s" "cmp RSS"
}
row_g() {
	printf "$fmt_g" "$1" "$g_states" "$g_trans" "$(hnum "$g_sps")" "$g_bps" "$(mib "$g_rss")" \
		"$(hnum "$c_sps")" "$c_bps" "$(mib "$c_rss")"
}

# {=== specs with Promela twins ===========================================

# sizes: "ctas warps_per_cta threads_per_warp sms icnt_queue" (icnt_queue 0:
# the machine's default, twice the lanes)
lane_sizes=("3 1 2 3 0" "3 1 3 2 0" "4 1 2 1 2" "2 2 2 1 3" "4 1 2 2 0" "3 1 4 2 0")
ticket_sizes=("3 1 2 2 0" "4 1 1 1 1" "3 1 3 1 3" "2 1 8 2 0" "5 1 1 2 0")
if [ $quick = 1 ]; then
	lane_sizes=("3 1 2 3 0" "3 1 3 2 0" "4 1 2 1 2")
	ticket_sizes=("3 1 2 2 0" "4 1 1 1 1")
fi

twin_table() {
	local name=$1
	shift
	local spec="$here/specs/$name.gpu" pml="$here/promela/$name.pml"
	echo
	echo "== $name  (bench/specs/$name.gpu; twin bench/promela/$name.pml)"
	if [ $spin_ok = 1 ]; then
		printf "$fmt_g | %10s %9s %7s %6s | %7s %7s\n" "size (-D ...)" states transitions "states/s" \
			"B/state" "RSS MiB" "cmp st/s" "cmp B/s" "cmp RSS" \
			"SPIN states" "SPIN st/s" "SPINRSS" "same?" "exact/S" "cmp/S"
	else
		hdr_g
	fi
	local sz
	for sz in "$@"; do
		set -- $sz
		local label="ctas=$1 wpc=$2 tpw=$3 sms=$4 q=$5"
		gpumc_run "$spec" ctas=$1 warps_per_cta=$2 threads_per_warp=$3 sms=$4 icnt_queue=$5
		row_g "$label"
		if [ $spin_ok = 1 ]; then
			spin_run "$pml" "$g_states" CTAS=$1 WPC=$2 T=$3 S=$4 Q=$5
			local same=no
			[ "$s_states" = "$g_states" ] && same=yes
			printf " | %10s %9s %7s %6s | %7s %7s" "$s_states" "$(hnum "$s_sps")" "$(mib "$s_rss")" "$same" \
				"$(ratio "$g_sps" "$s_sps")" "$(ratio "$c_sps" "$s_sps")"
		fi
		echo
		[ "$g_verdict" = pass ] || echo "   gpumc verdict: $g_verdict"
		[ -z "$g_note" ] || echo "   gpumc: $g_note"
		[ -z "${s_note:-}" ] || echo "   SPIN: $s_note"
		s_note=
	done
	if [ $spin_ok = 1 ]; then
		echo "   (state vector: gpumc $g_sv B, SPIN $s_sv B at the last size)"
	fi
}

# }===

# {=== partial-order reduction: D2 at growing warps =====================

# bench/specs/d2-scale.gpu (D2 with input for 32 warps): 2 CTAs of 1..8
# warps on 2 SMs x 2 schedulers.  Without reduction every extra warp
# multiplies the states; those runs stop at POR_TIMEOUT seconds (verdict
# incomplete).  Times are gpumc's exploration seconds, best of --repeat.
por_wpc=(1 2 3 4 5 6 7 8)
[ $quick = 1 ] && por_wpc=(1 2 3 4 8)
POR_TIMEOUT=${POR_TIMEOUT:-60}
[ $quick = 1 ] && POR_TIMEOUT=5

# por_run WPC on|off: sets p_states p_trans p_secs p_verdict
por_run() {
	local k best=
	for ((k = 0; k < repeat; k++)); do
		"$GPUMC" check --json -q --por=$2 --time "$POR_TIMEOUT" -D ctas=2 -D warps_per_cta=$1 \
			"$here/specs/d2-scale.gpu" > "$tmp/p.json" 2>/dev/null
		local t
		t=$(jget "$tmp/p.json" seconds)
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a + 0 < b + 0) }'; then best=$t; fi
	done
	p_states=$(jget "$tmp/p.json" states)
	p_trans=$(jget "$tmp/p.json" transitions)
	p_verdict=$(jget "$tmp/p.json" verdict)
	p_secs=$(awk -v t="$best" 'BEGIN { printf "%.3f\n", t }')
}

por_table() {
	echo
	echo "== partial-order reduction: D2 at growing warps  (bench/specs/d2-scale.gpu, 2 CTAs, 2 SMs x 2 schedulers)"
	printf '%-6s | %10s %10s %9s %-10s | %10s %10s %9s %-10s | %8s\n' warps "POR states" transitions seconds verdict \
		"off states" transitions seconds verdict "off/POR"
	local w
	for w in "${por_wpc[@]}"; do
		por_run "$w" on
		local on_s=$p_states on_t=$p_trans on_x=$p_secs on_v=$p_verdict
		por_run "$w" off
		printf '%-6s | %10s %10s %9s %-10s | %10s %10s %9s %-10s | %8s\n' $((2 * w)) "$on_s" "$on_t" "$on_x" "$on_v" \
			"$p_states" "$p_trans" "$p_secs" "$p_verdict" "$(ratio "$p_states" "$on_s")"
	done
	echo "(off: --por=off, stopped after ${POR_TIMEOUT} s; an incomplete run's states are a lower bound)"
}

# }===

# {=== bundled specs ======================================================

# Sizes stay within each spec's arrays (out[8], vals[4], tile[4]) so every
# run explores the whole graph with the verdict the spec expects.
base_rows=(
	"int-reduction|"
	"int-reduction|ctas=2 warps_per_cta=2 threads_per_warp=1"
	"int-reduction|ctas=4 threads_per_warp=1"
	"int-reduction|ctas=4 threads_per_warp=1 sms=1"
	"fp32-reduction|"
	"fp32-reduction|ctas=4 threads_per_warp=1 sms=4"
	"divergent-branch|"
	"divergent-branch|warps_per_cta=4 threads_per_warp=2"
	"divergent-branch|ctas=2"
	"divergent-branch|ctas=3"
	"barrier|ctas=2 warps_per_cta=1 threads_per_warp=4"
	"barrier|"
	"barrier|sms=1"
	"racy-store-load|"
	"racy-store-load|warps_per_cta=4"
	"racy-store-load|warps_per_cta=4 threads_per_warp=8"
	"racy-store-load|warps_per_cta=6"
	"barrier-divergence-deadlock|"
)
[ $quick = 1 ] && base_rows=("int-reduction|" "int-reduction|ctas=4 threads_per_warp=1"
	"divergent-branch|" "divergent-branch|warps_per_cta=4 threads_per_warp=2" "barrier|"
	"racy-store-load|warps_per_cta=4")

base_table() {
	local last=
	local r
	for r in "${base_rows[@]}"; do
		local name=${r%%|*} defs=${r#*|}
		if [ "$name" != "$last" ]; then
			echo
			echo "== $name  (specs/baseline/$name.gpu)"
			printf "$fmt_g %5s  %s\n" "size (-D ...)" states transitions "states/s" "B/state" "RSS MiB" \
				"cmp st/s" "cmp B/s" "cmp RSS" "SV B" verdict
			last=$name
		fi
		# shellcheck disable=SC2086
		gpumc_run "$root/specs/baseline/$name.gpu" $defs
		local label=${defs:-(spec defaults)}
		label=${label//warps_per_cta/wpc}
		label=${label//threads_per_warp/tpw}
		row_g "$label"
		printf " %5s  %s\n" "$g_sv" "$g_verdict"
		[ -z "$g_note" ] || echo "   gpumc: $g_note"
	done
	echo
	echo "(SV B = gpumc state vector bytes.  A \"fail\" verdict is the spec's expected one; exploration stops"
	echo " at the first violation, so those rows count the states explored up to it.)"
}

# }===

echo "gpumc exploration benchmark, $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(nproc 2>/dev/null || echo '?') CPU(s)"
echo "gpumc: $gpumc_src ($(date -u -r "$gpumc_src" '+built %Y-%m-%d %H:%M UTC' 2>/dev/null)); best of $repeat run(s) per measurement"
if [ $spin_ok = 1 ]; then
	echo "SPIN:  $("$SPIN" -V 2>&1 | head -n 1); pan.c: $CC $PAN_CFLAGS -DSAFETY -DNOREDUCE -DNOCLAIM; spin -o3; ./pan -m100000 -wN"
else
	echo "SPIN:  $spin_why"
fi
case $rss_mode in
time) echo "peak RSS: /usr/bin/time -v" ;;
wrap) echo "peak RSS: getrusage wrapper" ;;
*) echo "peak RSS: unavailable (no /usr/bin/time, no C compiler): shown as -" ;;
esac
echo "sizes: -D ctas, wpc = warps_per_cta, tpw = threads_per_warp (= atomics per warp in the twins), sms,"
echo "       q = icnt_queue (ROP FIFO entries per SM; 0 = twice the lanes)"
echo "columns: exact mode (default visited set), then cmp = --compact (64-bit fingerprints); all with"
echo "         --por=off, so gpumc explores the same graphs as SPIN -DNOREDUCE (por table: both ways)"
echo "         B/state = gpumc's storage bytes / states; exact/S, cmp/S = gpumc states/s over SPIN states/s"

if [ $do_twins = 1 ]; then
	twin_table lane-reduction "${lane_sizes[@]}"
	twin_table ticket-counter "${ticket_sizes[@]}"
fi
[ $do_base = 1 ] && base_table
por_table
exit 0
