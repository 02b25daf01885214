#!/bin/sh
# make test: unit tests, the same under ASan+UBSan, the bats command-line tests, then the fuzz
# inputs replayed and a short run of each fuzz target.
# Prints one closing line "N passed, N failed, N skipped" over all of them.
build=${1:-build}
SUMMARY=$(mktemp)
export SUMMARY
status=0

sh tests/run-unit.sh unit "$build"/tests/test_* || status=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	sh tests/run-unit.sh unit-asan-ubsan "$build"/tests-san/test_* || status=1
# The tests whose code shares counters between threads, under ThreadSanitizer (a report fails).
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	sh tests/run-unit.sh unit-tsan "$build"/tests-tsan/test_* || status=1

# The layer table of docs/architecture.md: an include against it fails the build's tests.
if sh tools/check-layers.sh; then
	echo "layers 1 0 0" >>"$SUMMARY"
	echo "layers: every include follows docs/architecture.md"
else
	echo "layers 0 1 0" >>"$SUMMARY"
	status=1
fi

# Tests touch only files they create in their own directories: the source tree must come out of
# the command-line tests with no file it did not have (build/ and ignored files aside).
untracked() { git ls-files --others --exclude-standard 2>/dev/null | grep -v "^$build/" | sort; }
before=$(mktemp)
untracked >"$before"
tap=$(mktemp)
IORATE=$(cd "$build" && pwd)/iorate bats --formatter tap tests/cli | tee "$tap"
left=$(untracked | comm -13 "$before" -)
rm -f "$before"
if [ -n "$left" ]; then
	echo "not ok - the command-line tests left files in the source tree:" $left | tee -a "$tap"
fi
bp=$(grep -c '^ok ' "$tap" | tr -d ' ')
bs=$(grep -c '^ok .*# skip' "$tap" | tr -d ' ')
bf=$(grep -c '^not ok ' "$tap" | tr -d ' ')
[ "$bf" = 0 ] || status=1
grep -q '^1\.\.' "$tap" || { echo "bats did not run"; status=1; }
echo "cli $((bp - bs)) $bf $bs" >>"$SUMMARY"
echo "cli: $((bp - bs)) passed, $bf failed, $bs skipped"
grep '# skip' "$tap" | sed 's/^/  skipped: /'

# Fuzzing: the committed seeds and regression inputs, replayed under gcc's ASan+UBSan (always).
# Running the libFuzzer targets themselves finds new inputs at random, so a test run would pass
# or fail by chance, and building them with clang costs a minute: they run with FUZZ_TEST_SECONDS
# set (each target that long), or with 'make fuzz'; what they find is committed to regress/.
sh tests/fuzz/replay.sh "$build" $(ls tests/fuzz/fuzz_*.c | sed 's|.*/\(.*\)\.c|\1|') || status=1
if [ -z "${FUZZ_TEST_SECONDS:-}" ]; then
	echo "fuzz: the targets did not run (make fuzz, or FUZZ_TEST_SECONDS=N make test)"
elif why=$(sh tests/fuzz/have-libfuzzer.sh 2>/dev/null); then
	# A make of its own (not this one's jobserver), as many jobs as CPUs; from the seeds alone.
	FUZZ_FRESH=1 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j"$(nproc)" BUILD="$build" fuzz \
		FUZZ_SECONDS="$FUZZ_TEST_SECONDS" || status=1
	grep -q '^fuzz ' "$SUMMARY" || echo "fuzz 0 1 0" >>"$SUMMARY"
else
	echo "fuzz: skipped: $why"
	echo "fuzz 0 0 1" >>"$SUMMARY"
fi

awk '{p += $2; f += $3; s += $4} END {printf "%d passed, %d failed, %d skipped\n", p, f, s}' "$SUMMARY"
rm -f "$SUMMARY" "$tap"
exit $status
