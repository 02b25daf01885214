#!/bin/sh
# usage: run-all.sh BUILD   (make test, after building $BUILD/iorate)
# Everything make test runs, overlapped so that 2 cores are kept busy instead of running it all
# one step after another:
#   foreground, at normal priority: the bats command-line tests, file by file. The files that
#     measure rates against caps (SERIAL below) run first, one at a time; then two workers take
#     the other files from a queue, longest first (SECONDS below, measured on 2 cores), so the
#     two finish together.
#   background, at nice 10 (it only takes the CPU the tests leave): the unit test binaries built
#     and run (plain, ASan+UBSan, ThreadSanitizer), the allocation failures (tests/alloc/), the
#     layer check and the committed fuzz inputs
#     replayed; beside them the libFuzzer targets built with clang (at -O0, in $BUILD/fuzz-quick)
#     and each run FUZZ_TEST_SECONDS (default 3; 0 skips them) from its seeds, when clang can
#     link one.
#
# $MAKE and $JOBS come from the Makefile. Prints one closing line "N passed, N failed,
# N skipped" over all of them, then where the time went.
build=${1:-build}
MAKE=${MAKE:-make}
SUMMARY=$(mktemp)
export SUMMARY
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Debian's python3 (make deps installs it) before a version manager's shim of that name: a pyenv
# shim costs a second a call on a busy machine, and the tests call python3 often. Nothing else
# in PATH moves.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir "$work/bin"
	ln -s /usr/bin/python3 "$work/bin/python3"
	PATH=$work/bin:$PATH
	export PATH
fi
status=0
t0=$(date +%s)

# Files whose tests assert rates within 1-3 % of a cap: they run alone (the background work aside,
# which yields to them).
SERIAL="caps.bats sweep.bats"
# Roughly the seconds each file takes on a 2-core machine: only their order matters (longest
# first). A file not listed counts as long, so it starts early.
SECONDS_TABLE="run 118 calc 86 fio 76 safety 74 history 67 signals 50 jobs 47 sweep 45 caps 43
charts 40 device 38 mpi 36 shape 27 catalog 27 diskspd 21 model 20 mark 17 verify 16 compat 15
outputs 12 trim 11 format 11 strict 10 report 10 invariants 14 zbd 6 deps 6 sprandom 4 newcomer 4"

# --- background: units, layers, fuzz replay; fuzz targets beside them ---------------------------
# source_check NAME SCRIPT WHAT: a check of the source, counted as one test in the summary.
source_check() {
	if sh "$2"; then
		echo "$1 1 0 0" >>"$SUMMARY"
		echo "$1: $3"
	else
		echo "$1 0 1 0" >>"$SUMMARY"
		return 1
	fi
}

# alloc_tests: tests/alloc/failalloc.bats on $build/iorate-san-failalloc, counted in the summary.
alloc_tests() {
	abs=$(cd "$build" && pwd)
	FAILALLOC=$abs/iorate-san-failalloc IORATE=$abs/iorate \
		bats --formatter tap tests/alloc/failalloc.bats >"$work/alloc.tap" 2>&1
	rc=$?
	sed 's/^/alloc: /' "$work/alloc.tap"
	echo "alloc $(grep -c '^ok ' "$work/alloc.tap") $(grep -c '^not ok ' "$work/alloc.tap") 0" \
		>>"$SUMMARY"
	return $rc
}

units() {
	if ! $MAKE -s $JOBS BUILD="$build" test-bins; then
		echo "build-tests 0 1 0" >>"$SUMMARY"
		echo "unit: the test binaries did not build"
		return 1
	fi
	s=0
	sh tests/run-unit.sh unit "$build"/tests/test_* || s=1
	# Each command of tests/alloc/failalloc.bats with its allocations failing one at a time
	# (under make coverage on gcov's build: only they take a failed allocation's branches).
	alloc_tests || s=1
	# make coverage (COVERAGE=1) measures the plain build: the sanitizers' runs repeat its tests.
	[ "${COVERAGE:-}" = 1 ] || {
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		sh tests/run-unit.sh unit-asan-ubsan "$build"/tests-san/test_* || s=1
	# The tests whose code shares counters between threads, under ThreadSanitizer.
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		sh tests/run-unit.sh unit-tsan "$build"/tests-tsan/test_* || s=1
	}
	# The layer table of docs/architecture.md: an include against it fails the build's tests;
	# so does a struct initialiser in src/ that does not name its fields, and a failure message
	# written into an err buffer other than by err_set().
	source_check layers tools/check-layers.sh "every include follows docs/architecture.md" || s=1
	source_check initialisers tools/check-initialisers.sh \
		"every struct initialiser in src/ names its fields" || s=1
	source_check errors tools/check-errors.sh \
		"every failure message in src/ is written by err_set()" || s=1
	# Each family of files calls downward only: no circle of files inside a directory.
	CHECK_BUILD=$build source_check circles tools/check-circles.sh \
		"no directory of src/ has a circle of files calling each other" || s=1
	# The committed seeds and regression inputs, replayed under gcc's ASan+UBSan.
	sh tests/fuzz/replay.sh "$build" $(ls tests/fuzz/fuzz_*.c | sed 's|.*/\(.*\)\.c|\1|') || s=1
	return $s
}

# Each target FUZZ_TEST_SECONDS from its seeds alone; a crash fails the run, and its input is
# printed with the command that keeps it in tests/fuzz/regress/ (tests/fuzz/README.md).
fuzz() {
	secs=${FUZZ_TEST_SECONDS:-3}
	[ "${COVERAGE:-}" = 1 ] && secs=0
	if [ "$secs" = 0 ]; then
		echo "fuzz: the targets did not run (FUZZ_TEST_SECONDS=0)"
		echo "fuzz 0 0 1" >>"$SUMMARY"
		return 0
	fi
	if ! why=$(sh tests/fuzz/have-libfuzzer.sh "${FUZZ_CC:-clang}" 2>/dev/null); then
		echo "fuzz: skipped: $why"
		echo "fuzz 0 0 1" >>"$SUMMARY"
		return 0
	fi
	from=$(date +%s)
	# Unoptimised, apart from make fuzz's build: for seconds of fuzzing the compile is the cost.
	if ! $MAKE -s $JOBS BUILD="$build/fuzz-quick" FUZZ_OPT="-O0 -gline-tables-only" fuzz-build
	then
		echo "fuzz 0 1 0" >>"$SUMMARY"
		echo "fuzz: the targets did not build"
		return 1
	fi
	echo "fuzz: the targets built with clang in $(($(date +%s) - from)) s"
	FUZZ_FRESH=1 sh tests/fuzz/run.sh "$build/fuzz-quick" "$secs" "$(nproc)" \
		$(ls tests/fuzz/fuzz_*.c | sed 's|.*/\(.*\)\.c|\1|')
}

# background NAME: runs the function NAME at nice 10, its output in $work/NAME.log.
background() {
	(
		renice -n 10 -p "$(sh -c 'echo $PPID')" >/dev/null 2>&1
		"$1" >"$work/$1.log" 2>&1
		echo $? >"$work/$1.rc"
		date +%s >"$work/$1.end"
	) &
}
background units
units_pid=$!
background fuzz
fuzz_pid=$!

# --- foreground: the bats files ------------------------------------------------------------------
# Tests touch only files they create in their own directories: the source tree must come out of
# the command-line tests with no file it did not have (build/ and ignored files aside).
untracked() {
	git ls-files --others --exclude-standard 2>/dev/null | grep -v "^$build/" | sort
}
before=$work/untracked
untracked >"$before"
IORATE=$(cd "$build" && pwd)/iorate
export IORATE

# bats_file FILE: its TAP in $work/tap/NAME, then printed whole, with how long it took.
mkdir -p "$work/tap"
bats_file() {
	name=$(basename "$1" .bats)
	from=$(date +%s)
	bats --formatter tap "$1" >"$work/tap/$name" 2>&1
	took=$(($(date +%s) - from))
	echo "$name $took" >>"$work/times"
	flock "$work/print.lock" sh -c 'echo "# $1 ($2 s)"; cat "$3"' sh "$1" "$took" \
		"$work/tap/$name"
}

# The queue: the files not in SERIAL, longest first.
for f in tests/cli/*.bats; do
	n=$(basename "$f" .bats)
	case " $SERIAL " in *" $n.bats "*) continue ;; esac
	s=$(echo "$SECONDS_TABLE" | tr ' ' '\n' | sed -n "/^$n\$/{n;p;}")
	echo "${s:-1000} $f"
done | sort -rn | cut -d' ' -f2 >"$work/queue"

# worker: takes the next file off the queue until it is empty.
worker() {
	while :; do
		f=$(flock "$work/queue.lock" sh -c 'f=$(head -1 "$1"); sed -i 1d "$1"; echo "$f"' \
			sh "$work/queue")
		[ -n "$f" ] || return 0
		bats_file "$f"
	done
}

serial_from=$(date +%s)
for f in $SERIAL; do
	[ -f "tests/cli/$f" ] && bats_file "tests/cli/$f"
done
serial_s=$(($(date +%s) - serial_from))
shards_from=$(date +%s)
worker &
w1=$!
worker
wait "$w1"
shards_s=$(($(date +%s) - shards_from))

left=$(untracked | comm -13 "$before" -)
if [ -n "$left" ]; then
	echo "not ok - the command-line tests left files in the source tree:" $left |
		tee "$work/tap/zz-left"
fi
cat "$work/tap"/* >"$work/tap.all"
bp=$(grep -c '^ok ' "$work/tap.all" | tr -d ' ')
bs=$(grep -c '^ok .*# skip' "$work/tap.all" | tr -d ' ')
bf=$(grep -c '^not ok ' "$work/tap.all" | tr -d ' ')
plans=$(grep -c '^1\.\.' "$work/tap.all" | tr -d ' ')
files=$(ls tests/cli/*.bats | wc -l | tr -d ' ')
[ "$plans" = "$files" ] || { echo "bats ran $plans of $files files"; bf=$((bf + 1)); }
[ "$bf" = 0 ] || status=1
echo "cli $((bp - bs)) $bf $bs" >>"$SUMMARY"
echo "cli: $((bp - bs)) passed, $bf failed, $bs skipped ($files files)"
grep '# skip' "$work/tap.all" | sed 's/^/  skipped: /'
grep '^not ok ' "$work/tap.all" | sed 's/^/  failed: /'
bats_end=$(date +%s)

# --- the background's results ----------------------------------------------------------------
wait "$units_pid"
wait "$fuzz_pid"
cat "$work/units.log" "$work/fuzz.log"
[ "$(cat "$work/units.rc")" = 0 ] || status=1
[ "$(cat "$work/fuzz.rc")" = 0 ] || status=1

awk '{p += $2; f += $3; s += $4} END {printf "%d passed, %d failed, %d skipped\n", p, f, s}' "$SUMMARY"
end=$(date +%s)
echo "time: bats ${serial_s} s alone + ${shards_s} s in two workers (ended at $((bats_end - t0)) s);" \
	"units and replay ended at $(($(cat "$work/units.end") - t0)) s, fuzz at" \
	"$(($(cat "$work/fuzz.end") - t0)) s; $((end - t0)) s in all after the build of iorate"
echo "time: each bats file, in seconds: $(sort -k2 -rn "$work/times" | tr '\n' ' ')"
rm -f "$SUMMARY"
exit $status
