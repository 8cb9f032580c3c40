# Sourced by bench/dab.sh and t/dab-mix.sh: the instances of a bench
# kernel whose header lists them, one a line, as
#   #@ NAME PKI {INIT} -D ...
# instances SPEC VAR DIR: writes DIR/NAME.gpu, SPEC with INIT as the
# initialiser of `global .u32 VAR[N] = ...`, and prints
# NAME<tab>PKI<tab>DIR/NAME.gpu<tab>-D options, one line each
instances() {
	grep '^#@ ' "$1" | while read -r _ name pki rest; do
		init="${rest%%\}*}}"
		sed "s/^\(global \.u32 $2\[[0-9]*\] = \).*/\1$init/" "$1" > "$3/$name.gpu"
		printf '%s\t%s\t%s\t%s\n' "$name" "$pki" "$3/$name.gpu" "${rest#*\}}"
	done
}
