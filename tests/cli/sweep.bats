#!/usr/bin/env bats
# iorate sweep: one row per value of a parameter, several --bs as column pairs, text, CSV and
# JSON, test files created once and removed, Ctrl-C keeps the rows done, and the stripe of 1 to
# 16 Azure disks of the 2015 A4 DiskSpd post (docs/sources.md) reproduced from the caps.

load helpers

@test "--help explains the parameters with examples" {
	iorate sweep --help
	[ "$status" -eq 0 ]
	for p in targets= threads= depth= bs= write= --cap-iops --vm-cap-mibps --emulate; do
		echo "$output" | grep -q -- "$p" || { echo "missing $p"; false; }
	done
	echo "$output" | grep -q '^  iorate sweep targets=1..16 --bs 64k --bs 8k'
	iorate --help
	echo "$output" | grep -q '^  sweep '
}

# seed_row N BS IOPS MIBPS: the row of N disks matches the 2015 A4 DiskSpd post's shape.
seed_row() {
	local n=$1 bs=$2 iops=$3 mibps=$4
	if [ "$bs" = 8192 ]; then
		within 2 $((500 * n)) "$iops" "8 KiB IOPS of $n disks"
	elif [ "$n" -ge 10 ]; then
		# One list, not two lines: seed_row is also called after ||, where errexit is off.
		within 3 4560 "$iops" "64 KiB IOPS of $n disks" &&
			within 3 285 "$mibps" "64 KiB MiB/s of $n disks"
	else
		# Up to 9 disks 500 x N is below the VM's 4,560 (at 9: min(4,500, 4,560) = 4,500).
		local want=$((500 * n < 4560 ? 500 * n : 4560))
		within 2 "$want" "$iops" "64 KiB IOPS of $n disks"
	fi
}

@test "the 2015 A4 DiskSpd post: 8 KiB scales 500 x N, 64 KiB flattens at the VM's 285 MiB/s from 10 disks on" {
	# 16 Azure standard disks of 500 IOPS on an A4 whose uncached cap is 285 MiB/s (DiskSpd's
	# "MB/s"): 4,560 IOPS of 64 KiB. Half-second runs on the null engine of the post's counts
	# around the knee (9 disks are 4,500 IOPS, under the cap; 10 are over it): 18 runs.
	local disks=$(seq -f 'disk%g' 1 16) bad="" n bs secs ios bytes iops mibps rest
	iorate sweep targets=1,2,4,8,9,10,12,14,16 --bs 64k --bs 8k -d 0.5 -t 2 --engine null \
		--cap-iops 500 --vm-cap-mibps 285 --csv $disks
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1)" = \
		"targets,bs,seconds,ios,bytes,iops,mibps,mbps,lat_mean_us,p50_us,p90_us,p99_us,p99_9_us,lat_max_us" ]
	[ "$(echo "$output" | wc -l)" -eq 19 ]
	while IFS=, read -r n bs secs ios bytes iops mibps rest; do
		seed_row "$n" "$bs" "$iops" "$mibps" 2>/dev/null || bad="$bad${bad:+,}$n"
	done < <(echo "$output" | tail -n +2)
	[ -n "$bad" ] || return 0
	# A loaded machine can stall every thread for longer than the throttle's 50 ms of slack,
	# which in a half-second run costs 10%: rows that missed run once more, for a second each.
	echo "# again: targets=$bad" >&3
	iorate sweep targets="$bad" --bs 64k --bs 8k -d 1 -t 2 --engine null --cap-iops 500 \
		--vm-cap-mibps 285 --csv $disks
	[ "$status" -eq 0 ]
	while IFS=, read -r n bs secs ios bytes iops mibps rest; do
		seed_row "$n" "$bs" "$iops" "$mibps"
	done < <(echo "$output" | tail -n +2)
}

@test "the same stripe from the catalog: --emulate azure-2015:A4+16xstandard" {
	iorate sweep targets=1,4,12 --bs 64k --bs 8k -d 0.5 -t 2 --engine null \
		--emulate azure-2015:A4+16xstandard --json $(seq -f 'disk%g' 1 16)
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] # no warning about 16 disks against 1, 4 or 12 targets
	json_ok '.param == "targets" and .values == [1,4,12] and .bs == [65536,8192]'
	json_ok '.rows | length == 6'
	within 2 500 "$(jqv '.rows[] | select(.targets == 1 and .bs == 8192) | .iops')"
	within 2 6000 "$(jqv '.rows[] | select(.targets == 12 and .bs == 8192) | .iops')"
	# The catalog's A4 cap is 300 MB/s (10^6 B/s): 4,578 IOPS of 64 KiB.
	within 3 4560 "$(jqv '.rows[] | select(.targets == 12 and .bs == 65536) | .iops')"
}

@test "text: one row per value, a pair of columns per --bs, units named" {
	iorate sweep targets=1..3 -b 64k --bs=8k -d 0.3 --engine null --cap-iops 500 a b c
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1)" = \
		"Command line: iorate sweep targets=1..3 -b 64k --bs=8k -d 0.3 --engine null --cap-iops 500 a b c" ]
	[ "$(echo "$output" | sed -n 3p | tr -s ' ')" = "Disks 64KiB IOPS 64KiB MiB/s 8KiB IOPS 8KiB MiB/s" ]
	[ "$(echo "$output" | wc -l)" -eq 6 ]
	# Three targets capped at 500 IOPS each: about 1,500 IOPS of either size, with two decimals
	# (0.3 s holds 450 I/Os; one the scheduler delays past the end is a third of a percent).
	local disks iops64 mib64 iops8 mib8
	read -r disks iops64 mib64 iops8 mib8 <<<"$(echo "$output" | sed -n 6p)"
	[ "$disks" = 3 ]
	[[ "$iops64 $mib64 $iops8 $mib8" =~ ^([0-9]+\.[0-9]{2}\ ?){4}$ ]]
	within 2 1500 "$iops64" "64 KiB IOPS"
	within 2 93.75 "$mib64" "64 KiB MiB/s"
	within 2 1500 "$iops8" "8 KiB IOPS"
	within 2 11.72 "$mib8" "8 KiB MiB/s"
	iorate sweep targets=1..2 -b 64k -b 8k -d 0.3 --engine null --cap-iops 500 --units si a b
	[ "$status" -eq 0 ]
	echo "$output" | sed -n 3p | grep -q '64KiB MB/s'
	# One block size: latency columns instead.
	iorate sweep depth=1,2 -d 0.3 --engine null --cap-iops 1000 t.dat
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 3p | tr -s ' ')" = "Depth IOPS MiB/s mean ms p99 ms" ]
}

@test "threads, depth, bs and write sweeps; several --bs alone sweep the block size" {
	iorate sweep threads=1,2,4 -d 0.3 --engine null --cap-iops 1000 --csv x
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | cut -d, -f1 | tr '\n' ' ')" = "threads 1 2 4 " ]
	iorate sweep depth=1..8:x2 -d 0.3 --engine null --csv x
	[ "$(echo "$output" | cut -d, -f1 | tr '\n' ' ')" = "depth 1 2 4 8 " ]
	iorate sweep bs=4k,64k,1m -d 0.3 --engine null --csv x
	[ "$(echo "$output" | cut -d, -f2 | tr '\n' ' ')" = "bs 4096 65536 1048576 " ]
	iorate sweep write=0..100:50 -d 0.3 --engine null --json x
	[ "$status" -eq 0 ]
	json_ok '[.rows[].write] == [0,50,100]'
	json_ok '.rows[1].run.params.write == 50 and .rows[1].run.total.write.ios > 0'
	json_ok '.rows[0].run.schema == 2 and (.rows[0].run.series | length) >= 1'
	iorate sweep --bs 4k --bs 16k -d 0.3 --engine null --csv x
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | cut -d, -f1 | tr '\n' ' ')" = "bs 4096 16384 " ]
}

@test "one directory as the target: N test files are created once, reused, and removed" {
	mkdir d
	iorate sweep targets=1..3 -d 0.3 --cap-iops 200 --size 2M --json d
	[ "$status" -eq 0 ]
	json_ok '[.rows[].run.targets | length] == [1,2,3]'
	# Names nobody can guess beforehand: iorate-sweep-NN.<12 random characters>.dat
	json_ok '.rows[2].run.targets[2].path | test("^d/iorate-sweep-03\\.[a-z0-9]{12}\\.dat$")'
	json_ok '.rows[2].run.targets[0].path == .rows[0].run.targets[0].path'
	within 2 600 "$(jqv '.rows[2].iops')"
	[ -z "$(ls d)" ]
	# --keep leaves them; a second sweep makes its own and removes only those.
	iorate sweep targets=1..2 -d 0.2 --size 2M --keep --csv d
	[ "$status" -eq 0 ]
	kept=$(ls d | tr '\n' ' ')
	[[ "$kept" =~ ^iorate-sweep-01\.[a-z0-9]{12}\.dat\ iorate-sweep-02\.[a-z0-9]{12}\.dat\ $ ]]
	iorate sweep targets=1..2 -d 0.2 --size 2M --csv d
	[ "$status" -eq 0 ]
	[ "$(ls d | tr '\n' ' ')" = "$kept" ]
	# Files named as targets are removed too when the sweep created them, not when they existed.
	one=$(ls d/iorate-sweep-01.*)
	iorate sweep threads=1,2 -d 0.2 --size 2M --csv new.dat "$one"
	[ "$status" -eq 0 ]
	[ ! -e new.dat ]
	[ -e "$one" ]
}

PID=""

LOOP=""

teardown() {
	if [ -n "$PID" ]; then
		kill -KILL "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
	fi
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null || true
	return 0
}

# second_row_reading: the first row's 100,000 reads of 4 KiB (409,600,000 bytes) are done and
# the second row has read 8 MiB more. Nothing else the process reads comes near 8 MiB.
second_row_reading() {
	[ "$(read_bytes)" -gt $((100000 * 4096 + 8 * 1048576)) ]
}

# Row 1 ends after its 100,000 reads of 4 KiB; row 2 (1 MiB each) would take far longer than its
# 30 s: a signal while it reads stops it, and it is kept, marked, as run keeps its partial result.
@test "Ctrl-C keeps the rows done and the row it stopped, marked; removes the files; exits 130" {
	mkdir d
	"$IORATE" sweep bs=4k,1m,64k --ios 100000 -d 30 --size 4M --engine sync --cache buffered \
		--csv d >out.csv 2>err.txt &
	PID=$!
	poll grep -q '^4096,4096,' out.csv
	poll second_row_reading
	stop_with INT
	[ "$status" -eq 130 ]
	output=$(cat out.csv)
	[ "$(echo "$output" | cut -d, -f1 | tr '\n' ' ')" = "bs 4096 1048576 " ]
	# The stopped row covers less than its 30 s, and has its reads.
	IFS=, read -r v bs secs ios rest < <(echo "$output" | sed -n 3p)
	[[ "$secs" =~ ^[0-9]+\.[0-9]+$ ]] || { echo "seconds: $secs"; false; }
	(( ${secs%.*} < 30 && ios > 0 ))
	[ "$(sed -n 1p err.txt)" = "iorate: interrupted: 1 of 3 rows done" ]
	grep -Eq '^iorate: bs=1MiB was stopped: its figures cover the [0-9.]+ s that ran$' err.txt
	[ -z "$(ls d)" ]
}

@test "JSON is one document even when interrupted; the stopped row is in it, marked" {
	mkdir d
	"$IORATE" sweep bs=4k,1m --ios 100000 -d 30 --size 4M --engine sync --cache buffered \
		--json d >out.json 2>/dev/null &
	PID=$!
	poll second_row_reading
	stop_with TERM
	[ "$status" -eq 143 ]
	output=$(cat out.json)
	json_ok '.interrupted == true and (.rows | length) == 2'
	json_ok '.rows[0].interrupted == false and .rows[0].ios == 100000'
	json_ok '.rows[0].run.interrupted == false'
	json_ok '.rows[1].interrupted == true and .rows[1].bs == 1048576 and .rows[1].ios > 0'
	json_ok '.rows[1].seconds < 30 and .rows[1].run.interrupted == true'
	json_ok '.rows[1].run.total.read.ios == .rows[1].ios'
	[ -z "$(ls d)" ]
}

@test "text marks the stopped row; with several --bs a size the stop left unrun is '-'" {
	mkdir d
	"$IORATE" sweep threads=1,2 --bs 1m --bs 4k -d 30 --size 4M --engine sync \
		--cache buffered d >out 2>err &
	PID=$!
	# The first cell (1 thread, 1 MiB) is reading: the 4 KiB cell of its row has not run.
	poll eval '[ "$(read_bytes)" -gt $((8 * 1048576)) ]'
	stop_with INT
	[ "$status" -eq 130 ]
	output=$(cat out)
	[ "$(echo "$output" | sed -n 3p | tr -s ' ')" = "Threads 1MiB IOPS 1MiB MiB/s 4KiB IOPS 4KiB MiB/s" ]
	line_ok '^1 +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +- +-  \(interrupted after [0-9.]+ s\)$'
	no_line '^2 '
	[ "$(sed -n 1p err)" = "iorate: interrupted: 0 of 2 rows done" ]
	grep -Eq '^iorate: threads=1 bs=1MiB was stopped: its figures cover the [0-9.]+ s that ran$' err
	[ -z "$(ls d)" ]
}

@test "bad sweeps are refused before any I/O with one line and exit 2" {
	check() {
		local want="$1"; shift
		iorate sweep "$@"
		[ "$status" -eq 2 ] || { echo "exit $status for $*"; return 1; }
		[ "$(echo "$stderr" | wc -l)" -eq 1 ] || { echo "not one line: $stderr"; return 1; }
		[[ "$stderr" == "iorate: "*"$want"* ]] || { echo "'$stderr' lacks '$want'"; return 1; }
		[ -z "$output" ]
		[ -z "$(ls)" ]
	}
	check "name the parameter to vary" -d 1 t.dat
	check "'colour' is not a parameter" colour=1..3 t.dat
	check "'deph' is not a parameter (targets, threads, depth, bs, write); did you mean depth?" \
		deph=1..3 t.dat
	check "depth: '1..x' is not a list" depth=1..x t.dat
	check "depth: 1000000 is out of range" depth=1,1M t.dat
	check "depth: 0 is out of range" depth=0..4 t.dat
	check "write: 150 is out of range" write=0,150 t.dat
	check "one parameter at a time" depth=1,2 threads=1,2 t.dat
	check "bs= already varies the block size" bs=4k,8k --bs 64k t.dat
	check "--bs: '64q' is not a size" depth=1,2 --bs 8k --bs 64q t.dat
	check "the sweep goes up to 4 targets but 2 are given" targets=1..4 a.dat b.dat
	check "no target" depth=1,2
	check "--depth" depth=1,2 --engine sync t.dat
	check "--cap-iops: '0'" depth=1,2 --cap-iops 0 t.dat
	check "--burst-iops: 100 is below the base cap 500" depth=1 --cap-iops 500 --burst-iops 100 \
		--burst-seconds 1 t.dat
	check "--emulate" targets=1,2 --emulate azure-2015:A4+16xnosuch a b
	# A row that does not fit its target is found before the first row runs, named once.
	check "bs=8MiB: --bs: the block size 8MiB is larger than the target t.dat (4MiB)" \
		bs=4k,8M --size 4M t.dat
	check "threads=1 bs=4KiB: --offset: 8MiB is beyond the end of t.dat (4MiB)" \
		threads=1,2 --bs 4k --bs 64k --offset 8M --size 4M t.dat
}

# The directory's time stamp moves when a file is created or removed in it: set in the past, it
# shows whether a command made anything there, even a file it removed again.
@test "a row that does not fit is refused before any file is made or any row runs" {
	mkdir d
	touch -d 2001-01-01 d
	iorate sweep bs=4k,8M --size 4M --engine sync -d 1 d/t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: bs=8MiB: --bs: the block size 8MiB is larger than the target d/t.dat (4MiB)" ]
	[ -z "$output" ]
	[[ "$(stat -c %y d)" == 2001-01-01* ]]
	# A directory target: its test files are not made either.
	iorate sweep targets=1,2 --bs 4k --bs 8M --size 4M --engine sync -d 1 d
	[ "$status" -eq 2 ]
	[[ "$stderr" =~ ^"iorate: targets=1 bs=8MiB: --bs: the block size 8MiB is larger than the target d/iorate-sweep-01."[a-z0-9]{12}".dat (4MiB)"$ ]]
	[[ "$(stat -c %y d)" == 2001-01-01* ]]
	# A file that is there is taken as it is: 1 MiB, too small for a row of 2 MiB.
	head -c 1M /dev/urandom >u.dat
	sum=$(sha256sum <u.dat)
	iorate sweep bs=4k,2m --engine sync -d 1 u.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: bs=2MiB: --bs: the block size 2MiB is larger than the target u.dat (1MiB)" ]
	[ -z "$output" ]
	[ "$(sha256sum <u.dat)" = "$sum" ]
}

# loop_new SIZE: a loop device over a new file of SIZE in the test's directory; sets LOOP, BACK.
loop_new() {
	[ "$(id -u)" = 0 ] || skip "needs root for a loop device"
	command -v losetup >/dev/null || skip "losetup is not installed"
	BACK=$BATS_TEST_TMPDIR/back.img
	truncate -s "$1" "$BACK"
	LOOP=$(losetup -f --show "$BACK") || skip "cannot set up a loop device"
}

# Sectors the kernel counted read ($2 = 6) or written ($2 = 10) on device $1 (/proc/diskstats).
sectors() {
	awk -v n="${1#/dev/}" -v f="$2" '$3 == n { print $f }' /proc/diskstats
}

@test "a write row on a device is refused before the read rows run" {
	loop_new 64M
	udevadm settle 2>/dev/null || true
	sum=$(sha256sum <"$BACK")
	r0=$(sectors "$LOOP" 6)
	w0=$(sectors "$LOOP" 10)
	# Without --allow-write-device: refused; nothing read (no row ran), nothing written.
	iorate sweep write=0,100 --engine sync -d 1 "$LOOP"
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: write=100 bs=4KiB: $LOOP: refusing to write to a block device (its data would be destroyed); add --allow-write-device to mean it" ]
	[ -z "$output" ]
	[ "$(sectors "$LOOP" 6)" -eq "$r0" ]
	[ "$(sectors "$LOOP" 10)" -eq "$w0" ]
	[ "$(sha256sum <"$BACK")" = "$sum" ]
	# With it, on a device that holds a filesystem: refused for the filesystem, up front too.
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
	sync
	blockdev --flushbufs "$LOOP"
	udevadm settle 2>/dev/null || true
	sum=$(sha256sum <"$BACK")
	w0=$(sectors "$LOOP" 10)
	iorate sweep write=0,100 --allow-write-device --engine sync -d 1 "$LOOP"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "iorate: write=100 bs=4KiB: $LOOP: refusing to write: "*"ext4"*" (add --force to overwrite it anyway)" ]]
	[ -z "$output" ]
	[ "$(sectors "$LOOP" 10)" -eq "$w0" ]
	[ "$(sha256sum <"$BACK")" = "$sum" ]
}

@test "--trace in a sweep: one file per run, each holding exactly that run's I/Os" {
	iorate sweep threads=1,2 --bs 4k --bs 8k --engine null --ios 7 -q --json --trace tr x
	[ "$status" -eq 0 ]
	[ "$(ls tr.* | wc -l)" -eq 4 ]
	for t in 1 2; do
		for b in 4 8; do
			f="tr.threads=$t.bs=${b}KiB"
			[ "$(wc -l < "$f")" -eq $((7 * t)) ]
			# every line is a read of that block size
			[ "$(awk -v bs=$((b * 1024)) '$3 != "R" || $5 != bs' "$f" | wc -l)" -eq 0 ]
		done
	done
}

@test "sweep --json: each run's own figures are as iorate run gives them, writes counted once" {
	iorate sweep write=0,50 --engine null --ios 1000 -q --json x
	[ "$status" -eq 0 ]
	json_ok '.rows[1].run.total.read.ios + .rows[1].run.total.write.ios == 1000'
	json_ok '.rows[1].run.total.total.ios == 1000'
	json_ok '.rows[1].run.total.write.ios > 0 and .rows[1].run.total.read.ios < 1000'
}
