#!/usr/bin/env bats
# End to end: iorate mark, CrystalDiskMark's suite. Needs $IORATE. Runs are 100 ms on 8 MiB
# files, one or two runs, no interval: the point is the suite, the table and the formats.

bats_require_minimum_version 1.5.0

setup() { cd "$BATS_TEST_TMPDIR"; mkdir d; }

js() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

QUICK=(--runs 2 --measure 100ms --interval 0 --size 8M)

@test "mark: the table reads like CrystalDiskMark's; the directory's test file is removed" {
	run --separate-stderr "$IORATE" mark --profile real "${QUICK[@]}" --engine sync d
	[ "$status" -eq 0 ]
	[[ "$output" == *"* MB/s = 1,000,000 bytes/s"* ]]
	[[ "$output" == *"[Read]"*"SEQ    1MiB (Q=  1, T= 1):"*"MB/s ["*"IOPS] <"*"us>"* ]]
	[[ "$output" == *"[Write]"*"RND    4KiB (Q=  1, T= 1):"* ]]
	[[ "$output" == *"Profile: Real World Performance"* ]]
	[[ "$output" == *"Test: 8MiB (x2)"* ]]
	[[ "$output" == *"Kernel: Linux"* ]]
	[ -z "$(ls d)" ]
}

@test "mark --json: every test of the default profile, read and write, best of the runs" {
	run --separate-stderr "$IORATE" mark --json "${QUICK[@]}" --engine null d
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | js "[t['name'] for t in d['tests']]")" = \
		"['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1']" ]
	[ "$(echo "$output" | js "len(d['tests'][2]['write']['runs_mbps'])")" = 2 ]
	[ "$(echo "$output" | js "d['tests'][0]['read']['mbps'] == max(d['tests'][0]['read']['runs_mbps'])")" = True ]
	[ "$(echo "$output" | js "d['tests'][2]['read']['result']['params']['depth']")" = 32 ]
	[ "$(echo "$output" | js "d['origin']")" = mark ]
}

@test "mark --csv and the nvme profile" {
	run --separate-stderr "$IORATE" mark --csv --profile nvme "${QUICK[@]}" --runs 1 --engine null d
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "profile,test,direction,pattern,bs,queue_depth,threads,mbps,mibps,iops,lat_mean_us,lat_p99_us,runs,best_run" ]
	[ "${#lines[@]}" -eq 9 ]
	[[ "${lines[5]}" == "nvme,RND4K Q32T16,read,random,4096,32,16,"* ]]
}

@test "mark --read-only skips the writes" {
	run --separate-stderr "$IORATE" mark --read-only --profile peak "${QUICK[@]}" --engine null d
	[ "$status" -eq 0 ]
	[[ "$output" == *"[Write]"*"(skipped)"* ]]
}

@test "mark: bad usage exits 2" {
	run --separate-stderr "$IORATE" mark --profile fastest d
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--profile: 'fastest' is not a profile"* ]]
	run --separate-stderr "$IORATE" mark --runs 0 d
	[ "$status" -eq 2 ]
	run --separate-stderr "$IORATE" mark "${QUICK[@]}"
	[ "$status" -eq 2 ]
}
