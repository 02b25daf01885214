#!/usr/bin/env bats
# End to end: DiskSpd and SQLIO command lines and fio job files run unchanged. Needs $IORATE.
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
	[[ "$stderr" == *"-b64k"*"--bs 64KiB"* ]]
	[[ "$stderr" == *"-d30"*"--time 30s"* ]]
	[[ "$stderr" == *"-t8"*"--threads 8"* ]]
	[[ "$stderr" == *"-o8"*"--depth 8"* ]]
	[[ "$stderr" == *"-Sw"*"--cache writethrough"* ]]
	[[ "$stderr" == *"default -W5"*"--warmup 5s"* ]]
	[[ "$stderr" == *"= iorate run --bs 64KiB --time 30s --warmup 5s --threads 8 --depth 8"* ]]
	[ ! -e f.dat ]
}

@test "diskspd: seed 000's #1 is the second whole disk in /sys/block, and it says which" {
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
	[[ "$stderr" == "iorate: diskspd: -q7: not a DiskSpd option (supported: "* ]]
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

@test "sqlio: seed 001 as typed is refused: the Windows path, and how to name a Linux one" {
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
	[[ "$stderr" == "iorate: sqlio: -q1: not a SQLIO option (supported: "* ]]
	run --separate-stderr "$IORATE" sqlio -kR -dE t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"-dE: SQLIO option not supported: drive letters"* ]]
}

@test "fio: a job file runs through iorate run --job" {
	cat > j.fio <<-EOF
	[global]
	ioengine=null
	bs=16k
	runtime=1
	time_based
	size=8M

	[db]
	rw=randrw
	rwmixread=70
	iodepth=4
	numjobs=2
	filename=$BATS_TEST_TMPDIR/db.dat
	EOF
	run --separate-stderr "$IORATE" run --job j.fio --json
	[ "$status" -eq 0 ]
	p=$(echo "$output" | js "' '.join(str(d['params'][k]) for k in
		('bs','time','threads','depth','write','pattern','engine','size'))")
	[ "$p" = "16384 1.0 2 4 30 random null 8388608" ]
}

@test "fio: an option outside the subset is named with its line, exit 2" {
	printf '[j]\nfilename=x\nverify=md5\n' > bad.fio
	run --separate-stderr "$IORATE" run --job bad.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"bad.fio:3: option 'verify' is not supported (supported: bs, rw,"* ]]
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
