# Shared by the bats files: the binary under test and small assertions.
: "${IORATE:?set IORATE to the iorate binary}"

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
