#!/usr/bin/env bats
# Input that is too large: sizes whose sums would wrap, job files and JSON inputs too big to
# read in reasonable time or memory, and a stop signal during a long parse.

load helpers

@test "--size 2^64-1 is refused naming --size, before a test file is made" {
	iorate run --size 18446744073709551615 -d 1 t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --size: 18446744073709551615B is too large: files are smaller than 8EiB" ]
	[ ! -e t.dat ]
	# A file that is there keeps its size, even when it would be grown (DiskSpd's -c).
	head -c 4096 /dev/zero >t.dat
	iorate diskspd -c18446744073709551615 -d1 t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"-c: 18446744073709551615B is too large: files are smaller than 8EiB"* ]]
	[ "$(stat -c %s t.dat)" -eq 4096 ]
}

@test "--offset + --range, --zone-range + --zone-skip past 2^63 are refused by name" {
	iorate run --size 1m --offset 9223372036854775807 --range 2 -d 1 t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --range: --offset 9223372036854775807B + 2B is too large: files and devices are smaller than 8EiB" ]
	iorate run --size 1m --offset 4k --range 18446744073709551615 -d 1 t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: --range: --offset 4KiB + 18446744073709551615B is too large"* ]]
	iorate run --size 1m --zone-size 64k --zone-range 64k --zone-skip 9223372036854775807 -d 1 t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --zone-skip: --zone-range 64KiB + 9223372036854775807B is too large: files and devices are smaller than 8EiB" ]
	iorate run --size 1m --random --distribution zoned_abs:10/8e:10/8e:80/1g -d 1 t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --distribution: the zones' sizes add up to more than a file or device can hold" ]
	iorate run --size 1m --sequential --gap 9223372036854775808 -d 1 t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --gap: 8EiB is too large: files and devices are smaller than 8EiB" ]
	[ ! -e t.dat ]
}

@test "fio: offset + size that wraps is refused naming offset, nothing laid out" {
	iorate fio --name=x --filename=t.dat --size=1m --offset=18446744073709551000 --runtime=1
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: fio: command line: --offset=18446744073709551000: the offset plus the size ends beyond the largest file (8EiB)" ]
	[ ! -e t.dat ]
}

@test "bs x depth x threads beyond memory is refused naming all three, before any I/O" {
	iorate run --engine uring --bs 1g --depth 4096 --threads 1024 -d 1 --size 2g t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: --threads 1024 x --depth 4096 x --bs 1GiB: needs 4.0 PiB"* ]]
	[ ! -e t.dat ]
}

# Waits until process $1 has read $2 bytes (/proc/PID/io's rchar): polled, for 10 s at most.
read_at_least() {
	local rchar end=$((${EPOCHREALTIME/./} + 10000000))
	while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		rchar=$(awk '/^rchar:/ {print $2}' /proc/"$1"/io 2>/dev/null) || return 1
		[ "${rchar:-0}" -ge "$2" ] && return 0
		sleep 0.005
	done
	echo "process $1 read only ${rchar:-0} of $2 bytes" >&2
	return 1
}

# Waits until process $1 has ended: polled, for 10 s at most.
ended() {
	local end=$((${EPOCHREALTIME/./} + 10000000))
	while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.005
	done
	echo "process $1 still runs 10 s after the signal" >&2
	kill -KILL "$1"
	return 1
}

@test "SIGINT during the parse of a huge fio job file ends it with exit 130" {
	# A million option lines (the most a job file may hold): read in full, then parsed for
	# a second or more, when the signal comes.
	{ printf '[j]\nioengine=null\nsize=1m\nfilename=f\n'; yes bs=4k | head -n 1048000; } >big.fio
	"$IORATE" fio --parse-only big.fio >out 2>err &
	pid=$!
	read_at_least "$pid" "$(stat -c %s big.fio)"
	kill -INT "$pid"
	ended "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || { echo "exit $rc: $(cat err)"; false; }
	[[ "$(cat err)" == "iorate: fio: "*"interrupted while "* ]]
	[ ! -e f ]
}

@test "fio: a job file of more option lines than any job reads is refused at the first too many" {
	{ printf '[j]\nioengine=null\nsize=1m\nfilename=f\n'; yes bs=4k | head -n 1048576; } >big.fio
	iorate fio --parse-only big.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: fio: big.fio:1048578: job files of more than 1048576 option lines are not read" ]
	# fio's 4096 jobs: more job sections are refused before any is read.
	for i in $(seq 4097); do printf '[j%d]\n' "$i"; done >many.fio
	iorate fio --parse-only many.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: fio: 4097 job sections: fio runs at most 4096 jobs (its --max-jobs)" ]
}

@test "a JSON input larger than 256MiB is refused before it is read, naming its size" {
	truncate -s 300M big.json
	want="big.json: 300MiB (314572800 bytes) is larger than the 256MiB a JSON input may be"
	iorate report --output page.html big.json
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: $want" ]
	[ ! -e page.html ]
	iorate history import --db h.db big.json
	[ "$status" -ne 0 ]
	[ "$stderr" = "iorate: $want" ]
	[ ! -e h.db ]
	iorate catalog import big.json
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: catalog import: $want" ]
	iorate model --catalog big.json --vm DS2 --disk P30
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --catalog: $want" ]
	# A pipe has no size to judge: it is refused once more than the bound came through it.
	iorate report --output page.html - < <(printf '['; head -c 300000000 /dev/zero | tr '\0' ' ')
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: -: larger than the 256MiB a JSON input may be" ]
}

@test "SIGINT during catalog import of 100,000 entries ends it with exit 130, nothing written" {
	awk 'BEGIN { printf "["; for (i = 0; i < 100000; i++)
		printf "%s{\"name\": \"x%d-custom\", \"guestCpus\": 2, \"memoryMb\": 4096}",
		       i ? "," : "", i; print "]" }' >types.json
	"$IORATE" catalog import types.json >out 2>err &
	pid=$!
	read_at_least "$pid" "$(stat -c %s types.json)"
	kill -INT "$pid"
	ended "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || { echo "exit $rc: $(cat err)"; false; }
	# Read in full, the entries are being parsed or taken one by one when the signal comes.
	[[ "$(cat err)" == "iorate: catalog import: types.json: interrupted at entry "* ]]
	[ -z "$(find "$XDG_DATA_HOME" -name '*.json' 2>/dev/null)" ]
}

@test "diskspd: -rdabs range sizes whose sum wraps are refused naming the flag" {
	iorate diskspd -c1m -d1 -r -rdabs10/9223372036854775807:10/9223372036854775807:80/1G t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: diskspd: -rdabs10/9223372036854775807:10/9223372036854775807:80/1G: the range sizes add up to more than 64 bits hold" ]
	[ ! -e t.dat ]
}
