#!/bin/sh
# make test: unit tests, the same under ASan+UBSan, then the bats command-line tests.
# Prints one closing line "N passed, N failed, N skipped" over all of them.
build=${1:-build}
SUMMARY=$(mktemp)
export SUMMARY
status=0

sh tests/run-unit.sh unit "$build"/tests/test_* || status=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	sh tests/run-unit.sh unit-asan-ubsan "$build"/tests-san/test_* || status=1

tap=$(mktemp)
IORATE=$(cd "$build" && pwd)/iorate bats --formatter tap tests/cli | tee "$tap"
bp=$(grep -c '^ok ' "$tap" | tr -d ' ')
bs=$(grep -c '^ok .*# skip' "$tap" | tr -d ' ')
bf=$(grep -c '^not ok ' "$tap" | tr -d ' ')
[ "$bf" = 0 ] || status=1
grep -q '^1\.\.' "$tap" || { echo "bats did not run"; status=1; }
echo "cli $((bp - bs)) $bf $bs" >>"$SUMMARY"
echo "cli: $((bp - bs)) passed, $bf failed, $bs skipped"
grep '# skip' "$tap" | sed 's/^/  skipped: /'

awk '{p += $2; f += $3; s += $4} END {printf "%d passed, %d failed, %d skipped\n", p, f, s}' "$SUMMARY"
rm -f "$SUMMARY" "$tap"
exit $status
