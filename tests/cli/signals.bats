#!/usr/bin/env bats
# Every signal that ends a session ends a run the same way, while the test file is being filled
# and while the workload runs: the run stops, what ran is printed, the file iorate created is
# removed, and the exit status is 128 + the signal. No waiting on the clock: each step polls for
# what it needs (the file, the workers, their reads), within a bound.

load helpers

PID=""

teardown() {
	if [ -n "$PID" ]; then
		kill -KILL "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
	fi
	return 0
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

# The process has ended (it is gone, or a zombie waiting for wait).
gone() {
	local stat
	stat=$(cat "/proc/$PID/stat" 2>/dev/null) || return 0
	stat=${stat##*) }
	[ "${stat%% *}" = Z ]
}

# Its workers are started: more threads than the main one.
workers_started() {
	local tasks=(/proc/"$PID"/task/*)
	[ "${#tasks[@]}" -gt 1 ]
}

# Bytes the process has read so far (/proc/PID/io rchar).
read_bytes() {
	sed -n 's/^rchar: //p' "/proc/$PID/io"
}

# The workers have read a MiB since $R0: the workload is running.
reading() {
	[ "$(($(read_bytes) - R0))" -gt 1048576 ]
}

# finish: waits for the run to end (bounded), sets rc to its exit status.
finish() {
	poll gone || kill -KILL "$PID"
	wait "$PID" && rc=0 || rc=$?
	PID=""
}

# in_fill SIG: SIG while iorate fills its 1 GiB test file. The process is held (SIGSTOP) while
# the file is checked to be still short of its size, so the signal is known to fall in the fill.
in_fill() {
	local n size try
	n=$(kill -l "$1")
	for try in 1 2 3; do
		"$IORATE" run --engine sync -q -d 10 --size 1G f.dat >out 2>err 3>&- &
		PID=$!
		poll [ -e f.dat ]
		kill -STOP "$PID"
		size=$(stat -c %s f.dat)
		[ "$size" -lt $((1 << 30)) ] && break
		# Filled already: not the case to test; again.
		kill -KILL "$PID"
		wait "$PID" || true
		PID=""
		rm -f f.dat
	done
	[ -n "$PID" ] || skip "the 1 GiB test file was filled each time before it could be caught"
	kill -"$1" "$PID"
	kill -CONT "$PID"
	finish
	[ "$rc" -eq $((128 + n)) ] || { echo "SIG$1: exit $rc: $(cat err)"; false; }
	[ ! -e f.dat ]
	[ "$(cat err)" = "iorate: interrupted before the workload started" ]
	[ ! -s out ]
}

# in_measure SIG: SIG once the workers are reading; the partial result is printed as JSON.
in_measure() {
	local n
	n=$(kill -l "$1")
	"$IORATE" run --engine sync --cache buffered -d 30 --size 4M --json f.dat >out 2>err 3>&- &
	PID=$!
	poll workers_started
	R0=$(read_bytes)
	poll reading
	kill -"$1" "$PID"
	finish
	[ "$rc" -eq $((128 + n)) ] || { echo "SIG$1: exit $rc: $(cat err)"; false; }
	[ ! -e f.dat ]
	output=$(cat out)
	json_ok '.interrupted == true and .seconds < 30 and .total.read.ios > 0'
	json_ok '.targets[0].created == true and .error == null'
	grep -q "^iorate: interrupted: results cover the .* s that ran$" err
}

@test "SIGINT during the fill: exit 130, the test file removed" { in_fill INT; }
@test "SIGTERM during the fill: exit 143, the test file removed" { in_fill TERM; }
@test "SIGHUP during the fill: exit 129, the test file removed" { in_fill HUP; }
@test "SIGQUIT during the fill: exit 131, the test file removed" { in_fill QUIT; }
@test "SIGUSR1 during the fill: exit 138, the test file removed" { in_fill USR1; }
@test "SIGUSR2 during the fill: exit 140, the test file removed" { in_fill USR2; }
@test "SIGALRM during the fill: exit 142, the test file removed" { in_fill ALRM; }

@test "SIGINT while measuring: exit 130, partial JSON, the test file removed" { in_measure INT; }
@test "SIGTERM while measuring: exit 143, partial JSON, the test file removed" { in_measure TERM; }
@test "SIGHUP while measuring: exit 129, partial JSON, the test file removed" { in_measure HUP; }
@test "SIGQUIT while measuring: exit 131, partial JSON, the test file removed" { in_measure QUIT; }
@test "SIGUSR1 while measuring: exit 138, partial JSON, the test file removed" { in_measure USR1; }
@test "SIGUSR2 while measuring: exit 140, partial JSON, the test file removed" { in_measure USR2; }
@test "SIGALRM while measuring: exit 142, partial JSON, the test file removed" { in_measure ALRM; }

@test "SIGPIPE: with stdout gone the run is still saved with --save, and the exit is 141" {
	# The reader is gone long before the result is written at the end of the run.
	"$IORATE" run --engine null -d 0.3 --save --db h.db --json x.dat 2>err | true
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 141 ] || { echo "exit $rc: $(cat err)"; false; }
	grep -q "^iorate: saved as run 1 in h.db$" err
	iorate history list --db h.db --json
	[ "$status" -eq 0 ]
	json_ok '.runs | length == 1'
	json_ok '.runs[0].command_line | endswith("--save --db h.db --json x.dat")'
}
