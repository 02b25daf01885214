/*
 * Charts (src/report/chart.c, chart_text.c), the HTML page's names and units (html*.c) and the
 * PNG files (png.c): labels laid out never overlap, the knee of constructed curves, a short
 * run drawn as steps, figures in the units the page counts.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#ifdef HAVE_RSVG
#include <cairo.h>
#endif

#include "report/chart.h"
#include "report/html.h"
#include "report/html_int.h"
#include "report/png.h"

/*
 * Under LeakSanitizer: fontconfig keeps the fonts Pango asked for (for librsvg) in caches it
 * frees only at exit in FcFini(), which nothing calls. The test's own allocations stay checked.
 */
const char *__lsan_default_suppressions(void) __attribute__((used));
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/* The chart's SVG into a string (freed by the caller), its layout into lay. */
static char *svg_of(const struct chart *c, bool standalone, struct chart_layout *lay)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(chart_svg(f, c, standalone, lay), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* No two texts overlap, and every one lies inside the chart. */
static void assert_clear(const struct chart_layout *lay)
{
	assert_false(lay->oom);
	assert_true(lay->n > 0);
	for (size_t i = 0; i < lay->n; i++) {
		const struct chart_box *a = &lay->boxes[i];

		if (a->x < 0 || a->y < 0 || a->x + a->w > lay->w || a->y + a->h > lay->h)
			fail_msg("text %zu (%.1f,%.1f %.1fx%.1f) leaves the chart (%.0fx%.0f)", i,
				 a->x, a->y, a->w, a->h, lay->w, lay->h);
		for (size_t j = i + 1; j < lay->n; j++)
			if (chart_boxes_overlap(a, &lay->boxes[j]))
				fail_msg("texts %zu and %zu overlap: (%.1f,%.1f %.1fx%.1f) and "
					 "(%.1f,%.1f %.1fx%.1f)", i, j, a->x, a->y, a->w, a->h,
					 lay->boxes[j].x, lay->boxes[j].y, lay->boxes[j].w,
					 lay->boxes[j].h);
	}
}

static void test_text_width(void **state)
{
	(void)state;
	assert_int_equal(chart_cells("SEQ1M Q8T1"), 10);
	assert_int_equal(chart_cells("p99 latency, \xc2\xb5s"), 15);   /* µ: one cell */
	assert_int_equal(chart_cells("\xe6\x97\xa5\xe6\x9c\xac"), 4);   /* two wide characters */
	assert_int_equal(chart_cells("e\xcc\x81"), 1);                  /* e + combining acute */
	assert_int_equal(chart_cells("\xff"), 1);                       /* not UTF-8: a cell */
	/* DejaVu Sans Mono advances 0.602 em: the estimate is never below it. */
	assert_true(chart_text_width("0123456789", 11) >= 10 * 0.602 * 11);
	assert_true(chart_text_width("0123456789", 11) <= 10 * 0.65 * 11);
}

/* Strings from runs are escaped, and what XML may not hold becomes U+FFFD. */
static void test_escape(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	xml_esc(f, "<a href='x'>&\"\x01\tok \xc2\xb5s \xff \xed\xa0\x80 \xc0\xaf");
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\xef\xbf\xbd\tok \xc2\xb5s "
				 "\xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd");
	free(buf);
}

static void test_knee(void **state)
{
	/* Throughput doubles with the load while p99 barely moves, then saturates at 8. */
	double iops[] = {1000, 2000, 3900, 7000, 7300, 7400};
	double p99[] = {100, 104, 110, 125, 260, 520};
	/* p99 grows exactly as fast as throughput at each step: no knee (strictly faster). */
	double even_t[] = {100, 200, 400}, even_p[] = {10, 20, 40};
	/* Unknown points are skipped: the step 0 -> 2 is compared. */
	double gap_t[] = {1000, NAN, 1500, 1600}, gap_p[] = {50, 900, 70, 200};

	(void)state;
	assert_int_equal(chart_knee(iops, p99, 6), 3);
	assert_int_equal(chart_knee(even_t, even_p, 3), CHART_NO_KNEE);
	assert_int_equal(chart_knee(gap_t, gap_p, 4), 2);
	/* Throughput falls while latency rises: the point before is the knee. */
	assert_int_equal(chart_knee((double[]){500, 450}, (double[]){10, 11}, 2), 0);
	/* Latency falling never makes a knee; a zero p99 is unknown. */
	assert_int_equal(chart_knee((double[]){500, 400, 300}, (double[]){10, 5, 0}, 3),
			 CHART_NO_KNEE);
	assert_int_equal(chart_knee(iops, p99, 1), CHART_NO_KNEE);
	assert_int_equal(chart_knee(iops, p99, 0), CHART_NO_KNEE);
}

/* A bar chart of n categories named cats, one or two series. */
static void bars_case(const char *const *cats, size_t n, size_t ns, unsigned mode)
{
	double *v = calloc(n, sizeof(double));
	struct chart_series s[2] = {{.name = "read", .color = "read", .y = v},
				    {.name = "write", .color = "write", .y = v}};
	struct chart_layout lay = {0};
	char *svg;

	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = 1000 + 37.0 * (double)i;
	svg = svg_of(&(struct chart){.title = "IOPS by run", .ytitle = "IOPS", .xtitle = "run",
				     .kind = CHART_BARS, .n = n, .cats = cats, .s = s, .ns = ns},
		     false, &lay);
	assert_clear(&lay);
	if (lay.label_mode != mode)
		fail_msg("labels set as %u, expected %u", lay.label_mode, mode);
	assert_non_null(strstr(svg, "<svg class=\"chart\""));
	free(svg);
	free(lay.boxes);
	free(v);
}

static void test_bar_labels(void **state)
{
	static const char *const few[] = {"4KiB", "8KiB", "16KiB"};
	static const char *const mark[] = {
		"SEQ1M Q8T1 read", "SEQ1M Q8T1 write", "SEQ1M Q1T1 read", "SEQ1M Q1T1 write",
		"RND4K Q32T1 read", "RND4K Q32T1 write", "RND4K Q1T1 read", "RND4K Q1T1 write"};
	static const char *const twelve[] = {
		"-b\xc2\xa0" "4k -w\xc2\xa0" "0", "-b\xc2\xa0" "4k -w\xc2\xa0" "30",
		"-b\xc2\xa0" "8k -w\xc2\xa0" "0", "-b\xc2\xa0" "8k -w\xc2\xa0" "30",
		"-b\xc2\xa0" "16k -w\xc2\xa0" "0", "-b\xc2\xa0" "16k -w\xc2\xa0" "30",
		"-b\xc2\xa0" "32k -w\xc2\xa0" "0", "-b\xc2\xa0" "32k -w\xc2\xa0" "30",
		"-b\xc2\xa0" "64k -w\xc2\xa0" "0", "-b\xc2\xa0" "64k -w\xc2\xa0" "30",
		"-b\xc2\xa0" "128k -w\xc2\xa0" "0", "-b\xc2\xa0" "128k -w\xc2\xa0" "30"};
	const char *longer[12], *many[60];
	char lbuf[12][96], mbuf[60][32];

	(void)state;
	bars_case(few, 3, 1, CHART_LABELS_FLAT);
	bars_case(mark, 8, 2, CHART_LABELS_WRAPPED);
	bars_case(twelve, 12, 1, CHART_LABELS_VERTICAL);
	/* Labels too long to stand upright become numbers and a key. */
	for (int i = 0; i < 12; i++) {
		snprintf(lbuf[i], sizeof(lbuf[i]), "nightly results of the storage benchmark, "
			 "\xe6\x97\xa5\xe6\x9c\xac run %d", i + 1);
		longer[i] = lbuf[i];
	}
	bars_case(longer, 12, 2, CHART_LABELS_KEY);
	/* So many bars that even numbers are turned, and only every few is written. */
	for (int i = 0; i < 60; i++) {
		snprintf(mbuf[i], sizeof(mbuf[i]), "host-%02d.example.net", i);
		many[i] = mbuf[i];
	}
	bars_case(many, 60, 1, CHART_LABELS_KEY);
}

/* A load-latency curve whose points crowd together: their names skip rather than overlap. */
static void test_xy_labels(void **state)
{
	double x[8] = {1000, 1010, 1020, 1030, 5000, 9000, 9050, 9100};
	double y[8] = {100, 101, 102, 103, 150, 400, 800, 1600};
	const char *cats[8] = {"1", "2", "4", "8", "16", "32", "64", "128"};
	struct chart_series s = {.name = "p99", .color = "p99", .y = y, .x = x,
				 .knee = chart_knee(x, y, 8)};
	struct chart_layout lay = {0};
	char *svg;

	(void)state;
	assert_int_equal(s.knee, 4);
	svg = svg_of(&(struct chart){.title = "Load and latency", .xtitle = "IOPS",
				     .ytitle = "p99 latency, \xc2\xb5s", .kind = CHART_XY, .n = 8,
				     .cats = cats, .s = &s, .ns = 1},
		     false, &lay);
	assert_clear(&lay);
	assert_non_null(strstr(svg, ">knee</text>"));
	assert_non_null(strstr(svg, "class=\"ln c-knee\""));
	free(svg);
	free(lay.boxes);
}

/* One interval of 0.4 s is a step over the whole window, not a lone dot. */
static void test_time_steps(void **state)
{
	double t = 0.4, dt = 0.4, v = 5000;
	struct chart_series s = {.name = "total", .color = "total", .y = &v};
	struct chart_layout lay = {0};
	char *svg, *d, *h;
	double x0, x1;

	(void)state;
	svg = svg_of(&(struct chart){.title = "IOPS over the run", .xtitle = "seconds",
				     .ytitle = "IOPS", .kind = CHART_TIME, .n = 1, .x = &t,
				     .dx = &dt, .s = &s, .ns = 1},
		     false, &lay);
	assert_clear(&lay);
	assert_non_null(d = strstr(svg, " d=\"M"));
	x0 = strtod(d + 5, NULL);
	assert_non_null(h = strchr(d, 'H'));
	x1 = strtod(h + 1, NULL);
	/* From the plot's left edge to its right: nearly the whole 540 px. */
	assert_true(x1 - x0 > 400);
	free(svg);
	free(lay.boxes);
}

/* A run of one job: n I/Os of 4 KiB over seconds, each taking lat_ns; one series point. */
static void add_run(struct html_input *in, const char *cmd, unsigned n, uint64_t lat_ns,
		    const char *label)
{
	struct result *r = calloc(1, sizeof(*r));
	struct result_set set;

	assert_non_null(r);
	result_init(r);
	r->job.bs = 4096;
	r->job.command_line = strdup(cmd);
	r->seconds = 2;
	r->started = true;
	for (unsigned i = 0; i < n; i++)
		dir_stats_add(&r->read, 4096, lat_ns);
	r->nseries = 1;
	r->series = calloc(1, sizeof(*r->series));
	assert_non_null(r->series);
	r->series[0] = (struct series_point){.t = 2, .seconds = 2, .read_ios = n,
					     .read_bytes = 4096ull * n, .p99_ns = lat_ns,
					     .credit_iops = -1, .credit_mbps = -1};
	assert_int_equal(result_set_take(&set, r, 1), 0);
	assert_int_equal(html_input_add(in, &set, label, "t.json"), 0);
}

static void test_names(void **state)
{
	struct html_input in;
	char **names, slug[48];

	(void)state;
	html_input_init(&in);
	add_run(&in, "iorate run --engine null -d 2 -b 4k x", 10, 1000, NULL);
	add_run(&in, "iorate run --engine null -d 2 -b 64k x", 10, 1000, NULL);
	add_run(&in, "iorate run --engine null -d 2 -b 64k x", 10, 1000, NULL);
	add_run(&in, "iorate run --engine null -d 2 x", 10, 1000, "day 1");
	assert_non_null(names = html_names(&in));
	assert_string_equal(names[0], "-b\xc2\xa0" "4k");
	assert_string_equal(names[1], "-b\xc2\xa0" "64k");
	assert_string_equal(names[2], "-b\xc2\xa0" "64k (2)");
	assert_string_equal(names[3], "day 1");
	assert_string_equal(html_slug(names[2], slug, sizeof(slug)), "b-64k-2");
	html_names_free(names, in.n);
	html_input_release(&in);

	/* One run alone: its command, without the program's name. */
	html_input_init(&in);
	add_run(&in, "iorate run -d 2 /mnt/t", 10, 1000, NULL);
	assert_non_null(names = html_names(&in));
	assert_string_equal(names[0], "run -d\xc2\xa0" "2 /mnt/t");
	html_names_free(names, in.n);
	html_input_release(&in);
}

static char *page_of(const struct html_input *in, bool si)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_html_write(f, in, &(struct html_opts){.si = si}), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The page's tables and charts count throughput alike: MiB/s, or MB/s with si. */
static void test_units(void **state)
{
	struct html_input in;
	char *iec, *si;

	(void)state;
	html_input_init(&in);
	/* 512000 I/Os of 4 KiB in 2 s: 1000 MiB/s, 1048.576 MB/s. */
	add_run(&in, "iorate run -d 2 a", 512000, 1000, NULL);
	add_run(&in, "iorate run -d 2 b", 256000, 1000, NULL);
	iec = page_of(&in, false);
	si = page_of(&in, true);
	assert_non_null(strstr(iec, "<td>1000.00</td>"));
	assert_non_null(strstr(iec, "Throughput by run, MiB/s"));
	assert_non_null(strstr(iec, "<th>MiB/s</th>"));
	assert_null(strstr(iec, "MB/s"));
	assert_non_null(strstr(si, "<td>1048.58</td>"));
	assert_non_null(strstr(si, "Throughput by run, MB/s"));
	assert_non_null(strstr(si, "<th>MB/s</th>"));
	assert_null(strstr(si, "MiB/s"));
	free(iec);
	free(si);
	html_input_release(&in);
}

#ifdef HAVE_RSVG
static cairo_status_t read_from(void *arg, unsigned char *data, unsigned int len)
{
	return fread(data, 1, len, arg) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR;
}

/* The distinct pixel values of an image, up to max. */
static size_t distinct_pixels(cairo_surface_t *img, size_t max)
{
	uint32_t seen[64];
	size_t n = 0;
	const unsigned char *data = cairo_image_surface_get_data(img);
	int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
	int stride = cairo_image_surface_get_stride(img);

	for (int y = 0; y < h && n < max && n < 64; y++)
		for (int x = 0; x < w && n < max && n < 64; x++) {
			uint32_t p = ((const uint32_t *)(const void *)(data + y * stride))[x];
			size_t k = 0;

			while (k < n && seen[k] != p)
				k++;
			if (k == n)
				seen[n++] = p;
		}
	return n;
}
#endif

/* A chart's PNG: twice its SVG's size, the header saying so, and many colours (not blank). */
static void test_png(void **state)
{
#ifdef HAVE_RSVG
	double v[3] = {3, 1, 2};
	const char *cats[3] = {"a", "b", "c"};
	struct chart_series s = {.name = "total", .color = "total", .y = v};
	struct chart_layout lay = {0};
	char *svg = svg_of(&(struct chart){.title = "t", .ytitle = "IOPS", .kind = CHART_BARS,
					   .n = 3, .cats = cats, .s = &s, .ns = 1},
			   true, &lay);
	char err[256], *png = NULL;
	unsigned char *u;
	size_t len = 0;
	FILE *f = open_memstream(&png, &len);
	cairo_surface_t *img;

	(void)state;
	assert_true(report_png_available());
	assert_int_equal(report_png_write(f, svg, strlen(svg), err, sizeof(err)), 0);
	assert_int_equal(fclose(f), 0);
	u = (unsigned char *)png;
	assert_memory_equal(u, "\x89PNG\r\n\x1a\n", 8);
	/* Width and height are the IHDR's first fields, big-endian. */
	assert_int_equal((uint32_t)u[16] << 24 | u[17] << 16 | u[18] << 8 | u[19],
			 (uint32_t)lay.w * REPORT_PNG_SCALE);
	assert_int_equal((uint32_t)u[20] << 24 | u[21] << 16 | u[22] << 8 | u[23],
			 (uint32_t)lay.h * REPORT_PNG_SCALE);
	assert_non_null(f = fmemopen(png, len, "r"));
	img = cairo_image_surface_create_from_png_stream(read_from, f);
	fclose(f);
	assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	assert_int_equal(cairo_image_surface_get_width(img), (int)lay.w * REPORT_PNG_SCALE);
	/* White, the bars' grey, the grid, and the text's anti-aliased edges. */
	assert_true(distinct_pixels(img, 64) >= 10);
	cairo_surface_destroy(img);
	assert_int_equal(report_png_write(stdout, "<svg", 4, err, sizeof(err)), -EINVAL);
	free(png);
	free(svg);
	free(lay.boxes);
#else
	(void)state;
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_bar_labels),
		cmocka_unit_test(test_xy_labels),
		cmocka_unit_test(test_time_steps),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_png),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
