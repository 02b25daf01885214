#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "report/json.h"
#include "report/report.h"
#include "report/summary.h"
#include "result/result_set.h"

/* cmocka 1.1.5 (Debian 12) has no assert_double_equal. */
#define assert_near(a, b, eps) near_at((a), (b), (eps), #a, __FILE__, __LINE__)

static void near_at(double a, double b, double eps, const char *expr, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %s = %.17g, expected %.17g within %g", file, line, expr, a, b,
			 eps);
}

/*
 * A run of 10 s over two targets: a block device that was read (100 I/Os at 100 us) and written
 * (50 I/Os at 200 us), and a file that was only read (300 I/Os at 50 us), so its write side has
 * no I/O at all.
 */
static struct result *make_result(void)
{
	struct result *r = malloc(sizeof(*r));

	assert_non_null(r);
	result_init(r);
	r->job.bs = 4096;
	r->job.time_ns = 10000000000ull;
	r->job.warmup_ns = 2000000000ull;
	r->job.threads = 2;
	r->job.depth = 4;
	r->job.write_pct = 30;
	r->job.seed = 42;
	r->job.seed_set = true;
	r->job.size = 1ull << 30;
	r->job.cap.iops = 500;
	r->job.cap.mbps = 100;
	r->job.command_line = strdup("iorate run -b4k -d10 /dev/zram0 /tmp/t,\"x\".dat");
	assert_non_null(r->job.command_line);
	strcpy(r->engine, "uring");
	strcpy(r->engine_why, "uring (probe succeeded)");
	r->start_unix_ms = 1700000000123ull;
	r->seconds = 10.0;
	strcpy(r->host.hostname, "testhost");
	strcpy(r->host.kernel, "Linux 6.1.0");
	strcpy(r->host.cpu, "Test CPU");
	r->host.ncpus = 8;
	r->host.mem_bytes = 16ull << 30;
	r->cpu.ncpus = 8;
	r->cpu.user = 10;
	r->cpu.system = 5;
	r->cpu.idle = 85;
	r->cpu.proc_user = 12.5;

	r->ntargets = 2;
	r->targets = calloc(2, sizeof(*r->targets));
	assert_non_null(r->targets);
	for (unsigned i = 0; i < 2; i++) {
		dir_stats_init(&r->targets[i].read);
		dir_stats_init(&r->targets[i].write);
		dir_stats_init(&r->targets[i].trim);
	}
	struct target_result *t = &r->targets[0];

	t->path = strdup("/dev/zram0");
	strcpy(t->device, "zram0");
	t->is_blockdev = true;
	t->size = 1ull << 30;
	for (unsigned i = 0; i < 100; i++)
		dir_stats_add(&t->read, 4096, 100000);
	for (unsigned i = 0; i < 50; i++)
		dir_stats_add(&t->write, 4096, 200000);
	t->kernel.valid = true;
	strcpy(t->kernel.name, "zram0");
	t->kernel.read_bytes = 100 * 4096;
	t->kernel.write_bytes = 50 * 4096 + 8192;
	t->kernel.read_ios = 100;
	t->kernel.write_ios = 52;

	t = &r->targets[1];
	t->path = strdup("/tmp/t,\"x\".dat");
	t->created = true;
	t->size = 1ull << 30;
	for (unsigned i = 0; i < 300; i++)
		dir_stats_add(&t->read, 4096, 50000);
	for (unsigned i = 0; i < 2; i++) {
		dir_stats_merge(&r->read, &r->targets[i].read);
		dir_stats_merge(&r->write, &r->targets[i].write);
	}

	r->nseries = 2;
	r->series = calloc(2, sizeof(*r->series));
	assert_non_null(r->series);
	r->series[0] = (struct series_point){ .t = 1, .seconds = 1, .read_ios = 40, .write_ios = 10,
		.read_bytes = 40 * 4096, .write_bytes = 10 * 4096, .p99_ns = 200000,
		.credit_iops = -1, .credit_mbps = -1 };
	r->series[1] = (struct series_point){ .t = 1.5, .seconds = 0.5, .credit_iops = 75.5,
		.credit_mbps = -1 };
	result_add_note(r, "the page cache, not the device, served %d%% of reads", 90);
	result_add_note(r, "second note");
	return r;
}

static void free_result(struct result *r)
{
	result_release(r);
	free(r);
}

/* Renders r with ops into a heap string. */
static char *render(const struct report_ops *ops, const struct result *r,
		    const struct report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ops->write(f, r, o), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static json_t *render_json(const struct result *r)
{
	char *s = render(&report_json, r, NULL);
	json_error_t e;
	json_t *root = json_loads(s, 0, &e);

	if (!root)
		fail_msg("invalid JSON at line %d: %s\n%s", e.line, e.text, s);
	free(s);
	return root;
}

static json_t *path(json_t *root, const char *p)
{
	char key[64];
	json_t *v = root;

	while (*p && v) {
		size_t n = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		if (json_is_array(v))
			v = json_array_get(v, strtoul(key, NULL, 10));
		else
			v = json_object_get(v, key);
		p += n + (p[n] == '.');
	}
	if (!v)
		fail_msg("no %s in the JSON", p);
	return v;
}

static void test_json_fields(void **state)
{
	struct result *r = make_result();
	json_t *j = render_json(r);

	assert_int_equal(json_integer_value(path(j, "schema")), 2);
	assert_string_equal(json_string_value(path(j, "version")), IORATE_VERSION);
	assert_string_equal(json_string_value(path(j, "command_line")), r->job.command_line);
	assert_string_equal(json_string_value(path(j, "origin")), "run");
	assert_int_equal(json_integer_value(path(j, "start_unix_ms")), 1700000000123ll);
	assert_true(json_is_false(path(j, "interrupted")));
	assert_true(json_is_null(path(j, "error")));
	assert_int_equal(json_array_size(path(j, "notes")), 2);
	assert_string_equal(json_string_value(path(j, "notes.0")),
			    "the page cache, not the device, served 90% of reads");

	assert_int_equal(json_integer_value(path(j, "params.bs")), 4096);
	assert_true(json_is_real(path(j, "params.time")));
	assert_near(json_real_value(path(j, "params.time")), 10.0, 0);
	assert_int_equal(json_integer_value(path(j, "params.time_ns")), 10000000000ll);
	assert_near(json_real_value(path(j, "params.warmup")), 2.0, 0);
	assert_string_equal(json_string_value(path(j, "params.arrival")), "closed");
	assert_int_equal(json_integer_value(path(j, "params.threads")), 2);
	assert_int_equal(json_integer_value(path(j, "params.depth")), 4);
	assert_int_equal(json_integer_value(path(j, "params.write")), 30);
	assert_string_equal(json_string_value(path(j, "params.pattern")), "random");
	assert_string_equal(json_string_value(path(j, "params.cache")), "direct");
	assert_string_equal(json_string_value(path(j, "params.engine")), "uring");
	assert_string_equal(json_string_value(path(j, "params.engine_why")),
			    "uring (probe succeeded)");
	assert_int_equal(json_integer_value(path(j, "params.size")), 1ll << 30);
	assert_int_equal(json_integer_value(path(j, "params.seed")), 42);
	assert_true(json_is_true(path(j, "params.seed_set")));
	assert_string_equal(json_string_value(path(j, "params.fill")), "random");
	assert_near(json_real_value(path(j, "params.cap.iops")), 500, 0);
	assert_near(json_real_value(path(j, "params.vm_cap.mbps")), 0, 0);

	assert_string_equal(json_string_value(path(j, "host.hostname")), "testhost");
	assert_int_equal(json_integer_value(path(j, "host.mem_bytes")), 16ll << 30);
	assert_int_equal(json_integer_value(path(j, "cpu.ncpus")), 8);
	assert_near(json_real_value(path(j, "cpu.iorate_user")), 12.5, 0);
	assert_near(json_real_value(path(j, "seconds")), 10.0, 0);

	assert_int_equal(json_array_size(path(j, "targets")), 2);
	assert_string_equal(json_string_value(path(j, "targets.0.path")), "/dev/zram0");
	assert_string_equal(json_string_value(path(j, "targets.0.device")), "zram0");
	assert_true(json_is_true(path(j, "targets.0.blockdev")));
	assert_int_equal(json_integer_value(path(j, "targets.0.read.ios")), 100);
	assert_int_equal(json_integer_value(path(j, "targets.0.read.bytes")), 100 * 4096);
	assert_int_equal(json_integer_value(path(j, "targets.0.read.errors")), 0);
	assert_near(json_real_value(path(j, "targets.0.read.iops")), 10.0, 1e-9);
	assert_near(json_real_value(path(j, "targets.0.read.mibps")), 409600 / 1048576.0 / 10,
		    1e-9);
	assert_near(json_real_value(path(j, "targets.0.read.mbps")), 0.04096, 1e-9);
	assert_near(json_real_value(path(j, "targets.0.read.lat_us.mean")), 100, 1e-9);
	assert_near(json_real_value(path(j, "targets.0.read.lat_us.stdev")), 0, 1e-6);
	assert_near(json_real_value(path(j, "targets.0.read.lat_us.p99")), 100, 1);
	assert_near(json_real_value(path(j, "targets.0.read.lat_us.p99_999")), 100, 1);
	assert_near(json_real_value(path(j, "targets.0.write.lat_us.max")), 200, 1e-9);
	/* The counters the figures come from, and the histogram as [bucket, count] pairs. */
	assert_int_equal(json_integer_value(path(j, "targets.0.write.lat_n")), 50);
	assert_int_equal(json_integer_value(path(j, "targets.0.write.lat_sum_ns")), 50 * 200000);
	assert_int_equal(json_integer_value(path(j, "targets.0.write.lat_min_ns")), 200000);
	assert_int_equal(json_array_size(path(j, "targets.0.write.hist")), 1);
	assert_int_equal(json_integer_value(path(j, "targets.0.write.hist.0.0")),
			 hist_index(200000));
	assert_int_equal(json_integer_value(path(j, "targets.0.write.hist.0.1")), 50);
	assert_true(json_is_null(path(j, "targets.1.write.lat_min_ns")));
	assert_int_equal(json_array_size(path(j, "targets.1.write.hist")), 0);
	assert_null(json_object_get(path(j, "targets.0.total"), "hist"));
	assert_int_equal(json_integer_value(path(j, "targets.0.total.ios")), 150);
	assert_near(json_real_value(path(j, "targets.0.total.lat_us.min")), 100, 1e-9);
	assert_near(json_real_value(path(j, "targets.0.total.lat_us.max")), 200, 1e-9);
	assert_string_equal(json_string_value(path(j, "targets.0.kernel.device")), "zram0");
	assert_int_equal(json_integer_value(path(j, "targets.0.kernel.write_bytes")), 212992);

	assert_true(json_is_null(path(j, "targets.1.device")));
	assert_true(json_is_true(path(j, "targets.1.created")));
	assert_int_equal(json_integer_value(path(j, "targets.1.write.ios")), 0);
	assert_true(json_is_null(path(j, "targets.1.write.lat_us")));
	assert_true(json_is_null(path(j, "targets.1.kernel")));

	assert_int_equal(json_integer_value(path(j, "total.read.ios")), 400);
	assert_int_equal(json_integer_value(path(j, "total.write.ios")), 50);
	assert_int_equal(json_integer_value(path(j, "total.total.ios")), 450);
	assert_int_equal(json_integer_value(path(j, "total.total.bytes")), 450 * 4096);
	assert_near(json_real_value(path(j, "total.iops")), 45, 1e-9);
	assert_near(json_real_value(path(j, "total.mbps")), 450 * 4096 / 1e7, 1e-9);
	assert_near(json_real_value(path(j, "total.read.lat_us.min")), 50, 1e-9);

	assert_int_equal(json_array_size(path(j, "series")), 2);
	assert_near(json_real_value(path(j, "series.0.iops")), 50, 1e-9);
	assert_near(json_real_value(path(j, "series.0.read_iops")), 40, 1e-9);
	assert_near(json_real_value(path(j, "series.0.p99_us")), 200, 1e-9);
	assert_int_equal(json_integer_value(path(j, "series.0.read_ios")), 40);
	assert_int_equal(json_integer_value(path(j, "series.0.p99_ns")), 200000);
	assert_null(json_object_get(path(j, "series.0"), "credit_iops"));
	assert_near(json_real_value(path(j, "series.1.iops")), 0, 0);
	assert_true(json_is_null(path(j, "series.1.p99_us")));
	assert_near(json_real_value(path(j, "series.1.credit_iops")), 75.5, 0);
	assert_null(json_object_get(path(j, "series.1"), "credit_mbps"));
	json_decref(j);
	free_result(r);
}

/* Readers that stream the JSON find the keys in the documented order. */
static void test_json_key_order(void **state)
{
	static const char *const top[] = { "schema", "version", "command_line", "origin",
		"start_unix_ms", "interrupted", "error", "error_code", "started", "notes", "params",
		"host", "cpu", "seconds", "schedule", "targets", "total", "interval", "interval_ns",
		"series", "errnos" };
	static const char *const dir[] = { "ios", "bytes", "errors", "iops", "mibps", "mbps",
		"lat_us", "lat_n", "lat_sum_ns", "lat_sumsq", "lat_min_ns", "lat_max_ns", "hist" };
	static const char *const lat[] = { "min", "mean", "stdev", "max", "p50", "p90", "p99",
		"p99_9", "p99_99", "p99_999" };
	struct result *r = make_result();
	json_t *j = render_json(r);
	void *it = json_object_iter(j);

	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++, it = json_object_iter_next(j, it))
		assert_string_equal(json_object_iter_key(it), top[i]);
	assert_null(it);
	json_t *d = path(j, "total.read");

	it = json_object_iter(d);
	for (size_t i = 0; i < sizeof(dir) / sizeof(dir[0]); i++, it = json_object_iter_next(d, it))
		assert_string_equal(json_object_iter_key(it), dir[i]);
	assert_null(it);
	d = path(j, "total.read.lat_us");
	it = json_object_iter(d);
	for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++, it = json_object_iter_next(d, it))
		assert_string_equal(json_object_iter_key(it), lat[i]);
	json_decref(j);
	free_result(r);
}

static void test_json_error_and_edges(void **state)
{
	struct result *r = make_result();

	r->interrupted = true;
	r->error = -28;
	r->job.seed = UINT64_MAX;
	r->job.pattern = PATTERN_SEQUENTIAL;
	r->job.cache = CACHE_WRITETHROUGH;
	r->job.fill = FILL_ZERO;
	free(r->targets[1].path);
	r->targets[1].path = strdup("/tmp/bad\xff-utf8");

	json_t *j = render_json(r);

	assert_true(json_is_true(path(j, "interrupted")));
	assert_string_equal(json_string_value(path(j, "error")), "No space left on device");
	assert_string_equal(json_string_value(path(j, "params.seed")), "18446744073709551615");
	assert_string_equal(json_string_value(path(j, "params.pattern")), "sequential");
	assert_string_equal(json_string_value(path(j, "params.cache")), "writethrough");
	assert_string_equal(json_string_value(path(j, "params.fill")), "zero");
	assert_string_equal(json_string_value(path(j, "targets.1.path")), "/tmp/bad?-utf8");
	json_decref(j);

	strcpy(r->errmsg, "/dev/zram0: write: No space left on device");
	j = report_json_result(r);
	assert_non_null(j);
	assert_string_equal(json_string_value(path(j, "error")), r->errmsg);
	json_decref(j);

	/* Nothing measured at all: still valid JSON, with zero rates and null latencies. */
	free_result(r);
	r = malloc(sizeof(*r));
	assert_non_null(r);
	result_init(r);
	j = render_json(r);
	assert_int_equal(json_array_size(path(j, "targets")), 0);
	assert_true(json_is_null(path(j, "total.total.lat_us")));
	assert_near(json_real_value(path(j, "total.iops")), 0, 0);
	assert_true(json_is_null(path(j, "command_line")));
	json_decref(j);
	free_result(r);
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_csv(void **state)
{
	static const char header[] = "target,direction,ios,bytes,seconds,iops,mibps,mbps,"
		"lat_min_us,lat_mean_us,lat_stdev_us,lat_max_us,p50_us,p90_us,p99_us,p99_9_us,"
		"p99_99_us,p99_999_us,role,of,merged,merged_pct,io_ms,await_ms,busy_ms,util_pct,"
		"queue_ms,queue_depth,in_flight,discard_ios,flush_ios\n";
	struct result *r = make_result();
	char *s = render(&report_csv, r, NULL);
	char *line, *save = NULL;
	unsigned row = 0;

	assert_int_equal(count_lines(s), 1 + 3 * 2 + 3);
	assert_true(starts(s, header));
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save), row++) {
		switch (row) {
		case 1:
			assert_true(starts(line, "/dev/zram0,read,100,409600,10.000000,10.000,"));
			break;
		case 4: /* the path holds a comma and quotes: quoted, quotes doubled */
			assert_true(starts(line, "\"/tmp/t,\"\"x\"\".dat\",read,300,"));
			break;
		case 5: /* no writes: empty latency fields, but every column present */
			assert_true(strstr(line, ",write,0,0,") != NULL);
			assert_true(strcmp(line + strlen(line) - 10, ",,,,,,,,,,") == 0);
			break;
		case 9:
			assert_true(starts(line, "*,total,450,1843200,"));
			break;
		}
	}
	assert_int_equal(row, 10);
	free(s);
	free_result(r);
}

static void assert_has(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("text report lacks \"%s\":\n%s", want, text);
}

static void test_text(void **state)
{
	struct result *r = make_result();
	struct report_opts o = { .units = UNITS_IEC };
	char *s = render(&report_text, r, &o);

	assert_has(s, "Command line: iorate run -b4k -d10");
	assert_has(s, "uring (probe succeeded)");
	assert_has(s, "4096 B (4 KiB)");
	assert_has(s, "10 s, warm-up 2 s, cool-down 0 s");
	assert_has(s, "2 per target");
	assert_has(s, "4 outstanding I/Os per thread");
	assert_has(s, "30 % writes");
	assert_has(s, "42 (given)");
	assert_has(s, "/dev/zram0: 1 GiB (1073741824 B), block device");
	assert_has(s, "created by iorate");
	assert_has(s, "CPU usage (8 CPUs");
	assert_has(s, "Total I/O\n");
	assert_has(s, "Read I/O\n");
	assert_has(s, "Write I/O\n");
	assert_has(s, "MiB/s");
	assert_has(s, "AvgLat (us)");
	assert_has(s, "LatStdDev (us)");
	assert_has(s, "Read (us)");
	assert_has(s, "p99.999 |");
	assert_has(s, "total:");
	assert_has(s, "N/A");
	assert_has(s, "Kernel counters (/proc/diskstats");
	assert_has(s, "the kernel counted 8192 B more");
	assert_has(s, "Note: the page cache, not the device, served 90% of reads");
	assert_true(strstr(s, "INTERRUPTED") == NULL);
	assert_true(strstr(s, "Series (a point per") == NULL);
	assert_true(strstr(s, "MB/s |") == NULL);
	free(s);

	r->interrupted = true;
	strcpy(r->errmsg, "/tmp/x: read: Input/output error");
	o.units = UNITS_SI;
	o.series = true;
	s = render(&report_text, r, &o);
	assert_has(s, "INTERRUPTED");
	assert_has(s, "engine:           uring (probe succeeded)\n");
	assert_has(s, "ERROR: /tmp/x: read: Input/output error");
	assert_has(s, "MB/s");
	assert_has(s, "Series (a point per 1 s):\n");
	assert_has(s, "IOPS credit (%)");
	assert_true(strstr(s, "MiB/s") == NULL);
	free(s);

	/* No options: MiB/s by default. A reason that does not name the engine gets the name. */
	strcpy(r->engine_why, "asked for");
	s = render(&report_text, r, NULL);
	assert_has(s, "MiB/s");
	assert_has(s, "engine:           uring (asked for)\n");
	free(s);
	free_result(r);
}

/* The total's p99 as the headline prints it ("200.7"), from the run's own histograms. */
static const char *p99_of(const struct dir_stats *rd, const struct dir_stats *wr, char *buf,
			  size_t len)
{
	struct dir_summary s[REPORT_NDIR];

	assert_int_equal(report_summarize(rd, wr, NULL, 1, s), 0);
	return report_fmt_us(s[REPORT_TOTAL].p99, buf, len);
}

/* The last line of s. */
static const char *last_line(const char *s)
{
	size_t n = strlen(s);
	const char *p;

	assert_true(n > 1 && s[n - 1] == '\n');
	for (p = s + n - 1; p > s && p[-1] != '\n'; p--)
		;
	return p;
}

/*
 * A direction with no I/O has no table and no percentile column: this run wrote nothing, so
 * there is no write table of zeros and no column of N/A.
 */
static void test_text_read_only(void **state)
{
	struct result *r = make_result();

	dir_stats_release(&r->write);
	dir_stats_init(&r->write);
	dir_stats_init(&r->trim);
	dir_stats_release(&r->targets[0].write);
	dir_stats_init(&r->targets[0].write);
	dir_stats_init(&r->targets[0].trim);
	r->job.write_pct = 0;
	r->started = true;
	char *s = render(&report_text, r, NULL);
	char *p = strstr(s, "%-ile");

	assert_has(s, "Total I/O\n");
	assert_has(s, "Read I/O\n");
	assert_null(strstr(s, "Write I/O"));
	assert_non_null(p);
	assert_true(starts(p, "%-ile |    Read (us) |   Total (us)\n------"));
	assert_null(strstr(p, "N/A"));
	assert_has(last_line(s), "read 40 IOPS, 0.156 MiB/s, p99 ");
	free(s);

	/* Writes only: no read table nor column. */
	dir_stats_release(&r->read);
	dir_stats_init(&r->read);
	dir_stats_add(&r->write, 4096, 30000);
	for (unsigned i = 0; i < 2; i++) {
		dir_stats_release(&r->targets[i].read);
		dir_stats_init(&r->targets[i].read);
	}
	dir_stats_add(&r->targets[1].write, 4096, 30000);
	r->job.write_pct = 100;
	s = render(&report_text, r, NULL);
	assert_null(strstr(s, "Read I/O"));
	assert_has(s, "Write I/O\n");
	assert_has(s, "   %-ile |   Write (us) |   Total (us)\n");
	assert_has(last_line(s), "write 0.1 IOPS, ");
	free(s);
	free_result(r);
}

/* The headline: the last line of the report, and all that --brief prints. */
static void test_text_headline(void **state)
{
	struct result *r = make_result();
	struct report_opts o = {.units = UNITS_IEC, .brief = true};
	char p99[32], want[512];
	char *s;

	r->started = true;
	/* 450 I/Os of 4 KiB in 10 s, 50 of them writes (the job asked for 30%: the I/Os tell).
	 * The cap of 100 MB/s is echoed in the headline's unit. */
	snprintf(want, sizeof(want), "89/11 read/write 45 IOPS, 0.176 MiB/s, p99 %s us on 2 "
		 "targets, direct, 4 KiB random 2 threads x QD4; disk cap 500 IOPS 95.3674 MiB/s\n",
		 p99_of(&r->read, &r->write, p99, sizeof(p99)));
	s = render(&report_text, r, &o);
	assert_string_equal(s, want);
	free(s);
	o.brief = false;
	s = render(&report_text, r, &o);
	assert_string_equal(last_line(s), want);
	assert_has(s, "Note: second note\n\n89/11 read/write");
	free(s);

	/* MB/s with --units si; an open loop, an emulated profile, the end of the run said. */
	o = (struct report_opts){.units = UNITS_SI, .brief = true};
	r->job.rate_iops = 50;
	r->job.emulate = strdup("azure-2015:DS2+P30");
	r->interrupted = true;
	s = render(&report_text, r, &o);
	assert_has(s, " 45 IOPS, 0.184 MB/s, p99 ");
	assert_has(s, "QD4; emulating azure-2015:DS2+P30; open loop 50 IOPS per target; "
		   "INTERRUPTED after 10.000 s\n");
	free(s);
	strcpy(r->errmsg, "/tmp/x: read: Input/output error");
	s = render(&report_text, r, &o);
	assert_has(s, "; FAILED\n");
	free(s);
	/* A job that never started says so. */
	r->errmsg[0] = 0;
	r->interrupted = false;
	r->started = false;
	s = render(&report_text, r, &o);
	assert_string_equal(s, "did not run\n");
	free(s);
	free_result(r);
}

static void test_result_notes(void **state)
{
	struct result *r = malloc(sizeof(*r));
	struct dir_stats *t = malloc(sizeof(*t));

	assert_non_null(r);
	assert_non_null(t);
	result_init(r);
	for (unsigned i = 0; i < RESULT_MAX_NOTES + 3; i++)
		result_add_note(r, "note %u", i);
	assert_int_equal(r->nnotes, RESULT_MAX_NOTES);
	assert_string_equal(r->notes[RESULT_MAX_NOTES - 1], "note 7");
	dir_stats_add(&r->read, 4096, 10);
	dir_stats_add(&r->write, 8192, 30);
	result_dir_total(&r->read, &r->write, NULL, t);
	assert_int_equal(t->ios, 2);
	assert_int_equal(t->bytes, 12288);
	assert_int_equal(t->lat_min, 10);
	assert_int_equal(t->lat_max, 30);
	dir_stats_release(t);
	result_release(r);
	result_release(r); /* released twice: harmless */
	result_release(NULL);
	free(r);
	free(t);
}

/* Two jobs of make_result(), named a and b: b in group 3, and half as long. */
static struct result_set *make_set(void)
{
	struct result_set *set = malloc(sizeof(*set));
	struct result *j = calloc(2, sizeof(*j));

	assert_non_null(set);
	assert_non_null(j);
	for (unsigned i = 0; i < 2; i++) {
		struct result *r = make_result();

		j[i] = *r; /* a result moves by copy */
		free(r);
		j[i].job.name = strdup(i ? "b" : "a");
		j[i].started = true;
	}
	j[1].job.group = 3;
	j[1].seconds = 5;
	assert_int_equal(result_set_take(set, j, 2), 0);
	return set;
}

static char *render_set(const struct report_ops *ops, const struct result_set *set)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_write_set(ops, f, set, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void free_set(struct result_set *set)
{
	result_set_release(set);
	free(set);
}

static void test_set_text(void **state)
{
	struct result_set *set = make_set();
	char *s = render_set(&report_text, set);

	assert_true(starts(s, "A run of 2 jobs in 2 groups: the jobs of a group ran together"));
	assert_has(s, "\nCommand line: iorate run -b4k -d10");
	assert_has(s, "Job 1 of 2: a (group 0)\n");
	assert_has(s, "Job 2 of 2: b (group 3)\n");
	assert_has(s, "\tmeasured:         5.000 s\n");
	assert_has(s, "\tblock size:       4096 B (4 KiB)\n");
	/* Each group's line: number, jobs, window, bytes, I/Os, MiB/s, IOPS. */
	assert_has(s, "    0 |    1 |    10.000 |          1843200 |          450 |       0.18 |"
		   "        45.00 |");
	assert_has(s, "    3 |    1 |     5.000 |          1843200 |          450 |       0.35 |"
		   "        90.00 |");
	/* The total: 900 I/Os over 15 s. */
	assert_has(s, "Total of the run: 2 jobs in 2 groups, 15.000 s");
	assert_has(s, "total:       3686400 |          900 |       0.23 |        60.00 |");
	assert_has(s, "\tgroup 3, zram0 (100 reads, 52 writes by the kernel):\n");
	assert_has(s, "written: 212992 B by the kernel, 204800 B by iorate: the kernel counted "
		   "8192 B more");
	assert_has(s, "Note: the page cache, not the device, served 90% of reads\n");
	free(s);
	/* One job prints the report of one run. */
	s = render_set(&report_text, &(struct result_set){.jobs = set->jobs, .njobs = 1});
	assert_true(starts(s, "Command line: "));
	free(s);
	free_set(set);
}

/* Several jobs: a headline per group and one for the total, last; --brief prints them alone. */
static void test_set_headlines(void **state)
{
	struct result_set *set = make_set();
	struct report_opts o = {.units = UNITS_IEC, .brief = true};
	char p99[3][32], want[1024], *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	const char *wl = "direct, 4 KiB random 2 threads x QD4; disk cap 500 IOPS 95.3674 MiB/s";

	p99_of(&set->groups[0].read, &set->groups[0].write, p99[0], sizeof(p99[0]));
	p99_of(&set->groups[1].read, &set->groups[1].write, p99[1], sizeof(p99[1]));
	p99_of(&set->total.read, &set->total.write, p99[2], sizeof(p99[2]));
	snprintf(want, sizeof(want),
		 "group 0 (1 job): 89/11 read/write 45 IOPS, 0.176 MiB/s, p99 %s us on 2 targets, "
		 "%s\ngroup 3 (1 job): 89/11 read/write 90 IOPS, 0.352 MiB/s, p99 %s us on 2 "
		 "targets, %s\ntotal (2 jobs): 89/11 read/write 60 IOPS, 0.234 MiB/s, p99 %s us "
		 "on 2 targets, %s\n", p99[0], wl, p99[1], wl, p99[2], wl);
	assert_non_null(f);
	assert_int_equal(report_write_set(&report_text, f, set, &o), 0);
	fclose(f);
	assert_string_equal(s, want);
	free(s);
	s = render_set(&report_text, set);
	assert_true(strlen(s) > strlen(want));
	assert_string_equal(s + strlen(s) - strlen(want), want);
	free(s);
	/* Jobs of different workloads: the total says what they did, not one workload. */
	set->jobs[1].job.bs = 8192;
	s = render_set(&report_text, set);
	assert_has(s, "\ntotal (2 jobs): 89/11 read/write 60 IOPS, 0.234 MiB/s, p99 ");
	/* Both jobs ran on the same two files: two targets, not four. */
	assert_has(s, " us on 2 targets\n");
	free(s);
	free_set(set);
}

static void test_set_csv(void **state)
{
	struct result_set *set = make_set();
	char *s = render_set(&report_csv, set);

	assert_true(starts(s, "scope,job,name,group,target,direction,ios,bytes,seconds,"));
	/* Each job: two targets and its "*"; each group; the total: three directions each. */
	assert_int_equal(count_lines(s), 1 + 2 * 9 + 2 * 3 + 3);
	assert_has(s, "\njob,1,a,0,/dev/zram0,read,100,409600,10.000000,10.000,");
	assert_has(s, "\njob,2,b,3,\"/tmp/t,\"\"x\"\".dat\",read,300,");
	assert_has(s, "\njob,2,b,3,*,total,450,1843200,5.000000,90.000,");
	assert_has(s, "\ngroup,,,3,*,total,450,1843200,5.000000,90.000,");
	assert_has(s, "\ntotal,,,,*,total,900,3686400,15.000000,60.000,");
	free(s);
	free_set(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_fields),
		cmocka_unit_test(test_json_key_order),
		cmocka_unit_test(test_json_error_and_edges),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_read_only),
		cmocka_unit_test(test_text_headline),
		cmocka_unit_test(test_set_headlines),
		cmocka_unit_test(test_result_notes),
		cmocka_unit_test(test_set_text),
		cmocka_unit_test(test_set_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
