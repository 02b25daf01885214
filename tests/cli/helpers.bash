# Shared by the bats files: the binary under test and small assertions.
: "${IORATE:?set IORATE to the iorate binary}"

# The user's data directory (history, imported catalog, downloaded prices) is each test's own:
# nothing of the user's is read or written.
export XDG_DATA_HOME="$BATS_TEST_TMPDIR/xdg-data"
# Nor the user's settings (region, currency): a test that wants some writes this directory's.
export XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/xdg-config"
# Nor is a catalog installed on this machine (make install): the built-in one is what is tested.
export IORATE_CATALOG_DIR="$BATS_TEST_TMPDIR/no-installed-catalog"

# Each test runs in its own temporary directory; a file that defines setup() replaces this one.
setup() {
	cd "$BATS_TEST_TMPDIR"
}

# Runs iorate, keeping stdout and stderr apart ($output is stdout, $stderr is stderr).
iorate() {
	local errf="$BATS_TEST_TMPDIR/stderr.$$"
	set +e
	output=$("$IORATE" "$@" 2>"$errf")
	status=$?
	set -e
	stderr=$(cat "$errf")
	rm -f "$errf"
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (run as root to test block devices)"
}

# Fails, saying why, unless a line of $output matches the extended regular expression $1.
line_ok() {
	printf '%s\n' "$output" | grep -Eq -- "$1" || {
		echo "no line of the output matches: $1" >&2
		return 1
	}
}

# Fails, saying why, when a line of $output matches the extended regular expression $1.
no_line() {
	if printf '%s\n' "$output" | grep -Eq -- "$1"; then
		echo "a line of the output matches: $1" >&2
		return 1
	fi
}

# Fails with a message unless $1 holds as a jq expression on $output.
json_ok() {
	echo "$output" | jq -e "$1" >/dev/null || {
		echo "jq expression failed: $1" >&2
		echo "$output" | head -50 >&2
		return 1
	}
	result_round_trips
}

# Every run result a test checks is also checked to survive the history: imported into a fresh
# database and shown again with 'history show --json', it must be the same text, byte for byte
# (result_to_json and result_from_json are exact inverses, and so are result_set_to_json and
# result_set_from_json for a run of several jobs). Once per distinct output.
result_round_trips() {
	local sum db="$BATS_TEST_TMPDIR/.round-trip.db" id
	echo "$output" | jq -e '.schema == 2 and
		((has("params") and has("targets")) or (has("jobs") and has("groups")))' \
		>/dev/null 2>&1 || return 0
	sum=$(printf '%s' "$output" | md5sum | cut -d' ' -f1)
	[ "${ROUND_TRIPPED:-}" = "$sum" ] && return 0
	ROUND_TRIPPED=$sum
	rm -f "$db"
	id=$(printf '%s\n' "$output" | "$IORATE" history import --db "$db" - |
		sed -n 's/.* as run \([0-9]*\)$/\1/p')
	[ -n "$id" ] || { echo "the result could not be imported into a history" >&2; return 1; }
	diff <(printf '%s\n' "$output") <("$IORATE" history show --db "$db" "$id" --json) >&2 || {
		echo "the result did not come back from the history as it went in" >&2
		return 1
	}
}

# within PCT WANT GOT [what]: |GOT - WANT| <= PCT% of WANT.
within() {
	awk -v p="$1" -v w="$2" -v g="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }' \
		|| { echo "${4:-value} $3 is not within $1% of $2" >&2; return 1; }
}

# A jq expression on the JSON in $output, printed.
jqv() {
	echo "$output" | jq -r "$1"
}

# poll CMD...: runs CMD until it succeeds, for at most 10 s.
poll() {
	local end=$((${EPOCHREALTIME/./} + 10000000))
	until "$@"; do
		[ "${EPOCHREALTIME/./}" -lt "$end" ] ||
			{ echo "gave up waiting for: $*" >&2; return 1; }
		sleep 0.005
	done
}

# Bytes the process $PID has read so far (/proc/PID/io rchar).
read_bytes() {
	sed -n 's/^rchar: //p' "/proc/$PID/io"
}

# one_line: what the last iorate call wrote on stderr is exactly one line.
one_line() {
	[ -n "$stderr" ] && [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] ||
		{ echo "stderr is not one line: $stderr" >&2; return 1; }
}

# stop_with SIG: sends SIG to the process $PID and waits for it; its exit status in $status.
stop_with() {
	kill -"$1" "$PID"
	status=0
	wait "$PID" || status=$?
	PID=""
}

# Skips a test that compares with fio when fio 3.33 is not installed (make deps installs it).
need_fio() {
	command -v fio >/dev/null || skip "fio is not installed (make deps installs it)"
	[[ "$(fio --version)" == fio-3.33* ]] || skip "the comparisons are with fio 3.33"
}

# fio's JSON from its output: fio may print notes before it.
fio_json() {
	sed -n '/^{/,$p'
}
