#!/usr/bin/env bats
# The write gate, case by case. Every refusal is checked four ways: the exit status, the one line
# on stderr, the SHA-256 of the device's backing file, and the sectors the kernel counted written
# to the device (/proc/diskstats, field 10), which must not move. Only loop devices, mounts, swap
# and files that each test makes itself are touched; teardown undoes them whatever happened.

load helpers

LOOPS=()    # loop devices to detach
MNTS=()     # mount points to unmount, last first
SWAPS=()    # devices to swapoff
PIDS=()     # background processes to kill
DMS=()      # device-mapper devices to remove
MDS=()      # MD arrays to stop
DIRS=()     # directories made outside the test's own, to remove

setup() {
	cd "$BATS_TEST_TMPDIR"
	export LVM_SUPPRESS_FD_WARNINGS=1
}

teardown() {
	local i
	for i in "${PIDS[@]}"; do
		kill "$i" 2>/dev/null || true
		wait "$i" 2>/dev/null || true
	done
	for i in "${SWAPS[@]}"; do swapoff "$i" 2>/dev/null || true; done
	for ((i = ${#MNTS[@]} - 1; i >= 0; i--)); do umount "${MNTS[i]}" 2>/dev/null || true; done
	for i in "${MDS[@]}"; do mdadm --stop "$i" >/dev/null 2>&1 || true; done
	for i in "${DMS[@]}"; do dmsetup remove "$i" 2>/dev/null || true; done
	for i in "${LOOPS[@]}"; do
		partx -d "$i" 2>/dev/null || true
		losetup -d "$i" 2>/dev/null || true
	done
	for i in "${DIRS[@]}"; do rm -rf "$i"; done
	return 0
}

# loop_new NAME SIZE: a loop device over the new file NAME of SIZE; sets LOOP and BACK.
loop_new() {
	need_root
	command -v losetup >/dev/null || skip "losetup is not installed"
	BACK=$BATS_TEST_TMPDIR/$1
	truncate -s "$2" "$BACK"
	LOOP=$(losetup -f --show "$BACK") || skip "cannot set up a loop device"
	LOOPS+=("$LOOP")
}

# Sectors the kernel counted written to device $1: field 10 of its line in /proc/diskstats.
sectors_written() {
	local maj min name f4 f5 f6 f7 f8 f9 f10 rest
	while read -r maj min name f4 f5 f6 f7 f8 f9 f10 rest; do
		if [ "$name" = "${1#/dev/}" ]; then
			echo "$f10"
			return 0
		fi
	done </proc/diskstats
	echo "no line for $1 in /proc/diskstats" >&2
	return 1
}

# Settles what setting up wrote, then records the backing file's hash and the sectors written.
before() {
	sync
	blockdev --flushbufs "$LOOP"
	SHA0=$(sha256sum <"$BACK")
	SW0=$(sectors_written "$LOOP")
}

# The backing file hashes as before() found it, and the kernel counted no sector written since.
untouched() {
	local sha sw
	sha=$(sha256sum <"$BACK")
	sw=$(sectors_written "$LOOP")
	[ "$sha" = "$SHA0" ] || { echo "$BACK changed" >&2; return 1; }
	[ "$((sw - SW0))" -eq 0 ] ||
		{ echo "$((sw - SW0)) sectors written to $LOOP" >&2; return 1; }
}

# refused WORDS ARGS...: 'iorate run ARGS' is refused: exit 1 and one line on stderr that says
# "refusing to write" and WORDS.
refused() {
	local words=$1
	shift
	iorate run --engine sync -q -d 0.2 "$@"
	[ "$status" -eq 1 ] || { echo "exit $status, stderr: $stderr" >&2; return 1; }
	one_line
	[[ "$stderr" == *"refusing to write"* ]] || { echo "no refusal: $stderr" >&2; return 1; }
	[[ "$stderr" == *"$words"* ]] || { echo "'$words' not in: $stderr" >&2; return 1; }
}

# Pages the kernel has written out to swap since boot (/proc/vmstat).
pswpout() {
	sed -n 's/^pswpout //p' /proc/vmstat
}

# settled CMD...: before(), CMD, untouched(). While an active swap is under test the kernel may
# page out to it, which writes the device: a window in which it paged out anywhere proves nothing
# about who wrote, and is tried again (5 times at most).
settled() {
	local try out0
	for try in 1 2 3 4 5; do
		out0=$(pswpout)
		before
		"$@"
		if [ "$(pswpout)" = "$out0" ]; then
			untouched
			return
		fi
	done
	echo "the kernel paged out to swap in each of 5 windows: nothing to judge by" >&2
	return 1
}

# A device refused for what it holds: with --allow-write-device, without --force.
device_refused() {
	settled refused "$1" -w 100 --allow-write-device "$LOOP"
	# Without --allow-write-device, refused before it is even looked at.
	settled refused "--allow-write-device" -w 100 "$LOOP"
}

# put_bytes DEV OFFSET HEX: writes the bytes HEX at OFFSET of DEV, through the device.
put_bytes() {
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
os.pwrite(fd, bytes.fromhex(sys.argv[3]), int(sys.argv[2]))
os.fsync(fd)
os.close(fd)' "$@"
}

# mkfs_ext4 DEV: an ext4 that writes nothing later on its own (no lazy initialisation).
mkfs_ext4() {
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1"
}

# partitions DEV LABEL: a partition table with two partitions, and their device nodes.
partitions() {
	command -v sfdisk >/dev/null || skip "sfdisk is not installed (Debian's fdisk package)"
	printf 'label: %s\n,4M\n,\n' "$2" | sfdisk -q "$1"
	# Where the kernel has no partition table parsers, partx adds the partitions itself.
	[ -e "/sys/class/block/${1#/dev/}/${1#/dev/}p1" ] || partx -a "$1"
	local i
	for i in $(seq 100); do [ -b "${1}p1" ] && return 0; sleep 0.02; done
	echo "${1}p1 did not appear" >&2
	return 1
}

@test "control: a free device is written when allowed, and both checks see it" {
	loop_new dev.img 16M
	before
	iorate run --engine sync -q -d 0.2 -w 100 --allow-write-device "$LOOP"
	[ "$status" -eq 0 ]
	sync
	[ "$(sha256sum <"$BACK")" != "$SHA0" ]
	[ "$(($(sectors_written "$LOOP") - SW0))" -gt 0 ]
}

@test "a mounted filesystem is refused even with --allow-write-device" {
	loop_new fs.img 16M
	mkfs_ext4 "$LOOP"
	mkdir mnt
	mount "$LOOP" mnt || skip "cannot mount ext4 here"
	MNTS+=("$BATS_TEST_TMPDIR/mnt")
	echo precious >mnt/file
	sync
	device_refused "${LOOP#/dev/} is mounted at $(realpath mnt)"
	[ "$(cat mnt/file)" = precious ]
}

@test "a mounted partition refuses its whole disk" {
	loop_new disk.img 16M
	partitions "$LOOP" gpt
	mkfs_ext4 "${LOOP}p1"
	mkdir mnt
	mount "${LOOP}p1" mnt || skip "cannot mount ext4 here"
	MNTS+=("$BATS_TEST_TMPDIR/mnt")
	echo precious >mnt/file
	sync
	device_refused "${LOOP#/dev/}p1 is mounted at $(realpath mnt)"
}

@test "a partition inside a mounted whole disk is refused, naming the disk" {
	loop_new disk.img 16M
	mkfs_ext4 "$LOOP"
	mkdir mnt
	mount "$LOOP" mnt || skip "cannot mount ext4 here"
	MNTS+=("$BATS_TEST_TMPDIR/mnt")
	echo precious >mnt/file
	command -v sfdisk >/dev/null || skip "sfdisk is not installed (Debian's fdisk package)"
	# A DOS table in the first sector, which ext4 leaves unused: its partition lies inside the
	# mounted filesystem. The kernel does not re-read a busy disk's table: partx adds it.
	printf 'label: dos\n,4M\n' | sfdisk -q --no-reread -f "$LOOP" 2>/dev/null
	partx -a "$LOOP"
	local i
	for i in $(seq 100); do [ -b "${LOOP}p1" ] && break; sleep 0.02; done
	[ -b "${LOOP}p1" ]
	before
	refused "${LOOP}p1: refusing to write: ${LOOP#/dev/} is mounted at $(realpath mnt)" \
		-w 100 --allow-write-device "${LOOP}p1"
	untouched
	[ "$(cat mnt/file)" = precious ]
}

@test "an unmounted ext4 filesystem is refused without --force" {
	loop_new fs.img 16M
	mkfs_ext4 "$LOOP"
	device_refused "it holds a ext4 signature"
}

@test "two signatures: libblkid's probe is ambivalent, and that is refused" {
	loop_new fs.img 16M
	mkfs_ext4 "$LOOP"
	# A squashfs 4.0 superblock in the first KiB, which ext4 leaves unused.
	put_bytes "$LOOP" 0 "68737173 01000000 00000000 00000200 00000000 00000000 00000000 \
		04000000 0000000000000000 0010000000000000"
	run blkid -p "$LOOP"
	[ "$status" -eq 8 ]
	[[ "$output" == *"ambivalent result"* ]]
	device_refused "more than one signature on it (an ambivalent probe)"
}

@test "a GPT partition table is refused" {
	loop_new disk.img 16M
	partitions "$LOOP" gpt
	device_refused "it holds a gpt partition table"
}

@test "a DOS partition table is refused" {
	loop_new disk.img 16M
	partitions "$LOOP" dos
	device_refused "it holds a dos partition table"
}

@test "a swap signature is refused" {
	loop_new swap.img 16M
	mkswap -q "$LOOP" >/dev/null
	device_refused "it holds a swap signature"
}

@test "active swap is refused" {
	loop_new swap.img 16M
	mkswap -q "$LOOP" >/dev/null
	swapon "$LOOP" || skip "swapon does not work here"
	SWAPS+=("$LOOP")
	device_refused "${LOOP#/dev/} is in use as swap"
}

@test "an LVM physical volume is refused" {
	command -v pvcreate >/dev/null || skip "pvcreate is not installed (Debian's lvm2 package)"
	loop_new pv.img 16M
	# LVM looks at this device only, and records it nowhere (no devices file, no hints).
	pvcreate -q -y --config "devices { filter = [ \"a|^$LOOP\$|\", \"r|.*|\" ]
		use_devicesfile = 0 hints = \"none\" }" "$LOOP" >/dev/null ||
		skip "pvcreate cannot write a label here"
	blkid -p "$LOOP" | grep -q 'TYPE="LVM2_member"'
	device_refused "it holds a LVM2_member signature"
}

@test "an MD RAID member is refused" {
	# mdadm cannot make arrays without the kernel's MD driver, so the v1.2 superblock (4 KiB in)
	# is written here, with its checksum, as mdadm would.
	loop_new md.img 16M
	python3 - "$LOOP" <<'EOF'
import os, struct, sys
sb = bytearray(256 + 2 * 2)
struct.pack_into('<II', sb, 0, 0xa92b4efc, 1)        # magic, major version
sb[16:32] = bytes(range(1, 17))                       # array UUID
sb[32:39] = b'iorate0'                                # array name
struct.pack_into('<I', sb, 72, 1)                     # RAID 1
struct.pack_into('<Q', sb, 80, 65536)                 # size
struct.pack_into('<I', sb, 92, 2)                     # raid disks
struct.pack_into('<QQQ', sb, 128, 2048, 65536, 8)     # data offset, data size, sb offset
sb[168:184] = bytes(range(17, 33))                    # device UUID
struct.pack_into('<I', sb, 220, 2)                    # roles that follow
struct.pack_into('<HH', sb, 256, 0, 1)
csum = sum(struct.unpack_from('<I', sb, i)[0] for i in range(0, len(sb), 4))
struct.pack_into('<I', sb, 216, ((csum & 0xffffffff) + (csum >> 32)) & 0xffffffff)
fd = os.open(sys.argv[1], os.O_WRONLY)
os.pwrite(fd, bytes(sb), 4096)
os.fsync(fd)
os.close(fd)
EOF
	blkid -p "$LOOP" | grep -q 'TYPE="linux_raid_member"'
	device_refused "it holds a linux_raid_member signature"
}

# hold_excl DEV: a process holds DEV open with O_EXCL, as a mount or a holder does; the kernel
# then refuses any other exclusive open of it.
hold_excl() {
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(120)' "$1" "$BATS_TEST_TMPDIR/held" &
	PIDS+=($!)
	local i
	for i in $(seq 250); do [ -e "$BATS_TEST_TMPDIR/held" ] && return 0; sleep 0.02; done
	echo "$1 was not held" >&2
	return 1
}

@test "--force names every reason it overrides, in the JSON notes and the text report" {
	loop_new fs.img 16M
	mkfs_ext4 "$LOOP"
	local sig="it holds a ext4 signature (filesystem, RAID or LVM member)"
	iorate run --engine sync -d 0.2 -w 100 --allow-write-device --force --json "$LOOP"
	[ "$status" -eq 0 ]
	json_ok ".notes == [\"forced: $LOOP was written although $sig\"]"
	json_ok '.total.write.ios > 0'
	# The kernel's own refusal (an exclusive open elsewhere) is named too, after what iorate found.
	mkfs_ext4 "$LOOP"
	hold_excl "$LOOP"
	iorate run --engine sync -d 0.2 -w 100 --allow-write-device --force "$LOOP"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -Fxq "Note: forced: $LOOP was written although $sig; the\
 kernel reports it in exclusive use (mounted, swap, device-mapper or MD)"
}

@test "--force on a device the kernel holds and iorate finds free: the kernel's refusal is named" {
	loop_new dev.img 16M
	hold_excl "$LOOP"
	before
	refused "$LOOP: device is busy (mounted or in use by the kernel); refusing to write to it" \
		-w 100 --allow-write-device "$LOOP"
	untouched
	iorate run --engine sync -d 0.2 -w 100 --allow-write-device --force --json "$LOOP"
	[ "$status" -eq 0 ]
	json_ok ".notes == [\"forced: $LOOP was written although the kernel reports it in exclusive use\
 (mounted, swap, device-mapper or MD)\"]"
}

@test "jobs of one run share its claim on a device; a holder outside the run is refused" {
	loop_new jobs.img 64M
	iorate run --engine sync -q -d 0.2 -w 100 --allow-write-device --json \
		--job-name a --size 16M "$LOOP" --job-name b --offset 32M --size 16M "$LOOP"
	[ "$status" -eq 0 ]
	json_ok '[.jobs[].total.write.ios > 0] == [true, true]'
	printf '[w]\nfilename=%s\nrw=randwrite\nsize=8M\nnumjobs=4\noffset_increment=8M\n' \
		"$LOOP" >nj.fio
	iorate fio --allow-write-device nj.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *"total (4 jobs)"* ]]
	# Something outside the run holding it still refuses every job.
	hold_excl "$LOOP"
	before
	refused "$LOOP: device is busy (mounted or in use by the kernel); refusing to write to it" \
		-w 100 --allow-write-device --job-name a --size 16M "$LOOP" --job-name b \
		--offset 32M --size 16M "$LOOP"
	untouched
}

@test "a file that backs a loop device is written only under that device's rules" {
	loop_new fs.img 16M
	mkfs_ext4 "$LOOP"
	local who="$BACK (the backing file of $LOOP)"
	before
	refused "$who: refusing to write to a block device (its data would be destroyed); add\
 --allow-write-device" --cache buffered -w 100 "$BACK"
	untouched
	refused "$who: refusing to write: it holds a ext4 signature" --cache buffered -w 100 \
		--allow-write-device "$BACK"
	untouched
	mkdir mnt
	mount "$LOOP" mnt || skip "cannot mount ext4 here"
	MNTS+=("$BATS_TEST_TMPDIR/mnt")
	before
	refused "$who: refusing to write: ${LOOP#/dev/} is mounted at $(realpath mnt); it holds a ext4" \
		--cache buffered -w 100 --allow-write-device "$BACK"
	untouched
	# A trim of it is refused as a write is.
	iorate run --engine sync -q -d 0.2 --cache buffered --trim 100 --allow-write-device "$BACK"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$who: refusing to trim: ${LOOP#/dev/} is mounted at"* ]]
	untouched
	# Reading it changes nothing, and is allowed.
	iorate run --engine sync -q -d 0.2 --cache buffered "$BACK"
	[ "$status" -eq 0 ]
	untouched
	# Detached, it is a disk image: its filesystem is refused as a device's is, unless --force.
	umount mnt
	MNTS=()
	losetup -d "$LOOP"
	local sha
	sha=$(sha256sum <"$BACK")
	iorate run --engine sync -q -d 0.2 --cache buffered -w 100 "$BACK"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$BACK: refusing to write: it holds a ext4 signature"*"disk image"* ]]
	[ "$(sha256sum <"$BACK")" = "$sha" ]
	iorate run --engine sync -q -d 0.2 --cache buffered -w 100 --force "$BACK"
	[ "$status" -eq 0 ]
	[ "$(sha256sum <"$BACK")" != "$sha" ]
}

@test "a file whose loop device another program holds is refused, even with no signature" {
	loop_new dev.img 16M
	local who="$BACK (the backing file of $LOOP)"
	hold_excl "$LOOP"
	before
	refused "$who: refusing to write: the kernel reports $LOOP in exclusive use" \
		--cache buffered -w 100 --allow-write-device "$BACK"
	untouched
	iorate run --engine sync -q -d 0.2 --cache buffered --trim 100 --allow-write-device "$BACK"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$who: refusing to trim: the kernel reports $LOOP in exclusive use"* ]]
	untouched
	# --force overrides it, and says so.
	iorate run --engine sync -d 0.2 --cache buffered -w 100 --allow-write-device --force \
		--json "$BACK"
	[ "$status" -eq 0 ]
	json_ok ".notes == [\"forced: $who was written although the kernel reports its loop device\
 in exclusive use\"]"
}

@test "a second iorate does not write the file whose loop device a first one writes" {
	loop_new dev.img 16M
	"$IORATE" run --engine sync -q -d 20 -w 100 --allow-write-device "$LOOP" >/dev/null 2>&1 &
	local pid=$! i
	PIDS+=("$pid")
	# The first run holds the device once its writes are counted.
	SW0=$(sectors_written "$LOOP")
	for i in $(seq 500); do
		[ "$(sectors_written "$LOOP")" != "$SW0" ] && break
		sleep 0.02
	done
	[ "$(sectors_written "$LOOP")" != "$SW0" ]
	local who="$BACK (the backing file of $LOOP)"
	refused "$who: refusing to write: the kernel reports $LOOP in exclusive use" \
		--cache buffered -w 100 --allow-write-device "$BACK"
	kill -INT "$pid"
	wait "$pid" || true
	# Two jobs of one run writing the file share iorate's own hold of the device.
	printf '[global]\nfilename=%s\nrw=randwrite\nruntime=1\ntime_based\nsize=4M\n[a]\n[b]\noffset=8M\n' \
		"$BACK" >two.fio
	iorate fio --allow-write-device two.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *"total (2 jobs)"* ]]
}

@test "a disk image that is no loop device's is refused unless --force, naming its signature" {
	need_root
	truncate -s 16M fs.img
	mkfs_ext4 fs.img
	local sha
	sha=$(sha256sum <fs.img)
	iorate run --engine sync -q -d 0.2 -w 100 fs.img
	[ "$status" -eq 1 ]
	one_line
	[[ "$stderr" == *"fs.img: refusing to write: it holds a ext4 signature (filesystem, RAID or\
 LVM member), so it looks like a disk image (add --force to overwrite it anyway)"* ]]
	iorate run --engine sync -q -d 0.2 --trim 100 fs.img
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"fs.img: refusing to trim: it holds a ext4 signature"* ]]
	# Reading it is allowed.
	iorate run --engine sync -q -d 0.2 fs.img
	[ "$status" -eq 0 ]
	[ "$(sha256sum <fs.img)" = "$sha" ]
	# A partition table in a file is one too, in run, mark and fio alike.
	command -v sfdisk >/dev/null || skip "sfdisk is not installed (Debian's fdisk package)"
	truncate -s 16M pt.img
	printf 'label: gpt\n,4M\n' | sfdisk -q pt.img
	sha=$(sha256sum <pt.img)
	iorate run --engine sync -q -d 0.2 -w 50 pt.img
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"pt.img: refusing to write: it holds a gpt partition table"* ]]
	iorate fio --name=w --rw=randwrite --filename=pt.img --runtime=1 --time_based
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"pt.img: refusing to write: it holds a gpt partition table"* ]]
	[ "$(sha256sum <pt.img)" = "$sha" ]
	# --force writes it, and the note says what it overrode.
	iorate run --engine sync -d 0.2 -w 100 --force --json fs.img
	[ "$status" -eq 0 ]
	json_ok ".notes == [\"forced: fs.img was written although it holds a ext4 signature\
 (filesystem, RAID or LVM member)\"]"
	[ "$(sha256sum <fs.img)" != "$sha" ]
}

@test "a disk whose partition table was zeroed: the kernel's partitions are still probed" {
	loop_new disk.img 16M
	partitions "$LOOP" dos
	mkfs_ext4 "${LOOP}p1"
	# Zero the table: libblkid now finds nothing on the disk itself, but the kernel keeps p1/p2.
	dd if=/dev/zero of="$LOOP" bs=512 count=1 conv=notrunc,fsync status=none
	blockdev --flushbufs "$LOOP"
	[ -z "$(blkid -p -o value -s PTTYPE "$LOOP")" ]
	[ -b "${LOOP}p1" ]
	local p=${LOOP#/dev/}
	device_refused "the kernel lists partitions on it (${p}p1, ${p}p2); ${p}p1 holds a ext4\
 signature (filesystem, RAID or LVM member)"
	# --force writes it, naming both in its note.
	iorate run --engine sync -d 0.2 -w 100 --allow-write-device --force --json "$LOOP"
	[ "$status" -eq 0 ]
	json_ok ".notes[0] | contains(\"the kernel lists partitions on it (${p}p1, ${p}p2)\")"
}

@test "mark, sweep and sqlio write to a device through the same gate" {
	loop_new fs.img 16M
	mkfs_ext4 "$LOOP"
	before
	iorate mark --profile real --runs 1 --measure 50ms --pause 0 --engine sync \
		--allow-write-device "$LOOP"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$LOOP: refusing to write: it holds a ext4 signature"* ]]
	untouched
	iorate sweep write=0,100 -d 50ms --engine sync --allow-write-device -q "$LOOP"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$LOOP: refusing to write: it holds a ext4 signature"* ]]
	untouched
	iorate sqlio -kW -s1 --engine sync --allow-write-device "$LOOP"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$LOOP: refusing to write: it holds a ext4 signature"* ]]
	untouched
}

@test "a device that device-mapper holds is refused" {
	need_root
	grep -qw device-mapper /proc/misc ||
		skip "this kernel has no device-mapper (CONFIG_BLK_DEV_DM off, no modules to load)"
	command -v dmsetup >/dev/null || skip "dmsetup is not installed (Debian's lvm2 package)"
	loop_new dm.img 16M
	local name=iorate-safety-$$
	dmsetup create "$name" --table "0 $(blockdev --getsz "$LOOP") linear $LOOP 0" ||
		skip "dmsetup create fails here"
	DMS+=("$name")
	device_refused "is held by dm-"
}

@test "a member of a running MD array is refused" {
	need_root
	[ -e /proc/mdstat ] ||
		skip "this kernel has no MD RAID driver (CONFIG_MD off, no modules to load)"
	command -v mdadm >/dev/null || skip "mdadm is not installed"
	loop_new md1.img 16M
	local first=$LOOP
	loop_new md2.img 16M
	mdadm --create /dev/md/iorate-safety-$$ --run --level=1 --raid-devices=2 \
		--metadata=1.2 "$first" "$LOOP" >/dev/null 2>&1 || skip "mdadm --create fails here"
	MDS+=("/dev/md/iorate-safety-$$")
	device_refused "is held by md"
}

@test "a link to a device: writing needs --allow-write-device; a read opens the device" {
	loop_new dev.img 16M
	ln -s "$LOOP" dev.lnk
	before
	refused "$LOOP: refusing to write to a block device" -w 100 dev.lnk
	untouched
	iorate run --engine sync -d 0.2 --json dev.lnk
	[ "$status" -eq 0 ]
	json_ok ".targets[0].path == \"dev.lnk\" and .targets[0].opened == \"$LOOP\""
	json_ok '.targets[0].blockdev == true and .total.read.ios > 0'
	untouched
}

@test "a link to a file is read through, never written through" {
	head -c 1M /dev/urandom >data.bin
	sum=$(sha256sum <data.bin)
	ln -s data.bin data.lnk
	refused "data.lnk: is a symbolic link (to data.bin); refusing to write through it" \
		--cache buffered -w 100 data.lnk
	[ "$(sha256sum <data.bin)" = "$sum" ]
	[ -L data.lnk ]
	iorate run --engine sync -q -d 0.2 --cache buffered --json data.lnk
	[ "$status" -eq 0 ]
	json_ok ".targets[0].opened == \"$(realpath data.bin)\" and .total.write.ios == 0"
	[ "$(sha256sum <data.bin)" = "$sum" ]
}

@test "a target that is neither a file nor a block device, even through a link, is bad usage" {
	mkfifo fifo
	mkdir dir
	socket sock
	ln -s /dev/null null.lnk
	ln -s fifo fifo.lnk
	ln -s dir dir.lnk
	ln -s sock sock.lnk
	# Found for every target before the first is touched: good.dat is never made.
	for t in /dev/null fifo dir sock nodir/x.dat null.lnk fifo.lnk sock.lnk dir.lnk; do
		iorate run --engine sync -q -d 0.1 --size 4M -w 100 good.dat "$t"
		[ "$status" -eq 2 ] || { echo "$t: exit $status: $stderr"; false; }
		one_line
		[[ "$stderr" == "iorate: $t: "* ]]
		[ ! -e good.dat ]
	done
	[[ "$stderr" == *"dir.lnk: is a symbolic link to dir, which is a directory"* ]]
	# Only reading changes nothing: the kind is wrong whatever the job.
	iorate run --engine sync -q -d 0.1 null.lnk
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: null.lnk: is a symbolic link to /dev/null, which is a character\
 device; a target is a regular file or a block device" ]
	[ -p fifo ]
}

@test "a dangling link is not created through" {
	ln -s made.dat dangling.lnk
	for w in 0 100; do
		iorate run --engine sync -q -d 0.1 --size 4M -w "$w" dangling.lnk
		[ "$status" -eq 1 ]
		one_line
		[[ "$stderr" == *"dangling.lnk: is a symbolic link to made.dat, which does not"\
" exist; refusing to create a file through it"* ]]
		[ ! -e made.dat ]
		[ -L dangling.lnk ]
	done
}

@test "a name swapped between a file and a link to a device while runs start: no write" {
	loop_new dev.img 16M
	head -c 1M /dev/zero >file.dat
	before
	# race.dat is the file and race.alt a link to the device, and back, exchanged atomically
	# (renameat2 RENAME_EXCHANGE) as fast as can be: the name is never missing.
	python3 -c 'import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
os.link("file.dat", "race.new")
os.symlink(sys.argv[1], "race.alt")
os.rename("race.new", "race.dat")
end = time.monotonic() + 60
while time.monotonic() < end:
    if libc.renameat2(-100, b"race.dat", -100, b"race.alt", 2):
        sys.exit(os.strerror(ctypes.get_errno()))' "$LOOP" &
	PIDS+=($!)
	local i k ok=0 no=0
	for i in $(seq 250); do [ -e race.dat ] && break; sleep 0.02; done
	[ -e race.dat ]
	# 30 runs, 5 at a time, each writing one block and done.
	for i in $(seq 0 5 25); do
		for k in 0 1 2 3 4; do
			"$IORATE" run --engine sync --cache buffered -q -w 100 --ios 1 -d 2 --json \
				race.dat >"out.$((i + k))" 2>"err.$((i + k))" &
			echo $! >"pid.$((i + k))"
		done
		for k in 0 1 2 3 4; do
			wait "$(cat "pid.$((i + k))")" && echo 0 >"rc.$((i + k))" ||
				echo $? >"rc.$((i + k))"
		done
	done
	kill "${PIDS[0]}"
	wait "${PIDS[0]}" || true
	PIDS=()
	# Each names what it opened: the report the file written, the refusal the device (or the
	# link, when the name changed back to the file while the link was followed).
	for i in $(seq 0 29); do
		case $(cat "rc.$i") in
		0) jq -e --arg loop "${LOOP#/dev/}" '.targets[0] | .path == "race.dat" and
			.blockdev == false and (has("opened") | not) and .device != $loop and
			.write.ios == 1' "out.$i" >/dev/null || { cat "out.$i"; false; }
		   ok=$((ok + 1)) ;;
		1) grep -qFe "$LOOP: refusing to write to a block device" -e "race.dat: is a symbolic\
 link (to $LOOP); refusing to write through it" "err.$i" || { cat "err.$i"; false; }
		   no=$((no + 1)) ;;
		*) echo "run $i: exit $(cat "rc.$i"): $(cat "err.$i")"; false ;;
		esac
	done
	echo "written to the file: $ok, refused: $no"
	untouched
	# Both sides of the race were met, so the runs did start while the name changed.
	[ "$ok" -gt 0 ] && [ "$no" -gt 0 ] || false
}

# side_out OPTION PATH: the command that writes the side output OPTION to PATH.
side_out() {
	case $1 in
	--trace) iorate run --engine null -q -d 0.1 --trace "$2" x.dat ;;
	--db) iorate run --engine null -q -d 0.1 --save --db "$2" x.dat ;;
	--output) iorate report --output "$2" r.json ;;
	esac
}

# out_refused OPTION PATH WORDS: exit 2 and one line naming the option, the path and WORDS.
out_refused() {
	side_out "$1" "$2"
	[ "$status" -eq 2 ] || { echo "$1 $2: exit $status: $stderr" >&2; return 1; }
	one_line
	[[ "$stderr" == *"$1 $2: $3"* ]] || { echo "'$1 $2: $3' not in: $stderr" >&2; return 1; }
}

# socket NAME: a Unix socket at NAME, left after its process ends.
socket() {
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"
	[ -S "$1" ]
}

@test "standard output on a device is refused before any work, unless --force" {
	loop_new out.img 16M
	before
	# A report meant for a file, redirected to the disk by mistake.
	local rc=0
	"$IORATE" run --engine sync -d 0.1 --size 1M --json x.dat >"$LOOP" 2>err || rc=$?
	[ "$rc" -eq 1 ]
	[ "$(cat err)" = "iorate: standard output is a block device ($LOOP); refusing to write a\
 report to it (redirect it to a file, or add --force to mean it)" ]
	[ ! -e x.dat ]
	# Every command, its help too.
	"$IORATE" model --help >"$LOOP" 2>err && false
	"$IORATE" --version >"$LOOP" 2>err && false
	[[ "$(cat err)" == *"standard output is a block device"* ]]
	untouched
	# --force means it.
	"$IORATE" run --engine null -d 0.1 --size 1M --json --force x.dat >"$LOOP"
	blockdev --flushbufs "$LOOP"
	[ "$(head -c 1 "$BACK")" = "{" ]
	# A terminal, /dev/null, /dev/zero and /dev/full are fine (the last says it is full).
	"$IORATE" run --engine null -d 0.1 --size 1M --json x.dat >/dev/null
	"$IORATE" run --engine null -d 0.1 --size 1M --json x.dat >/dev/zero
	"$IORATE" run --engine null -d 0.1 --size 1M --json x.dat >/dev/full 2>err && false
	[ "$(cat err)" = "iorate: standard output: No space left on device" ]
}

@test "sweep --trace names no file after a device, a FIFO or standard output" {
	loop_new trace.img 16M
	before
	iorate sweep threads=1,2 --engine null -d 0.05 --size 1M --trace "$LOOP" x.dat
	[ "$status" -eq 2 ]
	one_line
	[[ "$stderr" == *"--trace $LOOP: is a block device; give a regular file (a sweep names its\
 traces after it)"* ]]
	[ -z "$(find /dev -maxdepth 1 -name "${LOOP#/dev/}.*")" ]
	untouched
	mkfifo fifo
	iorate sweep threads=1 --engine null -d 0.05 --size 1M --trace fifo x.dat
	[ "$status" -eq 2 ]
	[ -z "$(find . -name 'fifo.*')" ]
	iorate sweep threads=1 --engine null -d 0.05 --size 1M --trace - x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"a sweep writes one trace per row"* ]]
	[ ! -e x.dat ]
	# A file name is fine: one trace per row beside it.
	iorate sweep threads=1,2 --engine null -d 0.05 --size 1M --trace t.log x.dat
	[ "$status" -eq 0 ]
	[ -s t.log.threads=1.bs=4KiB ] && [ -s t.log.threads=2.bs=4KiB ]
}

@test "side outputs refuse a device, a FIFO, a socket and a missing directory" {
	loop_new dev.img 16M
	"$IORATE" run --engine null -d 0.1 --json x.dat >r.json
	mkfifo fifo
	socket sock
	before
	for opt in --trace --db --output; do
		out_refused "$opt" "$LOOP" "is a block device"
		out_refused "$opt" /dev/null "is a character device"
		out_refused "$opt" sock "is a socket"
		out_refused "$opt" nodir/out "its directory does not exist"
		out_refused "$opt" fifo "is a FIFO"
		[ -p fifo ]
		# Standard output is offered for a report or a trace, not for a database.
		if [ "$opt" = --db ]; then
			[[ "$stderr" != *"standard output"* ]]
		else
			[[ "$stderr" == *"(or - for standard output)"* ]]
		fi
	done
	untouched
}

@test "a link planted at an output's name is refused, and what it leads to is unchanged" {
	loop_new dev.img 16M
	"$IORATE" run --engine null -d 0.1 --json x.dat >r.json
	echo precious >victim
	before
	for opt in --trace --db --output; do
		ln -sfn victim out.lnk
		out_refused "$opt" out.lnk "is a symbolic link"
		ln -sfn "$LOOP" out.lnk
		out_refused "$opt" out.lnk "is a symbolic link"
		[ -L out.lnk ]
	done
	# A sweep's trace of its second run, refused before the first run starts.
	ln -s victim "tr.threads=2.bs=4KiB"
	iorate sweep threads=1,2 -d 50ms --engine null -q --trace tr x.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --trace tr.threads=2.bs=4KiB: is a symbolic link; name the file\
 itself (iorate does not write through links)" ]
	[ ! -e "tr.threads=1.bs=4KiB" ]
	[ "$(cat victim)" = precious ]
	untouched
	# Nothing half-written was left beside the names either.
	[ -z "$(find . -name '.*.iorate-*')" ]
}

# as_nobody CMD...: runs CMD as the user nobody; $output, $status and $stderr as iorate().
as_nobody() {
	local errf=$BATS_TEST_TMPDIR/stderr.nobody
	set +e
	output=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$@" 2>"$errf")
	status=$?
	set -e
	stderr=$(cat "$errf")
}

@test "an output is not replaced where its file could not be written" {
	need_root
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$IORATE" ||
		skip "the user nobody cannot run $IORATE"
	# The test's own directory is private: this one is nobody's to write in.
	local dir
	dir=$(mktemp -d /tmp/iorate-safety.XXXXXX)
	DIRS+=("$dir")
	chmod 0777 "$dir"
	cd "$dir"
	"$IORATE" run --engine null -d 0.1 --json x.dat >r.json
	echo old >mine.html
	chmod 0444 mine.html
	chown nobody mine.html
	echo old >roots.log
	as_nobody "$IORATE" report --output mine.html r.json
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: --output mine.html: Permission denied" ]
	[ "$(cat mine.html)" = old ]
	as_nobody "$IORATE" run --engine null -q -d 0.1 --trace roots.log x.dat
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: --trace roots.log: Permission denied" ]
	[ "$(cat roots.log)" = old ]
	[ -z "$(find . -name '.*.iorate-*')" ]
	# A file nobody may write is replaced once it may.
	chmod 0644 mine.html
	as_nobody "$IORATE" report --output mine.html r.json
	[ "$status" -eq 0 ]
	grep -q '^<!DOCTYPE html>' mine.html
	# A database only read stays readable: listing root's database works for nobody.
	"$IORATE" run --engine null -q -d 0.1 --save --db h.db x.dat >/dev/null
	as_nobody "$IORATE" history list --db h.db --json
	[ "$status" -eq 0 ]
	json_ok '.runs | length == 1'
}

# planted: what links planted at the names iorate creates lead to: a regular file (victim) and
# a blank loop device the test sets up, which a command given --allow-write-device would write if
# it followed the link. Records both (before) and lists them in VICTIMS.
planted() {
	loop_new victim.img 16M
	echo precious >"$BATS_TEST_TMPDIR/victim"
	VICTIMS=("$BATS_TEST_TMPDIR/victim" "$LOOP")
	before
}

# planted_untouched: neither victim was written: the file's text, the device's backing file's
# SHA-256 and the sectors the kernel counted written to it.
planted_untouched() {
	[ "$(cat "$BATS_TEST_TMPDIR/victim")" = precious ] || { echo "victim changed" >&2; return 1; }
	untouched
}

@test "links planted at the database's journal names are not followed" {
	planted
	iorate run --engine null -q -d 0.1 --save --db h.db x.dat
	[ "$status" -eq 0 ]
	for v in "${VICTIMS[@]}"; do
		for j in h.db-journal h.db-wal; do
			ln -s "$v" "$j"
			iorate run --engine null -q -d 0.1 --save --db h.db x.dat
			[ "$status" -eq 0 ]
			planted_untouched
			[ ! -e "$j" ] || [ -L "$j" ]
			rm -f "$j"
		done
		# A new database, its journal's name taken beforehand.
		rm -f new.db
		ln -sfn "$v" new.db-journal
		iorate run --engine null -q -d 0.1 --save --db new.db x.dat
		[ "$status" -eq 0 ]
		planted_untouched
		rm -f new.db-journal
	done
}

@test "mark: its test file's name is random; a link at the old name is not followed" {
	planted
	mkdir dir
	for v in "${VICTIMS[@]}"; do
		# The old name held the process id: plant the link at this very process's.
		bash -c 'ln -s "$0" "dir/iorate-mark.$$.dat" && exec "$@"' "$v" "$IORATE" mark \
			--profile real --runs 1 --measure 50ms --pause 0 --size 4M --engine sync \
			--cache buffered --allow-write-device --json dir >out.json 2>err.txt
		output=$(cat out.json)
		[[ "$(jqv .target)" =~ ^dir/iorate-mark\.[a-z0-9]{12}\.dat$ ]]
		planted_untouched
		# The link is still there, and the test file is gone.
		[ "$(find dir -type l | wc -l)" -eq 1 ]
		[ "$(find dir -type f | wc -l)" -eq 0 ]
		rm dir/iorate-mark.*.dat
	done
}

@test "sweep: its test files' names are random; links at the old names are not followed" {
	planted
	mkdir dir
	for v in "${VICTIMS[@]}"; do
		ln -sfn "$v" dir/iorate-sweep-01.dat
		ln -sfn "$v" dir/iorate-sweep-02.dat
		iorate sweep targets=1..2 --engine sync --cache buffered -d 50ms --size 4M \
			--allow-write-device --json dir
		[ "$status" -eq 0 ]
		a=$(jqv '.rows[1].run.targets[0].path')
		b=$(jqv '.rows[1].run.targets[1].path')
		[[ "$a" =~ ^dir/iorate-sweep-01\.([a-z0-9]{12})\.dat$ ]]
		ra=${BASH_REMATCH[1]}
		[[ "$b" =~ ^dir/iorate-sweep-02\.([a-z0-9]{12})\.dat$ ]]
		[ "$ra" != "${BASH_REMATCH[1]}" ]
		planted_untouched
		[ "$(find dir -type l | wc -l)" -eq 2 ]
		[ "$(find dir -type f | wc -l)" -eq 0 ]
	done
}

@test "sqlio: the default test file's name is random; a link at testfile.dat is not followed" {
	planted
	for v in "${VICTIMS[@]}"; do
		ln -sfn "$v" testfile.dat
		iorate sqlio -kW -s1 --size 4M --engine sync --allow-write-device --json
		[ "$status" -eq 0 ]
		[[ "$(jqv '.targets[0].path')" =~ ^testfile\.[a-z0-9]{12}\.dat$ ]]
		json_ok '.targets[0].created == true and .total.write.ios > 0'
		planted_untouched
		[ -L testfile.dat ]
	done
}

@test "fio: a link planted at a job's default file name is not written through" {
	planted
	for v in "${VICTIMS[@]}"; do
		# fio names a job's file $jobname.$jobnum.$filenum.
		ln -sfn "$v" a.0.0
		# Allowed to write devices, still: the name is fio's own, so the link was planted.
		iorate fio --allow-write-device --name=a --rw=write --size=1m --bs=64k \
			--ioengine=sync --runtime=1
		[ "$status" -ne 0 ]
		[[ "$stderr" == *"a.0.0: is a symbolic link where iorate makes its own file; refusing to follow it"* ]]
		planted_untouched
		[ -L a.0.0 ]
	done
	# A name the job gives (filename=) is the user's: a link to a device follows its rules.
	ln -sfn "${VICTIMS[1]}" given
	iorate fio --name=a --filename=given --rw=write --size=1m --bs=64k --ioengine=sync \
		--runtime=1
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"writes to this block device"* ]]
	planted_untouched
}

@test "a created file replaced during the run is left in place, with a note" {
	iorate_bg() {
		"$IORATE" run --engine sync --cache buffered -q -d 0.3 --size 4M --json made.dat \
			>out.json 2>err.txt
	}
	iorate_bg &
	local pid=$! i
	PIDS+=("$pid")
	for i in $(seq 500); do [ -e made.dat ] && break; sleep 0.01; done
	# Held still while the file is swapped, so the swap falls between creation and clean-up.
	kill -STOP "$pid"
	[ -e made.dat ]
	echo theirs >new.dat
	mv new.dat made.dat
	kill -CONT "$pid"
	wait "$pid"
	PIDS=()
	[ "$(cat made.dat)" = theirs ]
	output=$(cat out.json)
	json_ok '.notes | any(test("made.dat was replaced during the run by a file iorate did not"
		+ " create; it was left in place"))'
}

# replaced_midway PATTERN CMD...: runs CMD in the background; once a file matching PATTERN (a
# glob) exists, stops it, puts another file at that name, and lets it finish. Sets NAME, and
# status and stderr as iorate() does.
replaced_midway() {
	local pattern=$1 pid i
	shift
	"$@" >out.txt 2>err.txt &
	pid=$!
	PIDS+=("$pid")
	NAME=
	for i in $(seq 500); do
		NAME=$(compgen -G "$pattern" || true)
		[ -n "$NAME" ] && break
		sleep 0.01
	done
	# Held still while the file is swapped, so the swap falls between creation and clean-up.
	kill -STOP "$pid"
	[ -n "$NAME" ] && [ -f "$NAME" ] || { kill -CONT "$pid"; echo "no $pattern" >&2; return 1; }
	echo theirs >new.dat
	mv new.dat "$NAME"
	kill -CONT "$pid"
	status=0
	wait "$pid" || status=$?
	PIDS=()
	stderr=$(cat err.txt)
}

@test "mark and sweep: a test file replaced during the run is left in place, with a warning" {
	mkdir dir
	replaced_midway 'dir/iorate-mark.*.dat' "$IORATE" mark --profile real --runs 2 \
		--measure 100ms --pause 0 --size 4M --engine sync --cache buffered dir
	[ "$(cat "$NAME")" = theirs ]
	[[ "$stderr" == *"warning: $NAME was replaced by a file iorate did not create; it was left in place"* ]]
	[ "$(find dir -type f | wc -l)" -eq 1 ]
	rm "$NAME"
	replaced_midway 'dir/iorate-sweep-01.*.dat' "$IORATE" sweep threads=1,2 -d 100ms \
		--size 4M --engine sync --cache buffered dir
	[ "$(cat "$NAME")" = theirs ]
	[[ "$stderr" == *"warning: $NAME was replaced by a file iorate did not create; it was left in place"* ]]
	[ "$(find dir -type f | wc -l)" -eq 1 ]
}

@test "report --output on a full filesystem: the old page stays, no temporary file, the real errno" {
	need_root
	"$IORATE" run --engine null -d 0.1 --json x.dat >r.json
	mkdir small
	mount -t tmpfs -o size=64k tmpfs small || skip "cannot mount a tmpfs here"
	MNTS+=("$BATS_TEST_TMPDIR/small")
	echo '<p>the old page</p>' >small/page.html
	head -c 1M /dev/zero >small/fill 2>/dev/null || true
	sum=$(sha256sum <small/page.html)
	iorate report --output small/page.html r.json
	[ "$status" -eq 1 ]
	one_line
	[[ "$stderr" == *"--output small/page.html"*"No space left on device"* ]]
	[ "$(sha256sum <small/page.html)" = "$sum" ]
	[ "$(ls -A small | sort | tr '\n' ' ')" = "fill page.html " ]
}
