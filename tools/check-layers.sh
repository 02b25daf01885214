#!/bin/sh
# Checks every #include of a directory of src/ against the layer table of docs/architecture.md
# (the rows between <!-- layers --> and <!-- /layers -->): a file in src/X may include only the
# directories listed for X. Both forms count, "DIR/x.h" and <DIR/x.h>, with any spaces around
# '#' and 'include'; an include whose path holds ".." is refused outright (it would hide the
# directory it reaches). Prints each include that breaks the table; exits 1 if any does.
# usage: check-layers.sh [TOP]
top=${1:-$(dirname "$0")/..}
cd "$top" || exit 2
table=$(sed -n '/<!-- layers -->/,/<!-- \/layers -->/p' docs/architecture.md |
	sed -n 's/^| `\([a-z.]*\)` | \([a-z, ]*\) |.*/\1:\2/p')
[ -n "$table" ] || { echo "check-layers: no layer table in docs/architecture.md" >&2; exit 2; }
bad=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
inc='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]'
for f in $(find src -name '*.[ch]' | sort); do
	rel=${f#src/}
	case $rel in
	*/*) layer=${rel%%/*} ;;
	*) layer=$rel ;;
	esac
	allowed=$(printf '%s\n' "$table" | sed -n "s/^$layer:\\(.*\\)/\\1/p")
	if [ -z "$allowed" ]; then
		echo "$f: src/$layer is not in the layer table of docs/architecture.md"
		continue
	fi
	grep -n "$inc" "$f" | while IFS= read -r line; do
		path=$(printf '%s' "${line#*:}" | sed 's/^[^<"]*[<"]\([^>"]*\)[>"].*/\1/')
		case $path in
		*..*)
			echo "$f:${line%%:*}: $path: an include may not climb with .. (name DIR/x.h)"
			continue ;;
		*/*) dir=${path%%/*} ;;
		*) continue ;;
		esac
		# <sys/stat.h> and the like: only the directories of src/ are layers.
		[ -d "src/$dir" ] || continue
		case ", $allowed," in
		*", $dir,"*) ;;
		*) echo "$f:${line%%:*}: $layer may not include $dir/ (docs/architecture.md)" ;;
		esac
	done
done >"$out"
if [ -s "$out" ]; then
	cat "$out"
	bad=1
fi
exit $bad
