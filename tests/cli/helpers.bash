# Shared by the bats files: the binary under test and small assertions.
: "${IORATE:?set IORATE to the iorate binary}"

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

# Fails with a message unless $1 holds as a jq expression on $output.
json_ok() {
	echo "$output" | jq -e "$1" >/dev/null || {
		echo "jq expression failed: $1" >&2
		echo "$output" | head -50 >&2
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
