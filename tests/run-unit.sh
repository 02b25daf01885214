#!/bin/sh
# Runs cmocka test binaries; prints their output and a summary line; fails if any test fails.
# usage: run-unit.sh LABEL BINARY...
label=$1; shift
pass=0; fail=0; skip=0; bad=""
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	k=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -1)
	pass=$((pass + ${p:-0}))
	skip=$((skip + ${k:-0}))
	if [ "$rc" != 0 ] || [ -n "$f" ]; then
		fail=$((fail + ${f:-1}))
		bad="$bad $(basename "$t")"
	fi
done
echo "$label: $pass passed, $fail failed, $skip skipped${bad:+ (in:$bad)}"
echo "$label $pass $fail $skip" >>"${SUMMARY:-/dev/null}"
[ "$fail" = 0 ]
