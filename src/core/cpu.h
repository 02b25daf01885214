#ifndef IORATE_CORE_CPU_H
#define IORATE_CORE_CPU_H
#include <stdint.h>

#include "core/result.h"

/* CPU time at one instant: system-wide jiffies from /proc/stat, and iorate's own rusage. */
struct cpu_snap {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	uint64_t proc_user_us, proc_system_us;
	uint64_t t_ns;
};

int cpu_snap_take(struct cpu_snap *s);
void cpu_usage_between(const struct cpu_snap *a, const struct cpu_snap *b, struct cpu_usage *u);
void host_info_read(struct host_info *h);

#endif
