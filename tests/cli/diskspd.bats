#!/usr/bin/env bats
# End to end: DiskSpd 2.1/2.2 flags and XML profiles (-X) run as jobs of one run. Needs $IORATE.
# Runs are 1 s on 8 MiB files with the sync or null engine: the point is the translation and
# the grouping. The profiles are written here.

bats_require_minimum_version 1.5.0

setup() { cd "$BATS_TEST_TMPDIR"; }

# Every result of a run, wherever the report puts them: objects with params, targets and total.
results() { echo "$output" | jq -s '[.. | objects | select(has("params") and has("targets")
	and has("total"))]'; }
# One jq expression over those results, printed (-r).
res() { results | jq -r "$1"; }

# A target of a profile: path, block size, request count, then more elements.
target() {
	printf '<Target><Path>%s</Path><BlockSize>%s</BlockSize><RequestCount>%s</RequestCount>' \
		"$1" "$2" "$3"
	shift 3
	printf '%s' "$*"
	printf '</Target>\n'
}

# A TimeSpan of 1 s without warm-up holding the targets given.
timespan() {
	printf '<TimeSpan><Duration>1</Duration><Warmup>0</Warmup><Targets>\n%s</Targets></TimeSpan>\n' "$*"
}

profile() { printf '<?xml version="1.0"?>\n<Profile><TimeSpans>\n%s</TimeSpans></Profile>\n' "$*"; }

@test "diskspd -X: two targets of different parameters run as two jobs of one group" {
	head -c 1048576 /dev/urandom >b.dat
	before=$(md5sum <b.dat)
	profile "$(timespan "$(target a.dat 8192 1 '<Random>8192</Random><WriteRatio>50</WriteRatio>
		<FileSize>8388608</FileSize>')" "$(target b.dat 65536 1 '<FileSize>8388608</FileSize>')")" \
		>p.xml
	run --separate-stderr "$IORATE" diskspd -Xp.xml --engine sync --json --quiet
	[ "$status" -eq 0 ]
	[ "$(res 'length')" = 2 ]
	[ "$(res '[.[].params.name] | join(" ")')" = "ts1.t1 ts1.t2" ]
	[ "$(res '[.[].params.group] | join(" ")')" = "0 0" ]
	[ "$(res '[.[].params.bs] | join(" ")')" = "8192 65536" ]
	[ "$(res '[.[].params.pattern] | join(" ")')" = "random sequential" ]
	[ "$(res '[.[].params.write] | join(" ")')" = "50 0" ]
	[ "$(res '.[0].total.write.ios > 0 and .[0].total.read.ios > 0 and .[1].total.read.ios > 0')" = true ]
	# <FileSize> made a.dat and grew the smaller b.dat, as -c does, keeping what it held.
	[ "$(res '[.[].targets[0].created] | join(" ")')" = "true false" ]
	[ "$(stat -c %s a.dat)" = 8388608 ] && [ "$(stat -c %s b.dat)" = 8388608 ] || false
	[ "$(head -c 1048576 b.dat | md5sum)" = "$before" ]
	[[ "$stderr" == *"TimeSpan 1, job ts1.t1 (group 0, 1 target, run with the TimeSpan's other jobs):"* ]]
	[[ "$stderr" == *"  = ts1.t2 (group 0): iorate run --bs 64KiB --time 1s"*" b.dat"* ]]
}

@test "diskspd -X: targets whose parameters agree share one job" {
	profile "$(timespan "$(target a.dat 4096 1 '<FileSize>8388608</FileSize>')" \
		"$(target b.dat 8192 1 '<FileSize>8388608</FileSize>')" \
		"$(target c.dat 4096 1 '<FileSize>8388608</FileSize>')")" >p.xml
	run --separate-stderr "$IORATE" diskspd -Xp.xml --engine sync --json --quiet
	[ "$status" -eq 0 ]
	[ "$(res '[.[].params.name] | join(" ")')" = "ts1.t1+t3 ts1.t2" ]
	[ "$(res '[.[0].targets[].path] | join(" ")')" = "a.dat c.dat" ]
	[ "$(res '[.[0].targets[].read.ios > 0] | all')" = true ]
	[[ "$stderr" == *"c.dat"*"target 3: the settings of this job, so it runs in it"* ]]
}

@test "diskspd -X: two TimeSpans run one after another, the second on the file the first made" {
	profile "$(timespan "$(target '*1' 4096 1 '<FileSize>8388608</FileSize>')")" \
		"$(timespan "$(target '*1' 4096 1 '<Random>4096</Random>')")" >p.xml
	run --separate-stderr "$IORATE" diskspd -Xp.xml --engine sync --json --quiet data.dat
	[ "$status" -eq 0 ]
	[ "$(res '[.[].params.group] | join(" ")')" = "0 1" ]
	[ "$(res '[.[].params.pattern] | join(" ")')" = "sequential random" ]
	# The second began after the first's measured second: start times in whole ms.
	[ "$(res '.[1].start_unix_ms >= .[0].start_unix_ms + 1000')" = true ]
	[ "$(res '.[1].total.read.ios > 0')" = true ]
	[ "$(stat -c %s data.dat)" = 8388608 ]
}

@test "diskspd -X: the targets after it replace *1, *2; -d beside it sets every TimeSpan" {
	profile "$(timespan "$(target '*2' 4096 1)" "$(target '*1' 8192 1)")" >p.xml
	run --separate-stderr "$IORATE" diskspd --dry-run -d2 -Xp.xml first.dat second.dat
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"  = ts1.t1 (group 0): iorate run --bs 4KiB --time 2s "*" second.dat"* ]]
	[[ "$stderr" == *"  = ts1.t2 (group 0): iorate run --bs 8KiB --time 2s "*" first.dat"* ]]
	[[ "$stderr" == *"  -d2              --time 2: seconds measured"* ]]
	run --separate-stderr "$IORATE" diskspd --dry-run -Xp.xml first.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"p.xml: TimeSpan 1, target 1: <Path>*2: names target 2 of those after -X, but 1 is given"* ]]
	run --separate-stderr "$IORATE" diskspd --dry-run -b8k -Xp.xml first.dat second.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: diskspd: -b8k: not supported by iorate beside -X: "* ]]
}

@test "diskspd -X: every element iorate cannot run is refused at once, each with its line" {
	cat >p.xml <<-EOF
	<Profile>
	  <TimeSpans><TimeSpan><CompletionRoutines>true</CompletionRoutines><Targets>
	    <Target><Path>a.dat</Path><FileSize>8388608</FileSize>
	      <MemoryMappedIo>true</MemoryMappedIo>
	      <Colour>blue</Colour>
	    </Target>
	  </Targets></TimeSpan></TimeSpans>
	</Profile>
	EOF
	run --separate-stderr "$IORATE" diskspd -Xp.xml --engine sync
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: diskspd: p.xml: 3 elements iorate cannot run: "* ]]
	[[ "$stderr" == *"line 2: /Profile/TimeSpans/TimeSpan/CompletionRoutines: 'true': not supported by iorate: completion routines"* ]]
	[[ "$stderr" == *"line 4: /Profile/TimeSpans/TimeSpan/Targets/Target/MemoryMappedIo: 'true': not supported by iorate: memory-mapped I/O"* ]]
	[[ "$stderr" == *"line 5: /Profile/TimeSpans/TimeSpan/Targets/Target/Colour: not an element iorate knows in <Target>"* ]]
	[ ! -e a.dat ]
}

@test "diskspd -X: a profile never makes iorate read another file" {
	echo '<Path>secret</Path>' >secret.txt
	cat >p.xml <<-EOF
	<?xml version="1.0"?>
	<!DOCTYPE Profile [<!ENTITY s SYSTEM "file://$BATS_TEST_TMPDIR/secret.txt">]>
	<Profile><TimeSpans><TimeSpan><Targets><Target>&s;</Target></Targets></TimeSpan></TimeSpans></Profile>
	EOF
	run --separate-stderr "$IORATE" diskspd --dry-run -Xp.xml
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"p.xml: a DOCTYPE is not read"* ]]
	[[ "$stderr" != *secret* ]]
	run --separate-stderr "$IORATE" diskspd --dry-run -Xmissing.xml
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"missing.xml: No such file or directory"* ]]
}

@test "diskspd: -rs, -rdpct, -g<n>i, -B<base>:<length> and -T land in the run's parameters" {
	run --separate-stderr "$IORATE" diskspd -b8k -d1 -W0 -r -rs20 -rdpct90/10:0/10 -g500i -t2 \
		-B1M:4M -c8M --engine null --json --quiet a.dat
	[ "$status" -eq 0 ]
	[ "$(res '.[0].params.shape | [.random_pct, .dist, (.zones | map(map(tostring) | join("/")) | join(":"))] | join(" ")')" = \
		"20 zoned 90/10:0/10:10/80" ]
	[ "$(res '.[0].params | [.cap.iops, .offset, .range, .shape.invalidate] | join(" ")')" = \
		"1000 1048576 4194304 false" ]
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -t4 -T1M -s16k -o1 -c8M --engine null \
		--json --quiet a.dat
	[ "$status" -eq 0 ]
	[ "$(res '.[0].params | [.pattern, .shape.seq_per_thread, .shape.thread_stride, .shape.skip] | join(" ")')" = \
		"sequential true 1048576 12288" ]
	[[ "$stderr" == *"  -s16k            --seq-threads each: "* ]]
}

@test "diskspd -F: threads shared by every target, -o on each of them" {
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -F3 -o4 -c8M --engine null --json \
		--quiet a.dat b.dat
	[ "$status" -eq 0 ]
	[ "$(res '.[0].params | [.threads, .depth, .shape.shared_threads] | join(" ")')" = "3 8 true" ]
	[[ "$stderr" == *"  -o4              --depth 8: 4 on each of the 2 targets each shared thread serves"* ]]
}

@test "diskspd -g<n>i caps each target at n I/Os per second for each of its threads" {
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -t2 -o1 -g50i -c8M --engine null \
		--json --quiet a.dat
	[ "$status" -eq 0 ]
	[ "$(res '.[0].params.cap.iops')" = 100 ]
	# 100 a second for 1 s (caps.bats checks the caps' precision); uncapped, null does millions.
	[ "$(res '.[0].total.total.ios <= 110 and .[0].total.total.ios > 0')" = true ]
}

@test "diskspd -D<ms>: DiskSpd's IOPS buckets are the series' interval; a bad one is refused as -D" {
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -D250 -c1M --engine null --json \
		--quiet a.dat
	[ "$status" -eq 0 ]
	[ "$(res '.[0] | [.interval_ns, (.series | length), .params.interval_ns] | join(" ")')" = \
		"250000000 4 250000000" ]
	[[ "$stderr" == *"  -D250            --interval 250ms: "* ]]
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -D -c1M --engine null --json --quiet a.dat
	[ "$status" -eq 0 ]
	[ "$(res '.[0].interval_ns')" = 1000000000 ]
	run --separate-stderr "$IORATE" diskspd -b4k -d1 -W0 -D5 -c1M --engine null --quiet a.dat
	[ "$status" -eq 2 ]
	[ "$(echo "$stderr" | tail -1)" = "iorate: -D: must be from 10ms to 1h" ]
}
