#!/usr/bin/env bats
# Block devices: exact byte counts against /proc/diskstats, what each device under the targets
# saw (the JSON's diskstats), and the safety rules. Uses only zram, loop, device-mapper and MD
# devices this file sets up and tears down itself; needs root.

load helpers

ZRAM=""
LOOP=""
LOOPS=()    # more loop devices to detach
DMS=()      # device-mapper devices to remove
MDS=()      # MD arrays to stop

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	local i
	umount "$BATS_TEST_TMPDIR/mnt" 2>/dev/null || true
	for i in "${MDS[@]}"; do mdadm --stop "$i" >/dev/null 2>&1 || true; done
	for i in "${DMS[@]}"; do dmsetup remove "$i" 2>/dev/null || true; done
	for i in "$LOOP" "${LOOPS[@]}"; do
		[ -n "$i" ] || continue
		partx -d "$i" 2>/dev/null || true
		losetup -d "$i" 2>/dev/null || true
	done
	if [ -n "$ZRAM" ]; then
		echo "${ZRAM#/dev/zram}" >/sys/class/zram-control/hot_remove 2>/dev/null || true
	fi
	return 0
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

# Bytes the kernel counted for a device: "read_bytes write_bytes", from its sectors (fields 6
# and 10). Shell integers are exact to 2^63; awk's doubles print 2.78973e+09 above 2^31 (mawk).
kernel_bytes() {
	local d f
	d=$(basename "$1")
	while read -r -a f; do
		if [ "${f[2]}" = "$d" ]; then
			echo "$((f[5] * 512)) $((f[9] * 512))"
			return 0
		fi
	done </proc/diskstats
	return 1
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

# What the kernel counted for a device: "reads read_bytes writes write_bytes", from fields 4,
# 6, 8 and 10 of its line (sectors are 512 bytes). Shell integers are exact to 2^63.
dev_counts() {
	local f
	while read -r -a f; do
		if [ "${f[2]}" = "${1#/dev/}" ]; then
			echo "${f[3]} $((f[5] * 512)) ${f[7]} $((f[9] * 512))"
			return 0
		fi
	done </proc/diskstats
	echo "no line for $1 in /proc/diskstats" >&2
	return 1
}

# dev_delta BEFORE AFTER: the change of each of dev_counts' four, one line.
dev_delta() {
	local a b
	read -r -a a <<<"$1"
	read -r -a b <<<"$2"
	echo "$((b[0] - a[0])) $((b[1] - a[1])) $((b[2] - a[2])) $((b[3] - a[3]))"
}

# view_counts JQPATH: a device object's kernel counts in dev_counts' order, from $output.
view_counts() {
	echo "$output" | jq -r "$1.kernel | \"\(.read_ios) \(.read_bytes) \(.write_ios) \(.write_bytes)\""
}

# The device called $2 in the diskstats array at $1 of $output.
dev_at() {
	echo "$1 | map(select(.device == \"$2\")) | .[0]"
}

# Whatever udev does about a new device (probing it) is done before the counts are read.
settle() {
	if command -v udevadm >/dev/null; then udevadm settle 2>/dev/null || true; fi
}

# A second loop device over a new file; its path in LOOP2.
loop2_setup() {
	truncate -s 64M "$BATS_TEST_TMPDIR/backing2.img"
	LOOP2=$(losetup -f --show "$BATS_TEST_TMPDIR/backing2.img") || skip "cannot set up a loop device"
	LOOPS+=("$LOOP2")
}

@test "diskstats of a zram target: the kernel's change over the window, exactly" {
	zram_setup
	dev=${ZRAM#/dev/}
	before=$(dev_counts "$ZRAM")
	iorate run --engine uring -o 8 -b 4k -d 0.5 --json "$ZRAM"
	after=$(dev_counts "$ZRAM")
	[ "$status" -eq 0 ]
	json_ok ".diskstats | length == 1 and .[0].device == \"$dev\""
	json_ok '.diskstats[0].role == "target" and .diskstats[0].of == null'
	json_ok '.diskstats[0].seconds == .seconds'
	# Nothing else touches the device, and opening it to read does no I/O: the kernel's change
	# over the window is the test's own reading of it around the whole run.
	[ "$(view_counts '.diskstats[0]')" = "$(dev_delta "$before" "$after")" ]
	# ... and what iorate did: one request per 4 KiB I/O on zram, no merges.
	json_ok '.diskstats[0] | .kernel.read_ios == .iorate.read_ios and
		.kernel.read_bytes == .iorate.read_bytes and .kernel.write_ios == 0'
	json_ok '.diskstats[0].iorate.read_ios == .total.read.ios and .total.read.ios > 0'
	json_ok '.diskstats[0].kernel.read_merges == 0 and .diskstats[0].read_avg_bytes == 4096'
	json_ok '.diskstats[0].util_pct >= 0 and .diskstats[0].util_pct <= 100'
	# A block target's own kernel counts are its device's in diskstats.
	json_ok '.diskstats[0].kernel as $d | .targets[0].kernel | .read_ios == $d.read_ios and
		.write_ios == $d.write_ios and .read_bytes == $d.read_bytes and
		.write_bytes == $d.write_bytes'
	# Writing: before the window, iorate probes the device for signatures (reads only), which
	# the window leaves out; the writes are all the window's.
	before=$(dev_counts "$ZRAM")
	iorate run --engine uring -o 8 -b 4k -w 30 -d 0.5 --allow-write-device --json "$ZRAM"
	after=$(dev_counts "$ZRAM")
	[ "$status" -eq 0 ]
	read -r -a d <<<"$(dev_delta "$before" "$after")"
	read -r -a v <<<"$(view_counts '.diskstats[0]')"
	(( v[2] == d[2] && v[3] == d[3] && v[0] <= d[0] ))
	json_ok '.total as $t | .diskstats[0] | .kernel.read_ios == .iorate.read_ios and
		.kernel.write_ios == .iorate.write_ios and .kernel.read_bytes == .iorate.read_bytes and
		.kernel.write_bytes == .iorate.write_bytes and .iorate.write_ios == $t.write.ios and
		$t.write.ios > 0'
}

@test "a file on a loop-backed ext4 resolves to the loop device, whose counts are exact" {
	loop_setup
	dev=${LOOP#/dev/}
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
	mkdir -p mnt
	mount -o noatime "$LOOP" mnt || skip "cannot mount ext4 here"
	dd if=/dev/urandom of=mnt/t.dat bs=1M count=16 status=none
	sync
	settle
	# Without --no-invalidate, iorate's fdatasync before the window may flush the device.
	before=$(dev_counts "$LOOP")
	iorate run --engine sync -b 4k -d 0.5 --no-invalidate --json mnt/t.dat
	after=$(dev_counts "$LOOP")
	[ "$status" -eq 0 ]
	json_ok ".targets[0].device == \"$dev\" and .targets[0].kernel == null"
	json_ok ".diskstats | length == 1 and .[0].device == \"$dev\" and .[0].role == \"target\""
	# The file is only read, with O_DIRECT and without atime: the filesystem adds nothing.
	[ "$(view_counts '.diskstats[0]')" = "$(dev_delta "$before" "$after")" ]
	json_ok '.diskstats[0] | .kernel.read_bytes == .iorate.read_bytes and
		.kernel.read_ios == .iorate.read_ios and .kernel.write_ios == 0'
	json_ok '.diskstats[0].iorate.read_bytes == .total.read.bytes and .total.read.ios > 0'
	# The text and the CSV say the same.
	iorate run --engine sync -b 4k -d 0.3 mnt/t.dat
	[[ "$output" == *"Devices under the targets"* ]]
	[[ "$output" == *"$dev (a target's filesystem is on it) over "* ]]
	iorate run --engine sync -b 4k -d 0.3 --csv mnt/t.dat
	reads=$(echo "$output" | awk -F, -v d="device:$dev" '$1 == d && $2 == "read" { print $3 }')
	ours=$(echo "$output" | awk -F, '$1 == "*" && $2 == "read" { print $3 }')
	[ -n "$reads" ] && [ "$reads" -eq "$ours" ] || false
}

@test "a partition: itself and its whole disk, each counted exactly" {
	loop_setup
	command -v sfdisk >/dev/null || skip "sfdisk is not installed (Debian's fdisk package)"
	printf 'label: gpt\n,16M\n,\n' | sfdisk -q "$LOOP"
	[ -e "/sys/class/block/${LOOP#/dev/}/${LOOP#/dev/}p1" ] || partx -a "$LOOP"
	for i in $(seq 100); do [ -b "${LOOP}p1" ] && break; sleep 0.02; done
	[ -b "${LOOP}p1" ] || skip "the partitions of a loop device do not appear here"
	settle
	part=${LOOP#/dev/}p1
	disk=${LOOP#/dev/}
	b1=$(dev_counts "${LOOP}p1")
	b2=$(dev_counts "$LOOP")
	iorate run --engine sync -b 8k -d 0.5 --json "${LOOP}p1"
	a1=$(dev_counts "${LOOP}p1")
	a2=$(dev_counts "$LOOP")
	[ "$status" -eq 0 ]
	json_ok "[.diskstats[] | [.device, .role, .of]] == [[\"$part\", \"target\", null],
		[\"$disk\", \"disk\", \"$part\"]]"
	[ "$(view_counts "$(dev_at .diskstats "$part")")" = "$(dev_delta "$b1" "$a1")" ]
	[ "$(view_counts "$(dev_at .diskstats "$disk")")" = "$(dev_delta "$b2" "$a2")" ]
	json_ok '[.diskstats[].kernel.read_bytes] | unique | length == 1'
	json_ok '.diskstats[1].kernel.read_bytes == .total.read.bytes'
	json_ok '.diskstats[1].iorate.read_bytes == .total.read.bytes'
}

@test "device-mapper: a linear device over a loop device, and its member, counted exactly" {
	need_root
	grep -qw device-mapper /proc/misc ||
		skip "this kernel has no device-mapper (CONFIG_BLK_DEV_DM off, no modules to load)"
	command -v dmsetup >/dev/null || skip "dmsetup is not installed (Debian's lvm2 package)"
	loop_setup
	name=iorate-devview-$$
	dmsetup create "$name" --table "0 $(blockdev --getsz "$LOOP") linear $LOOP 0" ||
		skip "dmsetup create fails here"
	DMS+=("$name")
	settle
	dm=$(basename "$(realpath "/dev/mapper/$name")")
	b1=$(dev_counts "$dm")
	b2=$(dev_counts "$LOOP")
	iorate run --engine sync -b 4k -d 0.5 --json "/dev/mapper/$name"
	a1=$(dev_counts "$dm")
	a2=$(dev_counts "$LOOP")
	[ "$status" -eq 0 ]
	json_ok "[.diskstats[] | [.device, .role, .of]] == [[\"$dm\", \"target\", null],
		[\"${LOOP#/dev/}\", \"member\", \"$dm\"]]"
	[ "$(view_counts '.diskstats[0]')" = "$(dev_delta "$b1" "$a1")" ]
	[ "$(view_counts '.diskstats[1]')" = "$(dev_delta "$b2" "$a2")" ]
	json_ok '.diskstats[1].kernel.read_bytes == .total.read.bytes'
	iorate run --engine sync -b 4k -d 0.3 --fio-json "/dev/mapper/$name"
	json_ok "[.disk_util[].name] == [\"$dm\", \"${LOOP#/dev/}\"] and
		.disk_util[0].aggr_read_ios == .disk_util[1].read_ios"
}

@test "MD RAID 1: the array over two loop devices, and both members" {
	need_root
	[ -e /proc/mdstat ] ||
		skip "this kernel has no MD RAID driver (CONFIG_MD off, no modules to load)"
	command -v mdadm >/dev/null || skip "mdadm is not installed"
	loop_setup
	loop2_setup
	mdadm --create "/dev/md/iorate-devview-$$" --run --level=1 --raid-devices=2 \
		--metadata=1.2 --assume-clean "$LOOP" "$LOOP2" >/dev/null 2>&1 ||
		skip "mdadm --create fails here"
	MDS+=("/dev/md/iorate-devview-$$")
	md=$(basename "$(realpath "/dev/md/iorate-devview-$$")")
	iorate run --engine sync -b 4k -d 0.5 --json "/dev/md/iorate-devview-$$"
	[ "$status" -eq 0 ]
	json_ok "(.diskstats | map(.device) | sort) == ([\"$md\", \"${LOOP#/dev/}\",
		\"${LOOP2#/dev/}\"] | sort)"
	json_ok ".diskstats | map(select(.role == \"member\" and .of == \"$md\")) | length == 2"
	# RAID 1 reads each block from one member: the members' reads add up to the array's.
	json_ok '(.diskstats | map(select(.role == "member").kernel.read_bytes) | add) ==
		.diskstats[0].kernel.read_bytes and .diskstats[0].kernel.read_bytes == .total.read.bytes'
}

@test "several jobs on one zram: counted once per group, the groups added for the run" {
	zram_setup
	dev=${ZRAM#/dev/}
	before=$(dev_counts "$ZRAM")
	iorate run --engine sync -d 0.4 -q --json --job-name a "$ZRAM" --job-name b -b 8k "$ZRAM" \
		--job-name c --stonewall -b 16k "$ZRAM"
	after=$(dev_counts "$ZRAM")
	[ "$status" -eq 0 ]
	json_ok ".groups[0].diskstats | length == 1 and .[0].device == \"$dev\""
	json_ok '.groups[0].diskstats[0] | .kernel.read_bytes == .iorate.read_bytes'
	json_ok '.groups[0].diskstats[0].iorate.read_ios == .groups[0].read.ios'
	json_ok '.jobs[0].diskstats[0].kernel == .groups[0].diskstats[0].kernel and
		.jobs[1].diskstats[0].kernel == .groups[0].diskstats[0].kernel'
	json_ok '.jobs[0].diskstats[0].iorate.read_ios == .jobs[0].total.read.ios'
	json_ok '.groups[1].diskstats[0].kernel.read_ios == .jobs[2].total.read.ios'
	json_ok '.total.diskstats[0].seconds == .groups[0].seconds + .groups[1].seconds'
	[ "$(view_counts '.total.diskstats[0]')" = "$(dev_delta "$before" "$after")" ]
	json_ok '.total.diskstats[0].kernel.read_bytes == .total.read.bytes'
	iorate run --engine sync -d 0.3 -q --csv --job-name a "$ZRAM" --job-name b --stonewall "$ZRAM"
	[ "$(echo "$output" | grep -c "^group,,,[01],device:$dev,")" -eq 6 ]
	[ "$(echo "$output" | grep -c "^total,,,,device:$dev,")" -eq 3 ]
}

@test "--atomic: writes carry RWF_ATOMIC where the filesystem has them (XFS), refused elsewhere" {
	need_root
	command -v mkfs.xfs >/dev/null || skip "mkfs.xfs is not installed (Debian's xfsprogs)"
	grep -qw xfs /proc/filesystems || skip "this kernel has no XFS"
	# ext4 (the test directory's) has no atomic writes: refused by name before any write.
	iorate run --atomic -w 100 -b 16k -d 0.2 -c 8m plain.dat
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"plain.dat: its filesystem has no atomic writes"* ]]
	truncate -s 320M xfs.img          # the smallest XFS mkfs makes
	LOOP=$(losetup -f --show xfs.img) || skip "cannot set up a loop device"
	mkfs.xfs -q -f -m reflink=1 "$LOOP" || skip "mkfs.xfs cannot make a reflink XFS here"
	mkdir mnt
	mount "$LOOP" mnt || skip "cannot mount XFS here"
	# XFS with reflink writes atomically by copy on write (Linux 6.16), 4 KiB to 1 MiB here;
	# without the kernel's support statx says so and the test cannot run.
	iorate run --engine sync --atomic -w 100 -b 16k -d 0.2 -c 8m mnt/probe.dat
	[[ "$stderr" != *"has no atomic writes"* ]] || skip "this kernel's XFS has no atomic writes"
	for e in sync uring aio; do
		d=8
		[ "$e" = sync ] && d=1
		iorate run --engine "$e" --depth "$d" --atomic -w 100 -b 16k -d 0.3 -c 8m \
			mnt/a.dat --json
		[ "$status" -eq 0 ]
		json_ok '.params.atomic == true and .total.write.ios > 0 and .error == null'
	done
	# A size outside the filesystem's atomic range, and buffered I/O, are refused.
	iorate run --atomic -w 100 -b 4m -d 0.2 -c 8m mnt/a.dat
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"writes atomically from "*" bytes, in powers of two; 4194304 is not one"* ]]
	iorate run --atomic -w 100 -b 12k -d 0.2 -c 8m mnt/a.dat
	[ "$status" -ne 0 ]
	# Each atomic write must start at a multiple of its length.
	iorate run --atomic -w 100 -b 16k --offset 4k -d 0.2 -c 8m mnt/a.dat
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"--atomic: every write must start at a multiple of its length (16384 bytes)"* ]]
	iorate run --atomic -w 100 --bssplit 4k/50:16k/50 -d 0.2 -c 8m mnt/a.dat
	[ "$status" -ne 0 ]
	iorate run --atomic --cache buffered -w 100 -b 16k -d 0.2 -c 8m mnt/a.dat
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"--atomic: atomic writes need direct I/O"* ]]
	# A file fio would run with atomic=1 (a newer fio's option): the same writes.
	iorate fio --name=a --filename=mnt/f.dat --size=8m --rw=randwrite --bs=16k --direct=1 \
		--ioengine=libaio --iodepth=4 --atomic=1 --runtime=300ms --time_based --output-format=json
	[ "$status" -eq 0 ]
	jq -e '.jobs[0].write.total_ios > 0' <<<"$output" >/dev/null
}
