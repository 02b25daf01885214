#!/usr/bin/env bats
# Emulated zones (--zbd, fio's zonemode=zbd on a file): writes only at the write pointers, full
# zones reset, reads of written data only, trims as zone resets.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "--zbd: random writes go to the write pointer of their zone, block after block" {
	iorate run --zbd --zone-size 256k -w 100 -b 16k --ios 512 --size 2m --seed 5 \
		--trace t.txt --json z.dat
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	[ "$(wc -l < t.txt)" -eq 512 ]
	# Within each zone, every write starts where the one before it ended, or at the zone's
	# start (a reset): never anywhere else.
	awk '{ z = int($4 / 262144); s = z * 262144
	       if ($4 != s && $4 != last[z] + 16384) { print "out of order: " $0; bad = 1 }
	       last[z] = $4 }
	     END { exit bad }' t.txt
	# 512 writes of 16 KiB fill 8 zones of 16 blocks 4 times: each write past a zone's 16th
	# since its reset came after a reset.
	want=$(awk '{ n[int($4 / 262144)]++ } END { for (z in n) r += int((n[z] - 1) / 16); print r }' t.txt)
	[ "$want" -gt 0 ]
	[ "$(jqv '.zone_resets')" -eq "$want" ]
	[ "$(jqv '.params.shape.zbd.zone_capacity')" -eq 0 ]
	jqv '.notes[]' | grep -q "emulated zones of 262144 bytes"
}

@test "--zbd: fio 3.33 and iorate reset the same zones for a sequential job file" {
	command -v fio >/dev/null || skip "fio is not installed"
	# fio reads the zones off the file, so it must exist at its size before fio starts.
	for f in a b; do
		truncate -s 8m $f.dat
		printf '[w]\nfilename=%s.dat\nzonemode=zbd\nzonesize=1m\nsize=8z\nio_size=20z\nrw=write\nbs=64k\nioengine=psync\n' \
			$f >$f.fio
	done
	run fio a.fio
	[ "$status" -eq 0 ]
	want=$(echo "$output" | sed -n 's/.*; \([0-9]*\) zone resets.*/\1/p')
	[ "$want" -eq 12 ]
	iorate fio --json b.fio
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	[ "$(jqv '.zone_resets')" -eq "$want" ]
	[ "$(jqv '.total.write.ios')" -eq 320 ]
}

@test "--zbd: reads find only what was written; --read-beyond-wp reads where they fall" {
	# Fresh zones hold nothing: a read-only job ends at once, as fio's does.
	iorate run --zbd --zone-size 64k -b 4k -d 5 --size 1m --json z.dat
	[ "$status" -eq 0 ]
	[ "$(jqv '.total.total.ios')" -eq 0 ]
	jqv '.notes[]' | grep -q "reads read only what this run wrote"
	iorate run --zbd --zone-size 64k --read-beyond-wp -b 4k --ios 100 --size 1m --json z.dat
	[ "$status" -eq 0 ]
	[ "$(jqv '.total.total.ios')" -eq 100 ]
	# A job file: a writer, then a reader of what it wrote in the zones it wrote.
	printf '[global]\nfilename=z.dat\nzonemode=zbd\nzonesize=64k\nsize=16z\nbs=4k\n[w]\nrw=write\nio_size=40k\n[r]\nstonewall\nrw=randread\nio_size=400k\n' >rw.fio
	iorate fio --json rw.fio
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	# The zones the writer wrote are the reader's: all its 100 reads are done (where they
	# fall within the written bytes is tests/unit/test_zbd.c's).
	[ "$(jqv '.jobs[0].total.write.ios')" -eq 10 ]
	[ "$(jqv '.jobs[1].total.read.ios')" -eq 100 ]
}

@test "--zbd: a trim resets its zone and touches nothing; garbage collection by threshold" {
	printf '[global]\nfilename=g.dat\nzonemode=zbd\nzonesize=128k\nsize=8z\ntime_based=0\n[fill]\nrw=write\nbs=32k\nio_size=8z\n[gc]\nstonewall\nrw=randtrim\nbs=128k\nio_size=4z\n' >gc.fio
	iorate fio --json gc.fio
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	# Four trims of whole zones on written zones: four resets, no hole punched.
	[ "$(jqv '.jobs[1].total.trim.ios // .jobs[1].trim.ios')" -eq 4 ]
	[ "$(jqv '[.jobs[].zone_resets] | add')" -eq 4 ]
	[ "$(stat -c %b g.dat)" -ge 2048 ]
	# zone_reset_threshold and _frequency: once the zones hold 70%, every 8th write resets.
	iorate run --zbd --zone-size 128k --zone-reset-threshold 0.7 --zone-reset-frequency 0.125 \
		-w 100 -b 32k --ios 400 --size 1m --json h.dat
	[ "$status" -eq 0 ]
	[ "$(jqv '.zone_resets')" -gt 0 ]
}

@test "--zbd refuses what it cannot do, before any I/O" {
	iorate run --zbd -w 100 x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--zbd: needs --zone-size"* ]]
	[ ! -e x.dat ]
	iorate run --zone-capacity 1m x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--zone-capacity: of no effect without --zbd"* ]]
	iorate run --zbd --zone-size 64k -b 128k x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"does not fit a zone"* ]]
	iorate run --zbd --zone-size 64k --shared-threads x.dat y.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not supported by iorate"* ]]
	iorate run --zbd --zone-size 4m --size 1m -w 100 x.dat
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"do not hold one zone"* ]]
}
