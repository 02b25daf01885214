#!/usr/bin/env bats
# --verify and iorate verify: every block a device hides a fault in is reported, and no intact
# one is. Faults come from the fault engine (bit flips, torn, lost and misdirected writes that
# report success) and, after a run, from the test editing the file itself.

load helpers

# The 4 KiB block numbers of the bad blocks in $output's JSON (at .verify or at the top).
bad_blocks() {
	local o
	for o in $(jqv "(.verify // .) | .bad_blocks[] | .offset"); do
		printf '%s ' $((o / 4096))
	done
}

# Blocks b, b + 10, ... up to 255: what every 10th write of a pass over 256 blocks hits.
every_tenth_from() {
	local b
	for ((b = $1; b < 256; b += 10)); do printf '%s ' "$b"; done
}

@test "--verify: every write lost, torn, bit-flipped or misdirected is found, nothing else" {
	# One pass over 256 blocks: writes 10, 20, ... (blocks 9, 19, ...) stored with a bit flipped.
	IORATE_FAULT=bitflip:10 iorate run --engine fault -s -w 100 -c 1m --io-size 1m --verify \
		--json v.dat
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"verification failed: 25 of 256 blocks bad"* ]]
	json_ok '.verify.checked == 256 and .verify.bad == 25 and
		 ([.verify.bad_blocks[].why] | unique) == ["sum"] and
		 all(.verify.bad_blocks[]; .sum.header != .sum.data)'
	[ "$(bad_blocks)" = "$(every_tenth_from 9)" ]
	# Two passes: the faults of the first are overwritten; those of the second, writes 260,
	# 270, ..., hit blocks 3, 13, ... and stay.
	for fault in torn:sum lost:stale; do
		IORATE_FAULT=${fault%:*}:10 iorate run --engine fault -s -w 100 -c 1m --io-size 2m \
			--verify --json v.dat
		[ "$status" -eq 1 ]
		json_ok ".verify.bad == 26 and ([.verify.bad_blocks[].why] | unique) == [\"${fault#*:}\"]"
		[ "$(bad_blocks)" = "$(every_tenth_from 3)" ]
	done
	# Misdirected one block down: block b - 1 holds block b, and block b keeps its older write.
	IORATE_FAULT=misdirect:10 iorate run --engine fault -s -w 100 -c 1m --io-size 2m --verify \
		--json v.dat
	[ "$status" -eq 1 ]
	json_ok '.verify.bad == 52'
	stale="" moved=0
	while read -r why off found; do
		[ "$why" = stale ] && stale="$stale$((off / 4096)) "
		# What block b - 1 holds says it is block b.
		[ "$why" = offset ] && [ "$found" -eq $((off + 4096)) ] && moved=$((moved + 1))
	done < <(jqv '.verify.bad_blocks[] | "\(.why) \(.offset) \(.found.offset)"')
	[ "$stale" = "$(every_tenth_from 3)" ]
	[ "$moved" -eq 26 ]
	[ ! -e v.dat ]
}

@test "--verify on a sound device: mixed random reads and writes, threads, depth, all intact" {
	iorate run --engine uring -o 8 -t 2 -w 50 -c 8m --bssplit 4k/50:16k/50 --ios 3000 \
		--verify-sum sha256 --json v.dat
	[ "$status" -eq 0 ]
	json_ok '.verify.sum == "sha256" and .verify.block == 4096 and .verify.bad == 0 and
		 .verify.checked > 1000 and .error == null'
	iorate run --engine sync -s -w 100 -c 1m --io-size 1m --verify q.dat
	[ "$status" -eq 0 ]
	[[ "$output" == *"Verification (crc32c, 4096-byte blocks): 256 blocks checked, 0 bad"* ]]
}

@test "iorate verify after the fact: corrupted, torn, misplaced and foreign blocks" {
	iorate run --engine sync -s -w 100 -c 1m --io-size 1m --verify --keep -q v.dat
	[ "$status" -eq 0 ]
	iorate run --engine sync -s -w 100 -c 64k --io-size 64k --verify --keep -q other.dat
	[ "$status" -eq 0 ]
	iorate verify v.dat
	[ "$status" -eq 0 ]
	[[ "$output" == *"256 blocks checked, 0 bad"* ]]
	# One bit of block 5, a zeroed sector inside block 9, block 12 over block 13, and block 3
	# of another run over block 3.
	python3 - <<-'PY'
	f = open("v.dat", "r+b")
	def put(block, at, data):
	    f.seek(block * 4096 + at); f.write(data)
	f.seek(5 * 4096 + 2000); b = f.read(1); put(5, 2000, bytes([b[0] ^ 0x40]))
	put(9, 1024, bytes(512))
	f.seek(12 * 4096); put(13, 0, f.read(4096))
	put(3, 0, open("other.dat", "rb").read()[3 * 4096:4 * 4096])
	PY
	iorate verify --json v.dat
	[ "$status" -eq 1 ]
	[ "$(bad_blocks)" = "3 5 9 13 " ]
	[ "$(jqv '[.bad_blocks[].why] | join(" ")')" = "run sum sum offset" ]
	[ "$(jqv .checked)" -eq 256 ]
	iorate verify v.dat
	[ "$status" -eq 1 ]
	[[ "$output" == *"4 bad"* ]]
	[[ "$output" == *"v.dat at byte 53248: an intact block of another offset"* ]]
	# A checksum mismatch says both checksums: the header's and the data's.
	line_ok "^  v\.dat at byte 20480: checksum mismatch \(corrupted, or a torn write\); the header's crc32c [0-9a-f]{8}, the data's [0-9a-f]{8};"
	iorate verify --json v.dat
	json_ok '[.bad_blocks[] | select(.why == "sum") | .sum | .header != .data and
		 (.header | test("^[0-9a-f]{8}$")) and (.data | test("^[0-9a-f]{8}$"))] == [true, true]'
	json_ok '[.bad_blocks[] | select(.why != "sum") | .sum] == [null, null]'
}

# zero FILE BLOCK...: the 4 KiB blocks overwritten with zeros, as a lost write leaves them.
zero() {
	local f=$1 b
	shift
	for b in "$@"; do
		dd if=/dev/zero of="$f" bs=4096 seek="$b" count=1 conv=notrunc status=none
	done
}

@test "iorate verify: zeroed blocks of a sequential run are lost writes, with and without --result" {
	iorate run --engine sync -s -w 100 -c 1m --io-size 1m --verify --keep --json v.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > v.json
	json_ok '.verify.written == [{"target": 0, "blocks": 256, "truncated": false,
					"extents": [[0, 1048576]]}]'
	cp v.dat pristine.dat
	for how in "" "--result v.json"; do
		iorate verify --json $how v.dat
		[ "$status" -eq 0 ]
		json_ok '.checked == 256 and .bad == 0 and .targets[0].lost == 0 and
			 .targets[0].suspicious == 0 and .targets[0].unwritten == 0'
	done
	zero v.dat 10 20 21 100
	for how in "" "--result v.json"; do
		iorate verify --json $how v.dat
		[ "$status" -eq 1 ]
		[ "$(bad_blocks)" = "10 20 21 100 " ]
		json_ok '.bad == 4 and .targets[0].lost == 4 and .targets[0].suspicious == 0 and
			 ([.bad_blocks[].why] | unique) == ["unwritten"] and
			 all(.bad_blocks[]; .found == null)'
		iorate verify $how v.dat
		[ "$status" -eq 1 ]
		line_ok '^  v\.dat: 4 lost writes \(blocks the run wrote that hold no iorate header\), at bytes 40960, 81920, 86016, 409600$'
	done
	# Half of it, the middle half: 128 more.
	zero v.dat $(seq 64 191)
	for how in "" "--result v.json"; do
		iorate verify --json $how v.dat
		[ "$status" -eq 1 ]
		json_ok '.bad == 131 and .targets[0].lost == 131'
	done
	# Every other block inside (blocks 2, 4, ... 254), and the first half, whose edge is known
	# only from the record.
	cp pristine.dat v.dat
	zero v.dat $(seq 2 2 254)
	for how in "" "--result v.json"; do
		iorate verify --json $how v.dat
		[ "$status" -eq 1 ]
		json_ok '.bad == 127 and .targets[0].lost == 127'
	done
	cp pristine.dat v.dat
	zero v.dat $(seq 0 127)
	iorate verify --json --result v.json v.dat
	[ "$status" -eq 1 ]
	json_ok '.bad == 128 and .targets[0].lost == 128 and .bad_blocks[0].offset == 0'
}

@test "iorate verify: a target sequential runs wrote whole has no lost or suspicious block" {
	for how in "-t 1" "-t 4 --io-size 8m" "-t 2 --engine uring -o 8" \
		   "-t 4 --engine uring -o 4 -b 16k --verify-block 4k --io-size 3m"; do
		rm -f s.dat
		iorate run --engine sync -s -w 100 -c 1m --io-size 1m --verify --keep -q $how s.dat
		[ "$status" -eq 0 ]
		iorate verify --json s.dat
		[ "$status" -eq 0 ]
		json_ok '.bad == 0 and .targets[0].lost == 0 and .targets[0].suspicious == 0'
	done
	# Reads between the writes leave blocks unwritten inside the sweep: suspicious, not lost.
	rm -f s.dat
	iorate run --engine sync -s -w 50 -c 1m --io-size 1m --verify --keep -q s.dat
	[ "$status" -eq 0 ]
	iorate verify --json s.dat
	[ "$status" -eq 0 ]
	json_ok '.bad == 0 and .targets[0].lost == 0'
}

@test "iorate verify --result: a random run's lost writes, placed or, past the record, counted" {
	iorate run --engine sync -t 2 -w 100 -c 1m --ios 100 --verify --keep --json r.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > r.json
	# The record holds the blocks the read-back checked, as ranges.
	json_ok '.verify.written[0] as $w | $w.truncated == false and
		 $w.blocks == .verify.checked and ([$w.extents[][1]] | add) == $w.blocks * 4096'
	iorate verify --json --result r.json r.dat
	[ "$status" -eq 0 ]
	json_ok '.bad == 0 and .targets[0].lost == 0 and .targets[0].suspicious == 0'
	# Without the record, the blocks the run never wrote are only suspicious.
	iorate verify --json r.dat
	[ "$status" -eq 0 ]
	json_ok '.bad == 0 and .targets[0].suspicious > 0'
	# Four blocks it wrote, zeroed.
	blocks=$(jq -r '[.verify.written[0].extents[][0] / 4096] | .[1:5] | join(" ")' r.json)
	zero r.dat $blocks
	iorate verify --json --result r.json r.dat
	[ "$status" -eq 1 ]
	[ "$(bad_blocks)" = "$blocks " ]
	json_ok '.bad == 4 and .targets[0].lost == 4'
	# A sparse run over 16 MiB: its record keeps 256 ranges and counts the rest, whose lost
	# writes are counted without a place.
	iorate run --engine sync -w 100 -c 16m --ios 2000 --verify --keep --json t.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > t.json
	json_ok '.verify.written[0].truncated and (.verify.written[0].extents | length) == 256'
	[ "$(wc -c < t.json)" -lt 40000 ]
	python3 - <<-'PY'
	import json
	w = json.load(open("t.json"))["verify"]["written"][0]
	off = sum(w["extents"][-1]) + 4096
	f = open("t.dat", "r+b")
	n = 0
	while n < 3:
	    f.seek(off)
	    if f.read(8) == b"iorateV1":
	        f.seek(off); f.write(bytes(4096)); n += 1
	    off += 4096
	PY
	iorate verify --json --result t.json t.dat
	[ "$status" -eq 1 ]
	json_ok '.bad == 3 and .targets[0].lost == 3 and .targets[0].lost_unplaced == 3'
	iorate verify --result t.json t.dat
	line_ok '^  t\.dat: 3 lost writes .*; 3 of them beyond the ranges its result records, not placed$'
}

@test "iorate verify: another run's block at the start does not decide which run is checked" {
	iorate run --engine sync -s -w 100 -c 1m --io-size 1m --verify --keep -q v.dat
	[ "$status" -eq 0 ]
	iorate run --engine sync -s -w 100 -c 64k --io-size 64k --verify --keep -q other.dat
	[ "$status" -eq 0 ]
	python3 -c "f=open('v.dat','r+b'); f.write(open('other.dat','rb').read()[:4096])"
	iorate verify --json v.dat
	[ "$status" -eq 1 ]
	[ "$(bad_blocks)" = "0 " ]
	json_ok '.checked == 256 and .bad == 1 and .bad_blocks[0].why == "run"'
	iorate verify v.dat
	[ "$status" -eq 1 ]
	line_ok '^Verification \(crc32c, 4096-byte blocks\): 256 blocks checked, 1 bad$'
	line_ok '^  v\.dat at byte 0: an intact block of another run'
}

@test "iorate verify: two runs about equally common are refused; --seed or --result decides" {
	iorate run --engine sync -s -w 100 -c 1m --io-size 1m --verify --keep --json v.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > v.json
	seed_v=$(jqv .params.seed)
	iorate run --engine sync -s -w 100 -c 1m --io-size 1m --verify --keep --json w.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > w.json
	seed_w=$(jqv .params.seed)
	# The first 120 of v.dat's 256 blocks replaced by w.dat's.
	python3 -c "f=open('v.dat','r+b'); f.write(open('w.dat','rb').read()[:120 * 4096])"
	iorate verify v.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"v.dat: blocks of two runs (or jobs) are about equally common (run $seed_v: 136 blocks seen, run $seed_w: 120); name the one to check with --seed, or give the saved result, which names every job's, with --result"* ]]
	for how in "--seed $seed_v" "--result v.json"; do
		iorate verify --json $how v.dat
		[ "$status" -eq 1 ]
		json_ok '.checked == 256 and .bad == 120 and
			 ([.bad_blocks[].why] | unique) == ["run"] and
			 ([.bad_blocks[].offset] | max) == 119 * 4096'
	done
	iorate verify --json --seed "$seed_w" v.dat
	[ "$status" -eq 1 ]
	json_ok '.bad == 136 and ([.bad_blocks[].offset] | min) == 120 * 4096'
	iorate verify --result w.json w.dat
	[ "$status" -eq 0 ]
	[[ "$output" == *"256 blocks checked, 0 bad"* ]]
	iorate verify --result w.json --seed 5 w.dat
	[ "$status" -eq 2 ]
	iorate verify --result w.json v.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--result: w.json records no run with --verify that wrote v.dat"* ]]
}

@test "iorate verify: a block of another target of the same run is caught" {
	iorate run --engine sync -s -w 100 -c 256k --io-size 256k --verify --keep --json a.dat b.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > ab.json
	# Block 5 of b.dat over block 5 of a.dat: the same run, the same offset, another target.
	python3 - <<-'PY'
	f = open("a.dat", "r+b"); f.seek(5 * 4096)
	f.write(open("b.dat", "rb").read()[5 * 4096:6 * 4096])
	PY
	for how in "" "--result ab.json"; do
		iorate verify --json $how a.dat b.dat
		[ "$status" -eq 1 ]
		[ "$(bad_blocks)" = "5 " ]
		json_ok '.checked == 128 and .bad_blocks[0].why == "target" and
			 .bad_blocks[0].path == "a.dat" and .bad_blocks[0].found.target == 1'
	done
}

@test "--verify: jobs of one group on the same blocks of a target are refused before any I/O" {
	iorate run --engine sync -w 50 -c 1m -d 1 --verify --job-name a two.dat --job-name b two.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--verify: job a and job b reach the same blocks of two.dat at once, and one writes what the other checks; give them separate --offset and --range, or run one after the other (--stonewall)"* ]]
	[ ! -e two.dat ]
	# One job naming a file twice, by two names.
	iorate run --engine sync -w 50 -c 1m -d 1 --verify one.dat ./one.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--verify: one.dat and ./one.dat are one target"* ]]
	[ ! -e one.dat ]
	# fio's job file: two sections on one filename, verify=crc32c.
	printf '%s\n' '[global]' 'ioengine=sync' 'rw=randrw' 'size=1m' 'runtime=1' 'time_based' \
		'verify=crc32c' 'filename=fio.dat' '[a]' '[b]' > j.fio
	iorate fio j.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"job a and job b reach the same blocks of fio.dat at once"* ]]
	[ ! -e fio.dat ]
	# One after the other, or each on its own half: verified, nothing bad.
	iorate run --engine sync -w 50 -c 1m -d 0.3 --verify --json --job-name a two.dat \
		--job-name b --stonewall two.dat
	[ "$status" -eq 0 ]
	json_ok '[.jobs[].verify.bad] == [0, 0] and ([.jobs[].verify.checked] | min) > 0'
	iorate run --engine sync -w 50 -c 1m -d 0.3 --verify --keep --json --job-name a \
		--range 512k two.dat --job-name b --offset 512k two.dat
	[ "$status" -eq 0 ]
	json_ok '[.jobs[].verify.bad] == [0, 0] and ([.jobs[].verify.checked] | min) > 0'
	printf '%s\n' "$output" > two.json
	# Afterwards the two halves name two jobs; the saved result names both.
	iorate verify --result two.json two.dat
	[ "$status" -eq 0 ]
	[[ "$output" == *" 0 bad"* ]]
	# Halves verified in blocks of two sizes: no one size checks both, so --result refuses.
	iorate run --engine sync -w 50 -c 1m -d 0.3 --verify --keep --json --job-name a \
		--range 512k -b 4k two.dat --job-name b --offset 512k -b 8k two.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > mixed.json
	iorate verify --result mixed.json two.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"wrote two.dat in blocks of 4096 and of 8192 bytes"* ]]
	# A job that only reads and checks nothing does not matter to a verifying writer.
	iorate run --engine sync -c 1m -d 0.3 --json --job-name a -w 100 --verify two.dat \
		--job-name b -w 0 two.dat
	[ "$status" -eq 0 ]
	json_ok '.jobs[0].verify.bad == 0 and .jobs[0].verify.checked > 0'
}

@test "iorate verify --result reads every run a saved result holds, and refuses one line for what is not one" {
	iorate run --engine sync -s -w 100 -c 256k --io-size 256k --verify --keep --json a.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > a.json
	# A sweep's JSON holds a run per row: here one wrote blocks of 8 KiB, the next of 4 KiB.
	iorate sweep bs=8k,4k --engine sync -s -w 100 -c 256k --io-size 256k --verify --keep \
		--json s.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > s.json
	iorate verify --result s.json s.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"wrote s.dat in blocks of 8192 and of 4096 bytes"* ]]
	# JSON that holds no run (verify's own findings), a run missing a field, and no JSON.
	iorate verify --json a.dat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > findings.json
	jq 'del(.params.bs)' a.json > broken.json
	printf 'seed 5\n' > text.json
	for f in findings.json broken.json text.json; do
		iorate verify --result $f a.dat
		[ "$status" -eq 2 ]
		one_line
		[ -z "$output" ]
	done
	[[ "$stderr" == *"--result: text.json: not JSON"* ]]
	iorate verify --result findings.json a.dat
	[[ "$stderr" == *"--result: findings.json: holds no run"* ]]
	iorate verify --result broken.json a.dat
	[[ "$stderr" == *"--result: broken.json: params.bs: missing"* ]]
}

@test "--verify and iorate verify refuse what they cannot do, before any I/O" {
	iorate run --engine null --verify x
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--verify: the null engine stores nothing"* ]]
	iorate run --engine sync -c 1m -b 4k --verify-block 8k --verify t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--verify-block: 8192 bytes must divide every block size"* ]]
	[ ! -e t.dat ]
	iorate run --engine sync -c 1m --verify-sum crc32 t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--verify-sum: 'crc32' is not a checksum iorate makes"* ]]
	iorate run --engine sync -c 64k -t 8 -o 1 -w 50 --verify t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"too small for 1 I/Os of 4KiB in flight"* ]]
	[ ! -e t.dat ]
	head -c 65536 /dev/zero > zeros.dat
	iorate verify zeros.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"zeros.dat: no block written by iorate --verify was found"* ]]
	ln -s zeros.dat link.dat
	iorate verify link.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"symbolic link"* ]]
	iorate verify
	[ "$status" -eq 2 ]
}
