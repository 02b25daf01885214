#!/usr/bin/env bats
# Every signal that ends a session ends a run, a mark and a sweep the same way, while the test file
# is being filled and while the workload runs: the work stops, what ran is printed, the files
# iorate created are removed, and the exit status is 128 + the signal. No waiting on the clock:
# each step polls for what it needs (the file, the workers, their reads, a row printed), within a
# bound.

load helpers

PID=""

teardown() {
	if [ -n "$PID" ]; then
		kill -KILL "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
	fi
	return 0
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

# created DIR PREFIX: the test file a mark or sweep made in DIR ("" when none yet).
created() {
	local f
	for f in "$1"/"$2"*; do
		[ -e "$f" ] && { echo "$f"; return 0; }
	done
	echo ""
}

# made PREFIX: a mark or sweep has made its test file in d.
made() {
	[ -n "$(created d "$1")" ]
}

# in_fill_dir SIG PREFIX CMD...: SIG while CMD (a mark or sweep of the directory d) fills its
# 1 GiB test file d/PREFIX*, held as in_fill holds run. The files are removed, nothing measured.
in_fill_dir() {
	local sig=$1 prefix=$2 n size try f
	shift 2
	n=$(kill -l "$sig")
	mkdir -p d
	for try in 1 2 3; do
		"$IORATE" "$@" >out 2>err 3>&- &
		PID=$!
		poll made "$prefix"
		kill -STOP "$PID"
		f=$(created d "$prefix")
		size=$(stat -c %s "$f")
		[ "$size" -lt $((1 << 30)) ] && break
		kill -KILL "$PID"
		wait "$PID" || true
		PID=""
		rm -f d/*
	done
	[ -n "$PID" ] || skip "the 1 GiB test file was filled each time before it could be caught"
	kill -"$sig" "$PID"
	kill -CONT "$PID"
	finish
	[ "$rc" -eq $((128 + n)) ] || { echo "SIG$sig: exit $rc: $(cat err)"; false; }
	[ -z "$(ls d)" ] || { echo "left in d: $(ls d)"; false; }
	grep -q "interrupted" err || { echo "stderr: $(cat err)"; false; }
}

# mark_in_fill SIG: SIG while mark fills the test file of its directory.
mark_in_fill() {
	in_fill_dir "$1" iorate-mark. mark --profile real --read-only --runs 1 --no-prepare \
		--measure 10s --pause 0 --size 1G --engine sync -q d
	# The table is printed, with nothing measured.
	grep -q '^  SEQ    1MiB (Q=  1, T= 1): (not run)$' out || { echo "table: $(cat out)"; false; }
	grep -q '^  RND    4KiB (Q=  1, T= 1): (not run)$' out
}

# sweep_in_fill SIG: SIG while sweep fills the first test file of its directory.
sweep_in_fill() {
	in_fill_dir "$1" iorate-sweep- sweep threads=1,2 --engine sync -d 10 --size 1G -q --json d
	output=$(cat out)
	json_ok '.interrupted == true and .rows == []'
}

# stop_reading SIG: once $PID reads, SIG; it must end with 128 + SIG, leaving d empty; its
# standard output is then in $output.
stop_reading() {
	local n
	n=$(kill -l "$1")
	R0=$(read_bytes)
	poll reading
	kill -"$1" "$PID"
	finish
	[ "$rc" -eq $((128 + n)) ] || { echo "SIG$1: exit $rc: $(cat err)"; false; }
	[ -z "$(ls d)" ] || { echo "left in d: $(ls d)"; false; }
	output=$(cat out)
}

# mark_in_measure SIG: SIG once the first measured run of mark reads; the table is printed as
# JSON with that test stopped (no run of it finished), the file removed.
mark_in_measure() {
	mkdir -p d
	"$IORATE" mark --profile real --read-only --runs 1 --no-prepare --measure 30s \
		--pause 0 --size 4M --engine sync --cache buffered --json d >out 2>err 3>&- &
	PID=$!
	poll workers_started
	stop_reading "$1"
	json_ok '.profile == "real" and (.tests | length) == 2 and .tests[0].name == "SEQ1M Q1T1"'
	json_ok '.tests[0].read == null and .tests[1].read == null'
	[ "$(cat err)" = "iorate: mark: interrupted: the table shows the runs that finished" ]
}

# sweep_in_measure SIG: SIG while the second row of a text sweep reads. The first row ends after
# its 100,000 reads of 4 KiB; the second (1 MiB each) would take far longer than 30 s. Both rows
# are printed, the second marked as stopped, and the test file is removed.
sweep_in_measure() {
	mkdir -p d
	"$IORATE" sweep bs=4k,1m --ios 100000 -d 30 --size 4M --engine sync --cache buffered \
		d >out 2>err 3>&- &
	PID=$!
	poll grep -q '^4KiB ' out
	stop_reading "$1"
	line_ok '^4KiB +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$'
	line_ok '^1MiB +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  \(interrupted after [0-9.]+ s\)$'
	[ "$(sed -n 1p err)" = "iorate: interrupted: 1 of 2 rows done" ]
	grep -Eq '^iorate: bs=1MiB was stopped: its figures cover the [0-9.]+ s that ran$' err
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
@test "SIGPIPE during the fill: exit 141, the test file removed" { in_fill PIPE; }

@test "SIGINT while measuring: exit 130, partial JSON, the test file removed" { in_measure INT; }
@test "SIGTERM while measuring: exit 143, partial JSON, the test file removed" { in_measure TERM; }
@test "SIGHUP while measuring: exit 129, partial JSON, the test file removed" { in_measure HUP; }
@test "SIGQUIT while measuring: exit 131, partial JSON, the test file removed" { in_measure QUIT; }
@test "SIGUSR1 while measuring: exit 138, partial JSON, the test file removed" { in_measure USR1; }
@test "SIGUSR2 while measuring: exit 140, partial JSON, the test file removed" { in_measure USR2; }
@test "SIGALRM while measuring: exit 142, partial JSON, the test file removed" { in_measure ALRM; }
@test "SIGPIPE while measuring: exit 141, partial JSON, the test file removed" { in_measure PIPE; }

@test "mark, SIGINT during the fill: exit 130, the test file removed" { mark_in_fill INT; }
@test "mark, SIGTERM during the fill: exit 143, the test file removed" { mark_in_fill TERM; }
@test "mark, SIGHUP during the fill: exit 129, the test file removed" { mark_in_fill HUP; }
@test "mark, SIGQUIT during the fill: exit 131, the test file removed" { mark_in_fill QUIT; }
@test "mark, SIGUSR1 during the fill: exit 138, the test file removed" { mark_in_fill USR1; }
@test "mark, SIGUSR2 during the fill: exit 140, the test file removed" { mark_in_fill USR2; }
@test "mark, SIGALRM during the fill: exit 142, the test file removed" { mark_in_fill ALRM; }
@test "mark, SIGPIPE during the fill: exit 141, the test file removed" { mark_in_fill PIPE; }

@test "mark, SIGINT while measuring: exit 130, the table, the test file removed" { mark_in_measure INT; }
@test "mark, SIGTERM while measuring: exit 143, the table, the test file removed" { mark_in_measure TERM; }
@test "mark, SIGHUP while measuring: exit 129, the table, the test file removed" { mark_in_measure HUP; }
@test "mark, SIGQUIT while measuring: exit 131, the table, the test file removed" { mark_in_measure QUIT; }
@test "mark, SIGUSR1 while measuring: exit 138, the table, the test file removed" { mark_in_measure USR1; }
@test "mark, SIGUSR2 while measuring: exit 140, the table, the test file removed" { mark_in_measure USR2; }
@test "mark, SIGALRM while measuring: exit 142, the table, the test file removed" { mark_in_measure ALRM; }
@test "mark, SIGPIPE while measuring: exit 141, the table, the test file removed" { mark_in_measure PIPE; }

@test "sweep, SIGINT during the fill: exit 130, the test files removed" { sweep_in_fill INT; }
@test "sweep, SIGTERM during the fill: exit 143, the test files removed" { sweep_in_fill TERM; }
@test "sweep, SIGHUP during the fill: exit 129, the test files removed" { sweep_in_fill HUP; }
@test "sweep, SIGQUIT during the fill: exit 131, the test files removed" { sweep_in_fill QUIT; }
@test "sweep, SIGUSR1 during the fill: exit 138, the test files removed" { sweep_in_fill USR1; }
@test "sweep, SIGUSR2 during the fill: exit 140, the test files removed" { sweep_in_fill USR2; }
@test "sweep, SIGALRM during the fill: exit 142, the test files removed" { sweep_in_fill ALRM; }
@test "sweep, SIGPIPE during the fill: exit 141, the test files removed" { sweep_in_fill PIPE; }

@test "sweep, SIGINT while measuring: exit 130, the stopped row kept, the files removed" { sweep_in_measure INT; }
@test "sweep, SIGTERM while measuring: exit 143, the stopped row kept, the files removed" { sweep_in_measure TERM; }
@test "sweep, SIGHUP while measuring: exit 129, the stopped row kept, the files removed" { sweep_in_measure HUP; }
@test "sweep, SIGQUIT while measuring: exit 131, the stopped row kept, the files removed" { sweep_in_measure QUIT; }
@test "sweep, SIGUSR1 while measuring: exit 138, the stopped row kept, the files removed" { sweep_in_measure USR1; }
@test "sweep, SIGUSR2 while measuring: exit 140, the stopped row kept, the files removed" { sweep_in_measure USR2; }
@test "sweep, SIGALRM while measuring: exit 142, the stopped row kept, the files removed" { sweep_in_measure ALRM; }
@test "sweep, SIGPIPE while measuring: exit 141, the stopped row kept, the files removed" { sweep_in_measure PIPE; }

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

@test "SIGHUP while measuring with --save: the partial run is saved, exit 129" {
	# A dropped SSH session: the result is printed where stdout still works, and saved.
	"$IORATE" run --engine sync --cache buffered -d 30 --size 4M --save --db h.db --json \
		f.dat >out 2>err 3>&- &
	PID=$!
	poll workers_started
	R0=$(read_bytes)
	poll reading
	kill -HUP "$PID"
	finish
	[ "$rc" -eq 129 ] || { echo "exit $rc: $(cat err)"; false; }
	[ ! -e f.dat ]
	grep -q "^iorate: saved as run 1 in h.db$" err
	iorate history show --db h.db 1 --json
	[ "$status" -eq 0 ]
	json_ok '.interrupted == true and .seconds < 30 and .total.read.ios > 0'
	# What was saved is what was printed.
	diff <(jq -S . out) <(echo "$output" | jq -S .)
}
