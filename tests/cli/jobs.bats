#!/usr/bin/env bats
# A run of several jobs (--job-name ... --job-name ..., --stonewall for a new group): one report
# with each job, each group and the total, in every format; one entry of the history; groups'
# and total's figures that add up to the jobs'. The null engine, unless a test says otherwise.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	export IORATE_HISTORY="$BATS_TEST_TMPDIR/h.db"
}

# Three jobs: a and b together in group 0 (b 8 KiB writes), c alone in group 1.
three=(--engine null -d 0.3 -q --job-name a x --job-name b -b 8k -w 100 y
	--job-name c --stonewall z)

@test "--help says how to name jobs and start a group" {
	iorate run --help
	[[ "$output" == *"--job-name NAME"* ]]
	[[ "$output" == *"--stonewall"* ]]
	[[ "$output" == *"--fio-json"* ]]
}

@test "the JSON of a run of several jobs: each job's run, its groups and the total" {
	iorate run "${three[@]}" --json
	[ "$status" -eq 0 ]
	json_ok '.schema == 2 and (.jobs | length) == 3 and (.groups | length) == 2'
	json_ok '[.jobs[].params.name] == ["a", "b", "c"] and [.jobs[].params.group] == [0, 0, 1]'
	json_ok '[.groups[].jobs] == [[0, 1], [2]] and .total.groups == 2 and .total.jobs == 3'
	json_ok '.jobs[1].params.bs == 8192 and .jobs[1].params.write == 100'
	json_ok '.jobs[0].targets[0].path == "x" and .jobs[2].targets[0].path == "z"'
	# Counts add up exactly: per group over its jobs, the total over every job.
	json_ok '.groups[0].total.ios == (.jobs[0].total.total.ios + .jobs[1].total.total.ios)'
	json_ok '.groups[0].write.bytes == .jobs[1].total.write.bytes'
	json_ok '.groups[1].read.ios == .jobs[2].total.read.ios'
	json_ok '.total.total.ios == ([.jobs[].total.total.ios] | add)'
	json_ok '.total.total.bytes == ([.jobs[].total.total.bytes] | add)'
	# Groups ran one after another: the run's time is theirs added.
	json_ok '.total.seconds == (.groups[0].seconds + .groups[1].seconds)'
	json_ok '.groups[0].seconds >= .jobs[0].seconds and .groups[0].seconds >= .jobs[1].seconds'
	json_ok '.groups[0].lat_us == null and (.groups[0].total.lat_us.p99 | type) == "number"'
}

@test "a group's percentiles come from its jobs' merged histograms" {
	# One job at 4 KiB, one with --no-latency: the group's latency is the first job's alone.
	iorate run --engine null -d 0.3 -q --json --job-name a x --job-name b --no-latency y
	[ "$status" -eq 0 ]
	json_ok '.jobs[1].total.total.lat_us == null'
	json_ok '.groups[0].total.lat_us == .jobs[0].total.total.lat_us'
	json_ok '.groups[0].total.ios == .jobs[0].total.total.ios + .jobs[1].total.total.ios'
}

@test "a start delay widens the group's window: from the first start to the last end" {
	iorate run --engine null -d 0.3 -q --json --job-name a x --job-name b --start-delay 0.2 y
	[ "$status" -eq 0 ]
	json_ok '.jobs[1].params.shape.startdelay_ns == 200000000'
	json_ok '.groups[0].seconds == (.jobs[1].seconds + 0.2)'
	json_ok '.total.iops < .jobs[0].total.total.iops + .jobs[1].total.total.iops'
}

@test "the text report shows each job, the groups and the total, with units" {
	iorate run "${three[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == "A run of 3 jobs in 2 groups"* ]]
	[ "$(echo "$output" | grep -c '^Command line: ')" -eq 1 ]
	for l in "Job 1 of 3: a (group 0)" "Job 2 of 3: b (group 0)" "Job 3 of 3: c (group 1)" \
		"Groups (" "Total of the run: 3 jobs in 2 groups" "CPU usage per group"; do
		[[ "$output" == *"$l"* ]] || { echo "missing: $l"; false; }
	done
	[[ "$output" == *"MiB/s"* ]]
	iorate run "${three[@]}" --units si
	[[ "$output" == *" MB/s "* && "$output" != *"MiB/s"* ]]
	iorate run "${three[@]}" --series
	[ "$(echo "$output" | grep -c '^Series (a point per 100 ms):')" -eq 3 ]
}

@test "CSV: rows per job, group and total under a scope column" {
	iorate run "${three[@]}" --csv
	[ "$status" -eq 0 ]
	head=$(echo "$output" | head -1)
	[[ "$head" == scope,job,name,group,target,direction,ios,bytes,seconds,iops,mibps,mbps,* ]]
	# Each job: its target and its "*", three directions each; two groups; the total.
	[ "$(echo "$output" | grep -c '^job,')" -eq 18 ]
	[ "$(echo "$output" | grep -c '^group,')" -eq 6 ]
	[ "$(echo "$output" | grep -c '^total,')" -eq 3 ]
	[ "$(echo "$output" | grep -c '^job,2,b,0,y,write,')" -eq 1 ]
	# The total's I/Os are the jobs' added (integers, in the shell).
	sum=0
	for n in $(echo "$output" | grep '^job,[0-9]*,[a-z]*,[0-9]*,\*,total,' | cut -d, -f7); do
		sum=$((sum + n))
	done
	[ "$(echo "$output" | grep '^total,,,,\*,total,' | cut -d, -f7)" -eq "$sum" ]
}

@test "--save keeps the run as one entry: list counts its jobs, show prints it again" {
	iorate run "${three[@]}" --save
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"saved as run 1 in"* ]]
	printed=$output
	iorate history list
	[ "$(echo "$output" | wc -l)" -eq 2 ]
	[[ "$(echo "$output" | sed -n 2p)" == *"x y (+1) [3 jobs]"* ]]
	iorate history list --json
	json_ok '.runs[0].jobs == 3 and .runs[0].targets == ["x", "y", "z"]'
	json_ok '.runs[0].params.bs == null and .runs[0].params.depth == 1'
	iorate history list --csv
	# jobs, then the limits the jobs share (none: caps 0, a closed loop, no profile)
	[[ "$(echo "$output" | sed -n 2p)" == *,3,0,0,0,0,0,0,0,0,0,0,0,closed, ]]
	iorate history show 1
	[ "$output" = "$printed" ]
	iorate history show 1 --json
	json_ok '(.jobs | length) == 3'
}

@test "JSON of several jobs goes into the history and comes back out byte for byte" {
	"$IORATE" run "${three[@]}" --json > m.json
	iorate history import m.json
	[ "$status" -eq 0 ]
	[ "$output" = "imported m.json as run 1" ]
	diff m.json <("$IORATE" history show 1 --json)
	iorate history import m.json
	[ "$output" = "m.json: already saved as run 1" ]
	"$IORATE" run --engine null -d 0.3 -q --json x > one.json
	"$IORATE" history import one.json >/dev/null
	iorate history compare 1 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"jobs "*"3"*"1"* ]]
	[[ "$output" == *"jobs: 3 -> 1"* ]]
	iorate history compare 1 1 --json
	json_ok '.a.jobs == 3 and .differences == []'
}

@test "a document whose groups are not what its jobs add up to is refused, naming the key" {
	"$IORATE" run "${three[@]}" --json | jq '.groups[1].read.ios += 1' > bad.json
	iorate history import bad.json
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: bad.json: groups[1].read.ios: not what the jobs add up to (groups and total are computed from jobs[])" ]
	"$IORATE" run "${three[@]}" --json | jq 'del(.jobs[2].params.depth)' > nodepth.json
	iorate history import nodepth.json
	[ "$stderr" = "iorate: nodepth.json: jobs[2].params.depth: missing" ]
	iorate history list --json
	json_ok '.runs == []'
}

@test "the HTML report draws the groups, the total and each job with its charts" {
	"$IORATE" run "${three[@]}" --save 2>/dev/null >/dev/null
	iorate report 1 --output r.html
	[ "$status" -eq 0 ]
	grep -q '3 jobs in 2 groups' r.html
	grep -q '<h3>Groups</h3>' r.html
	for j in 'Job 1: a (group 0)' 'Job 2: b (group 0)' 'Job 3: c (group 1)'; do
		grep -q "$j" r.html || { echo "missing $j"; false; }
	done
	# Four charts per job.
	[ "$(grep -o '<svg' r.html | wc -l)" -eq 12 ]
}

@test "the options before the first --job-name are every job's; a job's own win" {
	iorate run --engine null -d 0.2 -q -b 16k -t 2 --json shared --job-name a \
		--job-name b -b 4k own
	[ "$status" -eq 0 ]
	json_ok '[.jobs[].params.bs] == [16384, 4096] and [.jobs[].params.threads] == [2, 2]'
	json_ok '.jobs[0].params.targets == ["shared"] and .jobs[1].params.targets == ["own"]'
	json_ok '.jobs[0].command_line == .jobs[1].command_line'
}

@test "the headline counts distinct targets: four jobs on one file run on 1 target" {
	iorate run --engine null -d 0.1 --job-name a same --job-name b same --job-name c same \
		--job-name d other
	[ "$status" -eq 0 ]
	[[ "$output" == *"total (4 jobs): "*" on 2 targets,"* ]]
	iorate run --engine null -d 0.1 --job-name a same --job-name b same
	[[ "$output" == *"total (2 jobs): "*" on 1 target,"* ]]
}

@test "usage errors name the job; nothing is made before every job is checked" {
	iorate run --engine sync -d 0.2 -c 1M -q --job-name a made.dat --job-name b nodir/y.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: job b: nodir/y.dat: its directory does not exist" ]
	[ ! -e made.dat ]
	iorate run --engine null -d 0.2 --job-name a x --job-name b -w 101 y
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: --write: '101'"* ]]
	iorate run --engine null -d 0.2 --stonewall --job-name a x
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --stonewall: only after a --job-name (it starts that job's group)" ]
	echo "[j]" > j.fio
	iorate run --job j.fio --job-name a x
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --job-name: not with --job (a job file names its own jobs)" ]
}

@test "a job that fails: the whole report, its error named on stderr, exit 1" {
	IORATE_FAULT=eio:50 iorate run -d 0.3 -q -c 1M --json --job-name ok --engine sync a.dat \
		--job-name bad --engine fault b.dat
	[ "$status" -eq 1 ]
	[[ "$stderr" == "iorate: job bad: b.dat: read failed at offset "*": Input/output error" ]]
	json_ok '.jobs[0].error == null and (.jobs[1].error | test("Input/output error"))'
	json_ok '.jobs[1].error_code == -5 and .groups[0].started == 2'
	[ ! -e a.dat ] && [ ! -e b.dat ] || false
}

@test "a run of one job prints exactly what it printed before (schema 2 run object)" {
	iorate run --engine null -d 0.2 -q --json x
	json_ok 'has("params") and (has("jobs") | not)'
	iorate run --engine null -d 0.2 -q --json --job-name only x
	json_ok 'has("params") and .params.name == "only" and (has("groups") | not)'
}

# A fresh zram device of 64 MiB (as device.bats); skips when zram is not available.
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

teardown() {
	[ -z "${ZRAM:-}" ] || echo "${ZRAM#/dev/zram}" >/sys/class/zram-control/hot_remove 2>/dev/null || true
}

@test "two jobs on one block device: the kernel's bytes per group equal iorate's, exactly" {
	zram_setup
	iorate run --engine sync -d 0.5 -q --json --job-name a "$ZRAM" --job-name b -b 8k "$ZRAM" \
		--job-name c --stonewall -b 16k "$ZRAM"
	[ "$status" -eq 0 ]
	dev=${ZRAM#/dev/}
	json_ok ".groups[0].devices | length == 1 and .[0].device == \"$dev\""
	# The jobs of group 0 each saw the other's reads: the group counts them once.
	json_ok '.groups[0].devices[0].kernel.read_bytes == .groups[0].devices[0].iorate.read_bytes'
	json_ok '.groups[0].devices[0].iorate.read_bytes == .groups[0].read.bytes'
	json_ok '.groups[1].devices[0].kernel.read_bytes == .jobs[2].total.read.bytes'
	json_ok '.total.devices[0].kernel.read_bytes == .total.read.bytes'
	json_ok '.total.devices[0].kernel.write_bytes == 0'
	iorate run --engine sync -d 0.5 -q --job-name a "$ZRAM" --job-name b -b 8k "$ZRAM"
	[[ "$output" == *"group 0, $dev ("*"by iorate: equal"* ]]
}

@test "--flow: the threads of one flow issue I/Os in the ratio of their weights" {
	iorate run --engine null -d 0.3 -q --job-name a --flow 1 x --job-name b --flow 8 -t 2 y \
		--json
	[ "$status" -eq 0 ]
	a=$(jq '.jobs[0].total.read.ios' <<<"$output")
	b=$(jq '.jobs[1].total.read.ios' <<<"$output")
	# b's two threads weigh 8 each: 16 to a's 1, within 1 % and the few I/Os a thread may
	# issue when the others of its flow have ended.
	[ "$a" -gt 10 ]
	[ $((b * 100)) -ge $((a * 1584 - 3200)) ]
	[ $((b * 100)) -le $((a * 1616 + 3200)) ]
	json_ok '[.jobs[].params.shape.flow] == [1, 8]'

	# A job with no flow is held by nothing: it does more than the lighter one.
	iorate run --engine null -d 0.3 -q --job-name a --flow 1 x --job-name b --flow 8 y \
		--job-name c z --json
	[ "$(jq '.jobs[2].total.read.ios' <<<"$output")" -gt "$(jq '.jobs[0].total.read.ios' \
		<<<"$output")" ]
	json_ok '.jobs[2].params.shape.flow == 0'

	# Another flow id is a flow of its own: a and b are not held to 1 to 8. Both threads share
	# one CPU, so the scheduler gives them equal time whatever else the machine runs.
	local cpu
	cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')
	output=$(taskset -c "$cpu" "$IORATE" run --engine null -d 0.3 -q --job-name a --flow 1 x \
		--job-name b --flow 8 --flow-id 1 y --json)
	a=$(jq '.jobs[0].total.read.ios' <<<"$output")
	b=$(jq '.jobs[1].total.read.ios' <<<"$output")
	[ $((b)) -lt $((a * 4)) ]
}

@test "--flow-sleep: the weights hold with held threads sleeping; bad flow options refused" {
	iorate run --engine null -d 0.3 -q --job-name a --flow 1 --flow-sleep 1ms x \
		--job-name b --flow 4 --flow-sleep 1ms y --json
	[ "$status" -eq 0 ]
	a=$(jq '.jobs[0].total.read.ios' <<<"$output")
	b=$(jq '.jobs[1].total.read.ios' <<<"$output")
	[ "$a" -gt 10 ]
	[ $((b * 100)) -ge $((a * 396 - 800)) ]
	[ $((b * 100)) -le $((a * 404 + 800)) ]
	json_ok '.jobs[0].params.shape.flow_sleep_ns == 1000000'

	# aio with submissions batched: a held thread hands what it queued to the kernel before it
	# waits for it (else it would wait for ever).
	iorate run --engine aio --depth 8 --batch 4 -d 0.5 -c 8m -q --job-name a --flow 1 \
		--flow-sleep 1ms a.dat --job-name b --flow 3 --flow-sleep 1ms b.dat --json
	[ "$status" -eq 0 ]
	json_ok '.jobs[0].total.read.ios > 0 and .jobs[1].total.read.ios > .jobs[0].total.read.ios'
	# A job that starts later holds no one back before it starts: a runs alone its first
	# second (as fio adds a job's weight when the job starts).
	iorate run --engine null -d 1 -q --job-name a --flow 1 x --job-name b --flow 1 \
		--start-delay 500ms y --json
	json_ok '[.jobs[0].series[:4][] | .read_ios] | add > 10000'

	iorate run --engine null -d 0.1 --flow 0 x
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--flow"* ]]
	iorate run --engine null -d 0.1 --flow 1001 x
	[ "$status" -eq 2 ]
	iorate run --engine null -d 0.1 --flow-sleep 1ms x
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --flow-sleep: of no effect without --flow" ]
}

@test "--exit-on-error: a job's failure ends the others it names; fio's exitall_on_error" {
	# a fails at its 100th read; b (10 s) ends with it, noted, not interrupted.
	IORATE_FAULT=eio:100 iorate run -d 10 -q -c 8m --job-name a --engine fault \
		--exit-on-error all a.dat --job-name b --engine null b.dat --json
	[ "$status" -eq 1 ]
	json_ok '.jobs[0].error != null and .jobs[1].seconds < 10 and
		.jobs[1].interrupted == false and .jobs[0].params.ends.exit_on_error == "all"'
	json_ok '.jobs[1].notes[0] == "ended early: job a failed, and its failure ends the run"'
	# Without it, b runs its time (here 1 s) although a failed.
	IORATE_FAULT=eio:100 iorate run -d 1 -q -c 8m --job-name a --engine fault a.dat \
		--job-name b --engine null b.dat --json
	json_ok '.jobs[1].seconds >= 1 and .jobs[1].notes == []'
	iorate fio --dry-run --name=a --filename=a.dat --size=1m --exitall_on_error \
		--name=b --filename=b.dat --size=1m
	[ "$status" -eq 0 ]
	[[ "$output" == *"--exitall_on_error --exit-on-error group: when it fails"* ]]
}
