#!/bin/sh
# Concrete mode's bookkeeping of the persist machine outside the state
# (struct pm_pending, src/machines/persist.c): with GPUMC_CHECK_PERSIST=1
# it is recomputed by the scan it replaces where it is read, and a
# difference stops the run ("GPUMC_CHECK_PERSIST", exit 134): the count
# of warps in an l2wb pass (may_issue); the warps that may wait, and
# those whose fence clear() refuses (check_waits), and the warps an
# acknowledgement releases (timing); each unit's GTO pick among the
# listed lines' actions (passed_over).  Run over every persist spec and
# the persist bench kernels with the persistency models, two seeded runs
# each (the second starts from what the first left).
# (Planting a missed update, not counting the end of a pass in pm_op's
# OP_L2WB, stops 14 rows here: C1, G1, L1, L2, T4, T8 and the loop-epoch
# ones; not adding pcommit's warp to the warps that may wait stops 15,
# keeping a warp among the refused past its last acknowledgement 48, and
# passing over lines with work for their L2 unit 5 rows: lbm epoch-cta
# clwb first.)
. "$srcdir/t/lib.sh"
{
	( cd "$srcdir" && find specs/persist -name '*.gpu' | LC_ALL=C sort | sed 's/$/\t/' )
	for k in lbm histo; do
		for o in "-D persistency=epoch-cta -D epoch_op=l2wb" "-D persistency=epoch-cta -D epoch_op=clwb" \
			"-D persistency=epoch-cta -D epoch_op=wt" "-D persistency=epoch-kernel" "-D persistency=strict-clwb" \
			"-D persistency=strict-wt" "-D persistency=strict-wt -D wpq=durable"; do
			printf 'bench/specs/persist-%s.gpu\t%s\n' $k "$o"
		done
	done
	printf 'bench/specs/persist-histo-loop.gpu\t-D persistency=epoch-loop -D loop_sync=cta\n'
	printf 'bench/specs/persist-histo-loop.gpu\t-D persistency=epoch-loop -D scope=1\n'
} > "$T/rows"
plan "$(grep -c . "$T/rows")"
while IFS='	' read -r spec opts; do
	# shellcheck disable=SC2086
	( cd "$srcdir" && GPUMC_CHECK_PERSIST=1 "$GPUMC" run --json --seed 1 --runs 2 $opts "$spec" > "$T/j" 2> "$T/e" )
	rc=$?
	! grep -q GPUMC_CHECK_PERSIST "$T/e" && [ "$rc" -lt 64 ]
	ok $? "pending bookkeeping = scan: $spec ${opts:--} (exit $rc)"
done < "$T/rows"
