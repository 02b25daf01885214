#!/bin/bash
# usage: tools/fio-examples.sh DIR [IORATE]
# Translates every *.fio of DIR with 'iorate fio --dry-run' (nothing runs, nothing is created)
# and prints, per file, whether it runs, is refused for its engine, or for other options (each
# named), then the totals and the options that refused files, most frequent first. IORATE
# defaults to build/iorate. Exit status: 0, or 2 on bad usage.
set -u
dir=${1:?usage: tools/fio-examples.sh DIR [IORATE]}
iorate=${2:-${IORATE:-build/iorate}}
[ -d "$dir" ] || { echo "fio-examples: $dir: not a directory" >&2; exit 2; }
[ -x "$iorate" ] || { echo "fio-examples: $iorate: not executable (make first)" >&2; exit 2; }
iorate=$(cd "$(dirname "$iorate")" && pwd)/$(basename "$iorate")

# The command lines a job file's comments document for it, one a line (without "fio" and the
# file's name).
documented() {
	awk -v name="$1" '
		/^[;#]/ { line = $0; sub(/^[;#][[:space:]]*/, "", line) }
		!/^[;#]/ { if (inv != "") print inv; inv = ""; on = 0; next }
		on { more = sub(/[[:space:]]*\\$/, "", line); inv = inv " " line
		     if (!more) { print inv; inv = ""; on = 0 }; next }
		line ~ ("^fio +([^ ]*/)?" name) { on = (line ~ /\\$/); inv = ""
		     if (!on) print "" }
		END { if (inv != "") print inv }' "$1" |
		sed 's/^ *//; s/\\\\/\\/g'
}

total=0 runs=0 engine=0 other=0 device=0
reasons=$(mktemp)
trap 'rm -f "$reasons"' EXIT
cd "$dir" || exit 2
for f in *.fio; do
	[ -f "$f" ] || continue
	total=$((total + 1))
	# Variables its comments set for it ("; env FIO_BS=4096 \\" before a documented fio
	# command line) are set for it too, the first such line's.
	envs=$(sed -n 's/^[;#][[:space:]]*env \(\([A-Za-z_][A-Za-z0-9_]*=[^ ]* *\)*\).*/\1/p' "$f" |
		head -1)
	# shellcheck disable=SC2086 # NAME=VALUE words
	err=$(env $envs "$iorate" fio --dry-run --json "$f" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 0 ]; then
		runs=$((runs + 1))
		echo "$f: runs"
		continue
	fi
	# A file with no ioengine= of its own, whose comments show the command lines it is meant
	# for ("; fio examples/NAME.fio \", then ";   --opt=value \" lines): it is tried with each
	# of them (the job file last), and runs if one runs.
	if ! grep -q '^[[:space:]]*ioengine[[:space:]]*=' "$f"; then
		ran= eng_err= other_err=
		while IFS= read -r args; do
			[ -n "$args" ] || continue
			# shellcheck disable=SC2086 # the documented words, split as a shell would
			a_err=$("$iorate" fio --dry-run --json $args "$f" 2>&1 >/dev/null) &&
				{ ran="$args"; break; }
			# A failure that is not about the engine says most; else the engine's.
			if printf '%s\n' "$a_err" | grep -q 'refused engine'; then
				eng_err=$a_err
			else
				other_err=$a_err
			fi
		done < <(documented "$f")
		[ -n "$eng_err" ] && err=$eng_err
		[ -n "$other_err" ] && err=$other_err
		if [ -n "$ran" ]; then
			runs=$((runs + 1))
			echo "$f: runs with its documented command line ($ran)"
			continue
		fi
	fi
	# The refusals, one a line: "  FILE:LINE: option=value: why".
	engines=$(printf '%s\n' "$err" | sed -n -e 's/^  [^ ]*: ioengine=\([^:]*\): refused engine.*/\1/p' \
		-e 's/^  command line: --ioengine=\([^:]*\): refused engine.*/\1/p' | sort -u | tr '\n' ' ')
	if [ -n "$engines" ]; then
		engine=$((engine + 1))
		echo "$f: refused (engine ${engines% })"
		continue
	fi
	# A file that names a device this machine lacks (/dev/nvme0n1, /dev/XXX) runs where it
	# exists: counted apart, not as a refusal of its options.
	if ! printf '%s\n' "$err" | grep -v "does not exist, and no size= says how much" |
		grep -q '^ \|^iorate: fio: [^ ]*:[0-9]*: [a-z_]*='; then
		device=$((device + 1))
		echo "$f: runs where its device exists ($(printf '%s\n' "$err" | head -1 |
			sed -n -e 's/.*filename=\([^:]*\):.*/\1/p' \
				-e "s/^iorate: fio: '\\([^']*\\)' does not exist.*/\\1: a size or a device/p"))"
		continue
	fi
	other=$((other + 1))
	opts=$(printf '%s\n' "$err" | sed -n 's/^  [^ ]*: \([^=: ]*\).*/\1/p' | sort -u |
		tr '\n' ' ')
	if [ -n "$opts" ]; then
		echo "$f: refused (options ${opts% })"
		printf '%s\n' $opts >>"$reasons"
	else
		why=$(printf '%s\n' "$err" | head -1 | sed 's/^iorate: fio: //')
		echo "$f: refused ($why)"
		echo "($why)" >>"$reasons"
	fi
done
echo "total $total: $runs run, $device run where the device they name exists," \
	"$engine refused by engine, $other refused otherwise"
if [ -s "$reasons" ]; then
	echo "options that refused files (files):"
	sort "$reasons" | uniq -c | sort -rn | sed 's/^ */  /'
fi
exit 0
