#!/bin/sh
# Checks that every struct initialiser in src/ names its fields (".field = value"): a struct
# declared with an initialiser ("struct s x = {", "struct s x[] = { {", with any qualifiers
# before it) and a compound literal ("(struct s){", "(struct s[]){") must open each struct's
# braces with '.' (or '[' for an array's index). "{0}" and "{}" are fine; arrays of scalars and
# of pointers are not looked at (their type is not "struct s" alone). Comments, strings and
# character constants are blanked first, so braces in them do not count. A line that holds
# "check-initialisers: allow" (in a comment) is let through. The bodies of macros are not
# read as declarations: a table's row macro is kept in the same form by hand.
# Prints each positional initialiser as FILE:LINE; exits 1 if there is any.
# usage: check-initialisers.sh [TOP]
top=${1:-$(dirname "$0")/..}
# blank(): comments and strings out of the way (tools/c-text.awk, shared by the checks).
lib=$(cd "$(dirname "$0")" && pwd)/c-text.awk
cd "$top" || exit 2
[ -d src ] || { echo "check-initialisers: no src/ in $top" >&2; exit 2; }
out=$(mktemp)
prog=$(mktemp)
trap 'rm -f "$out" "$prog"' EXIT
cat >"$prog" <<'AWK'
	{ raw[NR] = $0; code = code blank($0) "\n" }
	function lineof(pos,   t) { t = substr(code, 1, pos); return gsub(/\n/, "", t) + 1 }
	function allowed(a, b,   l) {
		for (l = a; l <= b; l++) if (raw[l] ~ /check-initialisers: allow/) return 1
		return 0
	}
	# The braces at pos open one struct: named fields, "{}" or "{0}".
	function one(pos, from,   rest, l) {
		rest = substr(code, pos + 1)
		if (rest ~ /^[ \t\n]*([.}]|0[ \t\n]*})/) return
		l = lineof(pos)
		if (allowed(from, l)) return
		printf "%s:%d: a positional struct initialiser (name the fields: %s)\n", file, l,
			".field = value"
	}
	# The braces at pos open an array of structs: each element in braces is one struct.
	function array(pos, from,   i, n, c, depth) {
		n = length(code); depth = 0
		for (i = pos + 1; i <= n; i++) {
			c = substr(code, i, 1)
			if (c == "{") { if (depth == 0) one(i, from); depth++ }
			else if (c == "}") { if (depth == 0) return; depth-- }
		}
	}
	function scan(re, isarr,   s, off, at, m, from) {
		s = code; off = 0
		while (match(s, re)) {
			at = off + RSTART + RLENGTH - 1; m = substr(s, RSTART, RLENGTH)
			from = lineof(off + RSTART)
			if (m ~ isarr) array(at, from); else one(at, from)
			off += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH)
		}
	}
	END {
		id = "[A-Za-z_][A-Za-z0-9_]*"; sp = "[ \t\n]*"; sp1 = "[ \t\n]+"
		dims = "(\\[[^];{}]*\\]" sp ")"
		# struct s name = {   struct s name[N] = {   (not a pointer, not a function)
		scan("(^|[^A-Za-z0-9_])struct" sp1 id sp1 id sp dims "*=" sp "\\{", "\\]" sp "=")
		# struct { ... } name[] = {   (a struct defined where it is declared, named or not)
		scan("}" sp id sp dims "*=" sp "\\{", "\\]" sp "=")
		# (struct s){   (struct s[]){   (const struct s){
		scan("\\((const" sp1 ")?struct" sp1 id sp dims "?\\)" sp "\\{", "\\]" sp "\\)")
	}
AWK
for f in $(find src -name '*.[ch]' | sort); do
	awk -v file="$f" -f "$lib" -f "$prog" "$f" ||
		{ echo "check-initialisers: awk failed on $f" >&2; exit 2; }
done >"$out"
if [ -s "$out" ]; then
	cat "$out"
	exit 1
fi
exit 0
