#!/usr/bin/env bats
# Engines are what they say: fio's posixaio, pvsync and pvsync2 make their own system calls
# (seen with strace), count what fio 3.33 counts on the same job, and an engine that iorate
# still runs as another says so before the run and in every report.

load helpers

need_strace() {
	command -v strace >/dev/null || skip "strace is not installed (make deps installs it)"
}

# A file of 1 MiB the test makes, so neither fio nor iorate lays one out.
data() {
	head -c 1048576 /dev/urandom > "$1"
}

# io_threads PREFIX: from a trace written with strace -ff -o PREFIX (a file per thread, so no
# call is split by another's), the threads that made 4 KiB pread64/pwrite64 calls: each with
# "main" when the main thread (the one that ran execve) created it, else "thread", and its count.
io_threads() {
	local main f
	main=$(grep -l 'execve(' "$1".* | head -1)
	for f in "$1".*; do
		awk -v tid="${f##*.}" -v main="${main##*.}" '
			/^clone3?\(/ && / = [0-9]+$/ {
				print "parent", $NF, tid == main ? "main" : "thread"
			}
			/^p(read|write)64\(.*, 4096, [0-9]+\) = 4096$/ { n++ }
			END { if (n) print "io", tid, n }
		' "$f"
	done | awk '
		$1 == "parent" { by[$2] = $3 }
		$1 == "io" { io[$2] = $3 }
		END { for (t in io) print t, (t in by ? by[t] : "none"), io[t] }
	'
}

@test "posixaio: glibc's aio threads make the reads, no io_uring, as many as fio's" {
	need_strace
	need_fio
	data p.dat
	printf '[p]\nioengine=posixaio\niodepth=4\nrw=randread\nbs=4k\nsize=1m\nfilename=p.dat\n' \
		> p.fio
	calls=execve,clone,clone3,pread64,pwrite64,io_uring_setup,io_uring_enter,io_submit
	strace -ff -qq -o io.st -e trace=$calls "$IORATE" fio p.fio > /dev/null 2>&1
	strace -ff -qq -o fio.st -e trace=execve,clone,clone3,pread64 fio p.fio > /dev/null
	! grep -E 'io_uring_(setup|enter)|io_submit' io.st.*
	# Every read is one of 4 KiB, made by a thread the worker thread started (glibc's), not by
	# the worker (a thread of the main one) itself.
	run io_threads io.st
	[ "${#lines[@]}" -ge 1 ]
	for l in "${lines[@]}"; do
		[ "$(echo "$l" | cut -d' ' -f2)" = thread ] || { echo "$l"; false; }
	done
	total=$(io_threads io.st | awk '{ n += $3 } END { print n }')
	[ "$total" -eq 256 ]
	[ "$(io_threads fio.st | awk '{ n += $3 } END { print n }')" -eq "$total" ]
}

@test "posixaio: a size-bounded job counts what fio 3.33 counts" {
	need_fio
	data p.dat
	for rw in randread write; do
		printf '[p]\nioengine=posixaio\niodepth=8\nrw=%s\nbs=4k\nsize=1m\n' "$rw" > p.fio
		echo filename=p.dat >> p.fio
		fio --output-format=json p.fio > fio.json
		iorate fio --output-format=json p.fio
		[ "$status" -eq 0 ]
		for d in read write; do
			want=$(jq -c ".jobs[0].$d | [.total_ios, .io_bytes]" fio.json)
			got=$(echo "$output" | jq -c ".jobs[0].$d | [.total_ios, .io_bytes]")
			[ "$want" = "$got" ] || { echo "$rw $d: fio $want, iorate $got"; false; }
		done
		echo "$output" | jq -e '.jobs[0]["job options"].ioengine == "posixaio"'
		echo "$output" | jq -e '[.jobs[0].iorate_notes[]? | select(test("ran as"))] == []'
	done
	# iorate run names it too, and keeps it in its JSON.
	iorate run --engine posixaio --depth 4 --cache buffered --time none --io-size 256k p.dat \
		--json
	[ "$status" -eq 0 ]
	json_ok '.params.engine == "posixaio" and .total.read.ios == 64'
}

@test "pvsync2 with hipri makes preadv2 calls with RWF_HIPRI; pvsync makes preadv" {
	need_strace
	data v.dat
	printf '[v]\nioengine=pvsync2\nhipri\nrw=read\nbs=4k\nsize=64k\nfilename=v.dat\n' > v.fio
	strace -f -qq -o v2.st -e trace=preadv2,pread64,preadv "$IORATE" fio v.fio > /dev/null 2>&1
	[ "$(grep -cE 'preadv2\(.*, 1, [0-9]+, RWF_HIPRI\) = 4096' v2.st)" -eq 16 ]
	! grep -E 'pread64\(.*, 4096, ' v2.st
	sed -i 's/ioengine=pvsync2/ioengine=pvsync/; /hipri/d' v.fio
	strace -f -qq -o v.st -e trace=preadv2,pread64,preadv "$IORATE" fio v.fio > /dev/null 2>&1
	[ "$(grep -cE 'preadv\(.*, 1, [0-9]+\) = 4096' v.st)" -eq 16 ]
	! grep -E 'preadv2|pread64\(.*, 4096, ' v.st
	# The flags are pvsync2's: another engine would drop them, so they are refused.
	iorate run --engine sync --hipri --time none --io-size 64k v.dat
	[ "$status" -eq 2 ]
	want="iorate: --hipri: the flags of each I/O need the pvsync2 engine (preadv2, pwritev2)"
	[ "$stderr" = "$want, not sync" ]
	printf '[v]\nioengine=psync\nhipri\nsize=64k\nfilename=v.dat\n' > h.fio
	iorate fio h.fio
	[ "$status" -eq 2 ]
	want="hipri: iorate passes this flag to the kernel with ioengine=pvsync2 only, not psync"
	[[ "$stderr" == *"$want"* ]]
}

@test "an engine run as another says so on stderr, in the text header and notes, and in JSON" {
	data v.dat
	printf '[v]\nioengine=vsync\nrw=read\nbs=4k\nsize=64k\nfilename=v.dat\n' > v.fio
	how="sync engine: pread/pwrite, not readv/writev after lseek"
	note="fio's vsync engine ran as iorate's $how"
	iorate fio v.fio
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"iorate: job v: fio's vsync engine runs as iorate's $how"* ]]
	line_ok "^	engine: +sync \(in place of fio's vsync\)$"
	line_ok "^Note: $note$"
	# --quiet too: the figures are not those of the engine the job names.
	iorate fio --output-format=json v.fio --quiet
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"fio's vsync engine runs as iorate's sync engine"* ]]
	echo "$output" | jq -e --arg n "$note" '.jobs[0].iorate_notes | index($n) != null'
	# Clones merged by group_reporting: one entry, the note once.
	printf 'numjobs=2\ngroup_reporting\n' >> v.fio
	iorate fio --output-format=json v.fio
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '(.jobs | length) == 1'
	echo "$output" | jq -e '[.jobs[0].iorate_notes[] | select(test("ran as"))] | length == 1'
	[ "$(echo "$stderr" | grep -c 'runs as')" -eq 1 ]
	sed -i '/numjobs/d; /group_reporting/d' v.fio
	iorate run --job v.fio --json
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"fio's vsync engine runs as iorate's sync engine"* ]]
	json_ok '.params.engine_why == "in place of fio'"'"'s vsync"'
	echo "$output" | jq -e --arg n "$note" '.notes | index($n) != null'
	# An engine named on the command line is the one asked for: nothing to say.
	iorate run --job v.fio --engine sync --json
	[ "$status" -eq 0 ]
	[[ "$stderr" != *"runs as"* ]]
	echo "$output" | jq -e '.params.engine_why == "asked for"'
	echo "$output" | jq -e '[.notes[] | select(test("ran as"))] == []'
	# fio's sync engine likewise (read/write after lseek).
	sed -i 's/ioengine=vsync/ioengine=sync/' v.fio
	iorate fio v.fio
	[[ "$stderr" == *"fio's sync engine runs as iorate's sync engine: pread/pwrite, not r"* ]]
	line_ok "^Note: fio's sync engine ran as iorate's sync engine: pread/pwrite, not read/write"
}
