#!/usr/bin/env bats
# Trims: holes punched in a file the test makes (its allocated blocks go down), discards on a
# loop device the test sets up and tears down (counted by /proc/diskstats), the write gate's
# refusal of a device trimmed without --allow-write-device, and fio 3.33's count of the same job.

load helpers

LOOP=""

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	umount "$BATS_TEST_TMPDIR/mnt" 2>/dev/null || true
	if [ -n "$LOOP" ]; then losetup -d "$LOOP" 2>/dev/null || true; fi
	return 0
}

# A file of N MiB of random bytes, every block allocated.
make_file() {
	head -c "$(($2 * 1048576))" /dev/urandom >"$1"
	sync "$1"
}

# 512-byte blocks allocated to a file.
blocks() {
	stat -c %b "$1"
}

loop_setup() {
	need_root
	command -v losetup >/dev/null || skip "losetup is not installed"
	make_file backing.img 16
	LOOP=$(losetup -f --show backing.img) || skip "cannot set up a loop device"
	[ "$(cat "/sys/block/${LOOP#/dev/}/queue/discard_max_bytes")" != 0 ] ||
		skip "this loop device does not discard"
	if command -v udevadm >/dev/null; then udevadm settle 2>/dev/null || true; fi
}

# Discards the kernel completed on a device: field 15 of its /proc/diskstats line (4.18 on).
discards() {
	local f
	while read -r -a f; do
		if [ "${f[2]}" = "${1#/dev/}" ]; then
			[ "${#f[@]}" -ge 15 ] || return 1
			echo "${f[14]}"
			return 0
		fi
	done </proc/diskstats
	return 1
}

@test "sequential trims of a whole file punch every block, and counts are the result's" {
	make_file f.dat 4
	[ "$(blocks f.dat)" -ge 8192 ]
	iorate run --trim 100 -s --cache buffered --time none --io-size 4M --json f.dat
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	json_ok '.total.trim.ios == 1024 and .total.trim.bytes == 4194304'
	json_ok '.total.read.ios == 0 and .total.write.ios == 0 and .total.total.ios == 1024'
	json_ok '.targets[0].trim.ios == 1024 and .params.trim == 100'
	json_ok '.total.trim.lat_n == 1024 and ([.total.trim.hist[][1]] | add) == 1024'
	json_ok '[.series[].trim_ios] | add == 1024'
	# The file keeps its size; its blocks are gone.
	[ "$(stat -c %s f.dat)" -eq 4194304 ]
	[ "$(blocks f.dat)" -eq 0 ]
}

@test "random trims beside reads and writes: each direction counted, blocks go down" {
	make_file f.dat 8
	local before
	before=$(blocks f.dat)
	iorate run --trim 40 -w 20 --cache buffered --time none --ios 2000 --seed 3 --json f.dat
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	json_ok '.total.trim.ios > 0 and .total.read.ios > 0 and .total.write.ios > 0'
	json_ok '.total.total.ios == 2000 and
		.total.read.ios + .total.write.ios + .total.trim.ios == 2000'
	json_ok '.total.trim.bytes == .total.trim.ios * 4096'
	# A rewritten block is allocated again, a trimmed one not: fewer blocks than before.
	[ "$(blocks f.dat)" -lt "$before" ]
}

@test "the text report has a trim table and a trim column; a run without trims has neither" {
	make_file f.dat 1
	iorate run --trim 50 --cache buffered --time none --io-size 1M f.dat
	[ "$status" -eq 0 ]
	[[ "$output" == *"Trim I/O"* ]]
	[[ "$output" == *"Trim (us)"* ]]
	[[ "$output" == *"50 % trims"* ]]
	iorate run --cache buffered --time none --io-size 1M f.dat
	[ "$status" -eq 0 ]
	[[ "$output" != *"Trim"* ]]
	[[ "$output" != *"trims"* ]]
	iorate run --trim 100 --cache buffered --time none --io-size 1M --csv f.dat
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^f.dat,trim,256,')" -eq 1 ]
}

@test "--trim-write: every write trims its blocks first, as fio's trimwrite" {
	make_file f.dat 2
	iorate run -w 100 --trim-write -s --cache buffered --time none --io-size 2M --json f.dat
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	json_ok '.total.trim.ios == 512 and .total.write.ios == 512 and .params.trim_write'
	# Every block was written again after its trim.
	[ "$(blocks f.dat)" -ge 4096 ]
}

@test "trims that do not fit are refused before anything runs" {
	iorate run --trim 80 -w 30 x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--trim: 80 % of trims and 30 % of writes make more than 100 %"* ]]
	iorate run --trim-write x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--trim-write: of no effect without writes"* ]]
	iorate run --trim 10 --verify crc32c -w 50 x.dat
	[ "$status" -eq 2 ]
	[ ! -e x.dat ]
}

@test "trims on a loop device: iorate's count equals the kernel's discards completed" {
	loop_setup
	local a b
	a=$(discards "$LOOP") || skip "the kernel does not count discards"
	iorate run --engine sync --trim 100 --allow-write-device --time none --io-size 4M --json \
		"$LOOP"
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	b=$(discards "$LOOP")
	json_ok '.total.trim.ios == 1024 and .targets[0].blockdev'
	[ "$((b - a))" -eq "$(jqv '.total.trim.ios')" ]
	# The device view counts them too, beside iorate's own.
	json_ok '.diskstats[0] | .kernel.discard_ios == .iorate.trim_ios and .iorate.trim_ios == 1024'
	json_ok '.targets[0].kernel.discard_ios == 1024'
}

@test "the write gate refuses to trim a device without --allow-write-device" {
	loop_setup
	local a
	a=$(md5sum <backing.img)
	iorate run --engine sync --trim 100 --time none --io-size 1M "$LOOP"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$LOOP: refusing to trim a block device"*"--allow-write-device"* ]]
	[ "$(md5sum <backing.img)" = "$a" ]
	# fio's rw=randtrim is the same trim.
	printf '[t]\nfilename=%s\nrw=randtrim\nsize=1m\n' "$LOOP" >t.fio
	iorate fio t.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--allow-write-device"* ]]
	[ "$(md5sum <backing.img)" = "$a" ]
}

@test "fio 3.33 and iorate trim a file the same number of times for one size-bound job" {
	command -v fio >/dev/null || skip "fio is not installed"
	make_file a.dat 4
	make_file b.dat 4
	printf '[t]\nfilename=%s\nsize=4m\nbs=4k\nrw=randtrim\n' a.dat >a.fio
	printf '[t]\nfilename=%s\nsize=4m\nbs=4k\nrw=randtrim\n' b.dat >b.fio
	# fio trims a file only through its falloc engine (its others send BLKDISCARD, which a
	# regular file refuses); iorate punches the holes whatever the engine.
	run fio --ioengine=falloc --output-format=json a.fio
	[ "$status" -eq 0 ]
	local want
	want=$(echo "$output" | jq '.jobs[0].trim.total_ios')
	[ "$want" -eq 1024 ]
	iorate fio --json b.fio
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	[ "$(jqv '.total.trim.ios')" -eq "$want" ]
	[ "$(blocks b.dat)" -lt 8192 ]
	iorate fio --fio-json b.fio
	[ "$status" -eq 0 ]
	[ "$(jqv '.jobs[0].trim.total_ios')" -eq "$want" ]
	[ "$(jqv '.jobs[0]["job options"].rw')" = randtrim ]
}

@test "a filesystem that cannot punch holes is said before the run, naming the target" {
	need_root
	# ramfs keeps files in the page cache and has no fallocate at all.
	mkdir mnt
	mount -t ramfs ramfs mnt || skip "cannot mount ramfs here"
	make_file mnt/f.dat 1
	iorate run --trim 100 --cache buffered --time none --io-size 1M mnt/f.dat
	umount mnt
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"mnt/f.dat: cannot trim it (--trim): "* ]]
}
