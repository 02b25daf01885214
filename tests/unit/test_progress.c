#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/progress.h"

/* A progress line drawn into memory, as if stderr were a terminal. */
struct drawn {
	struct progress p;
	char *buf;
	size_t len, seen;
};

static void open_line(struct drawn *d)
{
	memset(d, 0, sizeof(*d));
	progress_init(&d->p, true);
	assert_false(d->p.on); /* quiet: nothing is ever drawn */
	d->p.f = open_memstream(&d->buf, &d->len);
	assert_non_null(d->p.f);
	d->p.on = true;
}

/* What was drawn since the last call, then forgotten. */
static char *take(struct drawn *d)
{
	char *s;

	fflush(d->p.f);
	s = strdup(d->buf + d->seen);
	assert_non_null(s);
	d->seen = d->len;
	return s;
}

static void close_line(struct drawn *d)
{
	fclose(d->p.f);
	free(d->buf);
}

#define ASSERT_DRAWN(d, want)                                                                     \
	do {                                                                                      \
		char *got_ = take(d);                                                             \
		assert_string_equal(got_, want);                                                  \
		free(got_);                                                                       \
	} while (0)

/* The run's own line, as 'iorate run' draws it: phase, elapsed, total, time left, rates. */
static void run_line(void **state)
{
	struct drawn d;
	struct runner_progress prep = {.phase = "preparing", .prepare_done = 0.4};
	struct runner_progress meas = {.phase = "measuring", .elapsed_s = 3, .total_s = 10,
				       .iops = 5120.4, .mibps = 20};
	struct runner_progress warm = {.phase = "warmup", .elapsed_s = 1.25, .total_s = 12};

	open_line(&d);
	progress_tick(&d.p, &prep);
	ASSERT_DRAWN(&d, "\r\033[Kpreparing test file:  40%");
	progress_tick(&d.p, &meas);
	ASSERT_DRAWN(&d, "\r\033[Kmeasuring   3.0s / 10.0s, 7s left: 5120 IOPS, 20.00 MiB/s");
	progress_tick(&d.p, &warm);
	ASSERT_DRAWN(&d, "\r\033[Kwarmup   1.2s / 12.0s");
	assert_true(d.p.drawn);
	progress_clear(&d.p);
	ASSERT_DRAWN(&d, "\r\033[K");
	assert_false(d.p.drawn);
	progress_clear(&d.p); /* nothing drawn: nothing to clear */
	ASSERT_DRAWN(&d, "");
	close_line(&d);
}

/* sweep's and mark's labels come first; a path in them cannot reach the terminal raw. */
static void labels(void **state)
{
	struct drawn d;
	struct runner_progress meas = {.phase = "measuring", .elapsed_s = 1, .total_s = 1};

	open_line(&d);
	progress_label(&d.p, "[%u/%u] %s", 3u, 8u, "threads=4 bs=64KiB");
	ASSERT_DRAWN(&d, "\r\033[K[3/8] threads=4 bs=64KiB");
	progress_tick(&d.p, &meas);
	ASSERT_DRAWN(&d, "\r\033[K[3/8] threads=4 bs=64KiB: measuring   1.0s / 1.0s, 0s left: "
			 "0 IOPS, 0.00 MiB/s");
	progress_label(&d.p, "preparing %s", "/mnt/\033]0;title\a/x");
	ASSERT_DRAWN(&d, "\r\033[Kpreparing /mnt/\\x1b]0;title\\a/x");
	close_line(&d);
}

/* Off (not a terminal, or --quiet): nothing at all is written. */
static void off(void **state)
{
	struct drawn d;
	struct runner_progress meas = {.phase = "measuring"};

	open_line(&d);
	d.p.on = false;
	progress_label(&d.p, "x");
	progress_tick(&d.p, &meas);
	progress_clear(&d.p);
	ASSERT_DRAWN(&d, "");
	close_line(&d);
}

static void hooks(void **state)
{
	volatile sig_atomic_t stop = 0;
	struct runner_hooks h;
	struct progress p;

	progress_init(&p, true);
	progress_hooks(&p, &h, &stop);
	assert_ptr_equal(h.arg, &p);
	assert_ptr_equal(h.stop, &stop);
	assert_true(h.tick == progress_tick);
	assert_null(h.ready);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(run_line),
		cmocka_unit_test(labels),
		cmocka_unit_test(off),
		cmocka_unit_test(hooks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
