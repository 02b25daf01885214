#!/bin/sh
# usage: run.sh BUILD SECONDS JOBS TARGET...
# Runs each built libFuzzer target ($BUILD/fuzz/TARGET) for SECONDS, JOBS at a time, on a corpus
# in $BUILD/fuzz/corpus/TARGET that starts from the committed seeds (tests/fuzz/corpus/TARGET;
# fuzz_catalog also gets data/catalog/*.json). Prints one line a target; on a crash, its report
# and the input, kept in the build (crash-SHA1, leak-SHA1, timeout-SHA1 as libFuzzer names it)
# with the command that copies it to tests/fuzz/regress/TARGET/, and exits 1. Appends "fuzz PASSED FAILED 0" to $SUMMARY when set.
# FUZZ_FRESH=1 (make test) starts from the seeds alone, in $BUILD/fuzz/corpus-fresh, so that a
# corpus grown by long runs does not eat a short run's time.
build=$1 secs=$2 jobs=$3
shift 3
out=$build/fuzz/out
corpora=$build/fuzz/corpus
[ "${FUZZ_FRESH:-}" = 1 ] && corpora=$build/fuzz/corpus-fresh

one() {
	name=$1
	corpus=$corpora/$name
	mkdir -p "$corpus"
	[ -d "tests/fuzz/corpus/$name" ] && cp tests/fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null
	[ "$name" = fuzz_catalog ] && cp data/catalog/*.json "$corpus"/
	# stdout and stderr of the code under test are closed (its messages are expected); libFuzzer
	# and the sanitizers keep reporting. -timeout catches hangs.
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"$build/fuzz/$name" -max_total_time="$secs" -timeout=20 -close_fd_mask=3 \
		-artifact_prefix="$out/$name-" "$corpus" >"$out/$name.log" 2>&1
	echo $? >"$out/$name.rc"
}

if [ "${FUZZ_ONE:-}" ]; then
	one "$FUZZ_ONE"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
[ "${FUZZ_FRESH:-}" = 1 ] && rm -rf "$corpora"
start=$(date +%s)
printf '%s\n' "$@" | FUZZ_ONE= xargs -P "$jobs" -I{} env FUZZ_ONE={} sh "$0" "$build" "$secs" \
	"$jobs"
pass=0 fail=0
for name in "$@"; do
	rc=$(cat "$out/$name.rc" 2>/dev/null || echo 1)
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$out/$name.log")
		cov=$(grep -o 'cov: [0-9]*' "$out/$name.log" | tail -1)
		corpus=$(ls "$corpora/$name" | wc -l)
		echo "  fuzz    $name: ${runs:-?} runs, $cov, corpus $corpus, no crash"
	else
		fail=$((fail + 1))
		echo "  fuzz    $name: FAILED (exit $rc); the end of $out/$name.log:"
		grep -v '^#[0-9]' "$out/$name.log" | tail -40 | sed 's/^/    /'
		for a in "$out/$name"-*; do
			[ -f "$a" ] || continue
			n=$(wc -c <"$a")
			# Kept in the build, not the checkout: a later make test must not trip over
			# an untracked file; the developer names it and commits it with the fix.
			echo "    input $a ($n bytes$([ "$n" -gt 384 ] && echo ', the first 384')):"
			head -c 384 "$a" | od -A d -c | sed 's/^/      /'
			echo "    replay: $build/fuzz/$name $a"
			echo "    keep it: cp $a tests/fuzz/regress/$name/NAME, committed with the fix" \
				"(make test replays every file there)"
		done
	fi
done
echo "fuzz: $pass passed, $fail failed ($# targets, ${secs}s each, $(($(date +%s) - start))s)"
[ -n "${SUMMARY:-}" ] && echo "fuzz $pass $fail 0" >>"$SUMMARY"
[ "$fail" = 0 ]
