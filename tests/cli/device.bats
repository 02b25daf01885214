#!/usr/bin/env bats
# Block devices: exact byte counts against /proc/diskstats, and the safety rules.
# Uses only zram and loop devices this file sets up and tears down itself; needs root.

load helpers

ZRAM=""
LOOP=""

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	if [ -n "$LOOP" ]; then
		umount "$BATS_TEST_TMPDIR/mnt" 2>/dev/null || true
		losetup -d "$LOOP" 2>/dev/null || true
	fi
	if [ -n "$ZRAM" ]; then
		echo "${ZRAM#/dev/zram}" >/sys/class/zram-control/hot_remove 2>/dev/null || true
	fi
}

# A fresh zram device of 64 MiB; skips when zram is not available.
zram_setup() {
	need_root
	[ -w /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null || true
	[ -w /sys/class/zram-control/hot_add ] || skip "zram is not available (no zram-control)"
	local n
	n=$(cat /sys/class/zram-control/hot_add) || skip "cannot add a zram device"
	ZRAM=/dev/zram$n
	echo 64M >/sys/block/zram$n/disksize
	for i in $(seq 50); do [ -b "$ZRAM" ] && break; sleep 0.1; done
	[ -b "$ZRAM" ]
}

loop_setup() {
	need_root
	command -v losetup >/dev/null || skip "losetup is not installed"
	truncate -s 64M "$BATS_TEST_TMPDIR/backing.img"
	LOOP=$(losetup -f --show "$BATS_TEST_TMPDIR/backing.img") || skip "cannot set up a loop device"
}

# Sectors the kernel counted for a device: "read_bytes write_bytes".
kernel_bytes() {
	awk -v d="$(basename "$1")" '$3 == d {print $6 * 512, $10 * 512}' /proc/diskstats
}

@test "reads on zram with O_DIRECT: bytes equal the /proc/diskstats change, exactly" {
	zram_setup
	before=$(kernel_bytes "$ZRAM")
	iorate run --engine uring -o 8 -b 4k -d 1 --json "$ZRAM"
	after=$(kernel_bytes "$ZRAM")
	[ "$status" -eq 0 ]
	json_ok '.total.read.bytes > 0 and .total.write.bytes == 0'
	json_ok '.targets[0].blockdev == true and .targets[0].created == false'
	json_ok '.targets[0].kernel.read_bytes == .total.read.bytes'
	json_ok '.targets[0].kernel.write_bytes == 0'
	got=$(echo "$output" | jq .total.read.bytes)
	[ "$(( ${after% *} - ${before% *} ))" -eq "$got" ]
}

@test "writes on zram with --allow-write-device: bytes equal the kernel's, exactly" {
	zram_setup
	iorate run --engine sync -b 8k -w 60 -d 1 --allow-write-device --json "$ZRAM"
	[ "$status" -eq 0 ]
	json_ok '.total.write.bytes > 0 and .total.read.bytes > 0'
	json_ok '.targets[0].kernel.write_bytes == .total.write.bytes'
	json_ok '.targets[0].kernel.read_bytes == .total.read.bytes'
}

@test "loop device, aio at depth 16, sequential: exact kernel counts" {
	loop_setup
	iorate run --engine aio -o 16 -s -b 64k -d 1 --json "$LOOP"
	[ "$status" -eq 0 ]
	json_ok '.targets[0].kernel.read_bytes == .total.read.bytes and .total.read.ios > 0'
}

@test "a block device is read-only unless writing is allowed explicitly" {
	zram_setup
	iorate run --engine sync -w 10 -d 1 "$ZRAM"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"--allow-write-device"* ]]
	[ "$(kernel_bytes "$ZRAM" | cut -d' ' -f2)" -eq 0 ]
}

@test "a device holding a filesystem is not written without --force" {
	loop_setup
	mkfs.ext4 -q "$LOOP"
	iorate run --engine sync -w 50 -d 1 --allow-write-device "$LOOP"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"ext4"* ]]
	[[ "$stderr" == *"--force"* ]]
	blkid "$LOOP" | grep -q ext4
	iorate run --engine sync -w 50 -d 0.5 --allow-write-device --force -q "$LOOP"
	[ "$status" -eq 0 ]
}

@test "a mounted device is refused even with --allow-write-device" {
	loop_setup
	mkfs.ext4 -q "$LOOP"
	mkdir -p mnt
	mount "$LOOP" mnt || skip "cannot mount here"
	echo precious >mnt/file
	iorate run --engine sync -w 50 -d 1 --allow-write-device "$LOOP"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"mounted"* ]]
	[ "$(cat mnt/file)" = precious ]
	# Reading a mounted device is harmless and allowed.
	iorate run --engine sync -d 0.5 -q "$LOOP"
	[ "$status" -eq 0 ]
	umount mnt
}

@test "ENOSPC during a run ends it with exit 1, one line, and partial results" {
	need_root
	mkdir -p small
	mount -t tmpfs -o size=2M tmpfs small || skip "cannot mount tmpfs"
	truncate -s 64M small/sparse.dat
	"$IORATE" run --engine sync --cache buffered -s -w 100 -b 64k -d 5 --json small/sparse.dat \
		>out.json 2>err.txt && rc=0 || rc=$?
	umount small
	[ "$rc" -eq 1 ]
	[ "$(wc -l <err.txt)" -eq 1 ]
	grep -q "No space left on device" err.txt
	output=$(cat out.json)
	json_ok '.error | test("No space")'
	json_ok '.total.write.errors >= 1'
}
