/*
 * The kernel's view of the devices under the targets (core/diskstats.c): lines of
 * /proc/diskstats as every kernel since 2.6 prints them, the change between two snapshots
 * (32-bit millisecond counters wrapping), the figures derived from it, and a whole watch of a
 * group's targets against a made-up sysfs tree and diskstats file.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_tree.h"

#include "core/diskstats.h"
#include "core/result.h"
#include "core/target.h"

#define assert_near(a, b) near_at((a), (b), #a, __LINE__)

static void near_at(double a, double b, const char *expr, int line)
{
	if (!(fabs(a - b) <= 1e-9 * fabs(b)))
		fail_msg("line %d: %s = %.17g, expected %.17g", line, expr, a, b);
}

static void parse_17_fields(void **state)
{
	struct disk_counts c;
	char name[32];

	assert_int_equal(diskstats_parse(" 259       0 nvme0n1 1000 20 16000 300 500 10 8000 "
					 "700 3 900 1100 4 1 64 5 6 7\n", name, sizeof(name), &c),
			 0);
	assert_string_equal(name, "nvme0n1");
	assert_true(c.read_ios == 1000 && c.read_merges == 20 && c.read_bytes == 16000 * 512ull);
	assert_true(c.read_ms == 300 && c.write_ios == 500 && c.write_merges == 10);
	assert_true(c.write_bytes == 8000 * 512ull && c.write_ms == 700 && c.in_flight == 3);
	assert_true(c.busy_ms == 900 && c.queue_ms == 1100);
	assert_true(c.has_discard && c.discard_ios == 4 && c.discard_merges == 1);
	assert_true(c.discard_bytes == 64 * 512 && c.discard_ms == 5);
	assert_true(c.has_flush && c.flush_ios == 6 && c.flush_ms == 7);
}

/* Before Linux 4.18 there are no discards, before 5.5 no flushes: they are not zeros. */
static void parse_older_kernels(void **state)
{
	struct disk_counts c;
	char name[32];

	assert_int_equal(diskstats_parse("8 1 sda1 1 2 3 4 5 6 7 8 9 10 11", name, sizeof(name),
					 &c), 0);
	assert_true(!c.has_discard && !c.has_flush && c.queue_ms == 11 && c.write_bytes == 7 * 512);
	assert_int_equal(diskstats_parse("8 1 sda1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", name,
					 sizeof(name), &c), 0);
	assert_true(c.has_discard && !c.has_flush && c.discard_ms == 15);
	/* A later kernel's further counters are left aside. */
	assert_int_equal(diskstats_parse("8 1 sda1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19",
					 name, sizeof(name), &c), 0);
	assert_true(c.has_flush && c.flush_ms == 17);
}

static void parse_refuses(void **state)
{
	static const char *const bad[] = {
		"", "\n", "8 0 sda", "8 0 sda 1 2 3 4 5 6 7 8 9 10", /* too few */
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 x", "x 0 sda 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 11 junk",
		"8 0 sda 1 2 99999999999999999999 4 5 6 7 8 9 10 11",   /* past 2^64 */
		"8 0 sda 1 2 36028797018963968 4 5 6 7 8 9 10 11",      /* 2^55 sectors */
		"8 0 abcdefghijklmnopqrstuvwxyz0123456789 1 2 3 4 5 6 7 8 9 10 11", /* long */
	};
	struct disk_counts c;
	char name[32];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (diskstats_parse(bad[i], name, sizeof(name), &c) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
}

static void delta_counts(void **state)
{
	struct disk_counts a = {.read_ios = 10, .read_bytes = 4096, .read_ms = 5, .in_flight = 9,
				.busy_ms = UINT32_MAX - 2, .queue_ms = 7, .write_ios = 3,
				.has_discard = true, .has_flush = true};
	struct disk_counts b = {.read_ios = 25, .read_bytes = 8192, .read_ms = 9, .in_flight = 1,
				.busy_ms = 5, .queue_ms = 6, .write_ios = 2, .has_discard = true};

	diskstats_delta(&a, &b, &a);
	assert_true(a.read_ios == 15 && a.read_bytes == 4096 && a.read_ms == 4);
	/* in_flight is the end's; a 32-bit ms counter wrapped once; a count that went back is
	 * another device's, counted 0; flushes are known only when both snapshots have them. */
	assert_true(a.in_flight == 1 && a.busy_ms == 8 && a.write_ios == 0);
	assert_true(a.queue_ms == (1ull << 32) - 1);
	assert_true(a.has_discard && !a.has_flush);
	/* Past 32 bits, a millisecond counter that went back wrapped nothing: 0. */
	a = (struct disk_counts){.read_ms = 1ull << 33};
	b = (struct disk_counts){.read_ms = 5};
	diskstats_delta(&a, &b, &a);
	assert_true(a.read_ms == 0);
}

static void figures(void **state)
{
	struct device_view v = {.seconds = 2,
		.disk = {.read_ios = 300, .read_merges = 100, .read_bytes = 300 * 8192,
			 .read_ms = 150, .write_ios = 100, .write_bytes = 100 * 4096,
			 .write_ms = 250, .discard_ios = 100, .discard_ms = 100, .busy_ms = 1500,
			 .queue_ms = 3000, .flush_ios = 500, .has_discard = true,
			 .has_flush = true}};
	struct device_figures f;

	device_view_figures(&v, &f);
	assert_near(f.util_pct, 75);
	assert_near(f.read_avg_bytes, 8192);
	assert_near(f.write_avg_bytes, 4096);
	assert_near(f.read_await_ms, 0.5);
	assert_near(f.write_await_ms, 2.5);
	assert_near(f.await_ms, 1);              /* (150 + 250 + 100) / (300 + 100 + 100) */
	assert_near(f.queue_ms, 3);              /* 3000 / 1000 requests, flushes too */
	assert_near(f.queue_depth, 1.5);
	assert_near(f.read_merged_pct, 25);
	assert_near(f.write_merged_pct, 0);
	/* Busy a little past the window: at most 100 %. Nothing to divide: NaN. */
	v.disk.busy_ms = 2003;
	v.disk.write_ios = 0;
	device_view_figures(&v, &f);
	assert_near(f.util_pct, 100);
	assert_true(isnan(f.write_avg_bytes) && isnan(f.write_await_ms) &&
		    isnan(f.write_merged_pct));
	v.seconds = 0;
	device_view_figures(&v, &f);
	assert_true(isnan(f.util_pct) && isnan(f.queue_depth));
	/* Merges near 2^64 with no I/O: 100 * m / m rounds to 100.00000000000001, m / m to 1. */
	v.disk.read_merges = 18446665667747479550u;
	v.disk.read_ios = 0;
	device_view_figures(&v, &f);
	assert_true(f.read_merged_pct <= 100 && f.read_merged_pct > 99.99);
}

/* A sysfs tree: disk "vdz" with partition "vdz1", "dm-9" over vdz1 and "loop99". */
struct fx {
	char dir[64];
	char sys[128], stats[128], mountinfo[128];
	struct device_env env;
};

#define VDZ makedev(252, 1048000)
#define VDZ1 makedev(252, 1048001)
#define DM9 makedev(253, 1048009)
#define LOOP99 makedev(7, 1048099)

/* A device's directory under devices/ (its dev file) and its /sys/dev/block link. */
static void node(struct fx *fx, const char *rel, dev_t dev)
{
	char p[512], link[256];

	snprintf(p, sizeof(p), "%s/devices/%s", fx->sys, rel);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/devices/%s/dev", fx->sys, rel);
	snprintf(link, sizeof(link), "%u:%u\n", major(dev), minor(dev));
	put(p, link);
	snprintf(p, sizeof(p), "%s/dev/block/%u:%u", fx->sys, major(dev), minor(dev));
	snprintf(link, sizeof(link), "../../devices/%s", rel);
	assert_int_equal(symlink(link, p), 0);
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char p[512];

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/iorate-test-diskstats.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->sys, sizeof(fx->sys), "%s/sys", fx->dir);
	snprintf(fx->stats, sizeof(fx->stats), "%s/diskstats", fx->dir);
	snprintf(fx->mountinfo, sizeof(fx->mountinfo), "%s/mountinfo", fx->dir);
	snprintf(p, sizeof(p), "%s/dev/block", fx->sys);
	mkdirs(p);
	node(fx, "pci0/virtio1/block/vdz", VDZ);
	node(fx, "pci0/virtio1/block/vdz/vdz1", VDZ1);
	snprintf(p, sizeof(p), "%s/devices/pci0/virtio1/block/vdz/vdz1/partition", fx->sys);
	put(p, "1\n");
	node(fx, "virtual/block/dm-9", DM9);
	snprintf(p, sizeof(p), "%s/devices/virtual/block/dm-9/slaves", fx->sys);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/devices/virtual/block/dm-9/slaves/vdz1", fx->sys);
	assert_int_equal(symlink("../../../../pci0/virtio1/block/vdz/vdz1", p), 0);
	node(fx, "virtual/block/loop99", LOOP99);
	put(fx->mountinfo, "");
	fx->env = (struct device_env){.sys = fx->sys, .mountinfo = fx->mountinfo};
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	fake_tree_remove(fx->dir);
	free(fx);
	return 0;
}

/* The counters of vdz, vdz1, dm-9 and loop99 at one instant, k times some base counts. */
static void stats_at(struct fx *fx, unsigned k, bool with_loop)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 " 252 1048000 vdz %u 0 %u 0 %u 0 %u 0 0 %u %u 0 0 0 0 0 0\n"
		 " 252 1048001 vdz1 %u 0 %u 0 %u 0 %u 0 0 %u %u 0 0 0 0 0 0\n"
		 " 253 1048009 dm-9 %u %u %u %u %u 0 %u 0 2 %u %u 0 0 0 0 0 0\n"
		 "%s", 110 * k, 880 * k, 20 * k, 160 * k, 50 * k, 60 * k, 100 * k, 800 * k,
		 20 * k, 160 * k, 45 * k, 55 * k, 100 * k, 3 * k, 800 * k, 40 * k, 20 * k, 160 * k,
		 40 * k, 50 * k, with_loop ? " 7 1048099 loop99 1 0 8 0 0 0 0 0 0 0 0\n" : "");
	put(fx->stats, text);
}

/* A job's result with targets over dm-9 (a file on its filesystem and the device itself). */
static void job_of(struct result *r, struct target *t, unsigned n)
{
	result_init(r);
	r->seconds = 2;
	r->started = true;
	r->ntargets = n;
	r->targets = calloc(n, sizeof(*r->targets));
	assert_non_null(r->targets);
	memset(t, 0, n * sizeof(*t));
	for (unsigned i = 0; i < n; i++) {
		dir_stats_init(&r->targets[i].read);
		dir_stats_init(&r->targets[i].write);
		dir_stats_init(&r->targets[i].trim);
		t[i].fd = 3;
		t[i].path = (char *)"x";
	}
}

static void add_reads(struct target_result *t, unsigned n, uint64_t bs)
{
	for (unsigned i = 0; i < n; i++)
		dir_stats_add(&t->read, bs, 1000);
}

static const struct device_view *view(const struct result *r, const char *name)
{
	for (unsigned i = 0; i < r->ndevices; i++)
		if (!strcmp(r->devices[i].name, name))
			return &r->devices[i];
	fail_msg("no device %s", name);
	return NULL;
}

/*
 * Two jobs of a group: one with a file on dm-9's filesystem and dm-9 itself, the other with
 * loop99 and a target not opened. Each device once, dm-9's members and their disk under it,
 * the counts the snapshots' change, iorate's I/O added per device, the block target's kernel.
 */
static void watch_group(void **state)
{
	struct fx *fx = *state;
	struct disk_watch w;
	struct result r[2];
	struct target t[3];
	const struct device_view *v;

	disk_watch_init(&w);
	w.path = fx->stats;
	w.env = &fx->env;
	job_of(&r[0], t, 2);
	t[0].dev = DM9;
	t[1].dev = DM9;
	r[0].targets[1].is_blockdev = true;
	strcpy(r[0].targets[1].device, "dm-9");
	add_reads(&r[0].targets[0], 30, 4096);
	add_reads(&r[0].targets[1], 10, 8192);
	assert_int_equal(disk_watch_add(&w, &r[0], t, 2), 0);
	job_of(&r[1], t, 2);
	t[0].dev = LOOP99;
	t[1].fd = -1;
	r[1].job.startdelay_ns = 500000000;
	r[1].seconds = 1;
	assert_int_equal(disk_watch_add(&w, &r[1], t, 2), 0);
	stats_at(fx, 1, true);
	assert_int_equal(disk_watch_start(&w), 0);
	stats_at(fx, 3, false); /* loop99 went away */
	assert_int_equal(disk_watch_end(&w), 0);
	disk_watch_fill(&w);
	disk_watch_release(&w);

	assert_int_equal(r[0].ndevices, 3);
	assert_string_equal(r[0].devices[0].name, "dm-9");
	assert_int_equal(r[0].devices[0].role, DEVICE_TARGET);
	v = view(&r[0], "vdz1");
	assert_true(v->role == DEVICE_MEMBER && !strcmp(v->of, "dm-9"));
	v = view(&r[0], "vdz");
	assert_true(v->role == DEVICE_DISK && !strcmp(v->of, "vdz1"));
	/* vdz: 110 reads and 20 writes per k, k from 1 to 3. */
	assert_true(v->disk.read_ios == 220 && v->disk.read_bytes == 1760 * 512);
	assert_true(v->disk.write_ios == 40 && v->disk.busy_ms == 100);
	assert_true(v->read_ios == 40 && v->read_bytes == 30 * 4096 + 10 * 8192);
	v = view(&r[0], "dm-9");
	assert_true(v->disk.read_merges == 6 && v->disk.in_flight == 2);
	/* The group's window: from 0 to the latest end, 0.5 + 1 s or 2 s. */
	assert_true(v->seconds == 2);
	assert_true(r[0].targets[1].kernel.valid && r[0].targets[1].kernel.read_ios == 200);
	assert_true(!r[0].targets[0].kernel.valid);
	/* loop99 was not listed at the end: left out, with nothing else. */
	assert_int_equal(r[1].ndevices, 0);
	result_release(&r[0]);
	result_release(&r[1]);
}

/* A file whose filesystem has no block device (tmpfs) has none; one sysfs lacks is noted. */
static void watch_nothing(void **state)
{
	struct fx *fx = *state;
	struct disk_watch w;
	struct result r;
	struct target t[2];

	disk_watch_init(&w);
	w.path = fx->stats;
	w.env = &fx->env;
	job_of(&r, t, 2);
	t[0].dev = makedev(0, 1048077);
	t[1].dev = makedev(8, 1048077);
	put(fx->mountinfo, "41 22 0:1048077 / /mnt rw shared:30 - tmpfs tmpfs rw\n");
	assert_int_equal(disk_watch_add(&w, &r, t, 2), 0);
	assert_int_equal(w.ndev, 0);
	assert_int_equal(r.nnotes, 1);
	assert_non_null(strstr(r.notes[0], "which block devices are under x is unknown"));
	stats_at(fx, 1, true);
	assert_int_equal(disk_watch_start(&w), 0);
	assert_int_equal(disk_watch_end(&w), 0);
	disk_watch_fill(&w);
	disk_watch_release(&w);
	assert_int_equal(r.ndevices, 0);
	result_release(&r);
}

/* A /proc/diskstats that cannot be read: the devices are left out, and a note says why. */
static void watch_unreadable(void **state)
{
	struct fx *fx = *state;
	struct disk_watch w;
	struct result r;
	struct target t[1];
	char missing[160];

	snprintf(missing, sizeof(missing), "%s/none", fx->dir);
	disk_watch_init(&w);
	w.path = missing;
	w.env = &fx->env;
	job_of(&r, t, 1);
	t[0].dev = LOOP99;
	assert_int_equal(disk_watch_add(&w, &r, t, 1), 0);
	assert_int_equal(disk_watch_start(&w), -ENOENT);
	disk_watch_fill(&w);
	disk_watch_release(&w);
	assert_int_equal(r.ndevices, 0);
	assert_int_equal(r.nnotes, 1);
	assert_non_null(strstr(r.notes[0], "/proc/diskstats: No such file or directory"));
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_17_fields),
		cmocka_unit_test(parse_older_kernels),
		cmocka_unit_test(parse_refuses),
		cmocka_unit_test(delta_counts),
		cmocka_unit_test(figures),
		cmocka_unit_test_setup_teardown(watch_group, setup, teardown),
		cmocka_unit_test_setup_teardown(watch_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(watch_unreadable, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
