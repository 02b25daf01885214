#!/bin/sh
# make demo-stripe: the 2015 A4 DiskSpd post (docs/sources.md) reproduced on this machine. It
# striped 1 to 16 Azure standard data disks (500 IOPS each) on an A4 VM and found 8 KiB reads
# scaling 500 IOPS per disk while 64 KiB reads flattened at ~4,560 IOPS = 285 MiB/s (DiskSpd's "MB/s" are MiB/s) from 10 disks
# on. iorate imposes those caps on 16 test files here and sweeps the number of disks.
#
#   sh bench/demo-stripe.sh                 explicit caps: --cap-iops 500 --vm-cap-mibps 285
#   sh bench/demo-stripe.sh --emulate       the same caps from the catalog (azure-2015:A4+16xstandard)
# Environment: IORATE (binary, default build/iorate), DIR (where the 16 files go, default a new
# directory under /var/tmp, removed after), TIME (per run, default 5s; the seed ran 30s),
# SIZE (per file, default 128MiB).
set -eu
IORATE=${IORATE:-build/iorate}
TIME=${TIME:-5s}
SIZE=${SIZE:-128M}
caps="--cap-iops 500 --vm-cap-mibps 285"
[ "${1:-}" = --emulate ] && caps="--emulate azure-2015:A4+16xstandard"

if [ -n "${DIR:-}" ]; then
	dir=$DIR
else
	dir=$(mktemp -d /var/tmp/iorate-stripe.XXXXXX)
	trap 'rm -rf "$dir"' EXIT INT TERM
fi

echo "the 2015 A4 DiskSpd post: 1 to 16 Azure standard disks (500 IOPS each) on an A4 VM"
echo "(285 MiB/s), random reads"
echo "of 64 KiB and 8 KiB, 8 threads per disk, $TIME per run, 16 files of $SIZE in $dir"
echo "caps: $caps"
echo
# The sweep creates the files once (iorate-sweep-NN.dat), reuses them for every run and removes
# them at the end; Ctrl-C keeps the rows done.
# shellcheck disable=SC2086
"$IORATE" sweep targets=1..16 --bs 64k --bs 8k -t 8 -o 1 -d "$TIME" --size "$SIZE" $caps "$dir"
echo
echo "measured there (DiskSpd 2.0.12, -t8 -o8, 30 s): 64K flat at 4,430-4,645 IOPS from 9 disks"
echo "on, 8K 496 IOPS (1 disk) to 8,073 IOPS (16 disks)."
