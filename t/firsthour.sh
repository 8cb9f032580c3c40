#!/bin/sh
# The user's first hour (issue 16), tested the way the user meets it: the
# README's set-up, `make install`, the suite's summary.
. "$srcdir/t/lib.sh"
plan 37

# 1. the first command works
like "$srcdir/README.md" 'built as `build/gpumc`' "README names the binary build/gpumc"
like "$srcdir/quickstart.sh" 'the program is \$PWD/build/gpumc' "quickstart prints where the binary is"
# autoreconf on the build files alone, as on a fresh checkout: no warnings
if command -v autoreconf >/dev/null; then
	mkdir -p "$T/ar/src/litmus"
	cp "$srcdir/configure.ac" "$srcdir/Makefile.am" "$T/ar/" && cp "$srcdir/src/litmus/litmus.am" "$T/ar/src/litmus/"
	(cd "$T/ar" && autoreconf -fi) >"$T/arlog" 2>&1
	is "$(grep -ci warning "$T/arlog")" 0 "autoreconf -fi: no warnings"
else
	ok 0 "autoreconf -fi: no warnings # SKIP autoreconf not installed"
fi
# make install: binary, man pages, specs as examples, bash completion
make -s -C "$BUILDDIR" install DESTDIR="$T/inst" prefix=/opt/g >"$T/mlog" 2>&1
is "$?" 0 "make install DESTDIR=... succeeds"
ok "$(test -x "$T/inst/opt/g/bin/gpumc"; echo $?)" "installs bin/gpumc"
n_man=$(ls "$T/inst/opt/g/share/man/man1/gpumc.1" "$T/inst/opt/g/share/man/man5/gpumc-spec.5" \
	"$T/inst/opt/g/share/man/man5/gpumc-litmus.5" "$T/inst/opt/g/share/man/man7/gpumc-machines.7" \
	"$T/inst/opt/g/share/man/man7/gpumc-tutorial.7" 2>/dev/null | wc -l)
is "$n_man" 5 "installs gpumc(1), gpumc-spec(5), gpumc-litmus(5), gpumc-machines(7), gpumc-tutorial(7)"
ok "$(test -f "$T/inst/opt/g/share/bash-completion/completions/gpumc"; echo $?)" "installs bash completion"
run "$T/inst/opt/g/bin/gpumc" check -q "$T/inst/opt/g/share/gpumc/specs/baseline/fp32-reduction.gpu"
like "$T/out" "verdict: fail deterministic \(expected: fail deterministic\)" "the installed gpumc checks an installed example spec"
# the completion offers -D parameter names from `gpumc list`
if command -v bash >/dev/null; then
	got=$(PATH="$(dirname "$GPUMC"):$PATH" bash -c '. "$1"; COMP_WORDS=(gpumc check -D sched); COMP_CWORD=3; _gpumc; echo "${COMPREPLY[*]}"' _ \
		"$srcdir/completion/gpumc" 2>/dev/null)
	is "$got" "scheduler= schedulers=" "bash completion completes -D sched to the parameters"
else
	ok 0 "bash completion # SKIP no bash"
fi

# the suite prints verdict counts per area after its rows
run "$GPUMC" suite "$SPECS/baseline" "$SPECS/weakmem"
like "$T/out" '^baseline +9 specs: 5 pass, 4 fail, 0 incomplete, 0 error; 9 as expected$' "suite: summary row for baseline"
like "$T/out" '^weakmem +9 specs: 5 pass, 4 fail, 0 incomplete, 0 error; 9 as expected$' "suite: summary row for weakmem"
run "$GPUMC" suite "$SPECS/baseline"
is "$(grep -c ' specs: ' "$T/out")" 0 "suite over one area: no summary rows"

# 5. did-you-mean for misspelt parameters, machines, values and locations
run "$GPUMC" check -D schedulr=gwat "$SPECS/dab/D2.gpu"
like "$T/err" "unknown parameter 'schedulr' for machine 'dab'; did you mean 'scheduler'\?" "-D schedulr=gwat: did you mean scheduler"
is "$rc" 2 "misspelt parameter: exit 2"
run "$GPUMC" check -D machine=dabb "$SPECS/dab/D2.gpu"
like "$T/err" "unknown machine 'dabb'; did you mean 'dab'\?" "-D machine=dabb: did you mean dab"
run "$GPUMC" check -D scheduler=gwta "$SPECS/dab/D2.gpu"
like "$T/err" "did you mean 'gwat'\?" "-D scheduler=gwta: did you mean gwat"
sed 's/^check deterministic sum$/check deterministic summ/' "$SPECS/baseline/fp32-reduction.gpu" >"$T/summ.gpu"
run "$GPUMC" check "$T/summ.gpu"
like "$T/err" "summ.gpu:[0-9]+:[0-9]+: error: unknown variable 'summ'; did you mean 'sum'\?" "misspelt location: file:line:col and did you mean sum"

# 2. counterexamples a person can read: ROP and DAB steps name the variable
run "$GPUMC" check "$SPECS/baseline/fp32-reduction.gpu"
like "$T/out" "ROP performs from sm [01]: add.f32 \[sum\] " "ROP step names the variable, not its address"

# per-subcommand --help and -V; a spec on standard input
run "$GPUMC" check --help
is "$rc" 0 "check --help: exit 0"
like "$T/out" "^  --outcomes " "check --help lists check's options"
run "$GPUMC" run -h
like "$T/out" "^run options: -D, --runs N" "run -h: run's options"
run "$GPUMC" check -V
like "$T/out" "^gpumc [0-9]" "check -V: the version"
run sh -c "\"\$1\" check - <\"\$2\"" _ "$GPUMC" "$SPECS/baseline/int-reduction.gpu"
like "$T/out" "^final values: sum = 26$" "check -: the spec from standard input"
run sh -c "printf 'machine baseline\\nkernel\\n  exit\\nend\\ncheck deterministic summ\\n' | \"\$1\" check -" _ "$GPUMC"
like "$T/err" "^<stdin>:5:[0-9]+: error: unknown variable 'summ'" "check -: errors name <stdin>:line:col"

# suite -j 2: the same rows in the same order as -j 1 (times aside)
run "$GPUMC" suite "$SPECS/baseline" "$SPECS/weakmem"
sed -E 's/ [0-9.]+s( |$)/ Ns\1/' "$T/out" >"$T/j1"
run "$GPUMC" suite -j 2 "$SPECS/baseline" "$SPECS/weakmem"
is "$rc" 0 "suite -j 2: exit 0"
sed -E 's/ [0-9.]+s( |$)/ Ns\1/' "$T/out" >"$T/j2"
ok "$(cmp -s "$T/j1" "$T/j2"; echo $?)" "suite -j 2: the same table as without -j"

# -D key=a,b,c: one row per configuration (every interleaving, as golden)
run "$GPUMC" check --por=off --threads 1 -D sms=1,2 -D threads_per_warp=1,2 "$SPECS/baseline/fp32-reduction.gpu"
is "$(grep -c '^fp32-reduction.gpu ' "$T/out")" 4 "-D sweep: one row per configuration (2 x 2)"
like "$T/out" "^fp32-reduction.gpu +sms=2 threads_per_warp=2 +fail deterministic +92 " "-D sweep: the bundled configuration gives the golden verdict and count"
like "$T/out" "^fp32-reduction.gpu +sms=1 threads_per_warp=1 +pass " "-D sweep: one lane per warp is deterministic"
is "$rc" 1 "-D sweep: exit 1 when a configuration is violated"

# expectations keyed by machine: `expect VERDICT on MACHINE`
(cat "$SPECS/dab/D1.gpu"; echo "expect fail deterministic on baseline") >"$T/d1on.gpu"
run "$GPUMC" check -q "$T/d1on.gpu"
like "$T/out" "^verdict: pass \(expected: pass\)$" "expect ... on: on its own machine (dab) the unkeyed expectation"
run "$GPUMC" check -q -D machine=baseline "$T/d1on.gpu"
like "$T/out" "^verdict: fail deterministic \(expected: fail deterministic\)$" "expect ... on baseline: used with -D machine=baseline"
run sh -c "printf 'machine baseline\\nkernel\\n exit\\nend\\nexpect pass on\\n' | \"\$1\" check -" _ "$GPUMC"
like "$T/err" "^<stdin>:5:[0-9]+: error: expected a machine name after 'on'" "expect ... on without a machine: an error at line:col"
# an unkeyed expect after a keyed one keeps the keyed one (it freed it once)
run sh -c "printf 'machine baseline\\nkernel\\n exit\\nend\\nexpect fail deadlock_free on dab\\nexpect pass\\nexpect pass on baseline\\n' | \"\$1\" check -q -" _ "$GPUMC"
like "$T/out" "^verdict: pass \(expected: pass\)$" "expect ... on, then an unkeyed expect, then another: all kept"

# all errors of a spec in one run: parameters and locations together
printf 'machine baseline\nset schedulr = gto\nset sms = 99\nglobal .u32 sum = 0\nkernel\n  red.global.add.u32 [sum], 1\n  exit\nend\ncheck deterministic summ\n' >"$T/errs.gpu"
run "$GPUMC" check "$T/errs.gpu"
like "$T/err" "errs.gpu:2:5: error: unknown parameter 'schedulr' for machine 'baseline'; did you mean 'scheduler'" "one run: the misspelt parameter"
like "$T/err" "errs.gpu:3:5: error: 'sms' expects an integer in 1..64" "one run: the parameter out of range"
like "$T/err" "errs.gpu:9:21: error: unknown variable 'summ'; did you mean 'sum'" "one run: the misspelt location too"
