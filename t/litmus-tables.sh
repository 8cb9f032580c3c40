#!/bin/sh
# gpumc litmus: the thesis verdict tables.
#  - ics13 reproduces the Allowed column of Table 5.9 exactly (25 rows);
#  - scoped-rmo reproduces Table 6.2 (24 rows, plus the LD+membar.ctas row
#    missing from the extracted table, which the model allows);
#  - ics13-fixed forbids MP, SB, LD, IRIW, 2+2W, R, S, CoRR with membar.gl
#    and .cg accesses in all three configurations;
#  - sc forbids every weak outcome of the bundled tests.
. "${srcdir:-.}/t/lib.sh"
L="$srcdir/specs/litmus"

verdict() { # model file
	"$GPUMC" litmus --compare "$1" "$2" 2>&1 | tail -1 | awk '{print $3}'
}
row() { # model dir test expected
	got=$(verdict "$1" "$L/$2/$3.litmus")
	is "$got" "$4" "$1 $2 $3 $4"
}

echo "1..$((25 + 25 + 24 + 1))"

# Table 5.9 (block labels corrected: Shared, Global, D-cta:S-ker-Global)
for d in warp-shared warp-global; do
	row ics13 $d MP Allowed
	row ics13 $d MP+membar.ctas Forbidden
	row ics13 $d MP+membar.gls Forbidden
	row ics13 $d SB Allowed
	row ics13 $d SB+membar.ctas Forbidden
	row ics13 $d SB+membar.gls Forbidden
	row ics13 $d LD Allowed
	row ics13 $d LD+membar.ctas Forbidden
done
row ics13 cta-global MP Allowed
row ics13 cta-global MP+membar.ctas Allowed
row ics13 cta-global MP+membar.gls Forbidden
row ics13 cta-global SB Allowed
row ics13 cta-global SB+membar.ctas Allowed
row ics13 cta-global SB+membar.gls Forbidden
row ics13 cta-global LD Allowed
row ics13 cta-global LD+membar.ctas Forbidden
row ics13 cta-global LD+membar.gls Forbidden

# Table 6.2
for d in warp-shared warp-global; do
	row scoped-rmo $d MP Allowed
	row scoped-rmo $d MP+membar.ctas Forbidden
	row scoped-rmo $d MP+membar.gls Forbidden
	row scoped-rmo $d SB Allowed
	row scoped-rmo $d SB+membar.ctas Forbidden
	row scoped-rmo $d SB+membar.gls Forbidden
	row scoped-rmo $d LD Allowed
	row scoped-rmo $d LD+membar.gls Forbidden
done
row scoped-rmo cta-global MP Allowed
row scoped-rmo cta-global MP+membar.ctas Allowed
row scoped-rmo cta-global MP+membar.gls Forbidden
row scoped-rmo cta-global SB Allowed
row scoped-rmo cta-global SB+membar.ctas Allowed
row scoped-rmo cta-global SB+membar.gls Forbidden
row scoped-rmo cta-global LD Allowed
row scoped-rmo cta-global LD+membar.gls Forbidden
row scoped-rmo cta-global LD+membar.ctas Allowed

# ics13-fixed with membar.gl on every thread and .cg accesses
for d in warp-shared warp-global cta-global; do
	for t in MP SB LD IRIW 2+2W R S CoRR; do
		row ics13-fixed $d $t+membar.gls Forbidden
	done
done

# sc: no weak outcome of any bundled family or bug test is reachable
bad=""
for f in "$L"/warp-shared/*.litmus "$L"/warp-global/*.litmus "$L"/cta-global/*.litmus \
	"$L"/mixed/*.litmus "$L"/bugs/*.litmus; do
	v=$(verdict sc "$f")
	[ "$v" = Forbidden ] || bad="$bad $f($v)"
done
is "$bad" "" "sc forbids every weak outcome"
exit 0
