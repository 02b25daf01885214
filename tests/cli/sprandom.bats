#!/usr/bin/env bats
# --sprandom (fio's sprandom): SSD preconditioning, the region written once over its physical
# capacity with a steady state's share of invalid blocks per region.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "--sprandom writes the physical capacity once: every block, then the rewrites" {
	iorate run --sprandom -w 100 -b 4k --size 16m --time none --trace t.txt --json s.dat
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	# 16 MiB of 4 KiB blocks with 15% over-provisioning: (L + ceil(0.15 L)) / 4096 writes.
	local l=$((16 * 1048576)) want
	want=$(((l + (l * 15 + 99) / 100) / 4096))
	[ "$(jqv '.total.write.ios')" -eq "$want" ]
	[ "$(wc -l < t.txt)" -eq "$want" ]
	# Every logical block at least once, on 4 KiB boundaries, inside the region.
	[ "$(awk '{ print $4 }' t.txt | sort -u | wc -l)" -eq 4096 ]
	awk '$4 % 4096 || $4 >= 16777216 { bad = 1; print } END { exit bad }' t.txt
	jqv '.notes[]' | grep -q "SPRandom preconditioning"
	[ "$(jqv '.params.shape.sprandom.regions')" -eq 0 ]
	# A larger over-provisioning rewrites more; the same seed, the same order.
	iorate run --sprandom --spr-op 0.5 --spr-num-regions 10 -w 100 -b 4k --size 16m \
		--time none --seed 9 --trace u.txt --json s.dat
	[ "$status" -eq 0 ]
	[ "$(jqv '.total.write.ios')" -eq $(((l + l / 2) / 4096)) ]
	iorate run --sprandom --spr-op 0.5 --spr-num-regions 10 -w 100 -b 4k --size 16m \
		--time none --seed 9 --trace v.txt s.dat
	cmp <(awk '{ print $4 }' u.txt) <(awk '{ print $4 }' v.txt)
}

@test "fio's sprandom job file runs with the variables its comments set" {
	cat >spr.fio <<-EOF
	[global]
	ioengine=libaio
	rw=randwrite
	bs=\${FIO_BS}
	blockalign=\${FIO_BS}
	direct=1
	norandommap=1
	iodepth=16
	[pre]
	filename=p.dat
	size=8m
	sprandom=1
	spr_op=0.25
	spr_num_regions=20
	EOF
	FIO_BS=8192 iorate fio --dry-run spr.fio
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	[[ "$output" == *"--sprandom --spr-op 0.25 --spr-num-regions 20"* ]]
	FIO_BS=8192 iorate fio --json spr.fio
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; false; }
	[ "$(jqv '.total.write.ios')" -eq $(((8388608 + 8388608 / 4) / 8192)) ]
	printf '[a]\nfilename=q.dat\nsize=1m\nrw=randwrite\nsprandom=1\nnorandommap=0\n' >bad.fio
	iorate fio bad.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"norandommap=0: fio refuses it with sprandom=1"* ]]
}

@test "--sprandom refuses what a pass cannot be, before any I/O" {
	iorate run --sprandom -w 50 --time none x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--sprandom: needs random writes only"* ]]
	iorate run --sprandom -w 100 -t 2 --time none x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"one thread on one target"* ]]
	iorate run --spr-op 0.2 x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--spr-op: of no effect without --sprandom"* ]]
	iorate run --sprandom --spr-op 1.5 -w 100 --time none x.dat
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--spr-op"* ]]
	[ ! -e x.dat ]
}
