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
cd "$top" || exit 2
[ -d src ] || { echo "check-errors: no src/ in $top" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# One awk over every file (a process a file is slow on a busy machine).
files=$(find src -name '*.[ch]' ! -path src/util/err.c | sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086 # the file names of src/ hold no spaces
awk '
	# Comments, strings and character constants become spaces (st carries a comment on).
	function blank(s,   out, i, n, c, d) {
		n = length(s); out = ""
		if (st == 2 || st == 3 || st == 4) st = 0
		for (i = 1; i <= n; i++) {
			c = substr(s, i, 1); d = substr(s, i + 1, 1)
			if (st == 0) {
				if (c == "/" && d == "*") { st = 1; out = out "  "; i++; continue }
				if (c == "/" && d == "/") { st = 2; out = out "  "; i++; continue }
				if (c == "\"") st = 3
				else if (c == "\047") st = 4
				out = out c
			} else if (st == 1) {
				if (c == "*" && d == "/") { st = 0; out = out "  "; i++; continue }
				out = out " "
			} else if (st == 2) {
				out = out " "
			} else {
				if (c == "\\") { out = out "  "; i++; continue }
				if ((st == 3 && c == "\"") || (st == 4 && c == "\047")) st = 0
				out = out (st ? " " : c)
			}
		}
		return out
	}
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
' $files >"$out" || { echo "check-errors: awk failed" >&2; exit 2; }
if [ -s "$out" ]; then
	cat "$out"
	exit 1
fi
exit 0
