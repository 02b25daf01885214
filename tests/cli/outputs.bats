#!/usr/bin/env bats
# Outputs never replace what the command uses (its targets, the history, its inputs, job files),
# standard output's write errors are named as themselves, a signal leaves the previous file, a
# failed first save leaves no empty database, and CSV prints control characters escaped.

load helpers

# The 1 MiB file data.bin and its SHA-256 in $sum.
make_data() {
	head -c 1M /dev/urandom >data.bin
	sum=$(sha256sum <data.bin)
}

unchanged() {
	[ "$(sha256sum <"$1")" = "$2" ] || { echo "$1 was changed" >&2; return 1; }
}

# No temporary output (.NAME.iorate-XXXXXXXXXXXX) was left in the directory.
no_temp() {
	[ -z "$(find . -maxdepth 1 -name '.*.iorate-*' -print -quit)" ] ||
		{ echo "a temporary output was left: $(ls -A)" >&2; return 1; }
}

# Waits until process $1 blocks reading a pipe or FIFO: polled every 5 ms, for 10 s at most.
blocked_in_read() {
	local w end=$((${EPOCHREALTIME/./} + 10000000))
	while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		w=""
		read -r w </proc/"$1"/wchan || [ -n "$w" ] || return 1
		[[ $w == *pipe_read ]] && return 0
		sleep 0.005
	done
	echo "process $1 never blocked in a read (wchan $w)" >&2
	return 1
}

@test "--trace naming the target of a read-only run is refused, before any I/O" {
	make_data
	iorate run -w 0 --cache buffered -q -d 0.1 --trace data.bin data.bin
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: --trace data.bin is also a target" ]
	unchanged data.bin "$sum"
	# Another name of the same file (a hard link) is the same file.
	ln data.bin other.bin
	iorate run -w 0 --cache buffered -q -d 0.1 --trace other.bin data.bin
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: --trace other.bin is also a target (data.bin)" ]
	unchanged data.bin "$sum"
	no_temp
}

@test "--trace naming the --db history is refused, the history unchanged" {
	"$IORATE" run --engine null -q -d 0.1 --save --db h.db x.dat >/dev/null 2>&1
	hsum=$(sha256sum <h.db)
	iorate run --engine null -q -d 0.1 --save --db h.db --trace h.db x.dat
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: --trace h.db is also the --db history" ]
	unchanged h.db "$hsum"
	no_temp
}

@test "report --output naming its own input is refused, the input unchanged" {
	"$IORATE" run --engine null -q -d 0.1 --json x.dat >r.json
	rsum=$(sha256sum <r.json)
	iorate report --output r.json r.json
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: --output r.json is also an input of this report" ]
	unchanged r.json "$rsum"
	no_temp
}

@test "--db naming the run's target is refused, the target unchanged" {
	make_data
	iorate run -w 0 --cache buffered -q -d 0.1 --save --db data.bin data.bin
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: --db data.bin is also a target" ]
	unchanged data.bin "$sum"
}

@test "history import --db naming a file being imported is refused" {
	"$IORATE" run --engine null -q -d 0.1 --json x.dat >r.json
	rsum=$(sha256sum <r.json)
	iorate history import --db r.json r.json
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: --db r.json is also a file being imported" ]
	unchanged r.json "$rsum"
}

@test "cost --html naming a --catalog file it prices from is refused" {
	cp "$BATS_TEST_DIRNAME/../../data/catalog/azure.json" cat.json
	csum=$(sha256sum <cat.json)
	iorate cost config --catalog cat.json --vm DS14 --disk 2xP30 --html cat.json
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: --html cat.json is also a --catalog file" ]
	unchanged cat.json "$csum"
	no_temp
}

@test "fio --output: a job file or a device is refused in one line, before the jobs are echoed" {
	printf '[a]\nrw=read\nfilename=y.dat\nsize=1m\nioengine=null\nruntime=1\n' >j.fio
	jsum=$(sha256sum <j.fio)
	iorate fio --output=j.fio j.fio
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: fio: --output j.fio is also a job file" ]
	[ -z "$output" ]
	unchanged j.fio "$jsum"
	iorate run --job j.fio --trace j.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --trace j.fio is also a job file" ]
	unchanged j.fio "$jsum"
	iorate fio --output=/dev/null j.fio
	[ "$status" -eq 2 ]
	one_line
	[[ "$stderr" == "iorate: fio: --output /dev/null: is a character device"* ]]
	[ -z "$output" ]
	[ ! -e y.dat ]
}

@test "--trace - beside a report for programs on standard output is refused, naming both" {
	for fmt in json csv fio-json; do
		iorate run --engine null -q -d 0.1 --trace - --$fmt x.dat
		[ "$status" -eq 2 ]
		one_line
		[ "$stderr" = "iorate: --trace - and --$fmt both write to standard output; give --trace a file" ]
		[ -z "$output" ]
	done
}

@test "standard output on a full device: exit 1 naming ENOSPC, and --save still saves" {
	[ -w /dev/full ] || skip "no /dev/full"
	rc=0
	"$IORATE" run --engine null -q -d 0.1 --json --save --db h.db x.dat >/dev/full 2>err || rc=$?
	[ "$rc" -eq 1 ] || { echo "exit $rc: $(cat err)"; false; }
	[ "$(cat err)" = "iorate: standard output: No space left on device
iorate: saved as run 1 in h.db" ]
	iorate history list --db h.db --json
	json_ok '.runs | length == 1'
	"$IORATE" history show --db h.db 1 --json >r.json
	"$IORATE" run --engine sync -s -w 100 -c 256k --io-size 256k --verify --keep -q v.dat
	printf '[seq]\nrw=write\nsize=4m\n' >j.fio
	for cmd in "report --output - r.json" "history list --db h.db --json" \
		"history show --db h.db 1" "history compare --db h.db 1 1 --json" \
		"verify --json v.dat" "verify v.dat" "run --dry-run --json x.dat" \
		"run --dry-run x.dat" "run --job j.fio --dry-run" "fio --dry-run j.fio" \
		"fio --dry-run --json j.fio"; do
		rc=0
		# shellcheck disable=SC2086
		"$IORATE" $cmd >/dev/full 2>err || rc=$?
		[ "$rc" -eq 1 ] || { echo "$cmd: exit $rc: $(cat err)"; false; }
		[ "$(cat err)" = "iorate: standard output: No space left on device" ] ||
			{ echo "$cmd: $(cat err)"; false; }
	done
}

@test "sweep and mark on a full standard output: exit 1 naming ENOSPC, their files removed" {
	[ -w /dev/full ] || skip "no /dev/full"
	mkdir d
	rc=0
	"$IORATE" sweep --engine null -q -d 0.1 threads=1,2 d/x.dat >/dev/full 2>err || rc=$?
	[ "$rc" -eq 1 ] || { echo "sweep: exit $rc: $(cat err)"; false; }
	[ "$(cat err)" = "iorate: standard output: No space left on device" ]
	rc=0
	"$IORATE" mark --engine null -q --runs 1 --measure 0.1 --pause 0 --size 4M d >/dev/full \
		2>err || rc=$?
	[ "$rc" -eq 1 ] || { echo "mark: exit $rc: $(cat err)"; false; }
	[ "$(cat err)" = "iorate: standard output: No space left on device" ]
	[ -z "$(ls -A d)" ] || { ls -A d; false; }
}

@test "SIGINT while report reads its input: the old page stays, no temporary file, exit 130" {
	"$IORATE" run --engine null -q -d 0.1 --json x.dat >r.json
	echo '<p>the old page</p>' >page.html
	psum=$(sha256sum <page.html)
	# The input is a FIFO this test holds open (fd 5; bats keeps fd 3): report has read the
	# whole run and waits for its end when the signal comes.
	mkfifo in.json
	exec 5<>in.json
	cat r.json >&5
	"$IORATE" report --output page.html in.json >out 2>err &
	pid=$!
	blocked_in_read "$pid"
	kill -INT "$pid"
	exec 5>&-
	rc=0
	wait "$pid" || rc=$?
	unchanged page.html "$psum"
	no_temp
	[ "$rc" -eq 130 ] || { echo "exit $rc: $(cat err)"; false; }
	[ "$(cat err)" = "iorate: report: interrupted before the page was written" ]
}

@test "history import stopped by a signal leaves no new empty database" {
	mkfifo in.json
	exec 5<>in.json
	"$IORATE" history import --db new.db in.json >out 2>err &
	pid=$!
	blocked_in_read "$pid"
	kill -TERM "$pid"
	exec 5>&-
	rc=0
	wait "$pid" || rc=$?
	[ ! -e new.db ] || { echo "new.db was left: $(cat err)"; false; }
	[ "$rc" -eq 143 ] || { echo "exit $rc: $(cat err)"; false; }
	[ "$(cat err)" = "iorate: history import: interrupted; the runs imported before it are kept" ]
}

@test "a failed first --save into a new database leaves no file behind" {
	# Writes beyond a zero file-size limit fail with EFBIG (SIGXFSZ ignored): SQLite cannot
	# write the new database's first page.
	rc=0
	err=$(trap '' XFSZ; ulimit -f 0; "$IORATE" run --engine null -q -d 0.1 --save \
		--db new.db x.dat 2>&1 >/dev/null) || rc=$?
	[ ! -e new.db ] || { echo "new.db was left: $err"; false; }
	[ "$rc" -eq 0 ] || { echo "exit $rc: $err"; false; }
	# The system's reason, not only SQLite's "disk I/O error".
	[[ "$err" == "iorate: warning: the run was not saved: "*"(File too large)" ]] ||
		{ echo "$err"; false; }
}

@test "CSV prints control characters of paths and labels escaped" {
	iorate run --engine null -q -d 0.05 --csv $'ev\e[31mil.dat'
	[ "$status" -eq 0 ]
	line_ok '^ev\\x1b\[31mil\.dat,read,'
	no_line $'\e'
	"$IORATE" run --engine null -q -d 0.1 --json x.dat >r.json
	"$IORATE" history import --db h.db --label $'a\e[2Jb' r.json >/dev/null
	iorate history list --db h.db --csv
	[ "$status" -eq 0 ]
	line_ok '^1,[0-9]+,[^,]*,a\\x1b\[2Jb,'
	no_line $'\e'
	iorate fio --csv --name=a --rw=read --size=1m --ioengine=null --runtime=1 \
		--filename=$'f\e]0;t\a.dat'
	[ "$status" -eq 0 ]
	line_ok '^f\\x1b\]0;t\\a\.dat,read,256,1048576,'
	no_line $'\e'
}

@test "--engine null refuses the targets a real run refuses (a directory, a missing directory)" {
	mkdir d
	iorate run --engine null -q -d 0.1 d
	[ "$status" -eq 2 ]
	one_line
	[[ "$stderr" == "iorate: d: is a directory; name a file in it"* ]]
	iorate run --engine null -q -d 0.1 nodir/x.dat
	[ "$status" -eq 2 ]
	one_line
	[ "$stderr" = "iorate: nodir/x.dat: its directory does not exist" ]
	[ ! -e nodir ]
}
