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
	check "--engine: 'windowsaio'" --engine windowsaio
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
	json_ok '.schema == 2 and (.version | type == "string")'
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

@test "a run of 2 s has a point per 100 ms, about 20, whose I/O counts add up to the run's" {
	iorate run --engine null -d 2 --cap-iops 5000 --json x
	[ "$status" -eq 0 ]
	json_ok '.interval == 0.1 and .interval_ns == 100000000 and .params.interval_ns == 0'
	# Points are due on a grid from the window's start; a late wake-up merges two.
	json_ok '(.series | length) >= 18 and (.series | length) <= 20'
	json_ok '([.series[] | .read_ios + .write_ios] | add) == .total.total.ios'
	json_ok '([.series[].read_bytes] | add) == .total.read.bytes'
	# Each I/O in one point only: the points' counts add up to the run's exactly (above).
	# Asked to run longer than 10 s: a point per second (ended early here by --ios).
	iorate run --engine null -d 11 --warmup 0 --cap-iops 2000 --ios 3000 --json x
	json_ok '.interval_ns == 1000000000 and (.series | length) >= 1 and (.series | length) <= 2'
	json_ok '([.series[] | .read_ios + .write_ios] | add) == .total.total.ios'
}

@test "--steady judges samples of whole seconds of a series of 100 ms points" {
	iorate run --engine null -d 8 --cap-iops 2000 --steady iops:10% --steady-time 2s --json x
	[ "$status" -eq 0 ]
	json_ok '.interval_ns == 100000000'
	json_ok '.notes | any(startswith("steady state reached (iops:10%)") and endswith("over the last 2 s; the job ended there"))'
	# Two samples of ten points each: it ends once 20 points are in, long before its 8 s.
	json_ok '(.series | length) >= 20 and .seconds < 5'
}

@test "--interval sets the series' interval; text --series says it; bad ones are refused" {
	iorate run --engine null -d 1 --interval 250ms --json x
	[ "$status" -eq 0 ]
	json_ok '.interval_ns == 250000000 and .params.interval_ns == 250000000'
	json_ok '(.series | length) >= 3 and (.series | length) <= 4'
	json_ok '([.series[] | .read_ios + .write_ios] | add) == .total.total.ios'
	iorate run --engine null -d 0.5 -q --series x
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx 'Series (a point per 100 ms):'
	iorate run --engine null -d 1 --interval 5ms x
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --interval: must be from 10ms to 1h" ]
	iorate run --engine null -d 1 --interval 300ms --steady iops:5% --steady-time 2s x
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --interval: must divide --steady-interval (1 s)" ]
	# The jobs of a group share one series, so their points add up by index.
	iorate run --engine null -d 1 --job-name a --interval 200ms x --job-name b --interval 500ms y
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--interval: the jobs of a group share one series (500 ms here, 200 ms"* ]]
	iorate run --engine null -d 1 --json --job-name a --interval 200ms x --job-name b y
	[ "$status" -eq 0 ]
	json_ok '[.jobs[].interval_ns] == [200000000, 200000000]'
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
	# Then three rows for each block device under the targets (none on tmpfs).
	[ "$(echo "$output" | grep -vc '^device:')" -eq 10 ]
	[ "$(( $(echo "$output" | grep -c '^device:') % 3 ))" -eq 0 ]
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

@test "the text report ends with a headline; a read-only run has no write table nor column" {
	iorate run --engine null -d 0.3 x
	[ "$status" -eq 0 ]
	head=$(echo "$output" | tail -1)
	[[ "$head" =~ ^read\ ([0-9,]+)\ IOPS,\ [0-9.,]+\ MiB/s,\ p99\ [0-9.]+\ us\ on\ 1\ target,\ direct,\ 4\ KiB\ random\ QD1$ ]]
	# The headline's IOPS are the total table's, rounded (the table's two decimals rounded
	# again may land one off).
	iops=${BASH_REMATCH[1]//,/}
	table=$(echo "$output" | sed -n '/^Total I\/O$/,/^total:/p' | tail -1 | cut -d'|' -f4)
	table=$(printf '%.0f' "${table// /}")
	[ $((iops - table)) -le 1 ] && [ $((table - iops)) -le 1 ] || false
	echo "$output" | grep -qx 'Read I/O'
	if echo "$output" | grep -q 'Write I/O\|Write (us)\|N/A'; then false; fi
	echo "$output" | grep -qx '   %-ile |    Read (us) |   Total (us)'
	# A write-only run: no read table.
	iorate run --engine null -d 0.3 -w 100 -b 8k -t 2 -o 4 --cap-iops 2000 --units si x
	[[ "$(echo "$output" | tail -1)" =~ ^write\ [0-9,]+\ IOPS,\ [0-9.,]+\ MB/s,\ p99\ .*\ on\ 1\ target,\ direct,\ 8\ KiB\ random\ 2\ threads\ x\ QD4\;\ disk\ cap\ 2000\ IOPS$ ]]
	if echo "$output" | grep -q 'Read I/O\|Read (us)'; then false; fi
}

@test "--brief prints the headline alone, for run, several jobs and the compat front ends" {
	iorate run --engine null -d 0.3 -w 30 --rate-iops 400 --brief x y
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | wc -l)" -eq 1 ]
	[[ "$output" =~ ^[0-9]+/[0-9]+\ read/write\ [0-9.,]+\ IOPS,\ .*\ on\ 2\ targets,\ direct,\ 4\ KiB\ random\ QD1\;\ open\ loop\ 400\ IOPS\ per\ target$ ]]
	iorate run --engine null -d 0.3 --no-latency --brief x
	[[ "$output" =~ ^read\ [0-9,]+\ IOPS,\ [0-9.,]+\ MiB/s\ on\ 1\ target, ]]
	iorate run --engine null -d 0.3 --brief --job-name a x --job-name b -w 100 --stonewall y
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | wc -l)" -eq 3 ]
	[[ "$(echo "$output" | sed -n 1p)" == "group 0 (1 job): read "*" on 1 target, direct, 4 KiB random QD1" ]]
	[[ "$(echo "$output" | sed -n 2p)" == "group 1 (1 job): write "*" on 1 target, direct, 4 KiB random QD1" ]]
	[[ "$(echo "$output" | sed -n 3p)" =~ ^total\ \(2\ jobs\):\ [0-9]+/[0-9]+\ read/write\ .*\ on\ 2\ targets$ ]]
	iorate diskspd -c1M -d1 -W0 -b8K --engine null --brief t.dat
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^read\ [0-9,]+\ IOPS,\ .*\ on\ 1\ target,\ buffered,\ 8\ KiB\ sequential\ QD2$ ]]
	# --brief is a text format: another one contradicts it.
	iorate run --engine null -d 0.3 --brief --json x
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --brief and --json cannot be used together" ]
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
	PID=$pid
	poll [ -e sig.dat ] # else the removal below would prove nothing
	# The workers read a MiB past the fill: the workload is measuring.
	R0=$(read_bytes)
	poll eval '[ "$(($(read_bytes) - R0))" -gt 1048576 ]'
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

@test "a directory target, or one whose directory is missing, is bad usage before any I/O" {
	mkdir d
	iorate run --engine sync -d 1 --size 1M first.dat d
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: d: is a directory"* ]]
	[ ! -e first.dat ]
	iorate run --engine sync -d 1 --size 1M first.dat /proc/nonexistent/dir/x.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: /proc/nonexistent/dir/x.dat: its directory does not exist" ]
	[ ! -e first.dat ]
}

@test "a file that cannot be opened ends the run with exit 1 and one line" {
	need_root
	mkdir m
	mount -t tmpfs -o size=4M tmpfs m || skip "cannot mount tmpfs"
	head -c 1048576 /dev/zero >m/f.dat
	mount -o remount,ro m
	iorate run --engine sync --cache buffered -w 50 -d 1 m/f.dat
	umount m
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: m/f.dat: cannot open: Read-only file system" ]
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

@test "make install PREFIX=... installs the binary, the man page and the bash completion" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# The PREFIX is compiled in, so the install relinks iorate: in a copy of the build (times
	# kept, so only that is redone), never under the tests that run $IORATE meanwhile.
	build=$BATS_TEST_TMPDIR/build
	mkdir "$build"
	for f in obj gen iorate iorate-mpi iorate.bash; do
		[ ! -e "$(dirname "$IORATE")/$f" ] || cp -a "$(dirname "$IORATE")/$f" "$build/"
	done
	cp "$IORATE" iorate.before
	make -s -C "$top" install BUILD="$build" PREFIX="$BATS_TEST_TMPDIR/inst" >/dev/null
	cmp "$IORATE" iorate.before
	[ -x "$BATS_TEST_TMPDIR/inst/bin/iorate" ]
	"$BATS_TEST_TMPDIR/inst/bin/iorate" --version
	[ -f "$BATS_TEST_TMPDIR/inst/share/man/man1/iorate.1" ]
	# iorate-mpi's page with it, where MPI built it.
	[ ! -x "$build/iorate-mpi" ] || [ -f "$BATS_TEST_TMPDIR/inst/share/man/man1/iorate-mpi.1" ]
	comp="$BATS_TEST_TMPDIR/inst/share/bash-completion/completions/iorate"
	[ -f "$comp" ]
	# The completion offers what --help lists: load it and ask bash.
	run bash -c "source '$comp'; COMP_WORDS=(iorate run --cap-i); COMP_CWORD=2; _iorate;
		echo \"\${COMPREPLY[*]}\""
	[ "$output" = "--cap-iops --cap-io-unit" ]
	run bash -c "source '$comp'; COMP_WORDS=(iorate model --host-cache r); COMP_CWORD=3; _iorate;
		echo \"\${COMPREPLY[*]}\""
	[ "$output" = "readonly readwrite" ]
	run bash -c "source '$comp'; COMP_WORDS=(iorate hi); COMP_CWORD=1; _iorate;
		echo \"\${COMPREPLY[*]}\""
	[ "$output" = "history" ]
}

@test "the man page is generated from the command tables: every command, every option" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	diff <(sh "$top/tools/gen-man.sh" "$IORATE") "$top/docs/iorate.1"
	# The commands 'iorate --help' lists, each in the SYNOPSIS with a section; no other section.
	cmds=$("$IORATE" --help | awk '/^Commands:/ { f = 1; next } f && !NF { exit } f { print $1 }')
	(( $(wc -w <<<"$cmds") >= 14 ))
	(( $(wc -w <<<"$cmds") == $(grep -c '^\.SS iorate ' "$top/docs/iorate.1") ))
	for cmd in $cmds; do
		grep -q "^\.SS iorate $cmd\$" "$top/docs/iorate.1"
		grep -q "^\.B iorate $cmd\$" "$top/docs/iorate.1"
	done
	grep -q '^\.B iorate help$' "$top/docs/iorate.1"
	grep -q '^\.B iorate \\-\\-version$' "$top/docs/iorate.1"
	# A command's subcommands, from its entry, in its section and its --help.
	grep -q '^Subcommands: list, show, import, compare, rm, check$' "$top/docs/iorate.1"
	"$IORATE" help catalog | grep -qx 'Subcommands: list, show, import, prices'
}

@test "the completion offers a command's subcommands, then its options, and files elsewhere" {
	"$IORATE" help --completion >comp.bash
	ask() { bash -c "source ./comp.bash; COMP_WORDS=($1); COMP_CWORD=$2; _iorate;
		echo \"\${COMPREPLY[*]}\""; }
	[ "$(ask "iorate history ''" 2)" = "list show import compare rm check" ]
	[ "$(ask "iorate catalog p" 2)" = "prices" ]
	[ "$(ask "iorate cost ''" 2)" = "upload config" ]
	[ "$(ask "iorate history list --li" 3)" = "--limit" ]
	touch only.dat
	[ "$(ask "iorate run o" 2)" = "only.dat" ]
	[ "$(ask "iorate history show o" 3)" = "only.dat" ]
}

@test "a flag means one thing everywhere: -o is --depth, the model's host cache is --host-cache" {
	"$IORATE" help report | grep -q -- '--output FILE'
	! "$IORATE" help report | grep -q -- '-o, ' || false
	"$IORATE" model --help | grep -q -- '--host-cache MODE'
	# model's burst timeline is --timeline: --time is run's measured duration alone.
	"$IORATE" help model | grep -q -- '    --timeline DURATION'
	! "$IORATE" help model | grep -q -- '--time ' || false
	run "$IORATE" model --time 1h --vm DS2 --disk P30
	[ "$status" -eq 2 ]
	[[ "$output" == "iorate: --time: the timeline's length is --timeline (see 'iorate model --help')" ]]
	iorate report --nothing -o x.html
	[ "$status" -eq 2 ]
}

@test "open loop on uring and aio at depth: the rate is kept and latency is not inflated" {
	for e in uring aio; do
		# Reads of a file the page cache holds: a device the machine shares with others
		# cannot make them slow, so the test sees iorate's timing, not the disk's queue.
		iorate run --engine "$e" -o 8 -d 2 -c 8M --cache buffered --no-invalidate \
			--rate-iops 250 --json ol.dat
		[ "$status" -eq 0 ]
		# 500 I/Os due in 2 s; all are issued on time by a file this fast.
		json_ok '.total.total.ios >= 495 and .total.total.ios <= 505'
		# Completions are reaped while waiting for the next due time: the median is the
		# device's, not the 4 ms gap between I/Os (half of it leaves room for a busy machine).
		json_ok '.total.read.lat_us.p50 < 2000'
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
	iorate run --engine uring -o 4 -d 2 -c 8M --cache buffered --no-invalidate --cap-iops 500 \
		--json cap.dat
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

@test "the layer check fails on an include against docs/architecture.md in any form, and passes the tree" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	run sh "$top/tools/check-layers.sh" "$top"
	[ "$status" -eq 0 ]
	mkdir -p tree/src/engine tree/src/core tree/docs
	cp "$top/docs/architecture.md" tree/docs/
	printf '#include "core/worker.h"\n' >tree/src/engine/x.c
	printf '#include "engine/engine.h"\n' >tree/src/core/y.c
	run sh "$top/tools/check-layers.sh" tree
	[ "$status" -eq 1 ]
	[ "$output" = "src/engine/x.c:1: engine may not include core/ (docs/architecture.md)" ]
	# Angle brackets (the compiler finds them through -Isrc), spaces, and a climb with "..".
	rm tree/src/engine/x.c
	mkdir -p tree/src/report
	printf '#include <report/json.h>\n#include <sys/stat.h>\n' >tree/src/core/a.c
	printf '#include "../report/json.h"\n' >tree/src/core/b.c
	printf '  #  include  "report/json.h"\n' >tree/src/core/c.c
	run sh "$top/tools/check-layers.sh" tree
	[ "$status" -eq 1 ]
	[ "$output" = "src/core/a.c:1: core may not include report/ (docs/architecture.md)
src/core/b.c:1: ../report/json.h: an include may not climb with .. (name DIR/x.h)
src/core/c.c:1: core may not include report/ (docs/architecture.md)" ]
}

@test "the initialiser check fails on a positional struct initialiser, passes arrays and the tree" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	run sh "$top/tools/check-initialisers.sh" "$top"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# Named fields, {0}, arrays of scalars and of pointers, text in comments and strings, and a
	# line let through by its comment: all pass.
	mkdir -p tree/src/core
	cat >tree/src/core/ok.c <<'EOF'
struct pt { int x, y; };
static const int sizes[] = {1, 2, 3};
static const char *const names[2] = {"a", "b"};
static const struct pt zero = {0}, *const where[] = {&zero};
static const struct pt named = {.x = 1, .y = 2};
static const struct pt rows[] = {{.x = 1}, [1] = {.y = 2}, {0}};
static const struct {
	const char *k;
	int v;
} pairs[] = {{.k = "a", .v = 1}, {0}};
/* static const struct pt bad = {1, 2}; */
static const char *text = "struct pt q = {1, 2}", c = '{';
static const struct pt kept = {1, 2}; /* check-initialisers: allow */
int area(void) { return ((struct pt){.x = 2, .y = 3}).x * sizes[0]; }
EOF
	run sh "$top/tools/check-initialisers.sh" tree
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# A declaration, a row of a table, a table of a struct defined in place, a compound literal.
	cat >tree/src/core/bad.c <<'EOF'
struct pt { int x, y; };
static const struct pt p = {1, 2};
static const struct pt rows[] = {
	{.x = 1},
	{3, 4},
};
static const struct {
	const char *k;
	int v;
} pairs[] = {{"a", 1}};
int area(void)
{
	return ((struct pt){2,
			    3}).x;
}
EOF
	run sh "$top/tools/check-initialisers.sh" tree
	[ "$status" -eq 1 ]
	[ "$output" = "src/core/bad.c:2: a positional struct initialiser (name the fields: .field = value)
src/core/bad.c:5: a positional struct initialiser (name the fields: .field = value)
src/core/bad.c:10: a positional struct initialiser (name the fields: .field = value)
src/core/bad.c:13: a positional struct initialiser (name the fields: .field = value)" ]
}

@test "the error check fails on a message written into err, passes err_set and the tree" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	run sh "$top/tools/check-errors.sh" "$top"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# err_set(), clearing the buffer, other buffers, text in comments and strings, and the
	# file the check does not read (err.c itself): all pass.
	mkdir -p tree/src/core tree/src/util
	cat >tree/src/core/ok.c <<'EOF'
/* snprintf(err, errlen, "in a comment"); */
int ok(char *err, size_t errlen, char *errmsg, size_t n, const char *text)
{
	static const char *s = "strcpy(err, \"in a string\")";
	err[0] = '\0';
	snprintf(errmsg, n, "%s", s);
	memcpy(errbuf, text, n);
	return err_set(err, errlen, -EINVAL, "%s: not a size", text);
}
EOF
	# err.c is where err_set() writes the buffer.
	printf 'void f(char *err) { snprintf(err, 8, "x"); }\n' >tree/src/util/err.c
	run sh "$top/tools/check-errors.sh" tree
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# Each kind of write, into err or a member named err, spread over lines or not.
	cat >tree/src/core/bad.c <<'EOF'
int bad(char *err, size_t errlen, struct s *p, struct s q, const char *fmt, va_list ap)
{
	snprintf(err, errlen, "one");
	strcpy(err, "two");
	strncat(p->err,
		"three", 5);
	vsnprintf( q.err , q.errlen, fmt, ap);
	memcpy(err, "x", 2);
	return -1;
}
EOF
	run sh "$top/tools/check-errors.sh" tree
	[ "$status" -eq 1 ]
	[ "$output" = "src/core/bad.c:3: snprintf into err (report it with err_set(err, errlen, -ERRNO, ...))
src/core/bad.c:4: strcpy into err (report it with err_set(err, errlen, -ERRNO, ...))
src/core/bad.c:5: strncat into err (report it with err_set(err, errlen, -ERRNO, ...))
src/core/bad.c:7: vsnprintf into err (report it with err_set(err, errlen, -ERRNO, ...))
src/core/bad.c:8: memcpy into err (report it with err_set(err, errlen, -ERRNO, ...))" ]
}

@test "--latency-target: the deepest queue within the target, a final window at it, then the end" {
	# The null engine keeps far within 50 ms at any depth: the search doubles to --depth,
	# runs its final window there and the job ends long before its 10 s.
	iorate run --engine null --depth 32 --latency-target 50ms --latency-window 50ms \
		--latency-percentile 99 -d 10 -q t.dat --json
	[ "$status" -eq 0 ]
	json_ok '.latency_target.finished == 1 and .latency_target.depth_min == 32 and
		.seconds < 10 and .latency_target.final.ios > 0 and .latency_target.seconds > 0'
	json_ok '.params.latency_target == {"target_ns": 50000000, "window_ns": 50000000,
		"percentile": 99, "run": false}'
	# Under a cap of 4,000 IOPS an I/O waits about depth / 4,000 s: depth 16 is 4 ms, over
	# a 3 ms target, so the search settles below it.
	iorate run --engine null --depth 64 --cap-iops 4000 --latency-target 3ms \
		--latency-window 100ms --latency-percentile 99 -d 10 -q t.dat --json
	[ "$status" -eq 0 ]
	json_ok '.latency_target.finished == 1 and .latency_target.depth_max < 16 and
		.seconds < 10'
	iorate run --engine null --depth 64 --cap-iops 4000 --latency-target 3ms \
		--latency-window 100ms --latency-percentile 99 -d 10 t.dat
	[[ "$output" == *"Latency target (--latency-target 3.000 ms, window 100.000 ms, 99 % of I/Os):"* ]]
	[[ "$output" == *"final window:     1 of 1 threads"* ]]
}

@test "--latency-target: an I/O over it at depth 1 fails the job; bad options are refused" {
	iorate run --engine null --cap-iops 100 --latency-target 1ms -d 5 -q t.dat
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"t.dat: an I/O took "*" ms at depth 1, above --latency-target 1.000 ms"* ]]
	iorate run --engine null --latency-window 1s -d 1 t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --latency-window: of no effect without --latency-target" ]
	iorate run --engine null --latency-target 1ms --latency-percentile 0 -d 1 t.dat
	[ "$status" -eq 2 ]
	iorate run --engine null --latency-target 1ms --rate-iops 100 -d 1 t.dat
	[ "$status" -eq 2 ]
	iorate run --engine null --latency-target 1ms --no-latency -d 1 t.dat
	[ "$status" -eq 2 ]
	# The equivalent line keeps every digit of a duration (1.5 ms, not 1 ms).
	iorate run --dry-run --engine aio --depth 8 --latency-target 1500us --latency-window 1s \
		--warmup 250us t.dat
	[ "$status" -eq 0 ]
	[[ "$output" == *"--latency-target 1500us --latency-window 1s --latency-percentile 100"* ]]
	[[ "$output" == *"--warmup 250us"* ]]
}

@test "--steady lat and lat_slope: the job ends once each sample's mean latency holds" {
	# Under a cap of 2,000 IOPS at depth 4 each read waits about 2 ms, second after second:
	# never less than the cap allows, and by Little's law four I/Os in flight in every full
	# sample (a slower machine lowers the rate and lengthens the wait, not their product).
	iorate run --engine null --cap-iops 2000 --depth 4 -d 30 --steady lat:10% \
		--steady-time 2s -q l.dat --json
	[ "$status" -eq 0 ]
	json_ok '.seconds < 30 and (.notes[0] | startswith("steady state reached (lat:10%)"))'
	# (The last sample is the tail of a second after the steady state ended: an I/O or two.)
	json_ok '[.series[] | select(.iops >= 100) | .lat_mean_ns] | length >= 2 and all(. > 1500000)'
	json_ok '[.series[] | select(.iops >= 100) | .lat_mean_ns * .iops / 1e9] | length >= 2 and all(. > 3.5 and . < 4.5)'
	iorate run --engine null --cap-iops 2000 --depth 4 -d 30 --steady lat_slope:100us \
		--steady-time 2s -q l.dat --json
	json_ok '.seconds < 30 and .params.steady.criterion == "lat_slope:100000ns"'
	json_ok '.notes[0] | test("^steady state reached \\(lat_slope:100000ns\\) [0-9]+ s into the measure: [0-9.e+-]+ ns over")'
	iorate run --engine null --steady lat:fast --steady-time 2s l.dat
	[ "$status" -eq 2 ]
	iorate run --engine null --steady lat:10% --steady-time 2s --no-latency l.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--steady: lat and lat_slope judge latencies, which --no-latency does not keep"* ]]
}

@test "--dry-run --json: every parameter of the job as its run's JSON would record it, nothing run" {
	iorate run --dry-run --json --engine aio --depth 8 -w 20 --trim 10 --latency-target 2ms \
		--cmdprio 25 --flow 3 --interval 200ms dry.dat
	[ "$status" -eq 0 ]
	[ ! -e dry.dat ]
	json_ok '.engine == "aio" and .depth == 8 and .write == 20 and .trim == 10 and
		.latency_target.target_ns == 2000000 and .cmdprio.share == "25,25" and
		.shape.flow == 3 and .interval_ns == 200000000 and .targets == ["dry.dat"]'
	# Checked as a run would be: what a run refuses, the dry run refuses.
	iorate run --dry-run --json --cmdprio-class rt dry.dat
	[ "$status" -eq 2 ]
	[ ! -e dry.dat ]
}

# Ten thousand threads in a quarter of a GiB: histograms made at first use, stacks of 256 KiB.
@test "10,000 targets with a thread each run in under 256 MiB of peak RSS, every I/O counted" {
	[ -x /usr/bin/time ] || skip "needs /usr/bin/time (Debian package time)"
	PERF_DIR=$(mktemp -d /tmp/perf-threads.XXXXXX)
	mapfile -t t < <(seq -f "$PERF_DIR/t%g" 1 10000)
	truncate -s 4k "${t[@]}"
	# The memory of the run itself (CSV, as bench/run.sh's workload 9); then its JSON, whose
	# document of 10,000 targets is made after the run, for each target's histogram.
	set +e
	/usr/bin/time -v -o time.txt "$IORATE" run -q --csv --engine null -b 4k -t 1 -o 1 -c 4k \
		-d 1 "${t[@]}" > out.csv 2> err.txt
	rc=$?
	"$IORATE" run -q --json --engine null -b 4k -t 1 -o 1 -c 4k -d 0.5 "${t[@]}" > out.json
	rc2=$?
	set -e
	rm -rf "$PERF_DIR"
	[ "$rc" -eq 0 ] && [ "$rc2" -eq 0 ] || { cat err.txt; false; }
	kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' time.txt)
	echo "peak RSS: $kib KiB"
	[ "$kib" -le 262144 ]
	[ "$(awk -F, '$1 != "*" && $2 == "read"' out.csv | wc -l)" -eq 10000 ]
	# Each target's histogram is its own thread's, whole: every I/O is in it. (On 2 cores a
	# thread of 10,000 may not get the CPU within the window: it did none.)
	jq -e '(.targets | length) == 10000 and ([.targets[].read.ios] | add) == .total.read.ios and
		.total.read.ios > 0 and all(.targets[]; .read.lat_n == .read.ios and
		(.read.ios == 0 or ([.read.hist[][1]] | add) == .read.ios))' out.json > /dev/null
}
