#!/usr/bin/env bats
# A newcomer's first minutes, as README.md tells them: its quick start is run command by
# command, taken from README.md itself (between <!-- quickstart --> and <!-- /quickstart -->),
# and each output's lines the README shows are checked, so the README cannot drift from the
# program. Numbers are not compared (a run's figures differ from run to run), only the words
# and layout around them. The links of README.md and docs/ must lead to files of the tree.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	readme="$BATS_TEST_DIRNAME/../../README.md"
	# The README's commands say "iorate": that name is the binary under test.
	mkdir bin
	ln -s "$IORATE" bin/iorate
}

# The quick start's lines, from its opening marker to its closing one, without the markers.
quickstart() {
	sed -n '/^<!-- quickstart/,/^<!-- \/quickstart -->/p' "$readme" | sed '1d;$d' |
		grep -v '^```'
}

# A line as compared: numbers (with their separators) become N, runs of blanks one space.
normalise() {
	sed -E 's/[0-9][0-9,.:-]*/N/g; s/[[:space:]]+/ /g; s/^ //; s/ $//'
}

# shown_ok SHOWN ACTUAL: the files' lines match, where a line "..." in SHOWN stands for any
# number of lines of ACTUAL. The first lines are anchored at the start, and the last at the end
# unless SHOWN ends in "...".
shown_ok() {
	local -a want got
	mapfile -t want < <(normalise <"$1")
	mapfile -t got < <(normalise <"$2")
	# Trailing blank lines of what is shown separate it from the next command.
	while [ ${#want[@]} -gt 0 ] && [ -z "${want[-1]}" ]; do unset 'want[-1]'; done
	local i=0 j=0 skip=0 k
	while [ "$i" -lt ${#want[@]} ]; do
		if [ "${want[i]}" = "..." ]; then
			skip=1
			i=$((i + 1))
			continue
		fi
		# The segment of shown lines from i to the next "..." (or the end).
		local -a seg=()
		k=$i
		while [ "$k" -lt ${#want[@]} ] && [ "${want[k]}" != "..." ]; do
			seg+=("${want[k]}")
			k=$((k + 1))
		done
		local at=-1 from=$j to=$j p
		if [ "$skip" = 1 ]; then
			to=$((${#got[@]} - ${#seg[@]}))
			# The last segment is anchored at the end.
			[ "$k" -ge ${#want[@]} ] && from=$to
		fi
		for ((p = from; p <= to && at < 0; p++)); do
			local m=0 q
			for ((q = 0; q < ${#seg[@]}; q++)); do
				[ "${got[p + q]-}" = "${seg[q]}" ] || { m=1; break; }
			done
			[ "$m" = 0 ] && at=$p
		done
		if [ "$at" -lt 0 ]; then
			echo "README.md shows, and the program did not print here:" >&2
			printf '  | %s\n' "${seg[@]}" >&2
			return 1
		fi
		j=$((at + ${#seg[@]}))
		i=$k
		skip=0
	done
	if [ "${want[-1]}" != "..." ] && [ "$j" -ne ${#got[@]} ]; then
		echo "the program printed more than README.md shows (no \"...\" at its end)" >&2
		return 1
	fi
}

@test "README's first commands are make run and make test, and the Makefile has both" {
	run bash -c "sed -n '/^\`\`\`/,/^\`\`\`/p' '$readme' | grep -v '^\`\`\`' | head -2 |
		awk '{ print \$1, \$2 }'"
	[ "$output" = "make run
make test" ]
	grep -q '^run:' "$BATS_TEST_DIRNAME/../../Makefile"
	grep -q '^test:' "$BATS_TEST_DIRNAME/../../Makefile"
}

@test "README's quick start runs, command by command, printing what README.md shows" {
	local n=0 cmd=
	quickstart >qs
	# Each "$ " line is a command; the lines up to the next one are what README.md shows of
	# its output, standard error included as a terminal shows it.
	while IFS= read -r line || [ -n "$line" ]; do
		if [[ "$line" == '$ '* ]]; then
			cmd=${line#\$ }
			[[ "$cmd" == 'iorate '* ]] || { echo "not an iorate command: $cmd" >&2; return 1; }
			n=$((n + 1))
			: >"shown.$n"
			echo "$cmd" >"cmd.$n"
		elif [ "$n" -gt 0 ]; then
			printf '%s\n' "$line" >>"shown.$n"
		fi
	done <qs
	[ "$n" -ge 5 ] || { echo "README.md's quick start holds $n commands, not five" >&2; return 1; }
	for ((i = 1; i <= n; i++)); do
		mkdir "run.$i"
		(cd "run.$i" && PATH="$BATS_TEST_TMPDIR/bin:$PATH" bash -c "$(cat "../cmd.$i")" \
			>../out.$i 2>&1) || {
			echo "README.md's command failed (exit $?): $(cat "cmd.$i")" >&2
			cat "out.$i" >&2
			return 1
		}
		shown_ok "shown.$i" "out.$i" || {
			echo "... after: $(cat "cmd.$i")" >&2
			return 1
		}
	done
	# The test files iorate made are gone (fio's dry run makes none).
	[ -z "$(find run.* -type f)" ]
}

@test "README's and docs/' links lead to files of the tree" {
	local top f link missing=
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# A link is relative to the file that holds it; anchors and web addresses are not checked.
	for f in "$top/README.md" "$top"/docs/*.md; do
		for link in $(grep -o '](\([^)#]*\)' "$f" | sed 's/^](//' | grep -v '^[a-z]*:'); do
			[ -e "$(dirname "$f")/$link" ] || missing="$missing ${f#"$top"/}:$link"
		done
	done
	[ -z "$missing" ] || { echo "links to missing files:$missing" >&2; return 1; }
}
