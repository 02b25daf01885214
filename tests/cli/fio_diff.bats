#!/usr/bin/env bats
# iorate fio next to fio 3.33 on the same job files: the I/O each job does (counts and bytes,
# per direction, per job), the JSON layout of time-based jobs, and the same acceptance of the
# inputs fio accepts (a dry run judges as the run; refusals name their file, line and option).

load helpers

# Each job of a fio-json report: its name, read I/Os and bytes, write I/Os and bytes, error.
counts() {
	jq -c '.jobs[] | [.jobname, .read.total_ios, .read.io_bytes, .write.total_ios,
		.write.io_bytes, .error]' "$1"
}

# Size-bounded jobs whose I/O is the same whatever the random draws: every rw= mode that does
# not mix directions at random, bs per direction, bssplit (shares fio draws alike: a size cut
# at 100%, sizes rounded down to a multiple of the smallest), numjobs, offset_increment,
# nrfiles, io_size, ramp_time (the job ends within it), loops, strided and emulated zones.
exact_jobs() {
	cat <<-'EOF'
	[global]
	ioengine=psync
	bs=4k
	size=1m
	[read]
	rw=read
	[write]
	rw=write
	[randread]
	rw=randread
	[randwrite]
	rw=randwrite
	[rw100]
	rw=rw
	rwmixread=100
	[randrw0]
	rw=randrw
	rwmixread=0
	[bs64k]
	rw=read
	bs=64k
	size=2m
	[bsrw]
	rw=write
	bs=4k,16k
	[split-round]
	rw=randread
	bssplit=4k/50:6k/50
	[split-over]
	rw=randread
	bssplit=4k/150:8k
	[split-one]
	rw=randwrite
	bssplit=8k/40
	[split-rw]
	rw=rw
	rwmixread=100
	bssplit=16k/99,4k
	[numjobs]
	rw=read
	size=512k
	numjobs=3
	[offinc]
	rw=write
	filename=offinc.dat
	size=256k
	numjobs=3
	offset_increment=256k
	[nrfiles]
	rw=read
	nrfiles=3
	size=768k
	[nrfiles-rand]
	rw=randwrite
	nrfiles=2
	size=512k
	[iosize-loop]
	rw=read
	io_size=3m
	[iosize-short]
	rw=randread
	size=2m
	io_size=512k
	[ramp]
	rw=read
	ramp_time=5
	[loops-read]
	rw=read
	size=512k
	loops=3
	[loops-write]
	rw=randwrite
	size=256k
	loops=2
	[strided]
	rw=read
	zonemode=strided
	zonesize=64k
	zoneskip=64k
	[zbd-write]
	rw=write
	filename=zbdw.dat
	zonemode=zbd
	zonesize=256k
	[zbd-read]
	rw=randread
	filename=zbdr.dat
	zonemode=zbd
	zonesize=256k
	[offset]
	rw=read
	offset=256k
	size=512k
	[number_ios]
	rw=randread
	number_ios=100
	[fsync]
	rw=write
	fsync=4
	size=256k
	[norandommap]
	rw=randread
	norandommap
	[skip]
	rw=read:4k
	EOF
}

# Jobs that mix reads and writes at random: the same I/Os and bytes in all, and each
# direction's share within 5 points of rwmixread (fio and iorate draw from their own
# generators; both are seeded, so the figures do not change from run to run).
mixed_jobs() {
	cat <<-'EOF'
	[global]
	ioengine=psync
	bs=4k
	size=4m
	[readwrite]
	rw=readwrite
	[randrw]
	rw=randrw
	[rwmix70]
	rw=randrw
	rwmixread=70
	[rwmixwrite30]
	rw=rw
	rwmixwrite=30
	EOF
}

# Runs $1 (a job file of this directory) under fio in fio/ and iorate in iorate/, each on its
# own new files (emulated zones need their files to exist): fio.json, iorate.json.
both() {
	local d
	for d in fio iorate; do
		rm -rf "$d" && mkdir "$d"
		truncate -s 1m "$d/zbdw.dat" "$d/zbdr.dat"
	done
	(cd fio && fio --output-format=json "../$1" | fio_json >../fio.json)
	(cd iorate && "$IORATE" fio --output-format=json -q "../$1" >../iorate.json)
}

@test "size-bounded jobs do the I/O fio 3.33 does: counts and bytes per direction, per job" {
	need_fio
	exact_jobs >exact.fio
	both exact.fio
	counts fio.json >fio.txt
	counts iorate.json >iorate.txt
	[ "$(wc -l <fio.txt)" -eq 33 ]
	diff fio.txt iorate.txt
	# The job that ended within its ramp_time counts all of its I/O, as fio's does.
	[ "$(jq '.jobs[] | select(.jobname == "ramp") | .read.total_ios' iorate.json)" -eq 256 ]
}

@test "jobs that mix directions at random: the same totals, each direction near its share" {
	need_fio
	mixed_jobs >mixed.fio
	both mixed.fio
	for f in fio.json iorate.json; do
		jq -e '.jobs | length == 4' "$f"
		jq -e '.jobs[] | (.read.io_bytes + .write.io_bytes == 4194304) and
			(.read.total_ios + .write.total_ios == 1024)' "$f"
		jq -e '[.jobs[] | .read.total_ios * 100 / 1024] as $r |
			($r[0] - 50 | fabs) <= 5 and ($r[1] - 50 | fabs) <= 5 and
			($r[2] - 70 | fabs) <= 5 and ($r[3] - 70 | fabs) <= 5' "$f"
	done
}

@test "time-based jobs: every key path fio 3.33 writes under jobs[]; more: options, notes" {
	need_fio
	printf '[global]\nioengine=psync\nbs=4k\nsize=1m\ntime_based\nruntime=1\n' >tb.fio
	printf '[r]\nrw=randread\n[m]\nrw=randrw\n' >>tb.fio
	both tb.fio
	local p='[.jobs[] | paths | map(if type == "number" then "[]" else . end) | join(".")]
		| unique | .[]'
	jq -r "$p" fio.json >fio.paths
	jq -r "$p" iorate.json >iorate.paths
	[ "$(wc -l <fio.paths)" -gt 200 ]
	# fio's paths, all of them (none is left out); iorate adds the options it ran each job
	# with to "job options" (fio lists only those the job file gave), and its notes.
	[ -z "$(comm -23 fio.paths iorate.paths)" ]
	[ -z "$(comm -13 fio.paths iorate.paths | grep -Ev '^(job options\.|iorate_notes)')" ]
}

@test "bssplit shares that fio accepts run as fio draws them, with a note; the dry run agrees" {
	printf '[a]\nioengine=psync\nsize=1m\nfilename=t.dat\nrw=randread\n' >db.fio
	printf 'bssplit=4k/50:64k/49\n' >>db.fio
	iorate fio --dry-run db.fio
	[ "$status" -eq 0 ]
	line_ok 'bssplit=4k/50:64k/49 +--bssplit 4096/51:65536/49: the 1% no share claims goes to 4096 bytes'
	iorate fio --json db.fio
	[ "$status" -eq 0 ]
	# (its last I/O may pass the size: iorate draws offsets with replacement, docs/compat.md)
	[ "$(echo "$output" | jq '.total.read.bytes')" -ge 1048576 ]
	# Sizes without a share split what is left, rounded down; the rest to the largest share.
	iorate fio --dry-run --name=a --size=1m --filename=t.dat --bssplit=4k:8k:16k
	line_ok '--bssplit 4096/33:8192/33:16384/34: sizes without a share split'
	# More than 100% among two sizes without a share: fio refuses it, and so does iorate.
	iorate fio --dry-run --name=a --size=1m --filename=t.dat --bssplit=4k/60:8k:16k/60:32k
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"command line: --bssplit=4k/60:8k:16k/60:32k: has shares that add up to more than 100%"* ]]
}

@test "the dry run refuses what the run refuses, naming the file, line and option" {
	printf '[global]\nioengine=psync\n\n[a]\nfilename=g.dat\nsize=1m\nbs=1000\ndirect=1\n' >a.fio
	iorate fio --dry-run a.fio
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	local dry=$stderr
	[ "$dry" = "iorate: fio: a.fio:7: bs=1000: direct I/O needs a multiple of 512 bytes (use direct=0 for 1000)" ]
	iorate fio a.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "$dry" ]
	[ ! -e g.dat ]
	# A target in a missing directory: refused by both, before anything is made.
	printf '[b]\nfilename=no/such/dir/f.dat\nsize=1m\n' >b.fio
	iorate fio --dry-run b.fio
	[ "$status" -eq 2 ]
	dry=$stderr
	iorate fio b.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "$dry" ]
	[[ "$dry" == "iorate: fio: b.fio:1: job 'b': "* ]]
	# 'iorate run --job' and 'iorate run' judge their dry runs alike.
	iorate run --job a.fio --dry-run
	[ "$status" -eq 2 ]
	dry=$stderr
	iorate run --job a.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "$dry" ]
	iorate run --dry-run --time 1 no/such/dir/f.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: no/such/dir/f.dat: its directory does not exist" ]
	[ ! -e g.dat ] && [ ! -e no ] || false
}

@test "a \${VAR} that is not set is read as empty, as fio does; a refusal names it" {
	printf '[a]\nioengine=psync\niodepth=${IORATE_T_QD}\nsize=64k\nfilename=d${IORATE_T_NO}v.dat\n' >v.fio
	unset IORATE_T_QD IORATE_T_NO
	iorate fio --dry-run v.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"  v.fio:3: iodepth=\${IORATE_T_QD}: IORATE_T_QD is not set"* ]]
	IORATE_T_QD=4 iorate fio --dry-run v.fio
	[ "$status" -eq 0 ]
	line_ok 'filename=d\$\{IORATE_T_NO\}v.dat +target dv.dat: IORATE_T_NO is not set: read as empty, as fio does'
	printf '[a]\nioengine=psync\nsize=64k\nbs=${IORATE_T_NO}k\n' >w.fio
	iorate fio --dry-run w.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"w.fio:4: bs=\${IORATE_T_NO}k: IORATE_T_NO is not set, so the value is 'k': "* ]]
}

@test "a failed run names every job and group in its reports, those that never ran too" {
	printf '[global]\nioengine=psync\nsize=64k\n[a]\nfilename=f1.dat\n' >fail.fio
	printf '[b]\nstonewall\nsize=1p\nfilename=f2.dat\n' >>fail.fio
	printf '[c]\nstonewall\nfilename=f3.dat\n[d]\nfilename=f4.dat\n' >>fail.fio
	iorate fio --output-format=json fail.fio
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | jq -c '[.jobs[] | [.jobname, .groupid]]')" = \
		'[["a",0],["b",1],["c",2],["d",2]]' ]
	iorate fio fail.fio
	[ "$status" -eq 1 ]
	line_ok '^Job 3 of 4: c \(group 2\)$'
	line_ok '^Job 4 of 4: d \(group 2\)$'
	line_ok '^ +2 \| +2 \|.*\(did not run\)$'
	line_ok '^group 2 \(2 jobs\): did not run$'
	no_line 'unnamed'
	[ ! -e f2.dat ] && [ ! -e f3.dat ] || false
}
