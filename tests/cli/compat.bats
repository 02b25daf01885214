#!/usr/bin/env bats
# End to end: DiskSpd and SQLIO command lines run unchanged (fio: fio.bats). Needs $IORATE.
# Runs are 1 s on 8 MiB files with the null or sync engine: the point is the translation.

bats_require_minimum_version 1.5.0

setup() { cd "$BATS_TEST_TMPDIR"; }

# One expression over the JSON on stdin, printed (python3, as in model.bats).
js() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# A fake /sys/block: two disks, a loop and a zram device (not whole disks), an optical drive.
fake_sysblock() {
	for d in sda sdb sr0; do mkdir -p "sys/$d/device"; done
	mkdir -p sys/loop0 sys/zram0
	export IORATE_SYSFS_BLOCK="$BATS_TEST_TMPDIR/sys"
}

@test "diskspd: every flag lands in the run's parameters, the command line is recorded" {
	run --separate-stderr "$IORATE" diskspd -b8k -d1 -W0 -C0 -t2 -o4 -r -w30 -Sh -L -c8M -z7 \
		--engine null --json f.dat
	[ "$status" -eq 0 ]
	p=$(echo "$output" | js "' '.join(str(d['params'][k]) for k in
		('bs','time','warmup','threads','depth','write','pattern','cache','seed','size'))")
	[ "$p" = "8192 1.0 0.0 2 4 30 random directsync 7 8388608" ]
	[ "$(echo "$output" | js "d['origin']")" = diskspd ]
	[ "$(echo "$output" | js "d['command_line']")" = \
		"iorate diskspd -b8k -d1 -W0 -C0 -t2 -o4 -r -w30 -Sh -L -c8M -z7 --engine null --json f.dat" ]
}

@test "diskspd: stderr says what each flag became, then the equivalent iorate run" {
	run --separate-stderr "$IORATE" diskspd --dry-run -b64k -d30 -t8 -o8 -si -Sw -c8M f.dat
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# One line per setting: the flag as typed, then the option and value it became.
	line() {
		[[ "$stderr" =~ $'\n'"  $1"\ +"$2"($|:|$'\n') ]] || { echo "no '$1  $2'"; false; }
	}
	line -b64k '--bs 64k'
	line -d30 '--time 30'
	line -t8 '--threads 8'
	line -o8 '--depth 8'
	line -Sw '--cache writethrough'
	line -c8M '--size 8M'
	line -c8M '--keep'
	line 'default -W5' '--warmup 5s'
	line 'default -z0' '--seed 0'
	[[ "$stderr" == *"= iorate run --bs 64KiB --time 30s --warmup 5s --threads 8 --depth 8"* ]]
	[ ! -e f.dat ]
}

@test "diskspd: the 2015 A4 DiskSpd post's #1 is the second whole disk in /sys/block, and it says which" {
	fake_sysblock
	run --separate-stderr "$IORATE" diskspd --dry-run diskspd.exe -b64k -d30 -t8 -o8 '#1'
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"#1"*"/dev/sdb: disk #1 in /sys/block order"*"(#0 sda, #1 sdb)"* ]]
	run --separate-stderr "$IORATE" diskspd -b64k '#2'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"there is no disk #2 here (#0 sda, #1 sdb)"* ]]
}

@test "diskspd: a file left by -c stays, as DiskSpd leaves it" {
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -o1 -c8M --engine sync --json f.dat
	[ "$status" -eq 0 ]
	[ "$(stat -c %s f.dat)" = 8388608 ]
}

@test "diskspd: bad input names the flag and DiskSpd, exit 2, nothing runs or is created" {
	run --separate-stderr "$IORATE" diskspd -b8k -q7 -c8M f.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: diskspd: -q7: not supported by iorate (supported: "* ]]
	[ ! -e f.dat ]
	run --separate-stderr "$IORATE" diskspd -b64q -c8M f.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"-b64q"* ]]
	run --separate-stderr "$IORATE" diskspd -c8M 'f:\testfile.dat'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"is a Windows path; name a Linux file"* ]]
	run --separate-stderr "$IORATE" diskspd -b8k missing.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"does not exist; DiskSpd creates a file only with -c<size>"* ]]
	run --separate-stderr "$IORATE" diskspd -c8M f.dat -d10
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"-d10: comes after a target"* ]]
	[ ! -e f.dat ]
}

@test "a value is refused as 'iorate run' refuses it, under the foreign flag, creating nothing" {
	run --separate-stderr "$IORATE" diskspd -o0 -c1M f.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: diskspd: -o0: '0' is out of range (1 to 4096)" ]
	run --separate-stderr "$IORATE" run -o 0 -c 1M f.dat
	[ "$stderr" = "iorate: --depth: '0' is out of range (1 to 4096)" ]
	run --separate-stderr "$IORATE" diskspd -t2000 -c1M f.dat
	[ "$stderr" = "iorate: diskspd: -t2000: '2000' is out of range (1 to 1024)" ]
	run --separate-stderr "$IORATE" sqlio -o0 -s1 --size 1M f.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: sqlio: -o0: '0' is out of range (1 to 4096)" ]
	run --separate-stderr "$IORATE" diskspd --size 0 -c1M f.dat
	[ "$stderr" = "iorate: --size: '0' is below 1B" ]
	[ ! -e f.dat ]
}

@test "diskspd -c grows a smaller file, as DiskSpd does, keeping what it held" {
	head -c 1048576 /dev/urandom >small.dat
	before=$(md5sum <small.dat)
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -o1 -c4M --engine sync --json small.dat
	[ "$status" -eq 0 ]
	[ "$(stat -c %s small.dat)" = 4194304 ]
	[ "$(head -c 1048576 small.dat | md5sum)" = "$before" ]
	[ "$(echo "$output" | js "d['targets'][0]['created']")" = False ]
	# iorate run itself still refuses a file smaller than --size.
	run --separate-stderr "$IORATE" run --engine sync -d 1 -c 8M small.dat
	[ "$status" -eq 2 ]
	[ "$(stat -c %s small.dat)" = 4194304 ]
}

@test "diskspd -c never grows through a symbolic link, nor a block device" {
	head -c 1048576 /dev/zero >small.dat
	ln -s small.dat link.dat
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -o1 -c4M --engine sync --quiet link.dat
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"link.dat: is a symbolic link; refusing to grow a file through it"* ]]
	[ "$(stat -c %s small.dat)" = 1048576 ]
	[ "$(id -u)" = 0 ] || skip "needs root for a loop device"
	command -v losetup >/dev/null || skip "losetup is not installed"
	truncate -s 1M backing.img
	loop=$(losetup -f --show backing.img) || skip "cannot set up a loop device"
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -o1 -c4M --engine sync --json "$loop"
	losetup -d "$loop"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | js "d['targets'][0]['blockdev']")" = True ]
	[ "$(stat -c %s backing.img)" = 1048576 ]
}

@test "sqlio: the 2015 DS14 SQLIO post as typed is refused: the Windows path, and how to name a Linux one" {
	run --separate-stderr "$IORATE" sqlio SQLIO -kRW -s60 -o8 -b8 'f:\testfile.dat'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'f:\\testfile.dat' is a Windows path; name a Linux file (e.g. /mnt/data/testfile.dat)"* ]]
}

@test "sqlio: -kRW reads only, as SQLIO does, and says so; -b counts KB" {
	run --separate-stderr "$IORATE" sqlio -kRW -s1 -o8 -b8 --size 8M --engine null --json t.dat
	[ "$status" -eq 0 ]
	p=$(echo "$output" | js "' '.join(str(d['params'][k]) for k in
		('bs','time','depth','threads','write','pattern','cache'))")
	[ "$p" = "8192 1.0 8 1 0 random directsync" ]
	[ "$(echo "$output" | js "d['origin']")" = sqlio ]
	[[ "$stderr" == *"-kRW"*"first letter"*"reads only"* ]]
}

@test "sqlio: flags and a -F parameter file" {
	printf '# file threads mask size-MB\n%s 2 0x0 8\n' "$BATS_TEST_TMPDIR/p.dat" > param.txt
	run --separate-stderr "$IORATE" sqlio -kW -s1 -o2 -b64 -fsequential -LS -BH -Fparam.txt \
		--engine null --json
	[ "$status" -eq 0 ]
	p=$(echo "$output" | js "' '.join(str(d['params'][k]) for k in
		('bs','depth','threads','write','pattern','cache','size'))")
	[ "$p" = "65536 2 2 100 sequential direct 8388608" ]
	[ "$(echo "$output" | js "d['targets'][0]['path']")" = "$BATS_TEST_TMPDIR/p.dat" ]
}

@test "sqlio: unknown and Windows-only flags are named, exit 2" {
	run --separate-stderr "$IORATE" sqlio -kR -q1 t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: sqlio: -q1: not supported by iorate (supported: "* ]]
	run --separate-stderr "$IORATE" sqlio -kR -dE t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: sqlio: -dE: not supported by iorate: drive letters"* ]]
	run --separate-stderr "$IORATE" diskspd -x -c1M f.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: diskspd: -x: not supported by iorate: completion routines"* ]]
	[[ "$stderr" != *"not a DiskSpd"* && "$stderr" != *"DiskSpd option"* ]]
}

@test "commands pasted with Windows names (diskspd.exe, SQLIO) reach the translators" {
	run --separate-stderr "$IORATE" diskspd.exe -b8k -d1 -W0 --engine null --dry-run -c1M f.dat
	[ "$status" -eq 0 ]
	run --separate-stderr "$IORATE" SQLIO -kRW -s1 -o8 -b8 'f:\testfile.dat'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"Windows path"* ]]
}

@test "an --engine that this build does not have is refused before anything runs" {
	run --separate-stderr "$IORATE" diskspd --dry-run --engine foo -b4k f.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--engine: 'foo' is not an engine of this build"* ]]
	[ ! -e f.dat ]
}

@test "sqlio without a file: an unguessable test file in the current directory, removed afterwards" {
	run --separate-stderr "$IORATE" sqlio -kW -s1 --size 4M --quiet --engine sync --json
	[ "$status" -eq 0 ]
	[[ "$(echo "$output" | js "d['targets'][0]['path']")" =~ ^testfile\.[a-z0-9]{12}\.dat$ ]]
	[ "$(echo "$output" | js "d['targets'][0]['created'] and d['total']['write']['ios'] > 0")" = True ]
	[ -z "$(ls -A | grep testfile)" ]
	[[ "$stderr" == *"removed afterwards"* ]]
	[[ "$stderr" == *"default -BN"*"--cache directsync"* ]]
}

@test "the core's remedies name the front end's own flags and values" {
	# DiskSpd: -Sb, not --cache buffered; -o8 and -F for the depth and the shared threads.
	run --separate-stderr "$IORATE" diskspd -Sh -b1000 -d1 -W0 -c1M f.dat
	[ "$status" -eq 2 ]
	[ "$(printf '%s\n' "$stderr" | tail -1)" = \
		"iorate: -b: direct I/O needs a multiple of 512 bytes (use -Sb for 1000)" ]
	run --separate-stderr "$IORATE" diskspd -F2 -o8 -d1 -W0 -c1M --engine sync f.dat
	[ "$status" -eq 2 ]
	[[ "$(printf '%s\n' "$stderr" | tail -1)" == \
		*"; use --engine uring (or aio) for -o8, or raise -F" ]]
	# fio: direct=0; fields a job file set are named as it set them.
	printf '[a]\nfilename=g.dat\nsize=1m\nbs=1000\ndirect=1\n' >a.fio
	run --separate-stderr "$IORATE" fio a.fio
	[ "$status" -eq 2 ]
	[ "$(printf '%s\n' "$stderr" | tail -1)" = \
		"iorate: fio: a.fio:4: bs=1000: direct I/O needs a multiple of 512 bytes (use direct=0 for 1000)" ]
	printf '[a]\nfilename=g.dat\nzonemode=zbd\nzonesize=1m\nzonecapacity=2m\nsize=4z\nrw=write\n' >z.fio
	run --separate-stderr "$IORATE" fio z.fio
	[ "$status" -eq 2 ]
	[ "$(printf '%s\n' "$stderr" | tail -1)" = "iorate: fio: z.fio:5: zonecapacity=2m: more than zonesize" ]
	[ ! -e f.dat ] && [ ! -e g.dat ] || false
}
