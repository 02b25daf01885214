#!/bin/sh
# usage: replay.sh [--pending] BUILD TARGET...
# Replays, with the gcc ASan+UBSan replay binary of each target ($BUILD/fuzz/replay/TARGET), its
# committed seeds (tests/fuzz/corpus/TARGET; for fuzz_catalog also data/catalog/*.json) and
# regression inputs (tests/fuzz/regress/TARGET);
# with --pending, the inputs of tests/fuzz/pending/TARGET instead, which are known to crash.
# Prints one line a target; appends "fuzz-replay PASSED FAILED 0" (one count an input) to
# $SUMMARY when set; exits 1 when an input fails.
dirs="corpus regress" label=fuzz-replay
if [ "$1" = --pending ]; then
	dirs=pending label=fuzz-pending
	shift
fi
build=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pass=0 fail=0
for name in "$@"; do
	set --
	for d in $dirs; do
		for f in tests/fuzz/"$d"/"$name"/*; do
			[ -f "$f" ] && set -- "$@" "$f"
		done
	done
	# The built-in catalogs are fuzz_catalog's seeds too (run.sh starts its corpus from them).
	if [ "$name" = fuzz_catalog ] && [ "$dirs" != pending ]; then
		for f in data/catalog/*.json; do
			[ -f "$f" ] && set -- "$@" "$f"
		done
	fi
	[ $# = 0 ] && continue
	if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	   "$build/fuzz/replay/$name" "$@" >"$log" 2>&1; then
		pass=$((pass + $#))
		echo "  replay  $name: $# inputs"
	else
		fail=$((fail + 1))
		pass=$((pass + $(grep -c '^replay: ' "$log") - 1))
		last=$(grep '^replay: ' "$log" | tail -1 | cut -d' ' -f2)
		echo "  replay  $name: FAILED on $last"
		grep -v '^replay: ' "$log" | grep -v '^iorate: ' | tail -40 | sed 's/^/    /'
	fi
done
echo "$label: $pass passed, $fail failed"
[ -n "${SUMMARY:-}" ] && echo "$label $pass $fail 0" >>"$SUMMARY"
[ "$fail" = 0 ]
