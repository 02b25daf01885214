#!/bin/sh
# Checks that code in src/ reports a failure through err_set() or err_vset() (src/util/err.h)
# and never writes its message into an err buffer itself: a call of snprintf, vsnprintf,
# sprintf, vsprintf, strcpy, strncpy, stpcpy, strcat, strncat, memcpy or memmove whose
# destination is err (or a member named err, p->err or p.err) fails. Clearing the buffer
# (err[0] = '\0') is not a message and passes. Comments, strings and character constants are
# blanked first, so text in them does not count. src/util/err.c, which does the writing, is
# not read. Prints each write as FILE:LINE; exits 1 if there is any.
# usage: check-errors.sh [TOP]
top=${1:-$(dirname "$0")/..}
# blank(): comments and strings out of the way (tools/c-text.awk, shared by the checks).
lib=$(cd "$(dirname "$0")" && pwd)/c-text.awk
cd "$top" || exit 2
[ -d src ] || { echo "check-errors: no src/ in $top" >&2; exit 2; }
out=$(mktemp)
prog=$(mktemp)
trap 'rm -f "$out" "$prog"' EXIT
# One awk over every file (a process a file is slow on a busy machine).
files=$(find src -name '*.[ch]' ! -path src/util/err.c | sort)
[ -n "$files" ] || exit 0
cat >"$prog" <<'AWK'
	function lineof(pos,   t) { t = substr(code, 1, pos); return gsub(/\n/, "", t) + 1 }
	# Every write into err in the text of file, which is code.
	function scan(file,   sp, id, fn, re, s, off, m) {
		sp = "[ \t\n]*"; id = "[A-Za-z_][A-Za-z0-9_]*"
		fn = "(v?sn?printf|strn?cpy|stpcpy|strn?cat|memcpy|memmove)"
		re = "(^|[^A-Za-z0-9_])" fn sp "\\(" sp "(" id sp "(->|\\.)" sp ")*err" sp ","
		s = code; off = 0
		while (match(s, re)) {
			m = substr(s, RSTART, RLENGTH)
			sub(/^[^A-Za-z_]/, "", m); sub(/[ \t\n]*\(.*/, "", m)
			printf "%s:%d: %s into err (report it with err_set(err, errlen, -ERRNO, ...))\n",
				file, lineof(off + RSTART + 1), m
			off += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH)
		}
	}
	FNR == 1 {
		if (NR > 1)
			scan(prev)
		code = ""; st = 0; prev = FILENAME
	}
	{ code = code blank($0) "\n" }
	END { if (NR > 0) scan(prev) }
AWK
# shellcheck disable=SC2086 # the file names of src/ hold no spaces
awk -f "$lib" -f "$prog" $files >"$out" || { echo "check-errors: awk failed" >&2; exit 2; }
if [ -s "$out" ]; then
	cat "$out"
	exit 1
fi
exit 0
