#!/usr/bin/env bats
# End to end: iorate mark, CrystalDiskMark's and KDiskMark's suite. Needs $IORATE. Runs are 50 to
# 100 ms on 8 MiB files, mostly with the null engine, one or two runs, no pause and often no
# preparing run: the point is the suite, the scores, the units and the formats.

bats_require_minimum_version 1.5.0

setup() { cd "$BATS_TEST_TMPDIR"; mkdir d; }

# py EXPR: EXPR in Python over the JSON document on stdin, as d.
py() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

QUICK=(--runs 2 --measure 20ms --pause 0 --size 8M --no-prepare)

@test "mark: the table reads like CrystalDiskMark's; the directory's test file is removed" {
	run --separate-stderr "$IORATE" mark --profile real --runs 1 --measure 50ms --pause 0 \
		--size 8M --engine sync d
	[ "$status" -eq 0 ]
	[[ "$output" == *"* MB/s = 1,000,000 bytes/s, as CrystalDiskMark counts"* ]]
	[[ "$output" == *"* Score: the best of 1 runs (highest MB/s and IOPS, lowest latency)"* ]]
	[[ "$output" == *"[Read]"*"SEQ    1MiB (Q=  1, T= 1):"*"MB/s ["*"IOPS] <"*"us>"* ]]
	[[ "$output" == *"[Write]"*"RND    4KiB (Q=  1, T= 1):"* ]]
	[[ "$output" != *"[Mix]"* ]]
	[[ "$output" == *"Profile: Real World Performance"$'\n'* ]]
	[[ "$output" == *"Test: 8MiB (x1)"* ]]
	[[ "$output" == *"a preparing run before each test"* ]]
	[[ "$output" == *"Kernel: Linux"* ]]
	[ -z "$(ls d)" ]
}

@test "mark: a profile and preset run their tests, each with its depth and threads" {
	local want
	# Every list is checked in tests/unit/test_mark.c; here that they are what runs.
	for p in "default nvme" "peak standard"; do
		set -- $p
		run --separate-stderr "$IORATE" mark --json --profile "$1" --preset "$2" \
			--runs 1 --measure 20ms --pause 0 --no-prepare --engine null d
		[ "$status" -eq 0 ]
		case $p in
		default*) want="SEQ1M Q8T1,SEQ128K Q32T1,RND4K Q32T16,RND4K Q1T1" ;;
		peak*) want="SEQ1M Q8T1,RND4K Q32T1" ;;
		esac
		[ "$(echo "$output" | py "','.join(t['name'] for t in d['tests'])")" = "$want" ]
		# Each test's read and write ran with its own queue depth and threads.
		echo "$output" | py "(d['profile'], d['preset']) == ('$1', '$2') and all(
			t[k]['result']['params']['depth'] == t['depth'] and
			t[k]['result']['params']['threads'] == t['threads'] and
			t[k]['result']['params']['write'] == (k == 'write') * 100
			for t in d['tests'] for k in ('read', 'write')) or sys.exit(1)"
	done
	# Flash Memory pauses 30 s unless told (one test here: no pause), and --measure wins.
	run --separate-stderr "$IORATE" mark --json --preset flash --profile demo --read-only \
		--runs 1 --measure 20ms --no-prepare --engine null d
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | py "(d['measure'], d['pause'], d['interval'])")" = "(0.02, 30.0, 30.0)" ]
}

@test "mark --pause: the time between tests; --interval is refused naming --pause" {
	run --separate-stderr "$IORATE" mark --json --profile real --read-only --runs 1 \
		--measure 20ms --pause 400ms --no-prepare --engine null d
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | py "(d['pause'], d['interval'])")" = "(0.4, 0.4)" ]
	# The second test started at least the pause after the first one's window ended (the
	# start times are whole milliseconds, so one may be read up to 1 ms early).
	echo "$output" | py "d['tests'][1]['read']['result']['start_unix_ms'] -
		(d['tests'][0]['read']['result']['start_unix_ms'] +
		 d['tests'][0]['read']['result']['seconds'] * 1000) >= 399 or sys.exit(1)"
	for v in --interval=0 "--interval 0"; do
		run --separate-stderr "$IORATE" mark $v --profile demo --engine null d
		[ "$status" -eq 2 ]
		[ "$stderr" = "iorate: --interval: mark's pause between tests is --pause; --interval is the series interval of 'iorate run' and 'iorate sweep' (see 'iorate mark --help')" ]
	done
	[ -z "$(ls d)" ]
	# --help, the man page and the completion offer --pause and not --interval.
	run "$IORATE" mark --help
	[[ "$output" == *"--pause DURATION"* && "$output" != *"--interval"* ]]
	run "$IORATE" help --completion
	[[ "$(echo "$output" | grep '^	mark) words=')" == *" --pause "* ]]
	[[ "$(echo "$output" | grep '^	mark) words=')" != *" --interval "* ]]
}

@test "mark --json: every run's counts; best is the highest of them, mean their mean" {
	run --separate-stderr "$IORATE" mark --json --profile demo "${QUICK[@]}" --runs 3 \
		--engine null d
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | py "(d['score'], d['units'], d['mix_read_pct'], d['prepare'])")" = \
		"('best', 'si', None, False)" ]
	# Best: each figure the best any run reached; the kept run is the one of most MB/s.
	echo "$output" | py "all(len(c['runs']) == 3 and
		c['mbps'] == max(r['mbps'] for r in c['runs']) and
		c['iops'] == max(r['iops'] for r in c['runs']) and
		c['kdiskmark_mbps'] == max(r['kdiskmark_mbps'] for r in c['runs']) and
		c['lat_mean_us'] == min(r['lat_mean_us'] for r in c['runs']) and
		c['runs'][c['best_run'] - 1]['mbps'] == c['mbps'] and
		c['result']['total']['total']['ios'] ==
			sum(c['runs'][c['best_run'] - 1][k]['ios'] for k in ('read', 'write'))
		for t in d['tests'] for c in (t['read'], t['write'])) or sys.exit(1)"
	# A run's figures come from its counts: IOPS is I/Os over seconds, exactly.
	echo "$output" | py "all(r['iops'] == (r['read']['ios'] + r['write']['ios']) / r['seconds']
		for t in d['tests'] for r in t['read']['runs']) or sys.exit(1)"
	[ "$(echo "$output" | py "d['tests'][0]['mix']")" = None ]
	run --separate-stderr "$IORATE" mark --json --score mean --profile demo "${QUICK[@]}" \
		--runs 3 --engine null d
	[ "$status" -eq 0 ]
	echo "$output" | py "d['score'] == 'mean' and all(
		c['mbps'] == sum(r['mbps'] for r in c['runs']) / len(c['runs']) and
		c['iops'] == sum(r['iops'] for r in c['runs']) / len(c['runs']) and
		c['lat_mean_us'] == sum(r['lat_mean_us'] for r in c['runs']) / len(c['runs'])
		for t in d['tests'] for c in (t['read'], t['write'])) or sys.exit(1)"
}

@test "mark --mix: reads, then writes, then the Mix, whose writes are its share" {
	run --separate-stderr "$IORATE" mark --json --mix-read 60 --profile peak --runs 1 \
		--measure 50ms --pause 0 --no-prepare --engine null d
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | py "d['mix_read_pct']")" = 60 ]
	# 40% of each Mix run's I/Os are writes, within 2 points of millions drawn.
	echo "$output" | py "all(t['mix']['result']['params']['write'] == 40 and
		38 * (r['read']['ios'] + r['write']['ios']) <= 100 * r['write']['ios'] <=
		42 * (r['read']['ios'] + r['write']['ios'])
		for t in d['tests'] for r in t['mix']['runs']) or sys.exit(1)"
	# Every read started before every write, every write before every Mix.
	echo "$output" | py "max(t['read']['result']['start_unix_ms'] for t in d['tests']) <=
		min(t['write']['result']['start_unix_ms'] for t in d['tests']) and
		max(t['write']['result']['start_unix_ms'] for t in d['tests']) <=
		min(t['mix']['result']['start_unix_ms'] for t in d['tests']) or sys.exit(1)"
	run --separate-stderr "$IORATE" mark --mix --profile demo "${QUICK[@]}" --engine null d
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: mark: --mix: the demo profile has no Mix tests" ]
	run --separate-stderr "$IORATE" mark --mix --read-only --profile real "${QUICK[@]}" \
		--runs 1 --engine null d
	[ "$status" -eq 0 ]
	[[ "$output" == *"[Write]"*"(skipped)"*"[Mix] Read 70% / Write 30%"*"(skipped)"* ]]
}

@test "mark --units: each unit names itself in the rows and the header" {
	run --separate-stderr "$IORATE" mark --units kdiskmark --score mean --profile demo \
		"${QUICK[@]}" --runs 1 --engine null d
	[ "$status" -eq 0 ]
	[[ "$output" == *"* MB/s* = 1,024,000 bytes/s: fio's KiB/s divided by 1000"* ]]
	[[ "$output" == *"* Score: the mean of 1 runs (MB/s*, IOPS, latency), as KDiskMark's"* ]]
	[[ "$output" == *"[Read]"*" MB/s* ["*"[Write]"*" MB/s* ["* ]]
	run --separate-stderr "$IORATE" mark --units iec --profile demo "${QUICK[@]}" --runs 1 \
		--engine null d
	[[ "$output" == *"* MiB/s = 1,048,576 bytes/s"* ]]
	[[ "$output" == *" MiB/s ["* ]]
	# The JSON has every unit whatever --units says, and names the table's.
	run --separate-stderr "$IORATE" mark --json --units iec --profile demo "${QUICK[@]}" \
		--runs 1 --engine null d
	echo "$output" | py "d['units'] == 'iec' and all(k in d['tests'][0]['read'] for k in
		('mbps', 'mibps', 'kdiskmark_mbps', 'iops', 'lat_mean_us')) or sys.exit(1)"
}

@test "mark --csv: one row per test and direction, the score named, every unit" {
	run --separate-stderr "$IORATE" mark --csv --profile peak --preset nvme "${QUICK[@]}" \
		--runs 1 --engine null d
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "profile,preset,test,direction,pattern,bs,queue_depth,threads,write_pct,score,runs,best_run,mbps,mibps,kdiskmark_mbps,iops,lat_mean_us" ]
	[ "${#lines[@]}" -eq 5 ]
	[[ "${lines[1]}" == "peak,nvme,SEQ1M Q8T1,read,sequential,1048576,8,1,0,best,1,1,"* ]]
	[[ "${lines[4]}" == "peak,nvme,RND4K Q32T16,write,random,4096,32,16,100,best,1,1,"* ]]
}

@test "mark --read-only skips the writes" {
	run --separate-stderr "$IORATE" mark --read-only --profile peak "${QUICK[@]}" --runs 1 \
		--engine null d
	[ "$status" -eq 0 ]
	[[ "$output" == *"[Write]"*"(skipped)"* ]]
}

@test "mark: bad usage exits 2 before any test" {
	run --separate-stderr "$IORATE" mark --profile fastest d
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--profile: 'fastest' is not a profile"* ]]
	run --separate-stderr "$IORATE" mark --profile nvme d
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --profile: 'nvme' is a --preset, not a profile (default, peak, real, demo)" ]
	run --separate-stderr "$IORATE" mark --score max d
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--score: 'max' is not a score (best, mean)"* ]]
	run --separate-stderr "$IORATE" mark --units fio d
	[ "$status" -eq 2 ]
	run --separate-stderr "$IORATE" mark --mix-read 100 d
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--mix-read: '100' is not a percentage of reads from 1 to 99"* ]]
	run --separate-stderr "$IORATE" mark --runs 0 d
	[ "$status" -eq 2 ]
	run --separate-stderr "$IORATE" mark "${QUICK[@]}"
	[ "$status" -eq 2 ]
	[ -z "$(ls d)" ]
}

@test "mark: --size smaller than a test's block size is refused before the file is made" {
	# The directory's time stamp, set in the past, moves if a file is made in it (and removed).
	touch -d 2001-01-01 d
	run --separate-stderr "$IORATE" mark --profile real --size 512K --runs 1 --measure 50ms \
		--pause 0 --engine sync d
	[ "$status" -eq 2 ]
	[[ "$stderr" =~ ^"iorate: mark: SEQ1M Q1T1 read: --bs: the block size 1MiB is larger than the target d/iorate-mark."[a-z0-9]{12}".dat (512KiB)"$ ]]
	[ -z "$output" ]
	[[ "$(stat -c %y d)" == 2001-01-01* ]]
	[ -z "$(ls d)" ]
	# A file that is there is taken as it is, read only.
	head -c 512K /dev/urandom >d/small.dat
	sum=$(sha256sum <d/small.dat)
	run --separate-stderr "$IORATE" mark --profile real --size 512K --runs 1 --measure 50ms \
		--pause 0 --engine sync d/small.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: mark: SEQ1M Q1T1 read: --bs: the block size 1MiB is larger than the target d/small.dat (512KiB)" ]
	[ -z "$output" ]
	[ "$(sha256sum <d/small.dat)" = "$sum" ]
}
