# Sourced by the concrete-mode benchmarks (dab.sh, persist.sh): run from the
# source root with ./build/gpumc (or $GPUMC), results under bench/out.
cd "$(dirname "$0")/.."
GPUMC=${GPUMC:-./build/gpumc}
OUT=bench/out
mkdir -p "$OUT"

# check DESCRIPTION AWK-CONDITION: one line of a paper-orderings report
check() { if awk "BEGIN { exit !($2) }"; then echo "  yes  $1"; else echo "  NO   $1"; fi; }

# warps64 SPEC: a persist bench kernel (bench/specs/persist-*.gpu, 8 CTAs
# of 4 warps) at the paper's 64 warps an SM, on stdout: 64 CTAs of 8
# warps, every number that is a multiple of 1024 -- an array of so many
# elements a thread, a stride of 1024 threads -- times 16; comment lines
# as they are (persist.sh, persist-speed.sh)
warps64() {
	awk '/^#/ { print; next }
	/^set ctas = 8$/ { print "set ctas = 64"; next }
	/^set warps_per_cta = 4$/ { print "set warps_per_cta = 8"; next }
	{
		out = ""; s = $0
		while (match(s, /[0-9]+/)) {
			pre = substr(s, 1, RSTART - 1); n = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			# a whole decimal number: not part of a name, a register or 0f...
			if (pre !~ /[0-9A-Za-z_%]$/ && s !~ /^[0-9A-Za-z_]/ && n + 0 > 0 && n % 1024 == 0)
				n = n * 16
			out = out pre n
		}
		print out s
	}' "$1"
}
