/*
 * libFuzzer target: a history database of any bytes is refused with a message or opened
 * (history_open_memory(): a copy in memory through sqlite3_deserialize, so no file is made),
 * after its schema is checked and migrated as a file's would be; then every read path runs on
 * it: SQLite's integrity report, the listing in each format (a run that cannot be read is
 * skipped), each run as 'history show' prints it in every run format, the first two compared,
 * and history_check_runs(), which must find bad exactly the runs the listing skipped when
 * SQLite's integrity check finds nothing (a damaged index hides runs from the listing).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "report/history_fmt.h"
#include "report/history_list.h"
#include "report/report.h"
#include "store/history.h"

static FILE *null_out(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}

/* The ids the listing gave and skipped; two of those that read are kept for compare. */
struct seen {
	const struct report_history_list_ops *ops;
	void *state;
	size_t listed, skipped;
	int64_t ids[2];
};

static int list_row(const struct history_entry *e, void *arg)
{
	struct seen *s = arg;
	struct history_row row = {.id = e->id, .label = e->label, .run = &e->run};

	if (s->listed < 2)
		s->ids[s->listed] = e->id;
	s->listed++;
	return s->ops->row(null_out(), &row, s->state);
}

static void list_skipped(int64_t id, const char *why, void *arg)
{
	struct seen *s = arg;

	(void)id;
	if (!why[0])
		abort(); /* a skipped run is always named with why */
	s->skipped++;
}


static void count_line(const char *what, void *arg)
{
	if (!what[0])
		abort();
	(*(size_t *)arg)++;
}

static void count_run(int64_t id, const char *what, void *arg)
{
	(void)id;
	count_line(what, arg);
}

/* Each format of the listing; what it read and skipped (the same each time). */
static void list_all(struct history *h, struct seen *out)
{
	static const struct report_history_list_ops *const ops[] = {
		&history_list_text, &history_list_csv, &history_list_json};
	struct history_filter f = {.skipped = list_skipped};
	char err[512];

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct seen s = {.ops = ops[i]};

		if (ops[i]->begin(null_out(), history_path(h), &s.state))
			continue;
		if (history_list(h, &f, list_row, &s, err, sizeof(err)))
			s.listed = s.skipped = SIZE_MAX; /* the listing failed: out of memory */
		ops[i]->end(null_out(), s.state);
		*out = s;
	}
}

/* A run as 'history show' prints it, in every run format. */
static void show(struct history *h, int64_t id)
{
	static const struct report_ops *const ops[] = {&report_text, &report_csv, &report_json,
						       &report_fio_json};
	struct history_entry e;
	char err[512];

	if (history_get(h, id, &e, err, sizeof(err)))
		return;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		report_write_set(ops[i], null_out(), &e.run, &(struct report_opts){
			.units = e.output.units, .series = true});
	history_entry_release(&e);
}

static void compare(struct history *h, int64_t a, int64_t b)
{
	struct history_entry x, y;
	char err[512];

	if (history_get(h, a, &x, err, sizeof(err)))
		return;
	if (!history_get(h, b, &y, err, sizeof(err))) {
		struct history_row rx = {.id = x.id, .label = x.label, .run = &x.run};
		struct history_row ry = {.id = y.id, .label = y.label, .run = &y.run};
		struct history_compare c = {.a = &rx, .b = &ry};

		history_compare_fmt_text(null_out(), &c);
		history_compare_fmt_json(null_out(), &c);
		history_entry_release(&y);
	}
	history_entry_release(&x);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* A header may promise any size: SQLite's own allocations stay bounded. */
	sqlite3_hard_heap_limit64(256 << 20);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s = {0};
	struct history *h;
	size_t bad = 0, lines = 0;
	char err[512];
	int r, damage;

	if (!null_out())
		return 0;
	if (history_open_memory(data, size, &h, err, sizeof(err))) {
		if (!err[0])
			abort(); /* a refusal always says why */
		return 0;
	}
	damage = history_integrity(h, count_line, &lines, err, sizeof(err));
	if (damage > 0 && lines != (size_t)damage)
		abort(); /* each problem counted is one given */
	list_all(h, &s);
	r = history_check_runs(h, count_run, &bad, err, sizeof(err));
	if (r > 0 && bad != (size_t)r)
		abort();
	/* On an intact file the check finds bad exactly the runs the listing skipped. */
	if (!damage && r >= 0 && s.skipped != SIZE_MAX && (size_t)r != s.skipped) {
		fprintf(stderr, "history_check_runs: %d bad, the listing skipped %zu\n", r,
			s.skipped);
		abort();
	}
	for (size_t i = 0; i < s.listed && i < 2; i++)
		show(h, s.ids[i]);
	if (s.listed >= 2 && s.listed != SIZE_MAX)
		compare(h, s.ids[0], s.ids[1]);
	history_close(h);
	return 0;
}
