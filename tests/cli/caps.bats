#!/usr/bin/env bats
# Emulated cloud caps: accuracy of IOPS and MB/s caps on the null engine and on a file,
# burst credit, the VM's caps across targets, --cap-io-unit, open loop against a stall, bad input.

load helpers

# cap_ok PCT WANT ARGS...: a run's total IOPS is within PCT% of WANT. A loaded machine can stall
# a thread for longer than the throttle's 50 ms of slack; one retry tells that from a wrong cap.
cap_ok() {
	local pct=$1 want=$2 got
	shift 2
	for try in 1 2; do
		iorate run --json "$@"
		[ "$status" -eq 0 ] || { echo "exit $status: $stderr" >&2; return 1; }
		got=$(jqv .total.total.iops)
		within "$pct" "$want" "$got" "IOPS of '$*'" 2>/dev/null && return 0
	done
	within "$pct" "$want" "$got" "IOPS of '$*'"
}

@test "IOPS caps hold within 1% from 100 to 100,000 IOPS on the null engine" {
	cap_ok 1 100 --engine null -t 2 --cap-iops 100 -d 3 x
	cap_ok 1 1000 --engine null -t 2 --cap-iops 1000 -d 1 x
	cap_ok 1 10000 --engine null -t 2 --cap-iops 10000 -d 1 x
	cap_ok 1 100000 --engine null -t 2 --cap-iops 100000 -d 1 x
}

@test "IOPS caps hold within 1% from 100 to 100,000 IOPS on a file" {
	# Buffered reads of a file kept in the page cache (--no-invalidate): the only file that does
	# 100,000 IOPS anywhere.
	local f=(--engine sync --cache buffered --size 32M -t 4 --no-invalidate --keep cap.dat)
	cap_ok 1 100 --cap-iops 100 -d 3 "${f[@]}"
	cap_ok 1 1000 --cap-iops 1000 -d 1 "${f[@]}"
	cap_ok 1 10000 --cap-iops 10000 -d 1 "${f[@]}"
	cap_ok 1 100000 --cap-iops 100000 -d 1 "${f[@]}"
}

@test "MB/s caps hold within 1%, in MB/s and in MiB/s" {
	iorate run --json --engine null -t 2 -b 64k --cap-mbps 50 -d 1 x
	[ "$status" -eq 0 ]
	within 1 50 "$(jqv .total.total.mbps)" "MB/s"
	iorate run --json --engine null -t 2 -b 64k --cap-mibps 50 -d 1 x
	[ "$status" -eq 0 ]
	within 1 50 "$(jqv .total.total.mibps)" "MiB/s"
	within 1 800 "$(jqv .total.total.iops)" "IOPS"
}

@test "a burst bucket drains at the burst rate, then the base rate holds" {
	# 4,000 IOPS on top of 1,000 for 1 s: tau = 1 s x 3000/1000; 3 s in all, a point a second.
	iorate run --json --engine null -t 2 --cap-iops 1000 --burst-iops 4000 --burst-seconds 1 -d 3 \
		--interval 1s x
	[ "$status" -eq 0 ]
	[ "$(jqv '.series | length')" -eq 3 ]
	within 3 4000 "$(jqv '.series[0].iops')" "burst second"
	within 5 1000 "$(jqv '.series[1].iops')" "second after the burst"
	within 1 1000 "$(jqv '.series[2].iops')" "base rate"
	# The bucket is stated in the series: full at the start, empty once drained.
	[ "$(jqv '.series[0] | has("credit_iops")')" = true ]
	awk -v c="$(jqv '.series[0].credit_iops')" 'BEGIN { exit !(c < 20) }'
	awk -v c="$(jqv '.series[2].credit_iops')" 'BEGIN { exit !(c < 2) }'
	within 2 6000 "$(jqv .total.total.ios)" "I/Os in all"
}

@test "idle time refills the burst bucket: an open-loop rate below the cap spends none" {
	iorate run --json --engine null --cap-iops 1000 --burst-iops 4000 --burst-seconds 1 \
		--rate-iops 500 -d 2 x
	[ "$status" -eq 0 ]
	within 1 500 "$(jqv .total.total.iops)"
	awk -v c="$(jqv '.series[1].credit_iops')" 'BEGIN { exit !(c > 99) }'
}

@test "the VM's caps hold across targets, each target under its own" {
	cap_ok 1 2500 --engine null --cap-iops 1000 --vm-cap-iops 2500 -d 1 a b c d
	# The targets share the VM's cap fairly.
	for i in 0 1 2 3; do
		within 10 625 "$(jqv ".targets[$i].total.iops")" "target $i"
	done
	# Below the VM's cap, every target gets its own cap.
	cap_ok 1 4000 --engine null --cap-iops 1000 --vm-cap-iops 100000 -d 1 a b c d
	# The VM's MiB/s cap at 64 KiB: 100 MiB/s is 1,600 IOPS.
	cap_ok 1 1600 --engine null -b 64k --cap-iops 1000 --vm-cap-mibps 100 -d 1 a b c d
}

@test "--cap-io-unit counts a larger I/O as several" {
	cap_ok 1 250 --engine null -b 256k --cap-iops 1000 --cap-io-unit 64k -d 2 x
	# 192 KiB is three units, 65 KiB two (rounded up), an I/O at or below the unit one.
	cap_ok 1 333.3 --engine null -b 192k --cap-iops 1000 --cap-io-unit 64k -d 2 x
	cap_ok 1 1000 --engine null -b 64k --cap-iops 1000 --cap-io-unit 64k -d 1 x
}

@test "--emulate takes the caps from the catalog" {
	cap_ok 1 500 --engine null -t 2 --emulate azure-2015:A4+1xstandard -d 1 x
	[ "$(jqv .params.cap.iops)" = 500 ]
	[ "$(jqv .params.vm_cap.mbps)" = 300 ]
}

@test "open loop: a stall shows in p99 instead of hiding (coordinated omission)" {
	# Closed loop at the cap: each I/O waits ~1 ms for its token, p99 stays near that.
	iorate run --json --engine null --cap-iops 1000 -d 1 x
	[ "$status" -eq 0 ]
	closed=$(jqv .total.total.lat_us.p99)
	awk -v p="$closed" 'BEGIN { exit !(p < 20000) }' || { echo "closed-loop p99 $closed us"; false; }
	# Open loop at twice the cap: the schedule falls behind by 0.5 s over 1 s, and latency counts
	# from each I/O's due time, so p99 shows the backlog, not the 1 ms a closed loop would see.
	iorate run --json --engine null --cap-iops 1000 --rate-iops 2000 -d 1 x
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: --rate-iops 2000 per target is above the cap of 1000"* ]]
	open=$(jqv .total.total.lat_us.p99)
	awk -v p="$open" 'BEGIN { exit !(p > 300000) }' || { echo "open-loop p99 $open us"; false; }
	awk -v o="$open" -v c="$closed" 'BEGIN { exit !(o > 50 * c) }'
	# Delivered: the cap, not the rate; and the report says how far behind it fell.
	within 2 1000 "$(jqv .total.total.iops)"
	jqv '.notes[]' | grep -q 'could not keep up with the open-loop rate of 2000 I/Os per second'
	# At a rate the target keeps, open-loop latency is the service time again.
	iorate run --json --engine null --cap-iops 1000 --rate-iops 500 --arrival poisson -d 1 x
	[ "$status" -eq 0 ]
	awk -v p="$(jqv .total.total.lat_us.p99)" 'BEGIN { exit !(p < 60000) }'
}

@test "bad caps are refused with one line and exit 2" {
	check() {
		local want="$1"; shift
		iorate run --engine null -d 1 "$@" x
		[ "$status" -eq 2 ] || { echo "exit $status for $*"; return 1; }
		[ "$(echo "$stderr" | wc -l)" -eq 1 ] || { echo "not one line: $stderr"; return 1; }
		[[ "$stderr" == "iorate: "*"$want"* ]] || { echo "'$stderr' lacks '$want'"; return 1; }
		[ -z "$output" ]
	}
	check "--cap-iops: '0' is not a rate above 0" --cap-iops 0
	check "--cap-iops: '-5'" --cap-iops -5
	check "--cap-mbps: '0'" --cap-mbps 0
	check "--vm-cap-iops: '-1'" --vm-cap-iops -1
	check "--vm-cap-mibps: 'lots'" --vm-cap-mibps lots
	check "--burst-iops: 400 is below the base cap 500" --cap-iops 500 --burst-iops 400 \
		--burst-seconds 60
	check "--burst-seconds" --cap-iops 500 --burst-iops 1000
	check "a burst needs a base cap" --burst-iops 1000 --burst-seconds 60
	check "--cap-io-unit" --cap-iops 500 --cap-io-unit 1000
	check "--emulate" --emulate azure-2015:A4+1xnosuchdisk
	check "--emulate" --emulate nosuchcloud:A4+1xstandard
	check "--arrival: needs --rate-iops" --arrival poisson
}

@test "a cap is echoed in the report's unit: --vm-cap-mibps 285 is 285 MiB/s, 298.844 MB/s" {
	cd "$BATS_TEST_TMPDIR"
	iorate run --engine null -d 0.1 --vm-cap-mibps 285 x
	[ "$status" -eq 0 ]
	[[ "$output" == *"on 1 target, "*"; VM cap 285 MiB/s"* ]]
	[[ "$output" == *"VM cap:           285 MiB/s"* ]]
	[[ "$output" != *"298.844"* ]]
	iorate run --engine null -d 0.1 --vm-cap-mibps 285 --units si x
	[[ "$output" == *"; VM cap 298.844 MB/s"* ]]
}
