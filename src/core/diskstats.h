#ifndef IORATE_CORE_DISKSTATS_H
#define IORATE_CORE_DISKSTATS_H
#include "core/result.h"

/*
 * Reads the kernel's counters for one block device from /proc/diskstats. Sectors there are
 * always 512 bytes, whatever the device's logical block size. Returns 0 or -ENOENT.
 */
int diskstats_read(const char *name, struct kernel_counts *out);
/* out = after - before, field by field. */
void diskstats_delta(const struct kernel_counts *before, const struct kernel_counts *after,
		     struct kernel_counts *out);

#endif
