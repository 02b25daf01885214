#!/usr/bin/env bats
# Workload shapes of iorate run: block-size mixes, access distributions, random/sequential mixes,
# syncs, pauses and the page cache dropped before a run.

load helpers

@test "a block-size mix issues only its sizes, and the result records the mix" {
	iorate run --engine sync -c 4m --bssplit 4k/50:64k/50 --distribution zipf:1.2 --ios 400 \
		--json t.dat
	[ "$status" -eq 0 ]
	json_ok '.params.shape.bs_read == [[4096, 50], [65536, 50]] and
		 .params.shape.dist == "zipf" and .params.shape.dist_param == 1.2'
	ios=$(jqv .total.read.ios)
	bytes=$(jqv .total.read.bytes)
	[ "$ios" -eq 400 ]
	# bytes = big * 64 KiB + (400 - big) * 4 KiB for a whole number of large reads, some of each.
	big=$(( (bytes - ios * 4096) / (65536 - 4096) ))
	[ $(( big * 65536 + (ios - big) * 4096 )) -eq "$bytes" ]
	[ "$big" -gt 100 ] && [ "$big" -lt 300 ] || false
	[ ! -e t.dat ]
}

@test "reads and writes take their own mixes (READS,WRITES)" {
	iorate run --engine sync -c 4m -w 100 --bssplit 4k/100,8k/100 --ios 50 --json t.dat
	[ "$status" -eq 0 ]
	[ "$(jqv .total.write.bytes)" -eq $(( 50 * 8192 )) ]
}

@test "shapes that cannot be drawn are refused before any I/O, each with its reason" {
	check() {
		local want="$1"; shift
		iorate run --engine sync -c 1m "$@" t.dat
		[ "$status" -eq 2 ] || { echo "exit $status for $*"; return 1; }
		[ "$(echo "$stderr" | wc -l)" -eq 1 ] || { echo "not one line: $stderr"; return 1; }
		[[ "$stderr" == *"$want"* ]] || { echo "'$stderr' lacks '$want'"; return 1; }
		[ ! -e t.dat ]
	}
	check "--bssplit: '4k/60:8k/60' has shares that add up to more than 100%" \
		--bssplit 4k/60:8k/60
	check "--bssplit: the read shares add up to 90%, not 100%" --bssplit 4k/60:8k/30
	check "--bssplit: '4q/100' is not SIZE/PERCENT" --bssplit 4q/100
	check "--distribution: zipf's theta must be above 0 and not 1" --distribution zipf:1
	check "--distribution: 'lognormal' is not a distribution" --distribution lognormal
	check "--distribution: zones' accesses and sizes must each add up to 100%" \
		--distribution zoned:50/10:40/90
	check "--random-pct: '101'" --random-pct 101
	check "--bs: the block size 2MiB is larger than the target" --bssplit 4k/50:2m/50
}

@test "a zoned distribution puts its share of I/Os in its zone (trace)" {
	iorate run --engine sync -c 10m --distribution zoned:80/10:20/90 --ios 2000 --trace io.log \
		-q t.dat
	[ "$status" -eq 0 ]
	[ "$(wc -l < io.log)" -eq 2000 ]
	# Offsets below 1 MiB (the first 10% of 10 MiB): 80% of 2000, within 4 standard deviations.
	first=0
	while read -r _ _ _ off _; do
		[ "$off" -lt 1048576 ] && first=$((first + 1))
	done < io.log
	[ "$first" -gt 1529 ] && [ "$first" -lt 1671 ] || false
}

@test "--random-pct mixes random I/Os into a sequential sweep (DiskSpd -rs)" {
	iorate run --engine sync -c 64m --random-pct 20 --ios 2000 --trace io.log -q t.dat
	[ "$status" -eq 0 ]
	# An I/O that starts where the previous one ended continued the sweep: about 80% do.
	seq=0 prev=-1
	while read -r _ _ _ off len; do
		[ "$off" -eq "$prev" ] && seq=$((seq + 1))
		prev=$((off + len))
	done < io.log
	[ "$seq" -gt 1510 ] && [ "$seq" -lt 1690 ] || false
}

@test "--gap skips bytes after each sequential I/O (fio rw=read:SIZE)" {
	iorate run --engine sync -c 1m -s --gap 12k --ios 4 --trace io.log -q t.dat
	[ "$status" -eq 0 ]
	[ "$(awk '{ printf "%s ", $4 }' io.log)" = "0 16384 32768 49152 " ]
}

@test "fdatasync, end-fsync and thinktime run every write and are recorded" {
	iorate run --engine sync -c 1m -w 100 --fdatasync 8 --end-fsync --thinktime 1ms \
		--thinktime-blocks 16 --start-delay 10ms --ios 64 --json t.dat
	[ "$status" -eq 0 ]
	json_ok '.total.write.ios == 64 and .total.write.errors == 0 and
		 .params.shape.fdatasync_every == 8 and .params.shape.end_fsync and
		 .params.shape.thinktime_ns == 1000000 and .params.shape.thinktime_blocks == 16 and
		 .params.shape.startdelay_ns == 10000000'
}

@test "a buffered run starts with the target's pages dropped, unless --no-invalidate" {
	command -v fincore >/dev/null || skip "fincore (util-linux) is not installed"
	head -c 8388608 /dev/urandom > t.dat
	cat t.dat > /dev/null
	resident() { fincore -b -n -o RES t.dat | tr -d ' '; }
	# Read one block (--ios 1): what stays cached is at most that block and its read-ahead.
	iorate run --engine sync --cache buffered --ios 1 -q t.dat
	[ "$status" -eq 0 ]
	[ "$(resident)" -lt 4194304 ]
	cat t.dat > /dev/null
	local before=$(resident)
	iorate run --engine sync --cache buffered --ios 1 -q --no-invalidate t.dat
	[ "$status" -eq 0 ]
	# The pages stay (all of them on an idle machine; the kernel may reclaim a few under the
	# memory pressure of a full test run, never most of them as the first run drops them).
	[ "$(resident)" -gt 4194304 ]
	[ "$before" -gt 4194304 ]
	[ -e t.dat ]
}

@test "--io-size stops each thread after that many bytes, with or without a size mix" {
	iorate run --engine sync -c 4m -t 2 --io-size 1m --json t.dat
	[ "$status" -eq 0 ]
	[ "$(jqv .total.read.bytes)" -eq $(( 2 * 1048576 )) ]
	iorate run --engine sync -c 4m --bssplit 4k/50:64k/50 --io-size 1m --json t.dat
	[ "$status" -eq 0 ]
	# The last I/O may pass the mark: at least 1 MiB, less than 1 MiB + 64 KiB.
	bytes=$(jqv .total.read.bytes)
	[ "$bytes" -ge 1048576 ] && [ "$bytes" -lt $(( 1048576 + 65536 )) ] || false
}

@test "--seq-threads each: every thread sweeps the region from its --thread-stride" {
	iorate run --engine sync -c 64k -s -t 2 --seq-threads each --thread-stride 32k --ios 3 \
		--trace io.log -q t.dat
	[ "$status" -eq 0 ]
	[ "$(awk '$2 == 0 { printf "%s ", $4 }' io.log)" = "0 4096 8192 " ]
	[ "$(awk '$2 == 1 { printf "%s ", $4 }' io.log)" = "32768 36864 40960 " ]
	iorate run --engine sync -c 64k --thread-stride 32k t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--thread-stride: needs sequential threads"* ]]
}

@test "zoned_abs puts its share in a zone given in bytes" {
	iorate run --engine sync -c 16m --distribution zoned_abs:75/1m:25/0 --ios 2000 \
		--trace io.log -q t.dat
	[ "$status" -eq 0 ]
	first=0
	while read -r _ _ _ off _; do
		[ "$off" -lt 1048576 ] && first=$((first + 1))
	done < io.log
	# 75% of 2000 within 4 standard deviations (77 I/Os).
	[ "$first" -gt 1423 ] && [ "$first" -lt 1577 ] || false
}

@test "--shared-threads: two threads serve 40 files, every file gets its turn" {
	mkdir d
	iorate run --engine sync -c 64k -w 100 -t 2 --shared-threads --ios 200 --json \
		d/f{1..40}
	[ "$status" -eq 0 ]
	json_ok '(.targets | length) == 40 and .total.write.ios == 400 and
		 .params.shape.shared_threads'
	# Round robin: 400 I/Os over 40 files, 10 each; the files keep counts, the run latencies.
	[ "$(jqv '[.targets[].write.ios] | unique | .[]')" = 10 ]
	[ "$(jqv '[.targets[].write.lat_n] | unique | .[]')" = 0 ]
	[ "$(jqv .total.write.lat_n)" -eq 400 ]
	[ -z "$(ls d)" ]
	iorate run --engine null --shared-threads --file-service random:x a b
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--file-service: 'random:x' has an N that is not a whole number"* ]]
}

@test "--shared-threads: ten thousand null targets on one thread" {
	iorate run --engine null --shared-threads -t 1 -c 1m --ios 20000 --json \
		$(seq -f 'n%g' 1 10000)
	[ "$status" -eq 0 ]
	[ "$(jqv '.targets | length')" -eq 10000 ]
	[ "$(jqv '[.targets[].read.ios] | unique | .[]')" = 2 ]
}

@test "--distribution sequence: the blocks in the order given, repeated or a group further on" {
	iorate run --engine null --distribution sequence:2,0,1 --ios 6 -c 48k --trace t.log -q \
		--json s.dat
	[ "$status" -eq 0 ]
	[ "$(awk '{print $4}' t.log | tr '\n' ' ')" = "8192 0 4096 8192 0 4096 " ]
	json_ok '.params.shape.dist == "sequence" and .params.shape.sequence == [2, 0, 1] and
		.params.shape.sequence_stride == false'
	rm t.log
	iorate run --engine null --distribution sequence:2,0,1 --sequence-stride --ios 6 -c 48k \
		--trace t.log -q s.dat
	[ "$(awk '{print $4}' t.log | tr '\n' ' ')" = "8192 0 4096 20480 12288 16384 " ]
	# Each direction counts its own I/Os (fio's io_issues per direction).
	rm t.log
	iorate run --engine null --distribution sequence:1,0 -w 50 --ios 40 -c 48k --trace t.log \
		-q s.dat
	[ "$(awk '$3 == "R" {print $4}' t.log | head -4 | tr '\n' ' ')" = "4096 0 4096 0 " ]
	[ "$(awk '$3 == "W" {print $4}' t.log | head -4 | tr '\n' ' ')" = "4096 0 4096 0 " ]
	iorate run --engine null --distribution sequence -c 48k s.dat
	[ "$status" -eq 2 ]
	iorate run --engine null --sequence-stride -c 48k s.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --sequence-stride: of no effect without --distribution sequence" ]
	iorate run --engine sync --verify -w 50 --distribution sequence:0,1 -c 48k s.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --verify: not with --distribution sequence" ]
	iorate run --engine null --distribution sequence:1,x -c 48k s.dat
	[ "$status" -eq 2 ]
	iorate run --engine null --distribution "sequence:$(seq -s, 0 64)" -c 48k s.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"more than 64 block indices"* ]]
	# fio's job file of a newer fio (random_distribution=sequence, random_sequence_stride).
	printf '[s]\nioengine=null\nrw=randread\nbs=4k\nsize=48k\nio_size=24k\n%s\n%s\n' \
		'random_distribution=sequence:2,0,1' 'random_sequence_stride=1' >seq.fio
	iorate fio --dry-run seq.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *"--distribution sequence:2,0,1 --sequence-stride"* ]]
}
