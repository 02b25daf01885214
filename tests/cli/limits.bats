#!/usr/bin/env bats
# Input that is too large: sizes whose sums would wrap, job files and JSON inputs too big to
# read in reasonable time or memory, and a stop signal during a long parse.

load helpers

@test "--size 2^64-1 is refused naming --size, before a test file is made" {
	iorate run --size 18446744073709551615 -d 1 t.dat
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --size: 18446744073709551615B is larger than a file can be (8EiB)" ]
	[ ! -e t.dat ]
	# A file that is there keeps its size, even when it would be grown (DiskSpd's -c).
	head -c 4096 /dev/zero >t.dat
	iorate diskspd -c18446744073709551615 -d1 t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"-c: 18446744073709551615B is larger than a file can be"* ]]
	[ "$(stat -c %s t.dat)" -eq 4096 ]
}

@test "--offset + --range past 2^63 is refused naming --range" {
	iorate run --size 1m --offset 9223372036854775807 --range 2 -d 1 t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: --range: --offset 9223372036854775807B + 2B ends beyond"* ]]
	iorate run --size 1m --offset 4k --range 18446744073709551615 -d 1 t.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: --range: --offset 4KiB + 18446744073709551615B ends beyond"* ]]
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
