#!/usr/bin/env bats
# iorate-mpi under mpirun: 2 ranks on this host, shared memory only, every mpirun bounded.

load helpers

IORATE_MPI="${IORATE_MPI:-$(dirname "$IORATE")/iorate-mpi}"

setup() {
	cd "$BATS_TEST_TMPDIR"
	command -v mpirun >/dev/null || skip "mpirun not found (make deps installs openmpi-bin)"
	[ -x "$IORATE_MPI" ] || skip "$IORATE_MPI not built (MPI was not found at build time)"
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	# Let stray OpenMPI session files land in the test's own directory.
	export TMPDIR="$BATS_TEST_TMPDIR"
}

MPIRUN=(mpirun -q --oversubscribe -np 2 --mca btl self,vader --mca oob_tcp_if_include lo
	--mca btl_tcp_if_include lo)

# mpi ARGS...: iorate-mpi under mpirun (2 ranks), stdout in $output, stderr in $stderr.
mpi() {
	local errf="$BATS_TEST_TMPDIR/stderr.$$"
	set +e
	output=$(timeout 120 "${MPIRUN[@]}" "$IORATE_MPI" "$@" 2>"$errf")
	status=$?
	set -e
	stderr=$(cat "$errf")
	rm -f "$errf"
}

@test "mpi: --help and --version need no mpirun" {
	run "$IORATE_MPI" run --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"%r"* ]]
	[[ "$output" == *"--bs"* ]]
	run "$IORATE_MPI" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^iorate-mpi\ [0-9]+\.[0-9]+\.[0-9]+ ]]
}

@test "mpi: the man page is generated from iorate-mpi's option table: every option, no other" {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	page=$top/docs/iorate-mpi.1
	diff <(sh "$top/tools/gen-man.sh" "$IORATE_MPI") "$page"
	grep -q '^\.B iorate-mpi run$' "$page"
	grep -q '^\.SS iorate-mpi run$' "$page"
	# The options 'run --help' lists (but -h itself), and those the man page's entries name.
	"$IORATE_MPI" run --help | grep -oE '^(  -[^ ], |      )--[a-z0-9-]+' | sed 's/.*--//' |
		grep -vx help > help.txt
	grep -A1 '^\.TP$' "$page" | grep -vx -e '\.TP' -e '--' |
		sed -E 's/^(\\fB\\-.\\fR, )?\\fB\\-\\-//; s/\\fR.*//; s/\\-/-/g' > man.txt
	(( $(wc -l < help.txt) >= 100 ))
	grep -qx zbd help.txt
	diff help.txt man.txt
}

@test "mpi: 2 ranks, null engine, --ios N: the aggregate counts exactly 2N and the ranks sum to it" {
	mpi run --engine null --ios 50000 --json
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -z "$stderr" ]
	json_ok '.schema == 2 and .total.total.ios == 100000'
	json_ok '(.ranks | length) == 2 and ([.ranks[].total.ios] | add) == .total.total.ios'
	json_ok '[.ranks[].rank] == [0, 1] and ([.ranks[].total.ios] | unique) == [50000]'
	# The ranks start together: their skew is well below the 100 ms lead of the broadcast start.
	json_ok '.mpi.ranks == 2 and .mpi.hosts == 1 and .mpi.start_skew_us >= 0 and .mpi.start_skew_us < 100000'
	# series[] covers the measured window exactly: its points' I/Os add up to the total. The
	# default --time (10 s) makes a point per 100 ms.
	json_ok '(.series | length) > 0 and .interval_ns == 100000000 and
		([.series[] | .read_ios + .write_ios] | add) == .total.total.ios'
	echo "start skew: $(jqv .mpi.start_skew_us) us" >&3
}

@test "mpi: a run of 1 s adds the ranks' 100 ms points by index; their I/Os are the total's" {
	mpi run --engine null -d 1 --cap-iops 2000 --json
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# Added by index, not put end to end: at most 10 points for 1 s of two ranks (20 if each
	# rank's points were kept apart), and every I/O of both in exactly one of them. How many a
	# single point holds depends on the machine's load, so it is not asserted.
	json_ok '.interval_ns == 100000000 and (.series | length) >= 8 and (.series | length) <= 10'
	json_ok '([.series[] | .read_ios + .write_ios] | add) == .total.total.ios'
}

@test "mpi: files named by %r: each rank's bytes, both created then removed, totals = sum" {
	mpi run --engine sync --bs 4k --size 4M --ios 600 --write 100 -s --json "$PWD/f.%r.dat"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_ok "[.targets[].path] == [\"$PWD/f.0.dat\", \"$PWD/f.1.dat\"]"
	json_ok '[.targets[].created] == [true, true]'
	json_ok '[.ranks[].total.bytes] == [2457600, 2457600] and [.targets[].total.bytes] == [2457600, 2457600]'
	json_ok '.total.total.bytes == 4915200 and .total.write.ios == 1200'
	json_ok '[.ranks[].targets[0]] == [.targets[0].path, .targets[1].path]'
	[ ! -e f.0.dat ]
	[ ! -e f.1.dat ]
	# The same run as text and CSV: one report, on rank 0 only.
	mpi run --engine null --ios 1000
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^Results:')" -eq 1 ]
	echo "$output" | grep -q '^Ranks: 2 on 1 host'
	mpi run --engine null --ios 1000 --csv
	[ "$(echo "$output" | grep -c '^rank:[01],total,1000,')" -eq 2 ]
	[ "$(echo "$output" | grep -c '^\*,total,2000,')" -eq 1 ]
}

@test "mpi: a set-up failure on one rank: one line naming it, nothing left behind" {
	mkdir d0
	mpi run --engine sync --size 4M --time 1 "$PWD/d%r/f.dat"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	[ "$stderr" = "iorate: rank 1: $PWD/d1/f.dat: its directory does not exist" ]
	[ -z "$(ls -A d0)" ]
	[ ! -e d1 ]
}

@test "mpi: the same file on both ranks is refused before any I/O, with exit 2" {
	mpi run --engine sync --size 4M --time 1 "$PWD/same.dat"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"same.dat: ranks 0 and 1 on "*"put %r in the path"* ]]
	[ ! -e same.dat ]
	# Bad usage is said once, by rank 0, without a rank.
	mpi run --bs 0 "$PWD/x.%r"
	[ "$status" -eq 2 ]
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == "iorate: --bs: "* ]]
	mpi run --engine null "$PWD/x.%q"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'%q' is not %r (rank), %h (host) or %%"* ]]
}

# Nearest-rank percentile of a histogram merged from the ranks' JSON is not exposed, but a
# percentile of a mixture always lies between the parts' percentiles; min and max are exact.
@test "mpi: merged percentiles lie between the ranks' own; min and max are the ranks' extremes" {
	mpi run --engine sync --bs 4k --size 4M --ios 3000 --json "$PWD/p.%r.dat"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	for p in p50 p90 p99; do
		json_ok "([.ranks[].total.lat_us.$p] | min) <= .total.total.lat_us.$p and
			 .total.total.lat_us.$p <= ([.ranks[].total.lat_us.$p] | max)"
	done
	json_ok '([.ranks[].total.lat_us.min] | min) == .total.total.lat_us.min'
	json_ok '([.ranks[].total.lat_us.max] | max) == .total.total.lat_us.max'
	json_ok '(.total.total.lat_us.mean - ([.ranks[] | .total.lat_us.mean * .total.ios] | add) / .total.total.ios | fabs) < 0.001'
}

@test "mpi: SIGTERM to one rank stops every rank: partial results, files removed, exit 143" {
	timeout 120 "${MPIRUN[@]}" "$IORATE_MPI" run --engine sync --size 4M --time 60 --json \
		--trace "$PWD/t.%r" "$PWD/s.%r.dat" >out.json 2>err.txt &
	local tp=$! mp="" rank=""
	# Wait (bounded) until both ranks issue I/O (their traces, written under a temporary name
	# until the run ends, grow), then stop one rank only.
	for _ in $(seq 300); do
		[ -n "$(find . -name '.t.0.iorate-*' -size +0)" ] &&
			[ -n "$(find . -name '.t.1.iorate-*' -size +0)" ] && break
		sleep 0.1
	done
	[ -n "$(find . -name '.t.0.iorate-*' -size +0)" ]
	[ -n "$(find . -name '.t.1.iorate-*' -size +0)" ]
	mp=$(pgrep -P "$tp")
	rank=$(pgrep -P "$mp" | tail -1)
	[ -n "$rank" ]
	kill -TERM "$rank"
	set +e
	wait "$tp"
	status=$?
	set -e
	output=$(cat out.json)
	[ "$status" -eq 143 ] || { cat err.txt; false; }
	json_ok '.interrupted == true and ([.ranks[].interrupted] == [true, true])'
	json_ok '.seconds < 60 and .total.total.ios > 0'
	grep -q "interrupted: results cover" err.txt
	[ ! -e s.0.dat ]
	[ ! -e s.1.dat ]
}

@test "mpi: the ranks' latency searches and prioritized I/Os add up in the aggregate" {
	mpi run --engine null --depth 8 --latency-target 50ms --latency-window 50ms \
		--latency-percentile 99 -d 5 --json
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_ok '.latency_target.threads == 2 and .latency_target.finished == 2 and
		.latency_target.depth_min == 8 and .latency_target.final.ios > 0'
	mpi run --engine aio --depth 4 --cmdprio 50 -d 1 -c 8m "f%r.dat" --json
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# About half of each rank's reads carried one: of the total, between 40 % and 60 %.
	json_ok '.prio.read.ios * 10 >= .total.read.ios * 4 and
		.prio.read.ios * 10 <= .total.read.ios * 6'
}
