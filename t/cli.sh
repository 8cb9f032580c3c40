#!/bin/sh
# Command line: help, version, list, usage errors.
. "$srcdir/t/lib.sh"
plan 9
run "$GPUMC" --help; is "$rc" 0 "--help: exit 0"
like "$T/out" "exit codes: 0 all properties hold" "help states the exit codes"
run "$GPUMC"; is "$rc" 2 "no command: exit 2"
run "$GPUMC" frobnicate; is "$rc" 2 "unknown command: exit 2"
run "$GPUMC" list; is "$rc" 0 "list: exit 0"
like "$T/out" "threads_per_warp +2 +1..32" "list shows parameters with defaults and ranges"
run "$GPUMC" list --json; like "$T/out" '"name":"baseline"' "list --json"
run "$GPUMC" check --max-states; is "$rc" 2 "option without its value: exit 2"
run "$GPUMC" check --max-states abc x.gpu; is "$rc" 2 "non-numeric limit: exit 2"
