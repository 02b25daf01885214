#!/usr/bin/env bats
# make deps' installer (tools/apt-install.sh) against a stand-in apt-get: it waits while another
# apt holds a lock, and fails at once on any other error. No package is installed.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR"
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	mkdir bin
	# A stand-in apt-get: fails with a lock message the first $LOCKED_TIMES calls, logs the rest.
	cat > bin/apt-get <<-'SH'
	#!/bin/sh
	n=$(cat calls 2>/dev/null || echo 0)
	echo $((n + 1)) > calls
	if [ "$n" -lt "${LOCKED_TIMES:-0}" ]; then
		echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)" >&2
		exit 100
	fi
	[ -n "${BROKEN:-}" ] && { echo "E: Unable to locate package nosuch" >&2; exit 100; }
	echo "$*" >> log
	SH
	chmod +x bin/apt-get
}

@test "a held apt lock is waited for, then the packages are installed" {
	LOCKED_TIMES=1 PATH="$PWD/bin:$PATH" run --separate-stderr sh "$top/tools/apt-install.sh" \
		fio jq
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"waiting for another apt or dpkg to finish"* ]]
	grep -q -- "-o DPkg::Lock::Timeout=600 update -qq" log
	grep -q -- "-o DPkg::Lock::Timeout=600 install -y -qq fio jq" log
	[ "$(cat calls)" -eq 3 ]
}

@test "any other apt failure fails at once with apt's message" {
	BROKEN=1 PATH="$PWD/bin:$PATH" run --separate-stderr sh "$top/tools/apt-install.sh" nosuch
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"Unable to locate package nosuch"* ]]
	[[ "$stderr" != *"waiting"* ]]
	[ "$(cat calls)" -eq 1 ]
}
