#!/bin/sh
# Checks every #include of a directory of src/ against the layer table of docs/architecture.md
# (the rows between <!-- layers --> and <!-- /layers -->): a file in src/X may include only the
# directories listed for X. Both forms count, "DIR/x.h" and <DIR/x.h>, with any spaces around
# '#' and 'include'; an include whose path holds ".." is refused outright (it would hide the
# directory it reaches). Prints each include that breaks the table; exits 1 if any does.
# One awk over every file: a process per include line took a minute on a busy machine.
# usage: check-layers.sh [TOP]
top=${1:-$(dirname "$0")/..}
cd "$top" || exit 2
table=$(sed -n '/<!-- layers -->/,/<!-- \/layers -->/p' docs/architecture.md |
	sed -n 's/^| `\([a-z.]*\)` | \([a-z, ]*\) |.*/\1:\2/p')
[ -n "$table" ] || { echo "check-layers: no layer table in docs/architecture.md" >&2; exit 2; }
# The directories of src/: only they are layers (<sys/stat.h> and the like are not).
dirs=$(find src -mindepth 1 -maxdepth 1 -type d | sed 's|^src/||' | tr '\n' ' ')
files=$(find src -name '*.[ch]' | sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086 # the file names of src/ hold no spaces
awk -v table="$table" -v dirs="$dirs" '
BEGIN {
	n = split(table, rows, "\n")
	for (i = 1; i <= n; i++) {
		c = index(rows[i], ":")
		allowed[substr(rows[i], 1, c - 1)] = ", " substr(rows[i], c + 1) ","
	}
	n = split(dirs, d, " ")
	for (i = 1; i <= n; i++)
		isdir[d[i]] = 1
	bad = 0
}
FNR == 1 {
	rel = substr(FILENAME, 5)
	layer = index(rel, "/") ? substr(rel, 1, index(rel, "/") - 1) : rel
	skip = !(layer in allowed)
	if (skip) {
		print FILENAME ": src/" layer " is not in the layer table of docs/architecture.md"
		bad = 1
	}
}
skip { next }
/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]/ {
	path = $0
	sub(/^[^<"]*[<"]/, "", path)
	sub(/[>"].*/, "", path)
	if (index(path, "..")) {
		print FILENAME ":" FNR ": " path ": an include may not climb with .. (name DIR/x.h)"
		bad = 1
		next
	}
	if (!index(path, "/"))
		next
	dir = substr(path, 1, index(path, "/") - 1)
	if (!(dir in isdir) || index(allowed[layer], ", " dir ","))
		next
	print FILENAME ":" FNR ": " layer " may not include " dir "/ (docs/architecture.md)"
	bad = 1
}
END { exit bad }
' $files
