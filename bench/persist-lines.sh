#!/bin/sh
# Line vs word granularity on the bundled persist specs (issue 12, item 8):
# for each spec, the verdict and the state/transition counts with the
# spec's own line_bytes (4 in the §6 specs: word granularity) and with
# real 128-byte lines (-D line_bytes=128), full interleaving (--por=off).
# Usage: sh bench/persist-lines.sh [gpumc] [specs/persist]
G=${1:-build/gpumc}
D=${2:-specs/persist}
printf '%-26s %-34s %-34s\n' spec "as written" "line_bytes=128"
for f in "$D"/*.gpu; do
	a=$("$G" check --por=off "$f" 2>&1 | awk '/^states/ { s = $2 " " $4 } /^verdict/ { v = $2 " " $3 } END { sub(/,/, "", s); sub(/,/, "", s); sub(/ \(expected.*/, "", v); print v " (" s ")" }')
	b=$("$G" check --por=off -D line_bytes=128 "$f" 2>&1 | awk '/^states/ { s = $2 " " $4 } /^verdict/ { v = $2 " " $3 } END { sub(/,/, "", s); sub(/,/, "", s); sub(/ \(expected.*/, "", v); print v " (" s ")" }')
	printf '%-26s %-34s %-34s\n' "$(basename "$f" .gpu)" "$a" "$b"
done
