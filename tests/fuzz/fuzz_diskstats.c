/*
 * libFuzzer target: /proc/diskstats as the kernel might print it. Every line is parsed; the
 * devices named are watched through a snapshot of the whole text at the start and the end of a
 * window (the same text twice, so nothing changed); and the figures of whatever parsed are sane.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diskstats.h"
#include "fuzz_util.h"

#define WATCH 4

/* The figures of counts taken as a change over a window: in range, or NaN. */
static void figures_sane(const struct disk_counts *c, double seconds)
{
	struct device_view v = {.seconds = seconds, .disk = *c};
	struct device_figures f;

	device_view_figures(&v, &f);
	const double all[] = {f.util_pct, f.read_avg_bytes, f.write_avg_bytes, f.read_await_ms,
			      f.write_await_ms, f.await_ms, f.queue_ms, f.queue_depth,
			      f.read_merged_pct, f.write_merged_pct};

	/* NaN (nothing to divide by) compares false: only a real figure out of range aborts. */
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i] < 0)
			abort();
	if (f.util_pct > 100 || f.read_merged_pct > 100 || f.write_merged_pct > 100)
		abort();
}

/* Nothing changed between two snapshots of the same text: every count's change is 0. */
static void unchanged(const struct disk_watch_dev *d)
{
	struct disk_counts z;

	diskstats_delta(&d->start, &d->end, &z);
	if (z.read_ios || z.read_merges || z.read_bytes || z.read_ms || z.write_ios ||
	    z.write_merges || z.write_bytes || z.write_ms || z.busy_ms || z.queue_ms ||
	    z.discard_ios || z.discard_bytes || z.discard_ms || z.flush_ios || z.flush_ms ||
	    z.in_flight != d->end.in_flight)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct disk_watch_dev devs[WATCH];
	struct disk_watch w;
	char *text = fuzz_cstr(data, size), path[64], name[32];
	struct disk_counts c;
	int fd;

	if (!text)
		abort();
	disk_watch_init(&w);
	w.dev = devs;
	for (char *line = text, *next; line && *line; line = next) {
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if (diskstats_parse(line, name, sizeof(name), &c))
			continue;
		if (!name[0] || strlen(name) >= sizeof(name) || (c.has_flush && !c.has_discard))
			abort();
		figures_sane(&c, (double)(c.in_flight % 1000) / 10);
		if (w.ndev < WATCH) {
			memset(&devs[w.ndev], 0, sizeof(devs[0]));
			memcpy(devs[w.ndev++].name, name, sizeof(name));
		}
	}
	/* The watch reads the text as the kernel's file: lines longer than it reads are cut. */
	if ((fd = fuzz_memfd(data, size, path, sizeof(path))) >= 0) {
		w.path = path;
		if (disk_watch_start(&w) || disk_watch_end(&w))
			abort();
		for (unsigned i = 0; i < w.ndev; i++) {
			if (devs[i].started != devs[i].ended)
				abort();
			if (devs[i].started)
				unchanged(&devs[i]);
		}
		close(fd);
	}
	free(text);
	return 0;
}
