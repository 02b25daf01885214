#!/bin/sh
# bench/device.sh: the device-bound workloads, iorate against fio as it comes and fio tuned, on a
# file on the disk that holds the build tree. `make bench` runs it after bench/run.sh; it runs
# alone too: `BENCH_PAIRS=5 BUILD=build sh bench/device.sh`.
#
# Not a test: it never fails the build; what cannot run is skipped with the reason printed.
#
# Environment:
#   BUILD=build          where iorate was built; the file is made in this directory
#   BENCH_PAIRS=3        rounds; each runs iorate, fio and tuned fio, in alternating order
#   BENCH_DEV_SECS=4     seconds per run
#   BENCH_DEV_ROWS="d1 d2 ..."  only these workloads (default: all)
#   BENCH_DEV_OUT=bench/results/latest-device.json

cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
PAIRS=${BENCH_PAIRS:-3}
SECS=${BENCH_DEV_SECS:-4}
ROWS=${BENCH_DEV_ROWS:-d1 d2 d3 d4 d5 d6 d7}
OUT=${BENCH_DEV_OUT:-bench/results/latest-device.json}
IORATE=$BUILD/iorate
SIZE_MB=1024
TMP="" FILE=""

cleanup() {
	[ -n "$FILE" ] && rm -f "$FILE"
	[ -n "$TMP" ] && rm -rf "$TMP"
	FILE="" TMP=""
}
trap cleanup EXIT
trap 'echo "bench: interrupted, cleaning up" >&2; cleanup; trap - EXIT; exit 0' INT TERM HUP

. bench/lib.sh
skip() { say "device-bound workloads skipped: $*"; exit 0; }

# ---------------------------------------------------------------------------------------------
# The disk: the device under the build tree's filesystem, by its major:minor. A RAM-backed one
# (tmpfs, zram, brd) would measure memory, not a device.

[ -x "$IORATE" ] || skip "$IORATE not found; run 'make' first"
command -v fio > /dev/null 2>&1 || skip "fio not found (Debian package fio)"
FS=$(findmnt -n -o FSTYPE -T "$BUILD" 2>/dev/null || stat -f -c %T "$BUILD" 2>/dev/null)
case $FS in tmpfs | ramfs | "") skip "$BUILD is on ${FS:-an unknown filesystem}, not a disk" ;; esac
MAJMIN=$(stat -c '%Hd:%Ld' "$BUILD" 2>/dev/null)
SYSDEV=$(readlink -f "/sys/dev/block/$MAJMIN" 2>/dev/null)
[ -n "$SYSDEV" ] && [ -r "$SYSDEV/stat" ] ||
	skip "$BUILD is on device $MAJMIN, which is not a block device of its own ($FS)"
DEV=$(basename "$SYSDEV")
DISK=$DEV
[ -e "$SYSDEV/partition" ] && DISK=$(basename "$(dirname "$SYSDEV")")
case $DISK in zram* | ram* | pmem*) skip "$BUILD is on /dev/$DEV, a RAM-backed device" ;; esac
DRIVER=$(basename "$(readlink -f "/sys/block/$DISK/device/driver" 2>/dev/null)" 2>/dev/null)
Q=/sys/block/$DISK/queue
QDESC="max_segments $(cat "$Q/max_segments" 2>/dev/null), max_sectors_kb"
QDESC="$QDESC $(cat "$Q/max_sectors_kb" 2>/dev/null), scheduler $(sed -n 's/.*\[\(.*\)\].*/\1/p' \
	"$Q/scheduler" 2>/dev/null)"
THP=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/iorate-bench-dev.XXXXXX") || skip "mktemp failed"
FILE=$(mktemp "$BUILD/iorate-bench-device.XXXXXX") || skip "cannot create a file in $BUILD"
say "device-bound workloads: writing a ${SIZE_MB} MiB file of random data in $BUILD ..."
dd if=/dev/urandom of="$FILE" bs=1M count=$SIZE_MB conv=fsync status=none 2> "$TMP/err" ||
	skip "cannot write $FILE: $(head -n 1 "$TMP/err")"

# ---------------------------------------------------------------------------------------------
# The workloads: iorate's options, then fio's (both O_DIRECT on the same file), then what fio's
# tuned run adds: registered files and buffers with io_uring, user-space reaping with libaio,
# submission in batches, and buffers in huge pages (glibc's malloc asks for them with the
# tunable, and --iomem_align=2m puts them on a huge page boundary).

row_of() {
	case $1 in
	d1) N="256k seq read QD16 uring" I="--engine uring -b 256k -o 16 -s"
	    F="--ioengine=io_uring --iodepth=16 --bs=256k --rw=read" ;;
	d2) N="256k seq read QD16 aio" I="--engine aio -b 256k -o 16 -s"
	    F="--ioengine=libaio --iodepth=16 --bs=256k --rw=read" ;;
	d3) N="256k rand read QD16 uring" I="--engine uring -b 256k -o 16"
	    F="--ioengine=io_uring --iodepth=16 --bs=256k --rw=randread --norandommap" ;;
	d4) N="256k rand read QD16 aio" I="--engine aio -b 256k -o 16"
	    F="--ioengine=libaio --iodepth=16 --bs=256k --rw=randread --norandommap" ;;
	d5) N="1m seq read QD4 aio" I="--engine aio -b 1m -o 4 -s"
	    F="--ioengine=libaio --iodepth=4 --bs=1m --rw=read" ;;
	d6) N="4k rand read QD32 uring" I="--engine uring -b 4k -o 32"
	    F="--ioengine=io_uring --iodepth=32 --bs=4k --rw=randread --norandommap" ;;
	d7) N="64k 70/30 rand QD8 uring" I="--engine uring -b 64k -o 8 -w 30"
	    F="--ioengine=io_uring --iodepth=8 --bs=64k --rw=randrw --rwmixread=70 --norandommap" ;;
	*) return 1 ;;
	esac
	case $F in
	*io_uring*) T="--fixedbufs --registerfiles --iodepth_batch_submit=4" ;;
	*) T="--userspace_reap --iodepth_batch_submit=4" ;;
	esac
	T="$T --iomem_align=2m"
}
TUNED_ENV=GLIBC_TUNABLES=glibc.malloc.hugetlb=1

# What the disk did during one run (all of its I/O, other processes' included): requests,
# sectors and milliseconds busy, from its stat file.
disk_stat() {
	# shellcheck disable=SC2034
	read -r rd rm rs rt wr wm ws wt inf busy rest < "$SYSDEV/stat"
	echo $((rd + wr)) $((rs + ws)) "$busy"
}
disk_delta() { # before after -> sets DQ (requests), DK (KiB per request), DB (ms busy)
	set -- $1 $2
	DQ=$(($4 - $1)) DB=$(($6 - $3)) DK=-
	[ "$DQ" -gt 0 ] && DK=$(((($5 - $2) / 2) / DQ))
}

# run_one WHO ROW: one run; appends IOPS, KiB per request and ms busy to the row's lists.
run_one() {
	before=$(disk_stat)
	V=""
	case $1 in
	io)
		# shellcheck disable=SC2086
		"$IORATE" run -q --csv -d "$SECS" $I "$FILE" > "$TMP/out" 2> "$TMP/err"
		V=$(awk -F, '$1 == "*" && $2 == "total" { print $6 }' "$TMP/out") ;;
	fio | tuned)
		E="" X=""
		[ "$1" = tuned ] && E=$TUNED_ENV X=$T
		# shellcheck disable=SC2086
		env $E fio --output-format=terse --terse-version=3 --group_reporting \
			--time_based --runtime="$SECS" --name=dev --filename="$FILE" \
			--size=${SIZE_MB}m --direct=1 $F $X > "$TMP/out" 2> "$TMP/err"
		V=$(awk -F';' 'NF > 100 { s += $8 + $49; n++ } END { if (n) printf "%.1f\n", s }' \
			"$TMP/out") ;;
	esac
	disk_delta "$before" "$(disk_stat)"
	[ -n "$V" ] || note "$1 $2: $(grep -v '^[[:space:]]*$' "$TMP/err" | head -n 1)"
	eval "${2}_$1=\"\${${2}_$1:-} ${V:--}\"; ${2}_$1_k=\"\${${2}_$1_k:-} $DK\";" \
		"${2}_$1_b=\"\${${2}_$1_b:-} $DB\""
}

say "disk: /dev/$DEV${DISK:+ (disk $DISK, driver ${DRIVER:-unknown})}, $FS; $QDESC;" \
	"transparent huge pages: ${THP:-unknown}"
say "running $PAIRS rounds of $SECS s per contender: iorate, fio, fio tuned (alternating order) ..."
for row in $ROWS; do
	row_of "$row" || { note "unknown workload $row"; continue; }
	for i in $(seq "$PAIRS"); do
		if [ $((i % 2)) = 1 ]; then order="io fio tuned"; else order="tuned fio io"; fi
		for who in $order; do run_one "$who" "$row"; done
	done
done
say ""

# ---------------------------------------------------------------------------------------------
# The table: ratio = iorate / fio, so above 1 means iorate did more I/Os.

row() { printf '%-28s %9s %9s %6s %9s %6s %6s  %s\n' "$@"; }
say "medians of $PAIRS alternating rounds of $SECS s, IOPS; ratio = iorate / other;" \
	"target: iorate >= 0.99x fio"
row workload iorate fio ratio "fio tuned" ratio paired met
MET_ALL=yes vi="" vf="" vt="" ki="" kf="" kt="" bi="" bf="" bt=""
for row in $ROWS; do
	row_of "$row" || continue
	eval "vi=\${${row}_io:-} vf=\${${row}_fio:-} vt=\${${row}_tuned:-}"
	# shellcheck disable=SC2086
	mi=$(median $vi) mf=$(median $vf) mt=$(median $vt)
	r=$(ratio "$mi" "$mf") rt=$(ratio "$mi" "$mt") p=$(paired "$vi" "$vf") ok=$(ge "$r" 0.99)
	[ "$ok" = yes ] || MET_ALL=no
	eval "${row}_ok=$ok"
	row "$row $N" "$(fmt "$mi")" "$(fmt "$mf")" "${r:-n/a}" "$(fmt "$mt")" "${rt:-n/a}" \
		"${p:-n/a}" "$ok"
done
say ""
say "fio tuned: $TUNED_ENV, --iomem_align=2m, and --fixedbufs --registerfiles (io_uring) or"
say "  --userspace_reap (libaio), both with --iodepth_batch_submit=4; 'paired' is the median of"
say "  iorate / fio over rounds, from runs back to back"
say "what the disk did, medians (its stat file: all its I/O, other processes' included):"
drow() { printf '%-4s %14s %8s %8s %14s %8s %8s\n' "$@"; }
drow "" "KiB/request:" "" "" "ms busy:" "" ""
drow "" iorate fio tuned iorate fio tuned
for row in $ROWS; do
	row_of "$row" || continue
	eval "ki=\${${row}_io_k:-} kf=\${${row}_fio_k:-} kt=\${${row}_tuned_k:-}"
	eval "bi=\${${row}_io_b:-} bf=\${${row}_fio_b:-} bt=\${${row}_tuned_b:-}"
	# shellcheck disable=SC2086
	drow "$row" "$(fmt "$(median $ki)")" "$(fmt "$(median $kf)")" "$(fmt "$(median $kt)")" \
		"$(fmt "$(median $bi)")" "$(fmt "$(median $bf)")" "$(fmt "$(median $bt)")"
done
say "runs, in order (IOPS):"
for row in $ROWS; do
	eval "vi=\${${row}_io:-} vf=\${${row}_fio:-} vt=\${${row}_tuned:-}"
	say "  $row iorate [$vi ] fio [$vf ] tuned [$vt ]"
done

# ---------------------------------------------------------------------------------------------
# bench/results/latest-device.json

GITREV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain -- src 2>/dev/null | head -n 1)" ] && GITREV="$GITREV+dirty"
mkdir -p "$(dirname "$OUT")"
{
	printf '{\n  "schema": 1,\n  "date": %s,\n  "iorate": %s,\n  "fio": %s,\n' \
		"$(jstr "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$(jstr "$GITREV")" \
		"$(jstr "$(fio --version)")"
	printf '  "disk": {"device": %s, "disk": %s, "driver": %s, "fs": %s, "queue": %s,' \
		"$(jstr "$DEV")" "$(jstr "$DISK")" "$(jstr "$DRIVER")" "$(jstr "$FS")" \
		"$(jstr "$QDESC")"
	printf ' "thp": %s},\n' "$(jstr "$THP")"
	printf '  "seconds": %s, "rounds": %s, "file_mib": %s, "target": ">= 0.99x fio",' "$SECS" \
		"$PAIRS" "$SIZE_MB"
	printf ' "met": %s,\n  "fio_tuned_env": %s,\n  "workloads": [' "$(jstr "$MET_ALL")" \
		"$(jstr "$TUNED_ENV")"
	sep=""
	for row in $ROWS; do
		row_of "$row" || continue
		eval "vi=\${${row}_io:-} vf=\${${row}_fio:-} vt=\${${row}_tuned:-}"
		eval "ok=\${${row}_ok:-n/a}"
		# shellcheck disable=SC2086
		mi=$(median $vi) mf=$(median $vf) mt=$(median $vt)
		printf '%s\n    {"id": %s, "name": %s,\n' "$sep" "$(jstr "$row")" "$(jstr "$N")"
		printf '     "commands": [%s, %s, %s],\n' \
			"$(jstr "iorate run -q -d $SECS $I FILE")" \
			"$(jstr "fio --direct=1 --size=${SIZE_MB}m $F")" \
			"$(jstr "$TUNED_ENV fio --direct=1 --size=${SIZE_MB}m $F $T")"
		# shellcheck disable=SC2086
		printf '     "iorate": %s, "fio": %s, "fio_tuned": %s,\n' "$(jlist $vi)" \
			"$(jlist $vf)" "$(jlist $vt)"
		printf '     "medians": [%s, %s, %s], "ratio": %s, "ratio_tuned": %s, "met": %s}' \
			"$(jnum "$mi")" "$(jnum "$mf")" "$(jnum "$mt")" \
			"$(jnum "$(ratio "$mi" "$mf")")" "$(jnum "$(ratio "$mi" "$mt")")" \
			"$(jstr "$ok")"
		sep=","
	done
	printf '\n  ]\n}\n'
} > "$OUT.tmp" && mv "$OUT.tmp" "$OUT" && say "results: $OUT"
exit 0
