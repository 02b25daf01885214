#!/usr/bin/env bats
# End to end: fio's reporting through 'iorate fio': group_reporting and new_group in fio's JSON
# layout, --output-format=json+ (and fio's own fio_jsonplus_clat2csv reading it), terse version 3
# and --minimal, several formats at once with --output. Counts are compared with fio 3.33's on
# the same size-bounded jobs (make deps installs fio); those comparisons skip without it.

bats_require_minimum_version 1.5.0
load helpers

# A size-bounded job of 4 clones (64 reads of 4 KiB each), with $1 added to [global].
four_jobs() {
	cat >g.fio <<-EOF
	[global]
	ioengine=psync
	rw=randread
	bs=4k
	size=256k
	$1
	[a]
	numjobs=4
	EOF
}

@test "group_reporting: the 4 jobs of a group are one entry of jobs[], as fio prints them" {
	four_jobs ""
	iorate fio -q --output-format=json g.fio
	[ "$status" -eq 0 ]
	echo "$output" >each.json
	jq -e '(.jobs | length) == 4 and ([.jobs[].read.total_ios] | add) == 256' each.json
	four_jobs group_reporting
	iorate fio -q --output-format=json g.fio
	[ "$status" -eq 0 ]
	echo "$output" >merged.json
	# one entry: the sum of the 4 jobs' I/Os and bytes, the first job's name and groupid
	jq -e --slurpfile each each.json '(.jobs | length) == 1 and
		.jobs[0].read.total_ios == ([$each[0].jobs[].read.total_ios] | add) and
		.jobs[0].read.io_bytes == 1048576 and .jobs[0].jobname == "a" and
		.jobs[0].groupid == 0 and .jobs[0].read.clat_ns.N == 256' merged.json
}

@test "group_reporting: iorate's entries are fio 3.33's (count, names, groupids, I/Os)" {
	need_fio
	cat >n.fio <<-EOF
	[global]
	ioengine=psync
	rw=randread
	bs=4k
	size=128k
	group_reporting
	[a]
	numjobs=2
	[b]
	new_group
	numjobs=3
	[c]
	stonewall
	rw=randwrite
	EOF
	mkdir fio iorate
	(cd fio && fio --output-format=json ../n.fio | fio_json >../fio.json)
	(cd iorate && "$IORATE" fio -q --output-format=json ../n.fio >../iorate.json)
	shape='[.jobs[] | [.jobname, .groupid, .read.total_ios, .read.io_bytes,
		.write.total_ios]]'
	[ "$(jq -c "$shape" iorate.json)" = "$(jq -c "$shape" fio.json)" ]
	# new_group split the run group in two reporting groups, stonewall started a third
	[ "$(jq -c "$shape" iorate.json)" = '[["a",0,64,262144,0],["b",1,96,393216,0],["c",2,0,0,32]]' ]
}

@test "fio-json+: clat_ns.bins, in fio's buckets, add up to total_ios; fio's clat2csv reads them" {
	four_jobs group_reporting
	iorate fio -q --output-format=json+ g.fio
	[ "$status" -eq 0 ]
	echo "$output" >plus.json
	jq -e '.jobs[0].read.total_ios == 256 and
		([.jobs[0].read.clat_ns.bins[]] | add) == .jobs[0].read.total_ios and
		(.jobs[0].write.clat_ns | has("bins") | not)' plus.json
	# every key is the value of one of fio's buckets (plat_idx_to_val), in ns
	jq -e '[.jobs[0].read.clat_ns.bins | keys[] | tonumber | . as $v |
		if $v < 128 then true else
		(($v | log2 | floor) - 6) as $e | (($v - pow(2; $e + 6)) / pow(2; $e)) as $k |
		($k - ($k | floor)) == 0.5 or ($e == 0 and ($v - 128) % 2 == 1) end] | all' plus.json
	# plain json has no bins
	iorate fio -q --output-format=json g.fio
	echo "$output" | jq -e '.jobs[0].read.clat_ns | has("percentile") and (has("bins") | not)'
	command -v fio_jsonplus_clat2csv >/dev/null || skip "fio_jsonplus_clat2csv is not installed"
	fio_jsonplus_clat2csv plus.json lat.csv
	fio_jsonplus_clat2csv --validate plus.json lat.csv
	# one row per bin, the cumulative count of the last is every I/O
	[ "$(tail -1 lat_job0.csv | cut -d, -f6 | tr -d ' ')" = 256 ]
}

@test "terse version 3: fio 3.33's fields, in its order, on the same job" {
	need_fio
	four_jobs group_reporting
	mkdir fio iorate
	(cd fio && fio --output-format=terse ../g.fio >../fio.terse)
	(cd iorate && "$IORATE" fio -q --output-format=terse ../g.fio >../iorate.terse)
	[ "$(wc -l <iorate.terse)" -eq 1 ] && [ "$(wc -l <fio.terse)" -eq 1 ]
	# as many fields (the same disks: both ran in this directory)
	[ "$(awk -F';' '{print NF}' iorate.terse)" = "$(awk -F';' '{print NF}' fio.terse)" ]
	# version, fio version, name, groupid, error, read KiB; write KiB
	for f in 1 2 3 4 5 6 47; do
		[ "$(cut -d';' -f$f iorate.terse)" = "$(cut -d';' -f$f fio.terse)" ]
	done
	[ "$(cut -d';' -f1-6 iorate.terse)" = "3;fio-3.33;a;0;0;1024" ]
	# the read percentiles (from 18) and the write ones (from 59): the same keys in place
	for f in 18 34 35 37 59 77; do
		[ "$(cut -d';' -f$f iorate.terse | cut -d= -f1)" = \
		  "$(cut -d';' -f$f fio.terse | cut -d= -f1)" ]
	done
	# --minimal is terse; --terse-version takes 3 only
	iorate fio -q --minimal --terse-version=3 g.fio
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | awk -F';' '{print NF}')" = "$(awk -F';' '{print NF}' fio.terse)" ]
	iorate fio -q --terse-version=2 --minimal g.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: fio: --terse-version=2: iorate writes terse version 3 (fio's default) only" ]
}

@test "json,normal prints both in fio's order, to --output too; a dry run refuses json" {
	four_jobs group_reporting
	iorate fio -q --output-format=normal,json g.fio
	[ "$status" -eq 0 ]
	# the JSON first (fio prints terse, json, normal in that order), then iorate's text
	[ "${output:0:1}" = "{" ]
	echo "$output" | sed -n '1,/^}$/p' | jq -e '(.jobs | length) == 1'
	echo "$output" | sed '1,/^}$/d' | grep -q 'IOPS'
	iorate fio -q --output-format=json,normal,terse --output=out.txt g.fio
	[ "$status" -eq 0 ] && [ -z "$output" ]
	head -1 out.txt | grep -q '^3;fio-3.33;a;0;0;1024;'
	sed -n '2,/^}$/p' out.txt | jq -e '.jobs[0].read.total_ios == 256'
	sed '1,/^}$/d' out.txt | grep -q 'IOPS'
	iorate fio --dry-run --output-format=terse g.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--output-format=terse: 'iorate fio --dry-run' prints text or json"* ]]
}

@test "normal: the jobs group_reporting merges are one section of iorate's text, added up" {
	four_jobs group_reporting
	printf '[b]\nnew_group\nnumjobs=1\n' >>g.fio
	iorate fio -q g.fio
	[ "$status" -eq 0 ]
	# one section for a's 4 jobs, its read row the 4 jobs' 256 KiB each; b on its own
	line_ok '^Jobs 1 to 4 of 5: a \(group 0; 4 jobs merged: fio.s group_reporting\)$'
	line_ok '^read: +1048576 \| +256 \|'
	line_ok '^Job 5 of 5: b \(group 0\)$'
	no_line '^Job [1-4] of 5'
	# without it, each job has its own section
	four_jobs ""
	iorate fio -q g.fio
	[ "$status" -eq 0 ]
	line_ok '^Job 4 of 4: a \(group 0\)$'
	no_line 'jobs merged'
}
