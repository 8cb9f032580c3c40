#!/bin/sh
# gpumc litmus --observed: soundness against the thesis's hardware counts.
. "${srcdir:-.}/t/lib.sh"
L="$srcdir/specs/litmus"
D="$L/observed.dat"

echo "1..14"
ALL="$L/warp-shared/*.litmus $L/warp-global/*.litmus $L/cta-global/*.litmus $L/mixed/*.litmus"

# The Table 5.9 subset (MP, SB, LD with none/.ctas/.gls): exactly one unsound row.
SUB=""
for d in warp-shared warp-global cta-global; do
	for t in MP MP+membar.ctas MP+membar.gls SB SB+membar.ctas SB+membar.gls LD LD+membar.ctas LD+membar.gls; do
		SUB="$SUB $L/$d/$t.litmus"
	done
done
out=$("$GPUMC" litmus --observed "$D" --model ics13 $SUB)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
u=$(printf '%s\n' "$out" | awk '$2 == "unsound" {print $3, $4}')
ok $([ "$u" = "D-cta:S-ker-Global LD+membar.ctas" ] && echo 0 || echo 1) \
	"ics13 on the Table 5.9 subset: unsound exactly on LD+membar.ctas across CTAs"
printf '%s\n' "$out" | grep -q 'LD+membar.ctas.*observed 0/186/0'
ok $? "the unsound row cites the 186 Kepler observations"
ok $([ $rc = 1 ] && echo 0 || echo 1) "--observed exits 1 when a model is unsound"

# Every observation in the data file (Tables 4.1-5.8, 6.1).
out=$("$GPUMC" litmus --observed "$D" --model sc,ics13,ics13-fixed,scoped-rmo $ALL)
printf '%s\n' "$out" | grep -v '^sc ' | sed 's/^/# /'
u=$(printf '%s\n' "$out" | awk '$1 == "ics13" && $2 == "unsound" {print $4}' | sort | tr '\n' ' ')
ok $([ "$u" = "LD+membar.ctas MP+membar.gl+membar.cta " ] && echo 0 || echo 1) \
	"ics13 on all tables: unsound on LD+membar.ctas and MP+membar.gl+membar.cta (both D-cta, scope-unaware loads)"
printf '%s\n' "$out" | grep -q '^Summary ics13-fixed  119 tests with observations, 0 unsound, 0 imprecise, 0 outside the model$'
ok $? "ics13-fixed is sound on all 119 observations and never imprecise"
printf '%s\n' "$out" | grep -q '^Summary scoped-rmo   111 tests with observations, 0 unsound'
ok $? "scoped-rmo is sound on every observation it covers (.ca tests are outside it)"
printf '%s\n' "$out" | grep -q '^Summary ics13        111 tests with observations, 2 unsound, 3 imprecise, 8 outside the model$'
ok $? "ics13 summary: 2 unsound, 3 imprecise (IRIW+membar.gls), 8 .ca tests outside"
nobs=$(awk '!/^#/ && NF >= 5 && ($3 > 0 || $4 > 0 || $5 > 0)' "$D" | wc -l)
nsc=$(printf '%s\n' "$out" | awk '$1 == "sc" && $2 == "unsound"' | wc -l)
ok $([ "$nobs" = "$nsc" ] && echo 0 || echo 1) "sc is unsound on every observed weak outcome ($nsc of $nobs)"
printf '%s\n' "$out" | grep -q '^(no test file'
ok $([ $? = 1 ] && echo 0 || echo 1) "every line of the data file has a test"

# chip profiles make ics13-fixed more precise without losing soundness there
v=$("$GPUMC" litmus --compare ics13-fixed "$L/cta-global/MP-L1+membar.gls.litmus" | tail -1 | awk '{print $3}')
vk=$("$GPUMC" litmus --chip kepler --compare ics13-fixed "$L/cta-global/MP-L1+membar.gls.litmus" | tail -1 | awk '{print $3}')
ok $([ "$v/$vk" = "Allowed/Forbidden" ] && echo 0 || echo 1) \
	"MP-L1+membar.gls: Allowed by default (Fermi L1), Forbidden with --chip kepler"
# per chip: each profile of ics13-fixed is sound on that chip's column
for c in fermi kepler maxwell; do
	"$GPUMC" litmus --chip $c --observed "$D" --model ics13-fixed $ALL | grep -q '^Summary ics13-fixed  119 tests with observations, 0 unsound, 0 imprecise'
	ok $? "ics13-fixed --chip $c is sound on every $c observation"
done
bad=$(printf 'x\n' > /dev/null; "$GPUMC" litmus --observed /dev/null/none "$L/cta-global/MP.litmus" 2>&1 >/dev/null; echo "rc=$?")
case "$bad" in *"rc=2") r=0 ;; *) r=1 ;; esac
ok $r "missing data file exits 2"
exit 0
