#!/usr/bin/env bats
# iorate run, end to end: options, outputs, files, signals, bad input.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "--help lists every option with an example, --version prints one line" {
	iorate run --help
	[ "$status" -eq 0 ]
	for o in bs time warmup cooldown threads depth write random sequential size offset range \
		align cache fsync seed engine fill keep allow-write-device force json csv units; do
		echo "$output" | grep -q -- "--$o" || { echo "missing --$o"; false; }
	done
	[ "$(echo "$output" | grep -c 'e\.g\.')" -ge 40 ]
	iorate --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^iorate\ [0-9]+\.[0-9]+\.[0-9]+ ]]
	iorate --help
	[ "$status" -eq 0 ]
	echo "$output" | grep -q '^  run '
}

@test "malformed values are refused before any I/O with one line and exit 2" {
	check() {
		local want="$1"; shift
		iorate run "$@" t.dat
		[ "$status" -eq 2 ] || { echo "exit $status for $*"; return 1; }
		[ "$(echo "$stderr" | wc -l)" -eq 1 ] || { echo "not one line: $stderr"; return 1; }
		[[ "$stderr" == *"$want"* ]] || { echo "'$stderr' lacks '$want'"; return 1; }
		[ -z "$output" ]
		[ ! -e t.dat ]
	}
	iorate run --bs 64q t.dat
	[ "$stderr" = "iorate: --bs: '64q' is not a size (examples: 4k, 64KiB, 1M)" ]
	check "--bs: '0'" --bs 0
	check "--write: '101'" --write 101
	check "--time: '-1'" --time -1
	check "--time: '0'" --time 0
	check "--depth: '0'" --depth 0
	check "--threads: 'x'" -t x
	check "--size: '99999999999999999999'" --size 99999999999999999999
	check "--size: '20E'" --size 20E
	check "--cache: 'fast'" --cache fast
	check "--engine: 'posixaio'" --engine posixaio
	check "--nope: unknown option" --nope
	check "-Z: unknown option" -Z
	iorate run t.dat --bs
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --bs: needs an argument (see 'iorate run --help')" ]
	check "uring" --engine sync -o 8
}

@test "a missing target is bad usage" {
	iorate run -d 1
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: run: no target"* ]]
}

@test "a block size larger than the target is refused with exit 2" {
	iorate run --engine sync -d 1 -c 64k -b 128k big.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"larger than the target"* ]]
	[ ! -e big.dat ]
}

@test "a new test file is created, measured, reported in JSON and removed" {
	iorate run --engine sync -d 1 -c 8M -b 4k -w 30 --json new.dat
	[ "$status" -eq 0 ]
	[ ! -e new.dat ]
	json_ok '.schema == 1 and (.version | type == "string")'
	json_ok '.params.bs == 4096 and .params.write == 30 and .params.pattern == "random"'
	json_ok '.params.cache == "direct" and .params.engine == "sync" and .params.size == 8388608'
	json_ok '.targets | length == 1'
	json_ok '.targets[0].path == "new.dat" and .targets[0].created == true'
	json_ok '.total.read.ios > 0 and .total.write.ios > 0'
	json_ok '.total.read.ios + .total.write.ios == .total.total.ios'
	json_ok '.total.total.bytes == .total.total.ios * 4096'
	json_ok '.total.read.lat_us.p50 <= .total.read.lat_us.p99 and .total.read.lat_us.p99 <= .total.read.lat_us.max'
	json_ok '.total.read.lat_us.min <= .total.read.lat_us.p50'
	json_ok '(.series | length) >= 1'
	json_ok '([.series[].read_iops] | add) > 0'
	json_ok '.cpu.ncpus >= 1 and .host.kernel != null'
	json_ok '.command_line | startswith("iorate run")'
	# Write share near 30 %.
	json_ok '(.total.write.ios / .total.total.ios) > 0.2 and (.total.write.ios / .total.total.ios) < 0.4'
}

@test "--keep keeps the file iorate created; an existing file is never removed" {
	iorate run --engine sync -d 1 -c 4M --keep -q kept.dat
	[ "$status" -eq 0 ]
	[ -f kept.dat ]
	[ "$(stat -c %s kept.dat)" -eq 4194304 ]
	iorate run --engine sync -d 1 -q kept.dat
	[ "$status" -eq 0 ]
	[ -f kept.dat ]
	echo "$output" | grep -q 'actual test time'
}

@test "a file smaller than --size is refused, not grown" {
	head -c 1048576 /dev/zero >small.dat
	iorate run --engine sync -d 1 -c 2M small.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"smaller than --size"* ]]
	[ "$(stat -c %s small.dat)" -eq 1048576 ]
}

@test "CSV has a header, a row per target and direction, and the run totals" {
	iorate run --engine sync -d 1 -c 4M --csv a.dat b.dat
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1 | cut -d, -f1-6)" = "target,direction,ios,bytes,seconds,iops" ]
	[ "$(echo "$output" | wc -l)" -eq 10 ]
	echo "$output" | grep -q '^a.dat,read,'
	echo "$output" | grep -q '^b.dat,total,'
	echo "$output" | grep -q '^\*,total,'
}

@test "several targets are measured together and totalled" {
	iorate run --engine sync -d 1 -c 4M -t 2 --json a.dat b.dat c.dat
	[ "$status" -eq 0 ]
	json_ok '.targets | length == 3'
	json_ok '([.targets[].total.ios] | add) == .total.total.ios'
	json_ok 'all(.targets[]; .total.ios > 0)'
	json_ok '.params.threads == 2'
}

@test "--units si prints MB/s; the default prints MiB/s" {
	iorate run --engine null -d 0.3 x
	echo "$output" | grep -q 'MiB/s'
	iorate run --engine null -d 0.3 --units si x
	echo "$output" | grep -q 'MB/s'
	if echo "$output" | grep -q 'MiB/s'; then false; fi
}

@test "with --seed, two runs issue the same offsets (null engine)" {
	iorate run --engine null --seed 7 --ios 2000 -t 2 -w 50 -d 10 --trace one.log -q x
	[ "$status" -eq 0 ]
	iorate run --engine null --seed 7 --ios 2000 -t 2 -w 50 -d 10 --trace two.log -q x
	[ "$status" -eq 0 ]
	iorate run --engine null --seed 8 --ios 2000 -t 2 -w 50 -d 10 --trace three.log -q x
	[ "$(wc -l <one.log)" -eq 4000 ]
	sort one.log >one.s
	sort two.log >two.s
	sort three.log >three.s
	cmp one.s two.s
	if cmp -s one.s three.s; then false; fi
	# And each thread's own sequence is in the same order.
	diff <(grep '^0 1 ' one.log) <(grep '^0 1 ' two.log)
}

@test "a recorded seed repeats a run that had none" {
	iorate run --engine null --ios 500 -d 10 --json --trace a.log x
	seed=$(echo "$output" | jq -r .params.seed)
	iorate run --engine null --ios 500 -d 10 --seed "$seed" -q --trace b.log x
	cmp a.log b.log
}

@test "sequential threads interleave block by block" {
	iorate run --engine null -s -t 2 -b 4k --ios 4 -c 1M -d 10 --trace s.log -q x
	[ "$status" -eq 0 ]
	[ "$(grep '^0 0 ' s.log | awk '{print $4}' | tr '\n' ' ')" = "0 8192 16384 24576 " ]
	[ "$(grep '^0 1 ' s.log | awk '{print $4}' | tr '\n' ' ')" = "4096 12288 20480 28672 " ]
}

@test "buffered reads of a working set that fits in RAM are flagged as page cache" {
	iorate run --engine sync --cache buffered -d 1 -c 8M --json pc.dat
	[ "$status" -eq 0 ]
	json_ok '.notes | any(test("page cache"))'
	iorate run --engine sync -d 1 -c 8M --json pc.dat
	json_ok '.notes | all(test("page cache") | not)'
}

@test "Ctrl-C stops early: results printed, marked interrupted, created file removed" {
	"$IORATE" run --engine sync -d 60 -c 8M --json sig.dat >out.json 2>err.txt &
	pid=$!
	for i in $(seq 100); do [ -e sig.dat ] && break; sleep 0.1; done
	[ -e sig.dat ] # else the removal below would prove nothing
	sleep 1.5
	kill -INT "$pid"
	set +e; wait "$pid"; rc=$?; set -e
	[ "$rc" -eq 130 ]
	[ ! -e sig.dat ]
	output=$(cat out.json)
	json_ok '.interrupted == true and .seconds < 30 and .total.total.ios > 0'
	grep -q interrupted err.txt
}

@test "SIGTERM while the test file is being filled removes it" {
	"$IORATE" run --engine sync -d 5 -c 3G fill.dat >/dev/null 2>err.txt &
	pid=$!
	for i in $(seq 100); do [ -e fill.dat ] && break; sleep 0.05; done
	# The signal must land while the file exists and is still being filled (3 GiB take seconds).
	[ -e fill.dat ]
	kill -0 "$pid"
	[ "$(stat -c %s fill.dat)" -lt $((3 << 30)) ]
	kill -TERM "$pid"
	set +e; wait "$pid"; rc=$?; set -e
	[ "$rc" -ne 0 ]
	grep -q interrupted err.txt
	[ ! -e fill.dat ]
}

@test "a directory target is explained" {
	mkdir d
	iorate run --engine sync -d 1 d
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"is a directory"* ]]
}

@test "a file that cannot be opened ends the run with exit 1 and one line" {
	iorate run --engine sync -d 1 /proc/nonexistent/dir/x.dat
	[ "$status" -eq 1 ]
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
}

@test "text output has parameters, per-target tables and percentiles with units" {
	iorate run --engine sync -d 1 -c 4M -w 50 t.dat
	[ "$status" -eq 0 ]
	for s in 'Command line' 'Input parameters' 'Total I/O' 'Read I/O' 'Write I/O' 'p99.9' \
		'MiB/s' '(us)' 'CPU'; do
		echo "$output" | grep -qF "$s" || { echo "missing $s"; false; }
	done
}

@test "no progress line when stdout is not a terminal" {
	iorate run --engine null -d 0.5 x
	if echo "$output" | grep -q $'\r'; then false; fi
}

@test "fsync every N writes and writethrough work on a file" {
	iorate run --engine sync -d 0.5 -c 4M -w 100 --fsync 4 --cache buffered --json f.dat
	[ "$status" -eq 0 ]
	json_ok '.total.write.ios > 0 and .params.fsync_every == 4'
	iorate run --engine sync -d 0.5 -c 4M -w 100 --cache writethrough --json f.dat
	[ "$status" -eq 0 ]
	json_ok '.params.cache == "writethrough"'
}

@test "engines uring and aio run at depth, and the default engine is said" {
	# Does io_uring work here? Asked for by name, it runs or the run is refused.
	iorate run --engine uring -d 0.2 -c 4M --json p.dat
	if [ "$status" -eq 0 ]; then
		# Then it is the default, and the reason says so.
		iorate run -d 0.5 -c 4M -o 8 --json u.dat
		[ "$status" -eq 0 ]
		json_ok '.params.engine == "uring"'
		json_ok '.params.engine_why | test("default") and test("io_uring is available")'
		json_ok '.total.read.ios > 0'
	else
		# Otherwise the default falls back to sync and says why; sync refuses depth 8.
		iorate run -d 0.5 -c 4M --json u.dat
		[ "$status" -eq 0 ]
		json_ok '.params.engine == "sync"'
		json_ok '.params.engine_why | test("default") and test("io_uring unavailable|without liburing")'
		iorate run -d 0.5 -c 4M -o 8 --json u.dat
		[ "$status" -ne 0 ]
		[[ "$stderr" == *"io_uring is unavailable"* ]]
	fi
	iorate run --engine aio -d 0.5 -c 4M -o 8 --json a.dat
	[ "$status" -eq 0 ]
	json_ok '.total.read.ios > 0'
}

@test "EIO during a run: exit 1, one line, partial results, the user's file untouched" {
	head -c 8388608 /dev/urandom >mine.dat
	sum=$(md5sum <mine.dat)
	IORATE_FAULT=eio:300 iorate run --engine fault -d 5 --json mine.dat
	[ "$status" -eq 1 ]
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"Input/output error"* ]]
	json_ok '.error | test("Input/output error")'
	json_ok '.total.read.ios == 299 and .total.read.errors == 1'
	[ "$(md5sum <mine.dat)" = "$sum" ]
}

@test "open loop: a stall shows in the percentiles, where the closed loop hides it" {
	# Every 100th I/O stalls 40 ms. Closed loop: 1% of I/Os are slow, the rest wait unseen.
	IORATE_FAULT=stall:100:40 iorate run --engine fault -d 2 -c 4M --json st.dat
	[ "$status" -eq 0 ]
	json_ok '.total.read.lat_us.p90 < 5000'
	# Open loop at 1,000 IOPS: the ~40 I/Os due during each stall wait, and it shows.
	IORATE_FAULT=stall:100:40 iorate run --engine fault -d 2 -c 4M --rate-iops 1000 --json st.dat
	[ "$status" -eq 0 ]
	json_ok '.total.read.lat_us.p90 > 5000'
}

@test "open loop that cannot keep up says how far behind it fell" {
	iorate run --engine null -d 1 --rate-iops 2000 --cap-iops 1000 --json
	[ "$status" -eq 0 ]
	json_ok '.notes | any(test("could not keep up"))'
}

@test "make install PREFIX=... installs the binary and the man page" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	build=$(dirname "$IORATE")
	make -s -C "$top" install BUILD="$build" PREFIX="$BATS_TEST_TMPDIR/inst" >/dev/null
	[ -x "$BATS_TEST_TMPDIR/inst/bin/iorate" ]
	"$BATS_TEST_TMPDIR/inst/bin/iorate" --version
	[ -f "$BATS_TEST_TMPDIR/inst/share/man/man1/iorate.1" ]
}

@test "the man page lists exactly the options of iorate run --help" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	diff <(sh "$top/tools/gen-man.sh" "$IORATE") "$top/docs/iorate.1"
}

@test "open loop on uring and aio at depth: the rate is kept and latency is not inflated" {
	for e in uring aio; do
		iorate run --engine "$e" -o 8 -d 2 -c 8M --rate-iops 2000 --json ol.dat
		[ "$status" -eq 0 ]
		# 4,000 I/Os due in 2 s; all are issued on time by a file this fast.
		json_ok '.total.total.ios >= 3960 and .total.total.ios <= 4040'
		# Completions are reaped while waiting for the next due time: the median is the
		# device's, not the 0.5 ms gap between I/Os.
		json_ok '.total.read.lat_us.p50 < 400'
	done
}

@test "a slow open-loop schedule ends with the run, not at its next due time" {
	start=$(date +%s%N)
	iorate run --engine uring -o 4 -d 1 -c 4M --rate-iops 0.25 --json slow.dat
	end=$(date +%s%N)
	[ "$status" -eq 0 ]
	# One I/O is due at 0 s, the next at 4 s: the run must not wait for it.
	[ $(( (end - start) / 1000000 )) -lt 3500 ]
	json_ok '.total.total.ios == 1'
}

@test "a cap at depth reaps while waiting for tokens: latency is Little's law, not the sleep" {
	iorate run --engine uring -o 4 -d 2 -c 8M --cap-iops 500 --json cap.dat
	[ "$status" -eq 0 ]
	json_ok '.total.total.iops > 490 and .total.total.iops < 510'
	# 4 outstanding at 500 IOPS: about 8 ms each, as a throttled cloud disk shows.
	json_ok '.total.read.lat_us.mean > 6000 and .total.read.lat_us.mean < 10000'
}

@test "the report says which clock timed the I/Os" {
	IORATE_CLOCK=monotonic iorate run --engine null --ios 100 --json
	[ "$status" -eq 0 ]
	json_ok '.host.clock == "monotonic"'
	iorate run --engine null --ios 100
	echo "$output" | grep -qE 'clock: +(CLOCK_MONOTONIC|calibrated TSC)'
}
