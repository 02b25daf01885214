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

#include "core/result.h"
#include "report/json.h"
#include "report/report.h"

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

	assert_int_equal(json_integer_value(path(j, "schema")), 1);
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
	assert_near(json_real_value(path(j, "params.warmup")), 2.0, 0);
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
		"start_unix_ms", "interrupted", "error", "notes", "params", "host", "cpu",
		"seconds", "schedule", "targets", "total", "series" };
	static const char *const dir[] = { "ios", "bytes", "errors", "iops", "mibps", "mbps",
		"lat_us" };
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
		"p99_99_us,p99_999_us\n";
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
	assert_true(strstr(s, "Per-second series") == NULL);
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
	assert_has(s, "Per-second series");
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

/* The write side of the whole run had no I/O: every latency cell of its column says N/A. */
static void test_text_na_column(void **state)
{
	struct result *r = make_result();

	dir_stats_init(&r->write);
	dir_stats_init(&r->targets[0].write);
	char *s = render(&report_text, r, NULL);
	char *p = strstr(s, "%-ile");

	assert_non_null(p);
	char *max = strstr(p, "\n     max |");

	assert_non_null(max);
	assert_has(max, "N/A");
	assert_has(strstr(p, "\n     p50 |"), "N/A");
	free(s);
	free_result(r);
}

static void test_find(void **state)
{
	assert_ptr_equal(report_find("text"), &report_text);
	assert_ptr_equal(report_find("json"), &report_json);
	assert_ptr_equal(report_find("csv"), &report_csv);
	assert_null(report_find("xml"));
	assert_null(report_find(NULL));
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
	result_dir_total(&r->read, &r->write, t);
	assert_int_equal(t->ios, 2);
	assert_int_equal(t->bytes, 12288);
	assert_int_equal(t->lat_min, 10);
	assert_int_equal(t->lat_max, 30);
	result_release(r);
	result_release(r); /* released twice: harmless */
	result_release(NULL);
	free(r);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_fields),
		cmocka_unit_test(test_json_key_order),
		cmocka_unit_test(test_json_error_and_edges),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_na_column),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_result_notes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
