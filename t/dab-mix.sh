#!/bin/sh
# The instances of bench/dab.sh's Fig. 10 mix (bench/instances.sh): each
# '#@' line of bench/specs/bc.gpu and cnv.gpu gives a spec that differs
# from the kernel in its parameter line alone and runs to its end on the
# baseline and on DAB's GWAT-64-AF-Coalescing.  The layers follow Table
# III's atomics PKI as their header says: a layer thread runs 22 + 18 P
# instructions, 4 of them reds, with every lane active, so the atomic
# warp-requests per thousand warp instructions are the PKI of the table
# (within 1.5%: P is rounded; cnv4_2's 3.75 is 58 pixels, 3.777).
# Occupancy: the workloads the paper gives second waves (ama and CNR, "each
# hardware slot executes at most 2 warps"; cnv3_1, cnv4_1, cnv4_3, "2
# warps distributed to each hardware slot"; layer 2, "more") run them on
# both machines -- their cycles change when every CTA is made resident --
# and the others run one wave, unchanged by it.
. "$srcdir/t/lib.sh"
. "$srcdir/bench/instances.sh"
plan 46
mkdir "$T/mix"
{ instances "$srcdir/bench/specs/bc.gpu" graph "$T/mix"; instances "$srcdir/bench/specs/cnv.gpu" layer "$T/mix"; } > "$T/list"
grep -v '^global .u32 graph\[' "$srcdir/bench/specs/bc.gpu" > "$T/bc.rest"
grep -v '^global .u32 layer\[' "$srcdir/bench/specs/cnv.gpu" > "$T/cnv.rest"
is "$(wc -l < "$T/list" | tr -d ' ')" 15 "6 graphs of Table II and 9 layers of Table III"
while IFS='	' read -r name pki spec opts; do
	k=$(case $name in bc-*) echo bc ;; *) echo cnv ;; esac)
	v=$(case $k in bc) echo graph ;; *) echo layer ;; esac)
	grep -v "^global .u32 $v\[" "$spec" | cmp -s - "$T/$k.rest" && grep -q "^global .u32 $v\[" "$spec"
	ok $? "$name: $k.gpu with its own $v line"
	# shellcheck disable=SC2086
	"$GPUMC" run --json --runs 1 --seed 1 -D machine=baseline $opts "$spec" > "$T/b.json" 2>/dev/null
	# shellcheck disable=SC2086
	"$GPUMC" run --json --runs 1 --seed 1 -D scheduler=gwat -D entries=64 -D fusion=on -D coalesce=on $opts "$spec" > "$T/d.json" 2>/dev/null
	# shellcheck disable=SC2086
	"$GPUMC" run --json --runs 1 --seed 1 -D machine=baseline $opts -D cta_slots=0 -D warp_slots=0 "$spec" > "$T/b0.json" 2>/dev/null
	# shellcheck disable=SC2086
	"$GPUMC" run --json --runs 1 --seed 1 -D scheduler=gwat -D entries=64 -D fusion=on -D coalesce=on $opts -D cta_slots=0 -D warp_slots=0 "$spec" > "$T/d0.json" 2>/dev/null
	waves=$(case $name in bc-ama|bc-CNR|cnv3_1|cnv4_1|cnv4_3|cnv?_2) echo "second wave" ;; *) echo "one wave" ;; esac)
	is "$(for m in b d; do [ "$(jnum cycles "$T/$m.json")" = "$(jnum cycles "$T/${m}0.json")" ] && echo "one wave" || echo "second wave"; done | sort -u)" \
		"$waves" "$name: $waves on both machines"
	case $k in
	bc) is "$(grep -o '"end":"[a-z]*"' "$T/b.json" "$T/d.json" | cut -d'"' -f4 | sort -u)" finished "$name: both machines run to the end" ;;
	cnv) is "$(awk -v a="$(jnum 'atomic warp-requests' "$T/b.json")" -v w="$(jnum 'warp instructions' "$T/b.json")" -v p="$pki" \
		'BEGIN { x = 1000 * a / w; print (x > p * 0.985 && x < p * 1.015) ? "yes" : "no: " x }')$(grep -c '"end":"finished"' "$T/d.json")" yes1 \
		"$name: atomics PKI $pki (and DAB runs to the end)" ;;
	esac
done < "$T/list"
