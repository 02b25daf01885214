#include "core/cpu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/clock.h"

int cpu_snap_take(struct cpu_snap *s)
{
	struct rusage ru;
	FILE *f = fopen("/proc/stat", "r");
	int r = 0;

	memset(s, 0, sizeof(*s));
	s->t_ns = clock_ns();
	if (!f)
		r = -errno;
	else {
		unsigned long long v[8] = {0};
		if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7]) < 4)
			r = -EIO;
		s->user = v[0];
		s->nice = v[1];
		s->system = v[2];
		s->idle = v[3];
		s->iowait = v[4];
		s->irq = v[5];
		s->softirq = v[6];
		s->steal = v[7];
		fclose(f);
	}
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		s->proc_user_us = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec;
		s->proc_system_us =
			(uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
	}
	return r;
}

void cpu_usage_between(const struct cpu_snap *a, const struct cpu_snap *b, struct cpu_usage *u)
{
	uint64_t user = (b->user + b->nice) - (a->user + a->nice);
	uint64_t sys = (b->system + b->irq + b->softirq) - (a->system + a->irq + a->softirq);
	uint64_t idle = b->idle - a->idle, iowait = b->iowait - a->iowait;
	uint64_t total = user + sys + idle + iowait + (b->steal - a->steal);
	double wall_us = (double)(b->t_ns - a->t_ns) / 1e3;

	u->ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	if (total) {
		u->user = 100.0 * (double)user / (double)total;
		u->system = 100.0 * (double)sys / (double)total;
		u->idle = 100.0 * (double)idle / (double)total;
		u->iowait = 100.0 * (double)iowait / (double)total;
	}
	if (wall_us > 0) {
		u->proc_user = 100.0 * (double)(b->proc_user_us - a->proc_user_us) / wall_us;
		u->proc_system = 100.0 * (double)(b->proc_system_us - a->proc_system_us) / wall_us;
	}
}

void host_info_read(struct host_info *h)
{
	struct utsname un;
	char line[256];
	FILE *f;

	memset(h, 0, sizeof(*h));
	gethostname(h->hostname, sizeof(h->hostname) - 1);
	if (uname(&un) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%.20s %.80s %.20s", un.sysname, un.release,
			 un.machine);
	h->ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	h->mem_bytes = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	if ((f = fopen("/proc/cpuinfo", "r"))) {
		while (fgets(line, sizeof(line), f)) {
			char *c = strchr(line, ':');
			if (c && !strncmp(line, "model name", 10)) {
				snprintf(h->cpu, sizeof(h->cpu), "%s", c + 2);
				h->cpu[strcspn(h->cpu, "\n")] = '\0';
				break;
			}
		}
		fclose(f);
	}
}
