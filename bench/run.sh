#!/bin/sh
# bench/run.sh: iorate side by side with fio (and bench/limit.c, the bare syscall loop) on the
# workloads below. Called by `make bench` as `BUILD=build sh bench/run.sh`.
#
# Not a test: it never fails the build. Whatever cannot run (no fio, not root, no io_uring) is
# skipped with the reason printed, and the script exits 0.
#
# Environment:
#   BUILD=build        where iorate was built (limit is built there too)
#   BENCH_SECS=5       seconds per run
#   BENCH_REPS=5       runs of each contender, alternating A B A B ...
#   BENCH_LONG=1       also compare iorate's peak RSS on a 60 s run with the 5 s runs
#   BENCH_RAM_SIZE=1G  size of the RAM-backed device
#   BENCH_OUT=bench/results/latest.json
#   BENCH_ROWS="1 2 3 4 6 7 8 9 10"  only these workloads (5 comes with 4); default: all
#   BENCH_CPU=N        the CPU the single-threaded workloads 1 and 2 run on, every contender
#                      alike (default: the last online CPU; "none": not pinned). On this
#                      project's 2-core VM the same sync loop does 200k IOPS on CPU 0 and 270k
#                      on CPU 1, a difference that decided the ratios more than the tools did.

cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
SECS=${BENCH_SECS:-5}
REPS=${BENCH_REPS:-5}
LONG=${BENCH_LONG:-0}
RAM_SIZE=${BENCH_RAM_SIZE:-1G}
OUT=${BENCH_OUT:-bench/results/latest.json}
ROWS=${BENCH_ROWS:-1 2 3 4 6 7 8 9 10}
IORATE=$BUILD/iorate
LIMIT=$BUILD/limit
LIMIT_URING=$BUILD/limit_uring
LIMIT_AIO=$BUILD/limit_aio
TIMEV=/usr/bin/time

# ---------------------------------------------------------------------------------------------
# Set-up and teardown: everything this script creates is recorded here and removed on exit,
# Ctrl-C or SIGTERM.
TMP=""
ZRAM_ID=""
ZRAM_LOADED=0
SHM_FILE=""
DISK_FILE=""

cleanup() {
	if [ -n "$ZRAM_ID" ]; then
		echo 1 > "/sys/block/zram$ZRAM_ID/reset" 2>/dev/null
		echo "$ZRAM_ID" > /sys/class/zram-control/hot_remove 2>/dev/null
		ZRAM_ID=""
	fi
	if [ "$ZRAM_LOADED" = 1 ]; then
		modprobe -r zram 2>/dev/null
		ZRAM_LOADED=0
	fi
	[ -n "$SHM_FILE" ] && rm -f "$SHM_FILE"
	[ -n "$DISK_FILE" ] && rm -f "$DISK_FILE"
	[ -n "$TMP" ] && rm -rf "$TMP"
	SHM_FILE="" DISK_FILE="" TMP=""
}
trap cleanup EXIT
trap 'echo "bench: interrupted, cleaning up" >&2; cleanup; trap - EXIT; exit 0' INT TERM HUP

# ---------------------------------------------------------------------------------------------
# Helpers. Each run prints one number (IOPS, or kB of peak RSS) or nothing when it failed; the
# first line of its error goes to stderr. say, note, median, ratio, paired, ge and the JSON
# helpers are in bench/lib.sh.
. bench/lib.sh

# paired_diff "A runs" "B runs": the median over rounds of A_i - B_i.
paired_diff() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		na = split(a, x, " "); split(b, y, " "); n = 0
		for (i = 1; i <= na; i++)
			if (x[i] ~ /^[0-9.]+$/ && y[i] ~ /^[0-9.]+$/) r[++n] = x[i] - y[i]
		if (n == 0) { print ""; exit }
		for (i = 2; i <= n; i++) { v = r[i]; for (j = i - 1; j >= 1 && r[j] > v; j--) r[j + 1] = r[j]; r[j + 1] = v }
		printf "%.0f\n", (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2 }'
}

# both "yes" -> yes, any "no" -> no, else n/a
all_of() {
	r=yes
	for x in "$@"; do
		case $x in no) echo no; return ;; yes) ;; *) r=n/a ;; esac
	done
	echo $r
}

first_err() {
	[ -s "$1" ] && note "$2: $(grep -v '^[[:space:]]*$' "$1" | head -n 1)"
}

# Each run_* runs one contender once and sets V (IOPS), C (CPU time of the whole process per
# I/O, ns: user + system over I/Os, steadier than IOPS on a busy machine) and M (peak RSS, KiB),
# each empty when unknown. /usr/bin/time -v supplies C and M.
timed() {
	C="" M=""
	if [ -x "$TIMEV" ]; then
		# shellcheck disable=SC2086
		"$TIMEV" -v -o "$TMP/time.txt" $PIN_NOW "$@"
		rc=$?
		M=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$TMP/time.txt")
		CPU_S=$(awk -F': ' '/User time \(seconds\)|System time \(seconds\)/ { s += $2 }
			END { print s + 0 }' "$TMP/time.txt")
		return $rc
	fi
	CPU_S=""
	# shellcheck disable=SC2086
	$PIN_NOW "$@"
}

# pinned CMD...: runs a contender on the bench CPU (BENCH_CPU), when there is one.
PIN="" PIN_NOW=""
pinned() {
	PIN_NOW=$PIN
	"$@"
	rc=$?
	PIN_NOW=""
	return $rc
}

per_io() { # sets C from CPU_S, V and the seconds $1
	C=""
	[ -n "$V" ] && [ -n "${CPU_S:-}" ] &&
		C=$(awk -v c="$CPU_S" -v i="$V" -v s="$1" 'BEGIN { if (i > 0) printf "%.0f", c * 1e9 / (i * s) }')
}

# iorate's total IOPS from the "*,total" row of --csv (column 6).
run_iorate() {
	timed "$IORATE" run -q --csv -d "$SECS" "$@" > "$TMP/out" 2> "$TMP/err"
	V=$(awk -F, '$1 == "*" && $2 == "total" { print $6 }' "$TMP/out")
	[ -n "$V" ] || first_err "$TMP/err" "iorate run $*"
	per_io "$SECS"
}

# fio's read + write IOPS from the terse v3 line (fields 8 and 49), one line per group.
run_fio() {
	timed fio --output-format=terse --terse-version=3 --group_reporting --time_based \
		--runtime="$SECS" --norandommap "$@" > "$TMP/out" 2> "$TMP/err"
	V=$(awk -F';' 'NF > 100 { s += $8 + $49; n++ } END { if (n) printf "%.1f\n", s }' "$TMP/out")
	[ -n "$V" ] || first_err "$TMP/err" "fio $*"
	per_io "$SECS"
}

run_limit() {
	run_bare "$LIMIT" "$@"
}

# run_bare LOOP ARGS...: one of the bare loops (limit, limit_uring, limit_aio), its --json IOPS.
run_bare() {
	b=$1
	shift
	timed "$b" -d "$SECS" --json "$@" > "$TMP/out" 2> "$TMP/err"
	V=$(sed -n 's/.*"iops": *\([0-9.]*\).*/\1/p' "$TMP/out")
	[ -n "$V" ] || first_err "$TMP/err" "$(basename "$b") $*"
	per_io "$SECS"
}

# want N: workload N is among BENCH_ROWS.
want() {
	case " $ROWS " in *" $1 "*) return 0 ;; esac
	return 1
}

# ---------------------------------------------------------------------------------------------
# What can run here.

if [ ! -x "$IORATE" ]; then
	say "bench: $IORATE not found; run 'make' (or 'make bench') first. Nothing measured."
	exit 0
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/iorate-bench.XXXXXX") || { say "bench: mktemp failed"; exit 0; }
HAVE_FIO=0
command -v fio > /dev/null 2>&1 && HAVE_FIO=1
[ "$HAVE_FIO" = 1 ] || note "fio not found (Debian package fio; 'make bench-deps'): fio columns skipped"
HAVE_LIMIT=0
if ${CC:-cc} -O2 -o "$LIMIT" bench/limit.c 2> "$TMP/err"; then
	HAVE_LIMIT=1
else
	first_err "$TMP/err" "cc bench/limit.c"
fi
# The bare io_uring and libaio loops of workload 8, linked as iorate is.
HAVE_LIMIT_URING=0 HAVE_LIMIT_AIO=0
if ${CC:-cc} -O2 -o "$LIMIT_URING" bench/limit_uring.c -luring 2> "$TMP/err"; then
	HAVE_LIMIT_URING=1
else
	first_err "$TMP/err" "cc bench/limit_uring.c -luring (liburing-dev): its rows skipped"
fi
if ${CC:-cc} -O2 -o "$LIMIT_AIO" bench/limit_aio.c -laio 2> "$TMP/err"; then
	HAVE_LIMIT_AIO=1
else
	first_err "$TMP/err" "cc bench/limit_aio.c -laio (libaio-dev): its rows skipped"
fi
[ -x "$TIMEV" ] || note "$TIMEV not found (Debian package time): workload 5 skipped"
HAVE_URING=1
if ! "$IORATE" run -q --csv -d 100ms --engine uring --cache buffered --size 1M \
	"$TMP/probe" > /dev/null 2> "$TMP/err"; then
	HAVE_URING=0
	first_err "$TMP/err" "io_uring unusable, workloads 3 and 4 skipped"
fi
rm -f "$TMP/probe"

CPU=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
[ -n "$CPU" ] || CPU=$(uname -m)
CORES=$(nproc 2>/dev/null || echo "?")
BENCH_CPU=${BENCH_CPU:-$(($(nproc 2>/dev/null || echo 1) - 1))}
PIN_DESC="not pinned"
if [ "$BENCH_CPU" != none ]; then
	if command -v taskset > /dev/null 2>&1 && taskset -c "$BENCH_CPU" true 2> "$TMP/err"; then
		PIN="taskset -c $BENCH_CPU" PIN_DESC="pinned to CPU $BENCH_CPU (taskset)"
	else
		first_err "$TMP/err" "cannot pin to CPU $BENCH_CPU: workloads 1 and 2 run unpinned"
	fi
fi
# What one clock read costs (bench/clockcost.c), on the CPU of workload 1: what timing adds to
# each I/O of the null engine is about one of them.
CLOCK_TSC="" CLOCK_CG=""
if ${CC:-cc} -O2 -o "$BUILD/clockcost" bench/clockcost.c 2> "$TMP/err"; then
	# shellcheck disable=SC2086
	$PIN "$BUILD/clockcost" > "$TMP/clock" 2> "$TMP/err" || first_err "$TMP/err" "clockcost"
	CLOCK_TSC=$(sed -n 's/.*"rdtsc_ns": *\([0-9.]*\).*/\1/p' "$TMP/clock")
	CLOCK_CG=$(sed -n 's/.*"clock_gettime_ns": *\([0-9.]*\).*/\1/p' "$TMP/clock")
else
	first_err "$TMP/err" "cc bench/clockcost.c"
fi
KERNEL=$(uname -sr)
GITREV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
DIRTY=""
[ -n "$(git status --porcelain -- src 2>/dev/null | head -n 1)" ] && DIRTY="+dirty"

# ---------------------------------------------------------------------------------------------
# The RAM-backed device: a fresh zram device of our own when root, else a file in /dev/shm read
# through the page cache (O_DIRECT does not work on tmpfs).

RAM_KIND="" RAM_PATH="" RAM_CACHE=direct RAM_FIO_DIRECT=1 RAM_LIMIT_OPT=""
RAM_MB=$(echo "$RAM_SIZE" | awk '{ n = $1 + 0; u = toupper(substr($1, length($1)));
	print (u == "G") ? n * 1024 : (u == "M") ? n : int(n / 1048576) }')
if [ "$(id -u)" = 0 ]; then
	if [ ! -e /sys/class/zram-control/hot_add ] && modprobe zram num_devices=0 2>/dev/null; then
		ZRAM_LOADED=1
	fi
	if [ -e /sys/class/zram-control/hot_add ] && ZRAM_ID=$(cat /sys/class/zram-control/hot_add) \
		&& [ -n "$ZRAM_ID" ]; then
		# Random contents: reads must copy real pages, not the zero page of an empty device.
		if echo "${RAM_MB}M" > "/sys/block/zram$ZRAM_ID/disksize" 2> "$TMP/err" &&
			[ -b "/dev/zram$ZRAM_ID" ] &&
			dd if=/dev/urandom of="/dev/zram$ZRAM_ID" bs=1M count="$RAM_MB" oflag=direct \
				status=none 2> "$TMP/err"; then
			RAM_KIND=zram RAM_PATH=/dev/zram$ZRAM_ID
		else
			first_err "$TMP/err" "zram set-up failed, using /dev/shm instead"
		fi
	else
		note "no zram here (module zram missing?): using /dev/shm instead"
	fi
else
	note "not root: the RAM-backed device is a file in /dev/shm with buffered I/O, not zram"
fi
if [ -z "$RAM_KIND" ]; then
	SHM_FILE=/dev/shm/iorate-bench.$$
	if dd if=/dev/urandom of="$SHM_FILE" bs=1M count="$RAM_MB" status=none 2> "$TMP/err"; then
		RAM_KIND=shm RAM_PATH=$SHM_FILE RAM_CACHE=buffered RAM_FIO_DIRECT=0
		RAM_LIMIT_OPT=--buffered
	else
		first_err "$TMP/err" "cannot create $SHM_FILE: workloads 2 and 3 skipped"
		rm -f "$SHM_FILE"
		SHM_FILE=""
	fi
fi
case $RAM_KIND in
zram) RAM_DESC="zram device $RAM_PATH ($RAM_SIZE of random data), O_DIRECT" ;;
shm) RAM_DESC="file $RAM_PATH in /dev/shm ($RAM_SIZE), buffered I/O (not root, or no zram)" ;;
*) RAM_DESC="none" ;;
esac

# The file on disk for workload 4: /var/tmp unless that is tmpfs, then the build directory.
DISK_DIR=/var/tmp
[ "$(stat -f -c %T "$DISK_DIR" 2>/dev/null)" = tmpfs ] && DISK_DIR=$BUILD
DISK_SIZE_MB=1024
if [ "$HAVE_URING" = 1 ] && want 4; then
	DISK_FILE=$(mktemp "$DISK_DIR/iorate-bench-disk.XXXXXX") &&
		dd if=/dev/urandom of="$DISK_FILE" bs=1M count=$DISK_SIZE_MB conv=fsync status=none \
			2> "$TMP/err" || { first_err "$TMP/err" "cannot create the file for workload 4";
				rm -f "$DISK_FILE"; DISK_FILE=""; }
fi
DISK_FS=$( [ -n "$DISK_FILE" ] && stat -f -c %T "$DISK_FILE" 2>/dev/null)

say "iorate bench: $SECS s per run, $REPS runs of each contender, alternating"
say "machine: $CPU, $CORES cores, $KERNEL"
say "RAM-backed device: $RAM_DESC"
say "workloads 1, 2 and 8 (one thread): every contender $PIN_DESC; 3 and 4 not pinned (io_uring's"
say "  io-wq workers inherit the pinning, and workload 4 has 4 threads)"
[ -n "$DISK_FILE" ] && say "disk file: $DISK_FILE (${DISK_SIZE_MB} MiB, $DISK_FS)"
say ""

# ---------------------------------------------------------------------------------------------
# The workloads. Every contender reads 4 KiB at random aligned offsets unless said.

# acc NAME: appends this run's V, C and M to $NAME, ${NAME}_C and ${NAME}_M.
acc() {
	eval "$1=\"\${$1:-} ${V:--}\"; $1_C=\"\${$1_C:-} ${C:--}\"; $1_M=\"\${$1_M:-} ${M:--}\""
}

I1="--engine null -b 4k -t 1 -o 1 bench-null"
F1="--name=w1 --ioengine=null --rw=randread --bs=4k --size=1g --iodepth=1"
I2="--engine sync -b 4k -t 1 -o 1 --cache $RAM_CACHE $RAM_PATH"
F2="--name=w2 --filename=$RAM_PATH --ioengine=psync --rw=randread --bs=4k --direct=$RAM_FIO_DIRECT"
I3="--engine uring -b 4k -t 1 -o 32 --cache $RAM_CACHE $RAM_PATH"
F3="--name=w3 --filename=$RAM_PATH --ioengine=io_uring --rw=randread --bs=4k --iodepth=32 \
--fixedbufs --registerfiles --direct=$RAM_FIO_DIRECT"
I4="--engine uring -b 8k -w 30 -t 4 -o 8 --cache direct $DISK_FILE"
F4="--name=w4 --filename=$DISK_FILE --size=${DISK_SIZE_MB}m --ioengine=io_uring --rw=randrw \
--rwmixread=70 --bs=8k --numjobs=4 --iodepth=8 --thread --fixedbufs --registerfiles --direct=1"
# Workload 7: what --verify costs, iorate against itself: 4 KiB random, half writes, sync QD1
# on the RAM-backed device (each write made with a header and crc32c, each read checked).
I7="--engine sync -b 4k -t 1 -o 1 -w 50 --cache $RAM_CACHE --allow-write-device $RAM_PATH"
# Workload 6: 10,000 targets of 1 MiB on the null engine (names only), one thread serving them
# all; fio: one job with 10,000 files. What it measures is the memory a target costs.
N6=10000
I6="--engine null -b 4k -t 1 -o 1 -c 1m --shared-threads $(seq -f 'w6-%g' 1 $N6 | tr '\n' ' ')"
F6="--name=w6 --ioengine=null --rw=randread --bs=4k --nrfiles=$N6 --filesize=1m --iodepth=1"
# Workload 8: iorate against the bare loops (bench/limit_uring.c, limit_aio.c) on the RAM
# device, which must be zram (the loops read with O_DIRECT, which tmpfs refuses). Sync QD1 is
# workload 2's limit.c column. Every contender is pinned to the bench CPU, io_uring's io-wq
# workers with it: unpinned, io_uring at QD1 on zram measured where the scheduler put the
# worker that reads (31k IOPS against 310k pinned, iorate and the loop alike), not either.
I8U1="--engine uring -b 4k -t 1 -o 1 --cache direct $RAM_PATH"
I8U32="--engine uring -b 4k -t 1 -o 32 --cache direct $RAM_PATH"
I8A1="--engine aio -b 4k -t 1 -o 1 --cache direct $RAM_PATH"
I8A32="--engine aio -b 4k -t 1 -o 32 --cache direct $RAM_PATH"
# Workload 9: 10,000 targets with a thread each (DiskSpd's way: one thread per target), null
# engine (names only, nothing is created): the memory a thread costs.
I9="--engine null -b 4k -t 1 -o 1 -c 1m $(seq -f 'w9-%g' 1 $N6 | tr '\n' ' ')"
# Workload 10: scaling, one thread against two (not pinned: two need both cores).
I10N1="--engine null -b 4k -t 1 -o 1 bench-null"
I10N2="--engine null -b 4k -t 2 -o 1 bench-null"
I10S1="--engine sync -b 4k -t 1 -o 1 --cache $RAM_CACHE $RAM_PATH"
I10S2="--engine sync -b 4k -t 2 -o 1 --cache $RAM_CACHE $RAM_PATH"

# Contenders: one function each, so that rounds() can run them in alternating order.
# shellcheck disable=SC2086
{
c_w1_io() { pinned run_iorate $I1; acc W1_IO; }
c_w1_fio() { pinned run_fio $F1; acc W1_FIO; }
c_w1_nolat() { pinned run_iorate $I1 --no-latency; acc W1_NOLAT; }
c_w2_io() { pinned run_iorate $I2; acc W2_IO; }
c_w2_fio() { pinned run_fio $F2; acc W2_FIO; }
c_w2_lim() { pinned run_limit $RAM_LIMIT_OPT "$RAM_PATH"; acc W2_LIM; }
c_w2_nolat() { pinned run_iorate $I2 --no-latency; acc W2_NOLAT; }
c_w3_io() { run_iorate $I3; acc W3_IO; }
c_w3_fio() { run_fio $F3; acc W3_FIO; }
c_w4_io() { run_iorate $I4; acc W4_IO; }
c_w4_fio() { run_fio $F4; acc W4_FIO; }
c_w6_io() { run_iorate $I6; acc W6_IO; }
c_w7_plain() { pinned run_iorate $I7; acc W7_PLAIN; }
c_w7_verify() { pinned run_iorate $I7 --verify; acc W7_VERIFY; }
c_w6_fio() { run_fio $F6; acc W6_FIO; }
# io_uring's rows are not pinned (io-wq, as workload 3); libaio's are (zram reads in io_submit).
c_w8u1_io() { pinned run_iorate $I8U1; acc W8U1_IO; }
c_w8u1_lim() { pinned run_bare "$LIMIT_URING" -q 1 "$RAM_PATH"; acc W8U1_LIM; }
c_w8u32_io() { pinned run_iorate $I8U32; acc W8U32_IO; }
c_w8u32_lim() { pinned run_bare "$LIMIT_URING" -q 32 "$RAM_PATH"; acc W8U32_LIM; }
c_w8a1_io() { pinned run_iorate $I8A1; acc W8A1_IO; }
c_w8a1_lim() { pinned run_bare "$LIMIT_AIO" -q 1 "$RAM_PATH"; acc W8A1_LIM; }
c_w8a32_io() { pinned run_iorate $I8A32; acc W8A32_IO; }
c_w8a32_lim() { pinned run_bare "$LIMIT_AIO" -q 32 "$RAM_PATH"; acc W8A32_LIM; }
c_w9_io() { run_iorate $I9; acc W9_IO; }
c_w10n1() { run_iorate $I10N1; acc W10N1; }
c_w10n2() { run_iorate $I10N2; acc W10N2; }
c_w10s1() { run_iorate $I10S1; acc W10S1; }
c_w10s2() { run_iorate $I10S2; acc W10S2; }
}

# rounds C1 C2 ...: REPS rounds; odd rounds run the contenders in the order given, even rounds
# in reverse (A B, B A, A B, ...), so a drift of the machine or the device over the series
# favours none of them.
rounds() {
	fwd="$*" rev=""
	for c in "$@"; do rev="$c $rev"; done
	for i in $(seq "$REPS"); do
		if [ $((i % 2)) = 1 ]; then order=$fwd; else order=$rev; fi
		for c in $order; do $c; done
	done
}

FIO_C="" LIM_C=""
[ "$HAVE_FIO" = 1 ] && FIO_C=1
[ "$HAVE_LIMIT" = 1 ] && LIM_C=1
if want 1; then
	say "running workload 1 (null engine, QD1) and the latency-recording cost ..."
	rounds c_w1_io ${FIO_C:+c_w1_fio} c_w1_nolat
fi
if [ -n "$RAM_PATH" ]; then
	if want 2; then
		say "running workload 2 (sync QD1, $RAM_KIND) ..."
		# With and without --no-latency back to back in every round: their ratio is a target.
		rounds c_w2_io c_w2_nolat ${FIO_C:+c_w2_fio} ${LIM_C:+c_w2_lim}
	fi
	if [ "$HAVE_URING" = 1 ] && want 3; then
		say "running workload 3 (io_uring QD32, $RAM_KIND) ..."
		rounds c_w3_io ${FIO_C:+c_w3_fio}
	fi
	if want 7; then
		say "running workload 7 (--verify's cost: sync QD1, 50% writes, $RAM_KIND) ..."
		rounds c_w7_plain c_w7_verify
	fi
fi
if [ "$RAM_KIND" = zram ] && want 8; then
	if [ "$HAVE_URING" = 1 ] && [ "$HAVE_LIMIT_URING" = 1 ]; then
		say "running workload 8 (io_uring QD1 and QD32 against the bare loop, zram) ..."
		rounds c_w8u1_io c_w8u1_lim
		rounds c_w8u32_io c_w8u32_lim
	fi
	if [ "$HAVE_LIMIT_AIO" = 1 ]; then
		say "running workload 8 (libaio QD1 and QD32 against the bare loop, zram) ..."
		rounds c_w8a1_io c_w8a1_lim
		rounds c_w8a32_io c_w8a32_lim
	fi
elif want 8; then
	note "workload 8 needs the zram device (root, module zram): skipped"
fi
W5_LONG=""
if [ -n "$DISK_FILE" ] && want 4; then
	say "running workloads 4 and 5 (io_uring 70/30 8 KiB, 4 threads x QD8, file on $DISK_FS) ..."
	rounds c_w4_io ${FIO_C:+c_w4_fio}
	if [ "$LONG" = 1 ] && [ -x "$TIMEV" ]; then
		say "running workload 5's 60 s run of iorate (BENCH_LONG=1) ..."
		SECS_SAVED=$SECS SECS=60
		# shellcheck disable=SC2086
		run_iorate $I4
		SECS=$SECS_SAVED W5_LONG=$M
	fi
fi
if [ -x "$TIMEV" ] && want 6; then
	say "running workload 6 ($N6 targets, null engine, one thread: peak RSS) ..."
	rounds c_w6_io ${FIO_C:+c_w6_fio}
fi
if [ -x "$TIMEV" ] && want 9; then
	say "running workload 9 ($N6 targets, null engine, a thread each: peak RSS) ..."
	rounds c_w9_io
fi
if want 10; then
	say "running workload 10 (scaling: 1 and 2 threads, null engine and sync on $RAM_KIND) ..."
	rounds c_w10n1 c_w10n2
	[ -n "$RAM_PATH" ] && rounds c_w10s1 c_w10s2
fi
say ""

# ---------------------------------------------------------------------------------------------
# The table. Ratios are iorate / other, so above 1 means iorate did more (or, for memory, used
# more).

# shellcheck disable=SC2086
{
	m1i=$(median $W1_IO) m1f=$(median $W1_FIO) m1n=$(median $W1_NOLAT)
	m2i=$(median $W2_IO) m2f=$(median $W2_FIO) m2l=$(median $W2_LIM) m2n=$(median $W2_NOLAT)
	m3i=$(median $W3_IO) m3f=$(median $W3_FIO)
	m4i=$(median $W4_IO) m4f=$(median $W4_FIO)
	m5i=$(median $W4_IO_M) m5f=$(median $W4_FIO_M)
	m6i=$(median $W6_IO_M) m6f=$(median $W6_FIO_M)
	m7p=$(median $W7_PLAIN) m7v=$(median $W7_VERIFY)
	c1i=$(median $W1_IO_C) c1f=$(median $W1_FIO_C) c1n=$(median $W1_NOLAT_C)
	c2i=$(median $W2_IO_C) c2f=$(median $W2_FIO_C) c2l=$(median $W2_LIM_C)
	c2n=$(median $W2_NOLAT_C)
	c3i=$(median $W3_IO_C) c3f=$(median $W3_FIO_C)
	c4i=$(median $W4_IO_C) c4f=$(median $W4_FIO_C)
}
r1=$(ratio "$m1i" "$m1f") r1n=$(ratio "$m1i" "$m1n") r2n=$(ratio "$m2i" "$m2n")
r2=$(ratio "$m2i" "$m2f") r2l=$(ratio "$m2i" "$m2l")
r3=$(ratio "$m3i" "$m3f") r4=$(ratio "$m4i" "$m4f") r5=$(ratio "$m5i" "$m5f")
r6=$(ratio "$m6i" "$m6f") r7=$(ratio "$m7v" "$m7p")
ok1=$(ge "$r1" 4)
# What timing costs is judged where there is I/O to time: workload 2 against itself with
# --no-latency, paired by round (the two run back to back). On the null engine the ratio is the
# cost of one clock read per I/O against a loop that does nothing else: information only.
p2n=$(paired "$W2_IO" "$W2_NOLAT")
ok2n=$(ge "$p2n" 0.98)
ok2=$(all_of "$(ge "$r2" 1.1)" "$(ge "$r2l" 0.97)")
ok3=$(ge "$r3" 1.15)
ok4=$(ge "$r4" 0.97)
ok5=n/a
[ -n "$r5" ] && ok5=$(awk -v r="$r5" 'BEGIN { print (r <= 0.5) ? "yes" : "no" }')
# Workload 6's goal is absolute: 10,000 targets in at most 64 MiB (65536 KiB) of peak RSS.
ok6=n/a
[ -n "$m6i" ] && ok6=$(awk -v m="$m6i" 'BEGIN { print (m <= 65536) ? "yes" : "no" }')
r5l="" ok5l=n/a
if [ -n "$W5_LONG" ] && [ -n "$m5i" ]; then
	r5l=$(ratio "$W5_LONG" "$m5i")
	ok5l=$(awk -v r="$r5l" 'BEGIN { print (r <= 1.10 && r >= 0.909) ? "yes" : "no" }')
fi

row() {
	printf '%-34s %11s %11s %7s %11s %7s  %-22s %s\n' "$@"
}
say "medians of $REPS runs of $SECS s, in alternating order; ratio = iorate / other"
row "workload" "iorate" "fio" "ratio" "limit.c" "ratio" "target" "met"
row "1 null QD1 (IOPS)" "$(fmt "$m1i")" "$(fmt "$m1f")" "${r1:-n/a}" "" "" ">= 4x fio" "$ok1"
row "2 sync QD1 $RAM_KIND (IOPS)" "$(fmt "$m2i")" "$(fmt "$m2f")" "${r2:-n/a}" "$(fmt "$m2l")" \
	"${r2l:-n/a}" ">= 1.1x fio, .97x limit" "$ok2"
row "3 uring QD32 $RAM_KIND (IOPS)" "$(fmt "$m3i")" "$(fmt "$m3f")" "${r3:-n/a}" "" "" \
	">= 1.15x fio" "$ok3"
row "4 uring 70/30 8k 4x8 disk (IOPS)" "$(fmt "$m4i")" "$(fmt "$m4f")" "${r4:-n/a}" "" "" \
	">= 0.97x fio" "$ok4"
row "5 peak RSS of 4 (KiB)" "$(fmt "$m5i")" "$(fmt "$m5f")" "${r5:-n/a}" "" "" "<= 0.5x fio" "$ok5"
row "6 peak RSS, $N6 targets (KiB)" "$(fmt "$m6i")" "$(fmt "$m6f")" "${r6:-n/a}" "" "" \
	"<= 64 MiB" "$ok6"
row "7 --verify, sync QD1 50% w (IOPS)" "$(fmt "$m7v")" "" "${r7:-n/a}" "" "" \
	"information" "of plain"
row "latency cost: 2 / --no-latency" "$(fmt "$m2i")" "$(fmt "$m2n")" "${p2n:-n/a}" "" "" \
	">= 0.98x, paired" "$ok2n"
row "  the same on 1: a clock read" "$(fmt "$m1i")" "$(fmt "$m1n")" "${r1n:-n/a}" "" "" \
	"information" ""
if [ -n "$r5l" ]; then
	row "5 peak RSS 60 s / 5 s (iorate)" "$W5_LONG" "" "$r5l" "" "" "within 10%" "$ok5l"
else
	row "5 peak RSS 60 s / 5 s (iorate)" "skipped" "" "" "" "" "within 10%" \
		"n/a (BENCH_LONG=1)"
fi
# Workloads 8 to 10: iorate / bare loop (target 0.97), peak RSS of 10,000 threads (target
# 256 MiB), and two threads / one (target 1.9 on the null engine; sync stated).
# shellcheck disable=SC2086
{
	m8u1i=$(median $W8U1_IO) m8u1l=$(median $W8U1_LIM) m8u32i=$(median $W8U32_IO)
	m8u32l=$(median $W8U32_LIM) m8a1i=$(median $W8A1_IO) m8a1l=$(median $W8A1_LIM)
	m8a32i=$(median $W8A32_IO) m8a32l=$(median $W8A32_LIM) m9i=$(median $W9_IO_M)
	m10n1=$(median $W10N1) m10n2=$(median $W10N2) m10s1=$(median $W10S1) m10s2=$(median $W10S2)
}
r8u1=$(ratio "$m8u1i" "$m8u1l") r8u32=$(ratio "$m8u32i" "$m8u32l")
r8a1=$(ratio "$m8a1i" "$m8a1l") r8a32=$(ratio "$m8a32i" "$m8a32l")
r10n=$(ratio "$m10n2" "$m10n1") r10s=$(ratio "$m10s2" "$m10s1")
p8u1=$(paired "$W8U1_IO" "$W8U1_LIM") p8u32=$(paired "$W8U32_IO" "$W8U32_LIM")
p8a1=$(paired "$W8A1_IO" "$W8A1_LIM") p8a32=$(paired "$W8A32_IO" "$W8A32_LIM")
p10n=$(paired "$W10N2" "$W10N1") p10s=$(paired "$W10S2" "$W10S1")
ok9=n/a
[ -n "$m9i" ] && ok9=$(awk -v m="$m9i" 'BEGIN { print (m <= 262144) ? "yes" : "no" }')
say ""
say "iorate against the bare loops (8), 10,000 threads (9), scaling (10); medians, ratio of medians"
row "workload" "iorate" "other" "ratio" "paired" "" "target" "met"
row "8 sync QD1 $RAM_KIND / limit.c" "$(fmt "$m2i")" "$(fmt "$m2l")" "${r2l:-n/a}" \
	"$(paired "$W2_IO" "$W2_LIM")" "" ">= 0.97x bare loop" "$(ge "$r2l" 0.97)"
row "8 uring QD1 / limit_uring" "$(fmt "$m8u1i")" "$(fmt "$m8u1l")" "${r8u1:-n/a}" "${p8u1:-n/a}" \
	"" ">= 0.97x bare loop" "$(ge "$r8u1" 0.97)"
row "8 uring QD32 / limit_uring" "$(fmt "$m8u32i")" "$(fmt "$m8u32l")" "${r8u32:-n/a}" \
	"${p8u32:-n/a}" "" ">= 0.97x bare loop" "$(ge "$r8u32" 0.97)"
row "8 aio QD1 / limit_aio" "$(fmt "$m8a1i")" "$(fmt "$m8a1l")" "${r8a1:-n/a}" "${p8a1:-n/a}" \
	"" ">= 0.97x bare loop" "$(ge "$r8a1" 0.97)"
row "8 aio QD32 / limit_aio" "$(fmt "$m8a32i")" "$(fmt "$m8a32l")" "${r8a32:-n/a}" \
	"${p8a32:-n/a}" "" ">= 0.97x bare loop" "$(ge "$r8a32" 0.97)"
row "9 peak RSS, $N6 threads (KiB)" "$(fmt "$m9i")" "" "" "" "" "<= 256 MiB" "$ok9"
row "10 null: 2 threads / 1 (IOPS)" "$(fmt "$m10n2")" "$(fmt "$m10n1")" "${r10n:-n/a}" \
	"${p10n:-n/a}" "" ">= 1.9x" "$(ge "$r10n" 1.9)"
row "10 sync $RAM_KIND: 2 threads / 1" "$(fmt "$m10s2")" "$(fmt "$m10s1")" "${r10s:-n/a}" \
	"${p10s:-n/a}" "" "information" ""
p1=$(paired "$W1_IO" "$W1_FIO") p2=$(paired "$W2_IO" "$W2_FIO") p2l=$(paired "$W2_IO" "$W2_LIM")
p3=$(paired "$W3_IO" "$W3_FIO") p4=$(paired "$W4_IO" "$W4_FIO") p1n=$(paired "$W1_IO" "$W1_NOLAT")
say ""
say "ratios paired by round (median over rounds of iorate / other, from runs back to back; the"
say "machine's speed drifts between rounds, which the ratio of medians above takes in):"
say "  1 vs fio ${p1:-n/a}; 2 vs fio ${p2:-n/a}, vs limit.c ${p2l:-n/a}; 3 vs fio ${p3:-n/a};" \
	"4 vs fio ${p4:-n/a}; 1 vs --no-latency ${p1n:-n/a}; 2 vs --no-latency ${p2n:-n/a}"
say ""
say "CPU per I/O, ns (user + system time of the process / I/Os; steadier than IOPS when the"
say "machine is busy; lower is leaner)"
row "workload" "iorate" "fio" "ratio" "limit.c" "ratio" "" ""
row "1 null QD1" "$(fmt "$c1i")" "$(fmt "$c1f")" "$(ratio "$c1i" "$c1f")" "" "" "" ""
row "1 null QD1 --no-latency" "$(fmt "$c1n")" "" "" "" "" "" ""
row "2 sync QD1 $RAM_KIND" "$(fmt "$c2i")" "$(fmt "$c2f")" "$(ratio "$c2i" "$c2f")" \
	"$(fmt "$c2l")" "$(ratio "$c2i" "$c2l")" "" ""
row "2 sync QD1 $RAM_KIND --no-latency" "$(fmt "$c2n")" "" "" "" "" "" ""
row "3 uring QD32 $RAM_KIND" "$(fmt "$c3i")" "$(fmt "$c3f")" "$(ratio "$c3i" "$c3f")" "" "" "" ""
row "4 uring 70/30 8k 4x8 disk" "$(fmt "$c4i")" "$(fmt "$c4f")" "$(ratio "$c4i" "$c4f")" "" "" "" ""
say ""
# What recording a latency adds to each I/O, in ns: on workload 2 the CPU time of the process
# (median over rounds of the difference), on workload 1 the loop's own time (1e9 / IOPS); both
# next to the cost of one clock read.
d2n=$(paired_diff "$W2_IO_C" "$W2_NOLAT_C")
d1n="" t1=""
[ -n "$m1i" ] && [ -n "$m1n" ] &&
	d1n=$(awk -v a="$m1i" -v b="$m1n" 'BEGIN { printf "%.1f", 1e9 / a - 1e9 / b }') &&
	t1=$(awk -v a="$m1i" 'BEGIN { printf "%.1f", 1e9 / a }')
say "latency recording per I/O: workload 2 ${d2n:-n/a} ns of CPU (of $(fmt "$c2i") ns with it);" \
	"workload 1 ${d1n:-n/a} ns (of ${t1:-n/a} ns)"
say "  one clock read (bench/clockcost.c): rdtsc ${CLOCK_TSC:-n/a} ns, clock_gettime" \
	"${CLOCK_CG:-n/a} ns; iorate reads the clock once per I/O (IORATE_CLOCK, src/util/clock.h)"
say "machine: $CPU, $CORES cores, $KERNEL; iorate $GITREV$DIRTY; RAM-backed device: $RAM_DESC;"
say "  workloads 1 and 2 $PIN_DESC"
say "runs, in order (IOPS):"
say "  1 iorate [$W1_IO ] fio [$W1_FIO ] iorate --no-latency [$W1_NOLAT ]"
say "  2 iorate [$W2_IO ] fio [$W2_FIO ] limit [$W2_LIM ] iorate --no-latency [$W2_NOLAT ]"
say "  3 iorate [$W3_IO ] fio [$W3_FIO ]"
say "  4 iorate [$W4_IO ] fio [$W4_FIO ]"
say "  5 peak RSS, KiB: iorate [$W4_IO_M ] fio [$W4_FIO_M ]"
say "  6 peak RSS, KiB: iorate [$W6_IO_M ] fio [$W6_FIO_M ]"
say "  7 iorate --verify [$W7_VERIFY ] iorate [$W7_PLAIN ]"
say "  8 uring QD1 iorate [$W8U1_IO ] limit_uring [$W8U1_LIM ]"
say "  8 uring QD32 iorate [$W8U32_IO ] limit_uring [$W8U32_LIM ]"
say "  8 aio QD1 iorate [$W8A1_IO ] limit_aio [$W8A1_LIM ]"
say "  8 aio QD32 iorate [$W8A32_IO ] limit_aio [$W8A32_LIM ]"
say "  9 peak RSS, KiB: iorate [$W9_IO_M ]"
say "  10 null 1 thread [$W10N1 ] 2 threads [$W10N2 ]; sync 1 thread [$W10S1 ] 2 threads [$W10S2 ]"

# ---------------------------------------------------------------------------------------------
# bench/results/latest.json

# side NAME: {"runs": [...], "median": x, "cpu_ns_per_io": [...], "cpu_ns_per_io_median": y}
side() {
	eval "v=\${$1:-} c=\${$1_C:-}"
	# shellcheck disable=SC2086
	printf '{"runs": %s, "median": %s, "cpu_ns_per_io": %s, "cpu_ns_per_io_median": %s}' \
		"$(jlist $v)" "$(jnum "$(median $v)")" "$(jlist $c)" "$(jnum "$(median $c)")"
}
wl() { # id name iorate-var fio-var ratio target met [extra]
	printf '    {"id": %s, "name": %s,\n     "iorate": %s,\n     "fio": %s,\n' "$1" "$(jstr "$2")" \
		"$(side "$3")" "$(side "$4")"
	printf '     "ratio": %s, "target": %s, "met": %s%s}' "$(jnum "$5")" "$(jstr "$6")" \
		"$(jstr "$7")" "${8:-}"
}
mkdir -p "$(dirname "$OUT")"
# shellcheck disable=SC2086
{
	printf '{\n  "schema": 1,\n  "date": %s,\n  "iorate": %s,\n' \
		"$(jstr "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$(jstr "$GITREV$DIRTY")"
	printf '  "fio": %s,\n' "$(jstr "$( [ "$HAVE_FIO" = 1 ] && fio --version)")"
	printf '  "machine": {"cpu": %s, "cores": %s, "kernel": %s},\n' "$(jstr "$CPU")" "$CORES" \
		"$(jstr "$KERNEL")"
	printf '  "seconds": %s, "reps": %s, "pinning": %s,\n' "$SECS" "$REPS" \
		"$(jstr "workloads 1 and 2 $PIN_DESC")"
	printf '  "ram_device": {"kind": %s, "description": %s},\n' "$(jstr "${RAM_KIND:-none}")" \
		"$(jstr "$RAM_DESC")"
	printf '  "disk_file": {"dir": %s, "fs": %s, "mib": %s},\n' "$(jstr "$DISK_DIR")" \
		"$(jstr "$DISK_FS")" "$DISK_SIZE_MB"
	printf '  "commands": {\n    "1": [%s, %s],\n    "2": [%s, %s, %s],\n' \
		"$(jstr "iorate run -q -d $SECS $I1")" "$(jstr "fio --norandommap $F1")" \
		"$(jstr "iorate run -q -d $SECS $I2")" "$(jstr "fio --norandommap $F2")" \
		"$(jstr "limit -d $SECS $RAM_LIMIT_OPT $RAM_PATH")"
	printf '    "3": [%s, %s],\n    "4": [%s, %s],\n' \
		"$(jstr "iorate run -q -d $SECS $I3")" "$(jstr "fio --norandommap $F3")" \
		"$(jstr "iorate run -q -d $SECS $I4")" "$(jstr "fio --norandommap $F4")"
	printf '    "7": [%s, %s],\n' "$(jstr "iorate run -q -d $SECS $I7 --verify")" \
		"$(jstr "iorate run -q -d $SECS $I7")"
	printf '    "8": [%s, %s, %s, %s],\n' "$(jstr "iorate run -q -d $SECS $I8U1")" \
		"$(jstr "iorate run -q -d $SECS $I8U32")" "$(jstr "iorate run -q -d $SECS $I8A1")" \
		"$(jstr "iorate run -q -d $SECS $I8A32")"
	printf '    "9": [%s],\n' "$(jstr "iorate run -q -d $SECS --engine null -b 4k -t 1 -o 1 \
-c 1m w9-1 ... w9-$N6")"
	printf '    "10": [%s, %s, %s, %s],\n' "$(jstr "iorate run -q -d $SECS $I10N1")" \
		"$(jstr "iorate run -q -d $SECS $I10N2")" "$(jstr "iorate run -q -d $SECS $I10S1")" \
		"$(jstr "iorate run -q -d $SECS $I10S2")"
	printf '    "6": [%s, %s]},\n' \
		"$(jstr "iorate run -q -d $SECS --engine null -b 4k -t 1 -o 1 -c 1m --shared-threads \
w6-1 ... w6-$N6")" "$(jstr "fio --norandommap $F6")"
	printf '  "paired_ratios": {"1_fio": %s, "2_fio": %s, "2_limit": %s, "3_fio": %s, "4_fio": %s,' \
		"$(jnum "$p1")" "$(jnum "$p2")" "$(jnum "$p2l")" "$(jnum "$p3")" "$(jnum "$p4")"
	printf ' "1_no_latency": %s, "2_no_latency": %s},\n' "$(jnum "$p1n")" "$(jnum "$p2n")"
	printf '  "workloads": [\n'
	wl 1 "null engine QD1, IOPS" W1_IO W1_FIO "$r1" ">= 4x fio" "$ok1"
	printf ',\n'
	wl 2 "sync QD1 random read 4k on $RAM_KIND, IOPS" W2_IO W2_FIO "$r2" \
		">= 1.1x fio and >= 0.97x limit.c" "$ok2" ",
     \"limit\": $(side W2_LIM), \"ratio_limit\": $(jnum "$r2l")"
	printf ',\n'
	wl 3 "io_uring QD32 random read 4k on $RAM_KIND, IOPS" W3_IO W3_FIO "$r3" ">= 1.15x fio" \
		"$ok3"
	printf ',\n'
	wl 4 "io_uring 70/30 8k 4 threads x QD8 on a file on disk, IOPS" W4_IO W4_FIO "$r4" \
		">= 0.97x fio" "$ok4"
	printf ',\n'
	printf '    {"id": 5, "name": "peak RSS of workload 4, KiB",\n'
	printf '     "iorate": {"runs": %s, "median": %s},\n' "$(jlist $W4_IO_M)" "$(jnum "$m5i")"
	printf '     "fio": {"runs": %s, "median": %s},\n' "$(jlist $W4_FIO_M)" "$(jnum "$m5f")"
	printf '     "ratio": %s, "target": "<= 0.5x fio", "met": %s,\n' "$(jnum "$r5")" \
		"$(jstr "$ok5")"
	printf '     "iorate_60s_kib": %s, "ratio_60s_5s": %s, "target_60s": "within 10%%",' \
		"$(jnum "$W5_LONG")" "$(jnum "$r5l")"
	printf ' "met_60s": %s},\n' "$(jstr "$ok5l")"
	printf '    {"id": 6, "name": "peak RSS with %s targets (null engine, one thread), KiB",\n' \
		"$N6"
	printf '     "iorate": {"runs": %s, "median": %s},\n' "$(jlist $W6_IO_M)" "$(jnum "$m6i")"
	printf '     "fio": {"runs": %s, "median": %s},\n' "$(jlist $W6_FIO_M)" "$(jnum "$m6f")"
	printf '     "ratio": %s, "target": "<= 65536 KiB (64 MiB)", "met": %s},\n' \
		"$(jnum "$r6")" "$(jstr "$ok6")"
	printf '    {"id": 7, "name": "--verify against plain, sync QD1 4k 50%% writes, IOPS",\n'
	printf '     "verify": %s, "plain": %s, "ratio": %s},\n' "$(side W7_VERIFY)" \
		"$(side W7_PLAIN)" "$(jnum "$r7")"
	bare() { # name iorate-var loop-var ratio paired command
		printf '    {"id": 8, "name": %s,\n     "iorate": %s,\n     "bare_loop": %s,\n' \
			"$(jstr "$1")" "$(side "$2")" "$(side "$3")"
		printf '     "ratio": %s, "paired_ratio": %s, "target": ">= 0.97x bare loop",' \
			"$(jnum "$4")" "$(jnum "$5")"
		printf ' "met": %s, "bare_loop_command": %s},\n' "$(jstr "$(ge "$4" 0.97)")" \
			"$(jstr "$6")"
	}
	bare "sync QD1 4k random read on $RAM_KIND, IOPS" W2_IO W2_LIM "$r2l" "$p2l" \
		"limit -d $SECS $RAM_LIMIT_OPT $RAM_PATH"
	bare "io_uring QD1 4k random read on $RAM_KIND, IOPS" W8U1_IO W8U1_LIM "$r8u1" "$p8u1" \
		"limit_uring -d $SECS -q 1 $RAM_PATH"
	bare "io_uring QD32 4k random read on $RAM_KIND, IOPS" W8U32_IO W8U32_LIM "$r8u32" \
		"$p8u32" "limit_uring -d $SECS -q 32 $RAM_PATH"
	bare "libaio QD1 4k random read on $RAM_KIND, IOPS" W8A1_IO W8A1_LIM "$r8a1" "$p8a1" \
		"limit_aio -d $SECS -q 1 $RAM_PATH"
	bare "libaio QD32 4k random read on $RAM_KIND, IOPS" W8A32_IO W8A32_LIM "$r8a32" "$p8a32" \
		"limit_aio -d $SECS -q 32 $RAM_PATH"
	printf '    {"id": 9, "name": "peak RSS with %s targets, a thread each (null engine), KiB",\n' \
		"$N6"
	printf '     "iorate": {"runs": %s, "median": %s}, "target": "<= 262144 KiB (256 MiB)",' \
		"$(jlist $W9_IO_M)" "$(jnum "$m9i")"
	printf ' "met": %s},\n' "$(jstr "$ok9")"
	printf '    {"id": 10, "name": "scaling: 2 threads / 1, IOPS",\n'
	printf '     "null": {"one": %s, "two": %s, "ratio": %s, "paired_ratio": %s,' \
		"$(side W10N1)" "$(side W10N2)" "$(jnum "$r10n")" "$(jnum "$p10n")"
	printf ' "target": ">= 1.9", "met": %s},\n' "$(jstr "$(ge "$r10n" 1.9)")"
	printf '     "sync": {"one": %s, "two": %s, "ratio": %s, "paired_ratio": %s}}\n  ],\n' \
		"$(side W10S1)" "$(side W10S2)" "$(jnum "$r10s")" "$(jnum "$p10s")"

	printf '  "latency_cost": {\n    "workload_2": {"with_latency": %s,\n' "$(side W2_IO)"
	printf '      "no_latency": %s,\n      "paired_ratio": %s, "ratio_of_medians": %s,' \
		"$(side W2_NOLAT)" "$(jnum "$p2n")" "$(jnum "$r2n")"
	printf ' "cpu_ns_per_io_added": %s, "target": ">= 0.98, paired", "met": %s},\n' \
		"$(jnum "$d2n")" "$(jstr "$ok2n")"
	printf '    "workload_1": {"with_latency": %s,\n      "no_latency": %s,\n' "$(side W1_IO)" \
		"$(side W1_NOLAT)"
	printf '      "ratio": %s, "paired_ratio": %s, "ns_per_io_added": %s,' "$(jnum "$r1n")" \
		"$(jnum "$p1n")" "$(jnum "$d1n")"
	printf ' "note": "one clock read per I/O against a loop without I/O"}},\n'
	printf '  "clock_read_ns": {"rdtsc": %s, "clock_gettime": %s}\n}\n' "$(jnum "$CLOCK_TSC")" \
		"$(jnum "$CLOCK_CG")"
} > "$OUT.tmp" && mv "$OUT.tmp" "$OUT" && say "results: $OUT"
exit 0
