#!/usr/bin/env bats
# End to end: fio command lines and job files (iorate fio, iorate run --job), and the same job
# files run by fio 3.33 itself, whose I/O counts iorate's must equal. Needs $IORATE; the
# comparisons need fio (make deps installs it). The job files are tests/cli/fixtures/fio/.

bats_require_minimum_version 1.5.0
load helpers

FIX="$BATS_TEST_DIRNAME/fixtures/fio"

# fio's and iorate's results as one sorted line per job: name, read I/Os and bytes, write I/Os
# and bytes. iorate prints one result per job, one after the other.
fio_jobs() {
	jq -c '[.jobs[] | [.jobname, .read.total_ios, .read.io_bytes, .write.total_ios,
		.write.io_bytes]] | sort | .[]'
}
# The jobs of iorate's JSON, whether a run of one job (a result) or of several ({"jobs": [...]}).
jobs_of() {
	jq -c 'if has("jobs") then .jobs[] else . end'
}

iorate_jobs() {
	jobs_of | jq -sc '[.[] | [.params.name, .total.read.ios, .total.read.bytes,
		.total.write.ios, .total.write.bytes]] | sort | .[]'
}

# fio may print notes before its JSON ("note: ... queue depth will be capped at 1").
@test "a fio command line runs unchanged: options before --name are every job's" {
	iorate fio --ioengine=libaio --direct=1 --name=a --rw=randread --bs=4k --iodepth=8 \
		--filename="$BATS_TEST_TMPDIR/f.dat" --size=2m --group_reporting -q --json
	[ "$status" -eq 0 ]
	json_ok '.origin == "fio" and .params.name == "a" and .params.bs == 4096 and
		.params.depth == 8 and .params.pattern == "random" and .params.cache == "direct" and
		.params.engine == "aio" and .params.write == 0'
	# Without time_based a job ends when it has done its size: 2 MiB of 4 KiB reads.
	json_ok '.total.read.ios == 512 and .total.read.bytes == 2097152 and .total.write.ios == 0'
	[ "$(jqv .command_line)" = "iorate fio --ioengine=libaio --direct=1 --name=a --rw=randread --bs=4k --iodepth=8 --filename=$BATS_TEST_TMPDIR/f.dat --size=2m --group_reporting -q --json" ]
	# fio leaves the file it laid out (unlink=0).
	[ -f f.dat ]
}

@test "time_based with runtime runs for the runtime; the engine is fio's" {
	iorate fio --name=t --ioengine=null --rw=randwrite --size=1m --time_based --runtime=1 \
		--iodepth=4 -q --json
	[ "$status" -eq 0 ]
	json_ok '.params.time == 1 and .params.engine == "null" and .params.depth == 4 and
		.params.shape.io_bytes == 0 and .total.write.ios > 256'
	[[ "$stderr" != *"iorate run"* ]]            # -q: no announcement either
}

@test "iorate run --job runs every job of a file; its options override each job's" {
	cat >j.fio <<-EOF
	[global]
	ioengine=null
	size=8m
	bs=16k
	[db]
	rw=randrw
	rwmixread=70
	iodepth=4
	numjobs=2
	filename=$BATS_TEST_TMPDIR/db.dat
	EOF
	iorate run --job j.fio --time 1 --bs 8k -q --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jobs_of | jq -s length)" = 2 ]
	[ "$(echo "$output" | jobs_of | jq -sc '[.[] | [.params.name, .params.bs, .params.depth,
		.params.write, .params.time]]')" = '[["db",8192,4,30,1],["db",8192,4,30,1]]' ]
	# Targets on the command line replace the files of every job.
	iorate run --job j.fio --time 1 -q --json other.dat
	[ "$(echo "$output" | jobs_of | jq -sc '[.[] | .params.targets[0]] | unique')" = \
		'["other.dat"]' ]
}

@test "--dry-run prints what each option became, file and line, and runs nothing" {
	cat >j.fio <<-EOF
	; a comment
	[global]
	bs=64k       # trailing comment
	size=4m
	group_reporting
	[seq]
	rw=write
	iodepth=32
	EOF
	iorate fio --dry-run j.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *"job 'seq' (j.fio:6), run group 0:"* ]]
	[[ "$output" == *"j.fio:3"*"bs=64k"*"--bs 64KiB"* ]]
	[[ "$output" == *"j.fio:5"*"group_reporting"*"merged in reporting group 0"* ]]
	[[ "$output" == *"j.fio:8"*"iodepth=32"*"--depth 1: fio's psync engine completes each I/O"* ]]
	[[ "$output" == *"default"*"direct=0"*"--cache buffered"* ]]
	[[ "$output" == *"= iorate run --engine sync --depth 1 --sequential --write 100 --bs 64KiB"*" seq.0.0"* ]]
	[ ! -e seq.0.0 ]
	# The same through iorate run --job.
	iorate run --job j.fio --dry-run --bs 8k
	[ "$status" -eq 0 ]
	[[ "$output" == *"j.fio:7"*"rw=write"*"--write 100"* ]]
	[[ "$output" == *"then, over every job, the options of: iorate run --job j.fio --dry-run --bs 8k" ]]
	iorate run --job j.fio --dry-run --bs 8k --json
	json_ok '.jobs[0].params.bs == 8192'            # the params have them applied
	[ ! -e seq.0.0 ]
}

@test "--dry-run --json: per job, each option, where it is, what it became, the job's params" {
	DIR=$BATS_TEST_TMPDIR iorate fio --dry-run --json "$FIX/exact.fio"
	[ "$status" -eq 0 ]
	json_ok '.translation == "fio" and (.jobs | length) == 12'
	json_ok '.jobs[3] | .name == "rand-read" and .job == 1 and .numjobs == 2 and .group == 1
		and .params.bs == 8192 and .params.depth == 4 and .params.engine == "aio"'
	json_ok '[.jobs[] | select(.name == "stripes") | .params.offset] == [65536, 589824]'
	json_ok '[.jobs[0].options[] | select(.option == "rw=read") | [.where, .became]] ==
		[["'"$FIX"'/exact.fio:10", "--sequential"], ["'"$FIX"'/exact.fio:10", "--write 0"]]'
	json_ok '.jobs[0].options[] | select(.where == "default" and .option == "runtime=0") |
		.became == "--time none"'
	# fio's own --output-format=json is fio's report, which a dry run has none of: refused.
	DIR=$BATS_TEST_TMPDIR iorate fio --dry-run --output-format=json "$FIX/exact.fio"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'iorate fio --dry-run' prints text or json"* ]]
	[ -z "$output" ]
	[ -z "$(ls -A | grep -v '^\.')" ]           # nothing created
}

@test "every option iorate cannot run is named at once, with its file and line; exit 2" {
	cat >bad.fio <<-EOF
	[global]
	pre_read=1
	size=1m
	[a]
	blocksizze=4k
	ioengine=net
	[b]
	read_iolog=x.log
	rw=trimread
	bs=4q
	EOF
	iorate fio bad.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: fio: 6 options cannot run in iorate (nothing ran):"* ]]
	[[ "$stderr" == *"  bad.fio:2: pre_read=1: iorate has no reading of the files"* ]]
	[[ "$stderr" == *"  bad.fio:5: blocksizze=4k: not an option of fio 3.33"* ]]
	[[ "$stderr" == *"  bad.fio:6: ioengine=net: refused engine: network I/O, not file or block I/O"* ]]
	[[ "$stderr" == *"  bad.fio:8: read_iolog=x.log: iorate has no replay of a log of I/Os"* ]]
	[[ "$stderr" == *"  bad.fio:9: rw=trimread: is not a pattern of fio"* ]]
	[[ "$stderr" == *"  bad.fio:10: bs=4q: has an unknown unit"* ]]
	[ -z "$output" ]
	[ ! -e a.0.0 ] && [ ! -e b.0.0 ] || false
	# A value 'iorate run' refuses is refused under the fio option that gave it.
	iorate fio --name=x --size=1m --ioengine=libaio --iodepth=9999
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: fio: command line: --iodepth=9999: '9999' is out of range (1 to 4096)" ]
}

@test "engines that are not file or block I/O are refused by name" {
	for e in http rdma sg rbd libcufile nfs netsplice mmap; do
		iorate fio --name=x --size=1m --ioengine=$e
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"--ioengine=$e: refused engine: "* ]]
	done
	iorate fio --name=x --size=1m --ioengine=libzbc
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--ioengine=libzbc: refused engine: zoned block devices through libzbc"* ]]
}

@test "fio's own options: --section, --readonly, --showcmd, --parse-only, and what is refused" {
	printf '[global]\nsize=1m\n[r]\nrw=read\n[w]\nrw=write\n' >j.fio
	iorate fio --dry-run --json --section=r j.fio
	[ "$status" -eq 0 ]
	json_ok '[.jobs[].name] == ["r"]'
	iorate fio --readonly j.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"j.fio:6: rw=write: writes, and --readonly was given"* ]]
	iorate fio --showcmd j.fio
	[ "$status" -eq 0 ]
	[ "$output" = "fio --size=1m --name=r --rw=read --name=w --rw=write" ]
	iorate fio --parse-only j.fio
	[ "$status" -eq 0 ] && [ -z "$output" ] && [ ! -e r.0.0 ] || false
	iorate fio --client=host j.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: fio: --client=host: iorate has no fio's client/server mode" ]
	iorate fio --output-format=json,xml j.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--output-format=json,xml: 'xml' is not terse, json, json+ or normal"* ]]
}

@test "--output-format=json is fio's JSON layout, job by job" {
	iorate fio --ioengine=null --size=64k --name=x --name=y -q --output-format=json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '(.jobs | map(.jobname)) == ["x", "y"] and
		.jobs[0].read.io_bytes == 65536 and .jobs[0].read.total_ios == 16 and
		(."fio version" | type) == "string"' >/dev/null
	iorate fio --name=x --ioengine=null --size=64k --json --output-format=json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--output-format=json and --json cannot be used together"* ]]
}

@test "--output=FILE writes the report through the gate: replaced whole, never through a link" {
	iorate fio --name=x --ioengine=null --size=64k -q --json --output=report.json
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	jq -e '.params.name == "x" and .total.read.ios == 16' report.json >/dev/null
	ln -s report.json link.json
	iorate fio --name=x --ioengine=null --size=64k -q --json --output=link.json
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"--output"*"link"* ]]
	jq -e '.params.name == "x"' report.json >/dev/null
}

@test "include, \${VAR}, \$ncpus and kb_base, as fio reads them" {
	cp -r "$FIX/include.fio" "$FIX/inc" .
	DIR=$BATS_TEST_TMPDIR SIZE=3m iorate fio --dry-run --json include.fio
	[ "$status" -eq 0 ]
	ncpus=$(nproc --all)
	json_ok "(.jobs | length) == $ncpus and .jobs[0].params.depth == $((ncpus * 4))"
	# kb_base=1000: 3m is 3000000 bytes, and 4kib 4096 (fio swaps the prefixes).
	json_ok '.jobs[0].params.range == 3000000 and .jobs[0].params.bs == 4096 and
		.jobs[0].params.write == 25 and .jobs[0].params.engine == "aio"'
	json_ok '.jobs[0].options[] | select(.option == "iodepth='"$((ncpus * 4))"'") |
		(.where == "inc/depth.inc:1")'
}

@test "fio 3.33 reads every job file of these tests" {
	need_fio
	for f in "$FIX"/*.fio; do
		(cd "$FIX" && DIR=$BATS_TEST_TMPDIR SIZE=1m fio --parse-only "$f") || {
			echo "fio refused $f" >&2
			return 1
		}
		(cd "$FIX" && DIR=$BATS_TEST_TMPDIR SIZE=1m "$IORATE" fio --dry-run "$f" >/dev/null) || {
			echo "iorate refused $f" >&2
			return 1
		}
	done
}

@test "the jobs of a file do the I/O fio 3.33 does: names, I/Os and bytes, job by job" {
	need_fio
	mkdir fio iorate
	DIR=$BATS_TEST_TMPDIR/fio fio --output-format=json "$FIX/exact.fio" | fio_json >fio.json
	DIR=$BATS_TEST_TMPDIR/iorate "$IORATE" fio -q --json "$FIX/exact.fio" >iorate.json
	want=$(fio_jobs <fio.json)
	got=$(iorate_jobs <iorate.json)
	[ "$(echo "$want" | wc -l)" -eq 12 ]
	diff <(echo "$want") <(echo "$got")
	# The files they lay out are alike, name and size.
	diff <(cd fio && find . -type f -printf '%p %s\n' | sort) \
		<(cd iorate && find . -type f -printf '%p %s\n' | sort)
}

@test "block sizes, depths and mixes agree with fio's job options and measured depths" {
	need_fio
	mkdir fio
	DIR=$BATS_TEST_TMPDIR/fio fio --output-format=json "$FIX/mix.fio" | fio_json >fio.json
	DIR=$BATS_TEST_TMPDIR "$IORATE" fio --dry-run --json "$FIX/mix.fio" >iorate.json
	# fio's: the options as each job has them (its own, else its [global]'s, else fio's
	# defaults), and the depth it ran at (its highest iodepth_level that is not empty).
	want=$(jq -c '."global options" as $g | [.jobs[] | ."job options" as $o | [.jobname,
		(($o.bs // $g.bs // "4096") | tonumber),
		([.iodepth_level | to_entries[] | select(.value > 0) | (.key | tonumber?) // 64]
		 | max),
		(($o.rw // $g.rw // "read") as $rw | if ($rw | test("rw$")) then
		 100 - (($o.rwmixread // $g.rwmixread // "50") | tonumber)
		 elif ($rw | test("write")) then 100 else 0 end)]] | sort | .[]' fio.json)
	got=$(jq -c '[.jobs[] | [.name, .params.bs, .params.depth, .params.write]] | sort | .[]' \
		iorate.json)
	[ "$(echo "$want" | wc -l)" -eq 4 ]
	diff <(echo "$want") <(echo "$got")
}

@test "a job of several files does the I/O fio 3.33 does, its one thread serving them all" {
	need_fio
	mkdir fio iorate
	DIR=$BATS_TEST_TMPDIR/fio fio --output-format=json "$FIX/files.fio" | fio_json >fio.json
	DIR=$BATS_TEST_TMPDIR/iorate "$IORATE" fio -q --json "$FIX/files.fio" >iorate.json
	jobs_of <iorate.json | jq -se '[.[] | .params.shape.shared_threads] == [true, true]' \
		>/dev/null
	want=$(fio_jobs <fio.json)
	got=$(iorate_jobs <iorate.json)
	diff <(echo "$want") <(echo "$got")
	diff <(cd fio && find . -type f -printf '%p %s\n' | sort) \
		<(cd iorate && find . -type f -printf '%p %s\n' | sort)
}

@test "exitall and exit_what end the jobs fio 3.33 ends, and no later group" {
	need_fio
	mkdir fio iorate
	DIR=$BATS_TEST_TMPDIR/fio fio --output-format=json "$FIX/ends.fio" | fio_json >fio.json
	DIR=$BATS_TEST_TMPDIR/iorate "$IORATE" fio -q --json "$FIX/ends.fio" >iorate.json
	# short and after end at their number_ios, never never starts: the same I/Os as fio's.
	want=$(jq -c '[.jobs[] | .read.total_ios] | [.[0], .[2], .[4]]' fio.json)
	got=$(jq -c '[.jobs[] | .total.read.ios] | [.[0], .[2], .[4]]' iorate.json)
	[ "$want" = "[200,100,0]" ]
	[ "$got" = "$want" ]
	# long and long2 (runtime=30) were ended by short's and after's ends, not interrupted.
	jq -e '[.jobs[1], .jobs[3]] | all(.seconds < 30 and .interrupted == false and
		(.notes[0] | startswith("ended early: job ")))' iorate.json >/dev/null
	jq -e '.jobs[4].started == false' iorate.json >/dev/null
	jq -e '.jobs[1].params.ends.exit == "report_group" and .jobs[0].params.ends.exit ==
		"group" and .jobs[2].params.ends.exit == "all"' iorate.json >/dev/null
}

@test "continue_on_error and ignore_error: failed I/Os are counted by errno and the job goes on" {
	cat >errs.fio <<-EOF
	[j]
	filename=$BATS_TEST_TMPDIR/e.dat
	size=1m
	rw=read
	number_ios=50
	continue_on_error=read
	EOF
	# The fault engine fails the 5th I/O of each thread with EIO (fio's default non-fatal one).
	IORATE_FAULT=eio:5 iorate run --job errs.fio --engine fault -q --json
	[ "$status" -eq 0 ]
	json_ok '.errnos == [{"errno": 5, "name": "EIO", "read": 1, "write": 0}] and
		.total.read.errors == 1 and .total.read.ios == 49 and .error == null'
	json_ok '.params.ends.continue_on_error == ["read"]'
	json_ok '.notes | any(. == "went on after 1 failed I/O (EIO: 1 read, 0 write)")'
	# ignore_error names the errnos instead: EIO is no longer one, and the job fails.
	echo "ignore_error=ENOSPC" >>errs.fio
	IORATE_FAULT=eio:5 iorate run --job errs.fio --engine fault -q --json
	[ "$status" -eq 1 ]
	json_ok '.errnos == [] and .total.read.errors == 1'
	[[ "$stderr" == *"read failed at offset"*"Input/output error"* ]]
	# iorate run's own options, and what they refuse.
	IORATE_FAULT=eio:3 iorate run --engine fault --cache buffered -c 1m --ios 20 -d none \
		--continue-on-error io --ignore-error EIO:EILSEQ e.dat -q --json
	[ "$status" -eq 0 ]
	json_ok '.errnos[0].read == 1'
	iorate run --ignore-error EIO e.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--ignore-error: of no effect without --continue-on-error"* ]]
	iorate run --continue-on-error maybe e.dat
	[ "$status" -eq 2 ]
	iorate run --exit-all sometimes e.dat
	[ "$status" -eq 2 ]
}

@test "prio and prioclass: the job's threads run at that I/O priority, as fio's do" {
	need_fio
	command -v ionice >/dev/null || skip "ionice (util-linux) is not installed"
	cat >prio.fio <<-EOF
	[p]
	filename=$BATS_TEST_TMPDIR/p.dat
	size=1m
	rw=randread
	prioclass=3
	prio=5
	time_based
	runtime=3
	EOF
	fio --parse-only prio.fio
	iorate fio --dry-run --json prio.fio
	[ "$status" -eq 0 ]
	json_ok '.jobs[0].params.ioprio == "idle:5"'
	# The worker thread (the process's second task) is idle while the job runs.
	"$IORATE" fio -q --output=out.txt prio.fio &
	pid=$!
	class=""
	for _ in $(seq 100); do
		for t in /proc/$pid/task/*; do
			[ "${t##*/}" = "$pid" ] && continue
			class=$(ionice -p "${t##*/}" 2>/dev/null) && [ -n "$class" ] && break 2
		done
		sleep 0.05
	done
	wait "$pid"
	[ "$class" = "idle" ]
	# A level fio refuses is refused under its name.
	iorate fio --name=x --size=1m --filename=p.dat --prio=9
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--prio=9: is out of range (0 to 7)"* ]]
}

# Blocks of 4 KiB in file $1 that no other block equals, and its size gzipped in percent.
distinct_blocks() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
print(len({d[i:i + 4096] for i in range(0, len(d), 4096)}))' "$1"
}
gzip_pct() {
	echo $(( $(gzip -1 -c "$1" | wc -c) * 100 / $(stat -c %s "$1") ))
}

@test "buffer_compress_percentage and dedupe_percentage: files compress and deduplicate as fio's" {
	need_fio
	cat >data.fio <<-EOF
	[global]
	size=8m
	bs=4k
	rw=write
	ioengine=libaio
	iodepth=16
	[comp]
	buffer_compress_percentage=60
	[dup]
	dedupe_percentage=40
	[ws]
	dedupe_percentage=50
	dedupe_mode=working_set
	dedupe_working_set_percentage=20
	[pat]
	buffer_pattern="iorate"0x0a
	[plain]
	EOF
	fio --parse-only data.fio
	mkdir fio ior
	(cd fio && fio --output-format=json ../data.fio >/dev/null)
	(cd ior && "$IORATE" fio -q ../data.fio >/dev/null)
	for f in comp dup ws; do
		a=$(gzip_pct "fio/$f.0.0") b=$(gzip_pct "ior/$f.0.0")
		c=$(distinct_blocks "fio/$f.0.0") d=$(distinct_blocks "ior/$f.0.0")
		echo "$f: gzip fio $a% iorate $b%, distinct blocks fio $c iorate $d" >&3
		[ $(( a - b )) -le 3 ] && [ $(( b - a )) -le 3 ] || false
		# Out of 2048 blocks; fio's working set and iorate's differ in which blocks repeat.
		[ $(( c - d )) -le 200 ] && [ $(( d - c )) -le 200 ] || false
	done
	# 60% of each 512 bytes are zeros: gzip keeps about the 40% that is random.
	[ "$(gzip_pct ior/comp.0.0)" -le 45 ]
	[ "$(distinct_blocks ior/comp.0.0)" -eq 2048 ]
	# The pattern, byte for byte as fio writes it.
	cmp fio/pat.0.0 ior/pat.0.0
	# Scrambled (fio's default): every block of a plain write differs, though the 16 buffers
	# are written again and again; not so when asked not to.
	[ "$(distinct_blocks fio/plain.0.0)" -eq 2048 ]
	[ "$(distinct_blocks ior/plain.0.0)" -eq 2048 ]
	(cd ior && "$IORATE" fio -q --scramble_buffers=0 ../data.fio --section=plain >/dev/null)
	[ "$(distinct_blocks ior/plain.0.0)" -le 16 ]
	iorate fio --dry-run --json --name=x --rw=write --size=1m --buffer_compress_percentage=50 \
		--dedupe_percentage=20 --buffer_pattern=1
	json_ok '.jobs[0].params.data == {"compress": 50, "compress_chunk": 512, "dedupe": 20,
		"dedupe_set": 0, "dedupe_global": false, "pattern": "0x01", "refill": false,
		"scramble": false}'
	iorate run --compress 50 --verify --size 1m --time 1s x.dat
	[ "$status" -eq 2 ]
	[ ! -e x.dat ]
	[[ "$stderr" == *"--verify: verified writes carry their own blocks"* ]]
}

@test "rw=read:-8k and zonemode=strided: the offsets fio 3.33 reads, in its order" {
	need_fio
	truncate -s 1m z.dat
	printf '[global]\nfilename=z.dat\nsize=1m\nbs=4k\n' >head.fio
	{ cat head.fio; printf '[back]\nrw=read:-8k\n'; } >back.fio
	{ cat head.fio; printf '[zone]\nrw=read\nzonemode=strided\nzonesize=16k\n'
	  printf 'zonerange=8k\nzoneskip=32k\n'; } >zone.fio
	{ cat head.fio; printf '[rzone]\nrw=randread\nzonemode=strided\nzonesize=8k\n'
	  printf 'zonerange=16k\nzoneskip=32k\n'; } >rzone.fio
	iorate fio --dry-run back.fio zone.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *"rw=read:-8k"*"--gap -8KiB"* ]]
	[[ "$output" == *"zonesize=16k"*"--zone-size 16KiB"*"zonerange=8k"*"--zone-range 8KiB"* ]]
	# Each I/O of fio's (its write_iolog) and of iorate's (--trace): the same offsets.
	for j in back zone rzone; do
		fio --write_iolog="$j.log" "$j.fio" >/dev/null
		"$IORATE" run -q --job "$j.fio" --trace "$j.trace" >/dev/null
		awk '$3 == "read" {print $4}' "$j.log" >"$j.fio.off"
		awk '{print $4}' "$j.trace" >"$j.iorate.off"
		[ "$(wc -l <"$j.fio.off")" -eq 256 ]
		[ "$(wc -l <"$j.iorate.off")" -eq 256 ]
		[ "$j" = rzone ] || cmp "$j.fio.off" "$j.iorate.off"
	done
	# Random in zones: the I/Os go in pairs to zones of 4 blocks, 12 blocks apart, as fio's.
	for f in rzone.fio.off rzone.iorate.off; do
		i=0
		while read -r off; do
			zone=$(( i / 2 % 22 * 12 ))
			[ $(( off / 4096 )) -ge $zone ] && [ $(( off / 4096 )) -lt $(( zone + 4 )) ] || false
			i=$(( i + 1 ))
		done <"$f"
	done
}

@test "fill_device: writes until the filesystem is full, the bytes fio 3.33 writes" {
	need_fio
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	mkdir fs1 fs2
	mount -t tmpfs -o size=8m iorate-test fs1 || skip "cannot mount a tmpfs"
	mount -t tmpfs -o size=8m iorate-test fs2 || { umount fs1; skip "cannot mount a tmpfs"; }
	# One file of 1 MiB there already; fio's and iorate's jobs fill what is left, or stop at a
	# size given below it.
	head -c 1m /dev/zero >fs1/other && head -c 1m /dev/zero >fs2/other
	printf '[fill]\nrw=write\nbs=64k\nfill_device=1\nfilename=f.dat\n' >fill.fio
	printf '[fill]\nrw=write\nbs=64k\nfill_device=1\nfilename=f.dat\nsize=3m\n' >fill3.fio
	printf '[fill]\nrw=write\nbs=64k\nfill_device=1\nfilename=f.dat\nsize=1g\n' >fill1g.fio
	st=0
	for j in fill fill3 fill1g; do
		rm -f fs1/f.dat fs2/f.dat
		(cd fs1 && fio --output-format=json "../$j.fio" | fio_json >../fio.json)
		(cd fs2 && "$IORATE" fio --output-format=json "../$j.fio" >../iorate.json) || st=$?
		a=$(jq '.jobs[0].write.io_bytes' fio.json) b=$(jq '.jobs[0].write.io_bytes' iorate.json)
		sa=$(stat -c %s fs1/f.dat) sb=$(stat -c %s fs2/f.dat)
		echo "$j: fio wrote $a bytes ($sa in the file), iorate $b ($sb)" >&3
		[ "$a" -eq "$b" ] && [ "$sa" -eq "$sb" ] || st=1
		[ "$j" != fill3 ] || [ "$b" -eq $(( 3 << 20 )) ] || st=1
		[ "$j" = fill3 ] || [ "$b" -eq $(( 7 << 20 )) ] || st=1
	done
	# Two files filling one filesystem: the write refused for want of space ends each one's
	# writing, counted as no error, and the result says so.
	rm -f fs2/f.dat fs2/other
	"$IORATE" run --until-full --sequential -w 100 --time none --cache buffered --bs 64k \
		--engine sync --keep --json fs2/a.dat fs2/b.dat >full.json || st=$?
	ab=$(( $(stat -c %s fs2/a.dat) + $(stat -c %s fs2/b.dat) ))
	# (a lazy unmount if a closed file is still being released)
	umount fs1 fs2 || umount -l fs1 fs2
	[ "$st" -eq 0 ]
	[ "$ab" -eq $(( 8 << 20 )) ]
	# Each file's last write may have been cut short: those bytes are in it, not counted.
	b=$(jq '.total.write.bytes' full.json)
	[ "$b" -le "$ab" ] && [ $(( ab - b )) -lt $(( 2 * 65536 )) ] || false
	[ "$(jq '.total.write.errors' full.json)" -eq 0 ]
	jq -e '.notes | any(startswith("a target is full"))' full.json
	# What fill_device became; a random or reading fill is refused under fio's name.
	iorate fio --dry-run fill.fio
	[[ "$output" == *"fill_device=1"*"--until-full"* ]]
	[[ "$output" == *"size=(none)"*"(no bound): fill_device writes until the target is full"* ]]
	iorate fio --name=x --rw=randwrite --fill_device=1 --filename=x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"iorate: fio: command line: --fill_device=1: needs sequential writes (rw rw=write)"* ]]
	[ ! -e x.dat ]
}

@test "steadystate, ss_dur, ss_ramp: the job ends once its rate is steady, as fio 3.33's does" {
	need_fio
	printf '[s]\nioengine=null\nsize=1g\nrw=randread\ntime_based\nruntime=60\n' >s.fio
	printf 'ss=iops:50%%\nss_dur=2\nss_ramp=1\n' >>s.fio
	fio --output-format=json s.fio | fio_json >fio.json
	# Both end long before their 60 s, steady; fio says so in its JSON, iorate in a note.
	[ "$(jq '.jobs[0].steadystate.attained' fio.json)" -eq 1 ]
	[ "$(jq '.jobs[0].job_runtime' fio.json)" -lt 30000 ]
	iorate fio --json s.fio
	[ "$status" -eq 0 ]
	json_ok '.seconds < 30'
	json_ok '.notes | any(startswith("steady state reached (iops:50%)"))'
	json_ok '.params.steady == {"criterion": "iops:50%", "duration_ns": 2000000000,
		"ramp_ns": 1000000000, "interval_ns": 0}'
	# Never steady: the job runs its time, and the result says the state was not reached.
	iorate run --json --engine null --steady iops_slope:0 --steady-time 2s --time 2200ms x.dat
	[ "$status" -eq 0 ]
	json_ok '.seconds >= 2.2 and (.notes | any(startswith("steady state not reached")))'
	# A newer fio's lat criterion (fio 3.33 refuses it) is iorate's --steady lat; a criterion
	# neither has is refused under fio's option.
	iorate fio --dry-run --name=x --ioengine=null --size=1m --ss=lat:5% --ss_dur=10
	[ "$status" -eq 0 ]
	[[ "$output" == *"--steady lat:5%"* ]]
	iorate fio --name=x --ioengine=null --size=1m --ss=p99:5% --ss_dur=10
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--ss=p99:5%: 'p99:5%' is not iops, iops_slope, bw, bw_slope, lat or lat_slope"* ]]
}

@test "flow, flow_id, flow_sleep: the jobs of one flow share its I/Os by their weights" {
	need_fio
	fio --output-format=json "$FIX/flow.fio" | fio_json >fio.json
	"$IORATE" fio -q --json "$FIX/flow.fio" >iorate.json
	read -r light heavy other < <(jq -r '[.jobs[].total.read.ios] | @tsv' iorate.json)
	# One to four, within 1 % and the few I/Os a job may issue once the other has ended.
	[ "$light" -gt 10 ]
	[ $((heavy * 100)) -ge $((light * 396 - 800)) ]
	[ $((heavy * 100)) -le $((light * 404 + 800)) ]
	# other (flow_id 2) is a flow alone: held by nothing.
	[ "$other" -gt "$heavy" ]
	# fio gives heavy more than light too (its weights count from each job's own start, so its
	# ratio is not exact) and other the most.
	jq -e '.jobs[1].read.total_ios > .jobs[0].read.total_ios and
		.jobs[2].read.total_ios > .jobs[1].read.total_ios' fio.json >/dev/null
	jq -e '[.jobs[].params.shape | [.flow, .flow_id, .flow_sleep_ns]] ==
		[[1, 0, 0], [4, 0, 100000], [1, 2, 0]]' iorate.json >/dev/null
}

@test "cmdprio_percentage, cmdprio_class, cmdprio_bssplit: the shares of I/Os fio 3.33 gives a priority" {
	need_fio
	mkdir fio iorate
	DIR=$BATS_TEST_TMPDIR/fio fio --output-format=json "$FIX/cmdprio.fio" | fio_json >fio.json
	DIR=$BATS_TEST_TMPDIR/iorate "$IORATE" fio -q --json "$FIX/cmdprio.fio" >iorate.json
	# Percent of each direction's I/Os that carried a priority, fio's and iorate's: 30 and 60
	# in share (binomial over ~1,500 I/Os: within 5 points, more than 6 standard deviations).
	fio_pct() {
		jq -r --argjson j "$1" --arg d "$2" '.jobs[$j][$d] | ([.prios[] |
			select(.prioclass != 0) | .clat_ns.N] | add) * 100 / .total_ios | floor' fio.json
	}
	ior_pct() {
		jq -r --argjson j "$1" --arg d "$2" '.jobs[$j] | .prio[$d].ios * 100 /
			.total[$d].ios | floor' iorate.json
	}
	local who ios bytes prio
	for who in fio_pct ior_pct; do
		p=$($who 0 read); (( p >= 25 && p <= 35 ))
		p=$($who 0 write); (( p >= 55 && p <= 65 ))
	done
	# split gives every 64 KiB read a priority and no 4 KiB one: in both tools the prioritized
	# reads are the 64 KiB ones, (bytes - 4096 x reads) / 61440 of them.
	read -r ios bytes prio < <(jq -r '.jobs[1].read | [.total_ios, .io_bytes, ([.prios[] |
		select(.prioclass != 0) | .clat_ns.N] | add)] | map(tostring) | join(" ")' fio.json)
	(( prio > 100 && (bytes - 4096 * ios) % 61440 == 0 && prio == (bytes - 4096 * ios) / 61440 ))
	read -r ios bytes prio < <(jq -r '.jobs[1] | [.total.read.ios, .total.read.bytes,
		.prio.read.ios] | map(tostring) | join(" ")' iorate.json)
	(( prio > 100 && (bytes - 4096 * ios) % 61440 == 0 && prio == (bytes - 4096 * ios) / 61440 ))
	# fio's classes per direction: be level 1; rt:1 and idle:2 for the split's 64 KiB reads.
	jq -e '[.jobs[0].read.prios[] | select(.prioclass != 0) | [.prioclass, .prio]] == [[2, 1]]
		and ([.jobs[1].read.prios[] | select(.prioclass != 0) | [.prioclass, .prio]] |
		sort) == [[1, 1], [3, 2]]' fio.json >/dev/null
	jq -e '.jobs[0].params.cmdprio == {"share": "30,60", "class": "be:1,be:1", "split": ""}
		and .jobs[1].params.cmdprio.split ==
		"65536/25/rt/1:65536/75/idle/2,65536/25/rt/1:65536/75/idle/2"' \
		iorate.json >/dev/null
	# Every prioritized split read is a 64 KiB one: bytes are 64 KiB times the count.
	jq -e '.jobs[1].prio.read.bytes == .jobs[1].prio.read.ios * 65536' iorate.json >/dev/null
	# The text report shows them apart.
	DIR=$BATS_TEST_TMPDIR/iorate "$IORATE" fio "$FIX/cmdprio.fio" >text.txt
	grep -q '^Priority per I/O (--cmdprio 30,60, --cmdprio-class be:1,be:1):' text.txt
	grep -q 'read, prio (us) |  read, other (us)' text.txt
}

@test "cmdprio needs uring or aio; sqthread_poll runs io_uring's polling thread" {
	iorate run --engine sync -d 0.1 --cmdprio 10 -c 1m f.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--cmdprio: needs an engine that gives each I/O its own priority (uring or aio), not sync"* ]]
	iorate run --engine aio -d 0.1 --cmdprio 10 --cmdprio-split 4k/10 -c 1m f.dat
	[ "$status" -eq 2 ]
	iorate run --engine aio -d 0.1 --cmdprio 101 -c 1m f.dat
	[ "$status" -eq 2 ]
	iorate run --engine aio -d 0.1 --cmdprio-split 4k/60:4k/50 -c 1m f.dat
	[ "$status" -eq 2 ]
	iorate run --engine aio -d 0.1 --sqpoll -c 1m f.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--sqpoll"* ]]
	# A run with SQPOLL has the kernel's polling thread (iou-sqp-PID) while it runs.
	"$IORATE" run --engine uring --sqpoll -d 1 -q -c 8m --depth 4 f.dat --json >r.json &
	pid=$!
	found=
	for _ in $(seq 100); do
		if grep -qs '^iou-sqp' /proc/$pid/task/*/comm; then found=1; break; fi
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	wait $pid
	[ -n "$found" ]
	jq -e '.params.sqpoll == true and .total.read.ios > 0' r.json >/dev/null
	iorate fio --dry-run --name=j --filename=f.dat --size=1m --ioengine=io_uring --sqthread_poll=1
	[ "$status" -eq 0 ]
	[[ "$output" == *"--sqpoll"* ]]
}

@test "latency_target, latency_window, latency_percentile: fio's search for the deepest queue" {
	run "$IORATE" fio --dry-run "$FIX/latency.fio"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--latency-target 20ms --latency-window 50ms --latency-percentile 99.5"* ]]
	"$IORATE" fio -q --json "$FIX/latency.fio" >iorate.json
	# fio's null engine keeps within 20 ms at any depth: iodepth is reached, the final window
	# runs, and the job ends before its runtime.
	jq -e '.latency_target.finished == 1 and .latency_target.depth_min == 16 and
		.seconds < 10' iorate.json >/dev/null
}

@test "a fio run prints no translation; -v and --verbose do, and the engine note always prints" {
	cd "$BATS_TEST_TMPDIR"
	args=(--name=a --ioengine=sync --rw=randread --size=64k --number_ios=8 --filename=f)
	iorate fio "${args[@]}"
	[ "$status" -eq 0 ]
	[[ "$stderr" != *"iorate run "* ]]
	[[ "$stderr" == *"fio's sync engine runs as iorate's sync engine"* ]]
	for v in -v --verbose; do
		iorate fio "$v" "${args[@]}"
		[ "$status" -eq 0 ]
		[[ "$stderr" == *"iorate: fio: job 'a' (group 0): iorate run --engine sync "* ]]
	done
}
