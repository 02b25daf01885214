/*
 * iorate history: list, show, import, compare and remove runs kept in the SQLite history
 * (src/store/history.c). Runs get there with 'iorate run --save' or 'iorate history import'.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "store/history.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iorate history list [--db FILE] [--host H] [--target PAT] [--since DATE]\n"
		"                           [--limit N] [--json|--csv]\n"
		"       iorate history show ID [--json]\n"
		"       iorate history import FILE.json... [--label TEXT]\n"
		"       iorate history compare ID ID [--json]\n"
		"       iorate history rm ID\n\n"
		"Runs saved with 'iorate run --save' (or imported from 'iorate run --json'\n"
		"files) are kept in SQLite, so tests repeated on other days can be listed and\n"
		"compared.\n\n"
		"Commands:\n"
		"  list      the newest runs first: date, host, workload, IOPS, MiB/s, p99\n"
		"  show      one run: a summary, or with --json its 'iorate run --json' object\n"
		"  import    save runs from JSON files ('-' reads stdin) of 'iorate run',\n"
		"            'sweep' or 'mark' --json; a run already there is not saved twice\n"
		"  compare   two runs side by side: IOPS, MiB/s, mean and p99 latency per\n"
		"            direction, the ratio second/first, and the parameters that differ\n"
		"  rm        remove a run\n\n"
		"Options:\n"
		"  --db FILE      the database (default $IORATE_HISTORY, else\n"
		"                 $XDG_DATA_HOME/iorate/history.db, else\n"
		"                 ~/.local/share/iorate/history.db)\n"
		"  --host H       list: runs of this host name only\n"
		"  --target PAT   list: runs with a target path matching PAT (SQL LIKE: %% any\n"
		"                 text, _ one character; without either, paths containing PAT)\n"
		"  --since DATE   list: runs started from DATE (2024-05-01, '2024-05-01 14:30',\n"
		"                 local time) or that long ago (7d, 12h)\n"
		"  --limit N      list: the newest N runs (default 50; 0 = all)\n"
		"  --label TEXT   import: a note kept with the runs ('before firmware update')\n"
		"  --json, --csv  list, show, compare: JSON or CSV instead of a table\n\n"
		"Examples:\n"
		"  iorate run --save -b 8k -w 30 -d 60 /mnt/data/t     (save each day's run)\n"
		"  iorate history list --target /mnt/data --since 7d\n"
		"  iorate history compare 12 17\n"
		"  iorate history show 17 --json > day2.json\n"
		"  iorate history import --label 'old SAN' r1.json r2.json\n"
		"  iorate report 12 17 -o compare.html\n"
		"Exit status: 0 done, 1 failed (no such run, unreadable database), 2 bad usage.\n");
}

struct hopts {
	const char *db, *host, *target, *label;
	int64_t since_ms;
	unsigned limit;
	bool json, csv, help;
	char path[PATH_MAX];
};

static int parse_id(const char *s, int64_t *id)
{
	uint64_t v;

	if (parse_u64(s, 1, INT64_MAX, &v))
		return usage_error("%s: not a run id (a number from 'iorate history list')", s);
	*id = (int64_t)v;
	return 0;
}

/* --since: a local date and time, or a duration meaning that long ago. */
static int parse_since(const char *s, int64_t *ms)
{
	static const char *const fmts[] = {"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
					   "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"};
	uint64_t ns;

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct tm tm = {0};
		const char *end = strptime(s, fmts[i], &tm);

		if (end && !*end) {
			tm.tm_isdst = -1;
			*ms = (int64_t)mktime(&tm) * 1000;
			return 0;
		}
	}
	if (!parse_duration(s, &ns)) {
		*ms = (int64_t)time(NULL) * 1000 - (int64_t)(ns / 1000000);
		return 0;
	}
	return usage_error("--since: '%s' is not a date (2024-05-01, '2024-05-01 14:30') or a "
			   "time ago (7d, 12h)", s);
}

static int parse_opts(int argc, char **argv, struct hopts *o, int *first)
{
	static const struct option lo[] = {
		{"db", required_argument, NULL, 'D'},    {"host", required_argument, NULL, 'H'},
		{"target", required_argument, NULL, 'T'}, {"since", required_argument, NULL, 'S'},
		{"limit", required_argument, NULL, 'n'},  {"label", required_argument, NULL, 'L'},
		{"json", no_argument, NULL, 'j'},          {"csv", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
	};
	int ch;

	o->limit = 50;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hn:", lo, NULL)) != -1) {
		switch (ch) {
		case 'D': o->db = optarg; break;
		case 'H': o->host = optarg; break;
		case 'T': o->target = optarg; break;
		case 'L': o->label = optarg; break;
		case 'j': o->json = true; break;
		case 'c': o->csv = true; break;
		case 'h': o->help = true; break;
		case 'S':
			if (parse_since(optarg, &o->since_ms))
				return EXIT_USAGE;
			break;
		case 'n':
			if (parse_uint(optarg, 0, UINT_MAX, &o->limit))
				return usage_error("--limit: '%s' is not a whole number", optarg);
			break;
		case ':':
			return usage_error("%s: needs an argument (see 'iorate history --help')",
					   argv[optind - 1]);
		default:
			return usage_error("%s: unknown option (see 'iorate history --help')",
					   argv[optind - 1]);
		}
	}
	if (o->json && o->csv)
		return usage_error("--json and --csv: choose one");
	*first = optind;
	return 0;
}

/* Opens the database; a missing one is an empty history for the commands that only read. */
static int open_db(struct hopts *o, bool create, struct history **h)
{
	char err[PATH_MAX + 256];
	int r;

	*h = NULL;
	if (o->db)
		snprintf(o->path, sizeof(o->path), "%s", o->db);
	else if (history_default_path(o->path, sizeof(o->path)))
		return run_error("no history database: set IORATE_HISTORY or HOME, or give --db");
	if (!create && access(o->path, F_OK))
		return 0;
	if ((r = history_open(o->path, h, err, sizeof(err))))
		return run_error("history: %s", err);
	return 0;
}

static const char *fmt_date(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "?");
	return buf;
}

static void csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++)
		fputs(*s == '"' ? "\"\"" : (char[2]){*s, 0}, f);
	fputc('"', f);
}

static const char *const dir_names[3] = {"read", "write", "total"};

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *run_json(const struct history_run *r)
{
	json_t *o = json_object(), *p = json_object(), *t = json_array();

	json_object_set_new(o, "id", json_integer(r->id));
	json_object_set_new(o, "start_unix_ms", json_integer(r->start_unix_ms));
	json_object_set_new(o, "label", jstr(r->label));
	json_object_set_new(o, "host", jstr(r->host));
	json_object_set_new(o, "kernel", jstr(r->kernel));
	json_object_set_new(o, "command_line", jstr(r->command_line));
	json_object_set_new(o, "origin", jstr(r->origin));
	json_object_set_new(p, "bs", json_integer((json_int_t)r->bs));
	json_object_set_new(p, "threads", json_integer(r->threads));
	json_object_set_new(p, "depth", json_integer(r->depth));
	json_object_set_new(p, "write", json_integer(r->write_pct));
	json_object_set_new(p, "pattern", jstr(r->pattern));
	json_object_set_new(p, "cache", jstr(r->cache));
	json_object_set_new(p, "engine", jstr(r->engine));
	json_object_set_new(p, "time", jnum(r->time_s));
	json_object_set_new(o, "params", p);
	json_object_set_new(o, "seconds", jnum(r->seconds));
	json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(o, "error", jstr(r->error));
	for (unsigned i = 0; i < r->ntargets; i++)
		json_array_append_new(t, json_string(r->targets[i]));
	json_object_set_new(o, "targets", t);
	for (int d = 0; d < 3; d++) {
		const struct history_dir *x = &r->dir[d];

		json_object_set_new(o, dir_names[d],
				    json_pack("{s:I,s:o,s:o,s:o,s:o}", "ios", (json_int_t)x->ios,
					      "iops", jnum(x->iops), "mibps", jnum(x->mibps),
					      "mean_us", jnum(x->mean_us), "p99_us",
					      jnum(x->p99_us)));
	}
	return o;
}

static int print_json(json_t *o)
{
	int r = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));

	fputc('\n', stdout);
	json_decref(o);
	return r ? run_error("writing JSON: %s", strerror(errno)) : 0;
}

static void list_csv(const struct history_run *runs, size_t n)
{
	char date[32];

	printf("id,start_unix_ms,date,label,host,kernel,bs,threads,depth,write_pct,pattern,cache,"
	       "engine,time_s,seconds,interrupted,error,targets");
	for (int d = 0; d < 3; d++)
		printf(",%s_ios,%s_iops,%s_mibps,%s_mean_us,%s_p99_us", dir_names[d], dir_names[d],
		       dir_names[d], dir_names[d], dir_names[d]);
	printf(",command_line\n");
	for (size_t i = 0; i < n; i++) {
		const struct history_run *r = &runs[i];

		printf("%lld,%lld,%s,", (long long)r->id, (long long)r->start_unix_ms,
		       fmt_date(r->start_unix_ms, date, sizeof(date)));
		csv_str(stdout, r->label);
		putchar(',');
		csv_str(stdout, r->host);
		putchar(',');
		csv_str(stdout, r->kernel);
		printf(",%llu,%u,%u,%u,%s,%s,%s,%g,%g,%d,", (unsigned long long)r->bs, r->threads,
		       r->depth, r->write_pct, r->pattern ?: "", r->cache ?: "", r->engine ?: "",
		       r->time_s, r->seconds, r->interrupted);
		csv_str(stdout, r->error);
		putchar(',');
		for (unsigned k = 0; k < r->ntargets; k++) {
			csv_str(stdout, r->targets[k]); /* ';' would be ambiguous: quote each */
			if (k + 1 < r->ntargets)
				putchar(' ');
		}
		for (int d = 0; d < 3; d++) {
			const struct history_dir *x = &r->dir[d];

			printf(",%llu,%.1f,%.3f,", (unsigned long long)x->ios, x->iops, x->mibps);
			if (x->has_lat)
				printf("%.3f,%.3f", x->mean_us, x->p99_us);
			else
				putchar(',');
		}
		putchar(',');
		csv_str(stdout, r->command_line);
		putchar('\n');
	}
}

static const char *status_of(const struct history_run *r)
{
	return r->error ? "failed" : r->interrupted ? "interrupted" : "";
}

static void list_text(const struct history_run *runs, size_t n)
{
	char date[32], bs[32], tq[32];

	printf("%5s  %-16s  %-12s %7s %8s %4s %-4s %-6s %6s %11s %10s %10s  %s\n", "ID", "DATE",
	       "HOST", "BS", "TxQ", "W%", "PAT", "ENGINE", "SECS", "IOPS", "MiB/s", "P99 µs",
	       "TARGETS");
	for (size_t i = 0; i < n; i++) {
		const struct history_run *r = &runs[i];
		char p99[32] = "-";

		snprintf(tq, sizeof(tq), "%ux%u", r->threads, r->depth);
		if (r->dir[2].has_lat)
			snprintf(p99, sizeof(p99), r->dir[2].p99_us < 10 ? "%.3f" : "%.1f",
				 r->dir[2].p99_us);
		printf("%5lld  %-16s  %-12.12s %7s %8s %4u %-4s %-6s %6.1f %11.0f %10.2f %9s  ",
		       (long long)r->id, fmt_date(r->start_unix_ms, date, sizeof(date)), r->host,
		       fmt_size(r->bs, bs, sizeof(bs)), tq, r->write_pct,
		       r->pattern && !strcmp(r->pattern, "sequential") ? "seq" : "rand",
		       r->engine ?: "?", r->seconds, r->dir[2].iops, r->dir[2].mibps, p99);
		for (unsigned k = 0; k < r->ntargets && k < 2; k++)
			printf("%s%s", k ? " " : "", r->targets[k]);
		if (r->ntargets > 2)
			printf(" (+%u)", r->ntargets - 2);
		if (*status_of(r))
			printf(" [%s]", status_of(r));
		if (r->label)
			printf("  \"%s\"", r->label);
		putchar('\n');
	}
}

static int do_list(struct hopts *o, int argc, char **argv)
{
	struct history_filter f = {o->host, o->target, o->since_ms, o->limit};
	struct history_run *runs = NULL;
	struct history *h;
	char err[PATH_MAX + 256];
	size_t n = 0;
	int r;

	if (argc)
		return usage_error("history list: unexpected argument '%s'", argv[0]);
	if ((r = open_db(o, false, &h)))
		return r;
	if (h && history_list(h, &f, &runs, &n, err, sizeof(err))) {
		history_close(h);
		return run_error("history: %s", err);
	}
	history_close(h);
	if (!h && !o->json)
		fprintf(stderr,
			"iorate: no history yet in %s (save runs with 'iorate run --save')\n",
			o->path);
	if (o->json) {
		json_t *root = json_object(), *a = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, run_json(&runs[i]));
		json_object_set_new(root, "schema", json_integer(HISTORY_SCHEMA));
		json_object_set_new(root, "database", json_string(o->path));
		json_object_set_new(root, "runs", a);
		r = print_json(root);
	} else if (o->csv) {
		list_csv(runs, n);
	} else if (n) {
		list_text(runs, n);
	}
	history_runs_free(runs, n);
	return r;
}

/* Microseconds with enough digits for both a RAM disk and a spinning one. */
static const char *fmt_us(json_t *v, char *buf, size_t len)
{
	double x = json_number_value(v);

	if (!json_is_number(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, x < 10 ? "%.3f" : "%.1f", x);
	return buf;
}

static double jfig(json_t *o, const char *dir, const char *key)
{
	return json_number_value(json_object_get(json_object_get(o, dir), key));
}

/* A compact text summary of a stored run: the run's own text report needs its histograms. */
static void show_text(int64_t id, const char *label, json_t *run)
{
	static const char *const pct[] = {"min", "mean", "p50", "p90", "p99", "p99_9", "p99_99",
					  "max"};
	json_t *p = json_object_get(run, "params"), *host = json_object_get(run, "host");
	json_t *tot = json_object_get(run, "total"), *t, *v;
	char date[32], bs[32], b[3][32];
	size_t i;

	printf("run %lld  %s  %s (%s)%s%s\n", (long long)id,
	       fmt_date(json_integer_value(json_object_get(run, "start_unix_ms")), date,
			sizeof(date)),
	       json_string_value(json_object_get(host, "hostname")) ?: "?",
	       json_string_value(json_object_get(host, "kernel")) ?: "?", label ? "  " : "",
	       label ? label : "");
	if ((v = json_object_get(run, "command_line")) && json_is_string(v))
		printf("command: %s\n", json_string_value(v));
	printf("workload: %s %s, %lld%% writes, %lld thread(s) x depth %lld per target, "
	       "cache %s, engine %s, %.1f s measured\n",
	       fmt_size((uint64_t)json_integer_value(json_object_get(p, "bs")), bs, sizeof(bs)),
	       json_string_value(json_object_get(p, "pattern")) ?: "?",
	       (long long)json_integer_value(json_object_get(p, "write")),
	       (long long)json_integer_value(json_object_get(p, "threads")),
	       (long long)json_integer_value(json_object_get(p, "depth")),
	       json_string_value(json_object_get(p, "cache")) ?: "?",
	       json_string_value(json_object_get(p, "engine")) ?: "?",
	       json_number_value(json_object_get(run, "seconds")));
	printf("\n%-12s %14s %14s %14s\n", "", "read", "write", "total");
	printf("%-12s", "IOPS");
	for (int d = 0; d < 3; d++)
		printf(" %14.1f", jfig(tot, dir_names[d], "iops"));
	printf("\n%-12s", "MiB/s");
	for (int d = 0; d < 3; d++)
		printf(" %14.2f", jfig(tot, dir_names[d], "mibps"));
	printf("\nlatency, µs:");
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		printf("\n%-12s", pct[i]);
		for (int d = 0; d < 3; d++) {
			json_t *lat = json_object_get(json_object_get(tot, dir_names[d]), "lat_us");

			printf(" %14s", fmt_us(json_object_get(lat, pct[i]), b[d], sizeof(b[d])));
		}
	}
	printf("\n\n%-40s %14s %12s %13s\n", "target", "IOPS", "MiB/s", "p99 µs");
	json_array_foreach(json_object_get(run, "targets"), i, t) {
		json_t *x = json_object_get(t, "total");

		printf("%-40s %14.1f %12.2f %12s\n", json_string_value(json_object_get(t, "path")),
		       json_number_value(json_object_get(x, "iops")),
		       json_number_value(json_object_get(x, "mibps")),
		       fmt_us(json_object_get(json_object_get(x, "lat_us"), "p99"), b[0],
			      sizeof(b[0])));
	}
	json_array_foreach(json_object_get(run, "notes"), i, v)
		printf("note: %s\n", json_string_value(v));
	if (json_is_true(json_object_get(run, "interrupted")))
		printf("interrupted: the figures cover what ran\n");
	if (json_is_string(v = json_object_get(run, "error")))
		printf("error: %s\n", json_string_value(v));
}

static int do_show(struct hopts *o, int argc, char **argv)
{
	char err[PATH_MAX + 256], *text = NULL;
	struct history_run row;
	struct history *h;
	json_t *run;
	int64_t id = 0;
	int r;

	if (argc != 1)
		return usage_error("history show: needs one run id (see 'iorate history list')");
	if (parse_id(argv[0], &id))
		return EXIT_USAGE;
	if ((r = open_db(o, false, &h)))
		return r;
	if (!h)
		return run_error("no run %lld: no history yet in %s", (long long)id, o->path);
	r = history_get_json(h, id, &text, err, sizeof(err));
	if (!r && (r = history_get(h, id, &row, err, sizeof(err))))
		free(text);
	history_close(h);
	if (r)
		return run_error("history: %s", err);
	run = json_loads(text, 0, NULL);
	free(text);
	if (!run) {
		history_run_release(&row);
		return run_error("run %lld: the stored JSON does not parse", (long long)id);
	}
	if (o->json) {
		r = print_json(run);
	} else {
		show_text(id, row.label, run);
		json_decref(run);
	}
	history_run_release(&row);
	return r;
}

static int import_file(struct history *h, const char *path, const char *label)
{
	char err[PATH_MAX + 256];
	json_error_t je;
	json_t *doc, *runs, *run;
	size_t i;
	int bad = 0;

	doc = strcmp(path, "-") ? json_load_file(path, 0, &je) : json_loadf(stdin, 0, &je);
	if (!doc)
		return run_error("%s: %s%s", path, je.line > 0 ? "not JSON: " : "", je.text);
	runs = history_runs_in(doc);
	if (!json_array_size(runs))
		bad = run_error("%s: holds no run (expected the JSON of 'iorate run --json', "
				"'sweep --json' or 'mark --json')", path);
	json_array_foreach(runs, i, run) {
		int64_t id = 0;
		int r = history_save_obj(h, run, label, &id, err, sizeof(err));

		if (r == -EEXIST)
			printf("%s: already saved as run %lld\n", path, (long long)id);
		else if (r)
			bad = run_error("%s: %s", path, err);
		else
			printf("imported %s as run %lld\n", path, (long long)id);
	}
	json_decref(runs);
	json_decref(doc);
	return bad;
}

static int do_import(struct hopts *o, int argc, char **argv)
{
	struct history *h;
	int r, bad = 0;

	if (argc < 1)
		return usage_error("history import: needs FILE.json (or - for stdin)");
	if ((r = open_db(o, true, &h)))
		return r;
	for (int i = 0; i < argc; i++)
		if (import_file(h, argv[i], o->label))
			bad = 1;
	history_close(h);
	return bad;
}

static double ratio(double a, double b)
{
	return isfinite(a) && isfinite(b) && a > 0 ? b / a : NAN;
}

static const struct metric {
	const char *name, *unit;
	size_t off;
	bool lat;
} metrics[] = {
	{"iops", "IOPS", offsetof(struct history_dir, iops), false},
	{"mibps", "MiB/s", offsetof(struct history_dir, mibps), false},
	{"mean_us", "mean µs", offsetof(struct history_dir, mean_us), true},
	{"p99_us", "p99 µs", offsetof(struct history_dir, p99_us), true},
};

static double metric(const struct history_run *r, int d, const struct metric *m)
{
	if (m->lat && !r->dir[d].has_lat)
		return NAN;
	return *(const double *)((const char *)&r->dir[d] + m->off);
}

/* The workload parameters that differ, as "name: a -> b" strings. */
static json_t *differences(const struct history_run *a, const struct history_run *b)
{
	json_t *d = json_array();
	char buf[512];

#define DIFF_S(n, x, y) \
	if (strcmp((x) ?: "", (y) ?: "")) { \
		snprintf(buf, sizeof(buf), "%s: %s -> %s", n, (x) ?: "-", (y) ?: "-"); \
		json_array_append_new(d, json_string(buf)); \
	}
#define DIFF_N(n, x, y) \
	if ((x) != (y)) { \
		snprintf(buf, sizeof(buf), "%s: %g -> %g", n, (double)(x), (double)(y)); \
		json_array_append_new(d, json_string(buf)); \
	}
	DIFF_S("host", a->host, b->host);
	DIFF_S("kernel", a->kernel, b->kernel);
	DIFF_N("bs", a->bs, b->bs);
	DIFF_N("threads", a->threads, b->threads);
	DIFF_N("depth", a->depth, b->depth);
	DIFF_N("write", a->write_pct, b->write_pct);
	DIFF_S("pattern", a->pattern, b->pattern);
	DIFF_S("cache", a->cache, b->cache);
	DIFF_S("engine", a->engine, b->engine);
	DIFF_N("time", a->time_s, b->time_s);
	DIFF_N("targets", a->ntargets, b->ntargets);
	for (unsigned i = 0; i < a->ntargets && i < b->ntargets; i++)
		DIFF_S("target", a->targets[i], b->targets[i]);
#undef DIFF_S
#undef DIFF_N
	return d;
}

static void fmt_fig(double v, bool lat, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, lat ? (v < 10 ? "%.3f" : "%.1f") : "%.2f", v);
}

static int compare_out(struct hopts *o, const struct history_run *a, const struct history_run *b)
{
	json_t *diff = differences(a, b), *v;
	char da[32], db[32], ha[64], hb[64];
	size_t i;

	if (o->json) {
		json_t *root = json_object(), *figs = json_array();

		for (int d = 0; d < 3; d++)
			for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
				double x = metric(a, d, &metrics[m]), y = metric(b, d, &metrics[m]);

				json_array_append_new(figs, json_pack("{s:s,s:s,s:o,s:o,s:o}",
					"direction", dir_names[d], "metric", metrics[m].name,
					"a", jnum(x), "b", jnum(y), "ratio", jnum(ratio(x, y))));
			}
		json_object_set_new(root, "schema", json_integer(HISTORY_SCHEMA));
		json_object_set_new(root, "a", run_json(a));
		json_object_set_new(root, "b", run_json(b));
		json_object_set_new(root, "differences", diff);
		json_object_set_new(root, "figures", figs);
		return print_json(root);
	}
	snprintf(ha, sizeof(ha), "run %lld", (long long)a->id);
	snprintf(hb, sizeof(hb), "run %lld", (long long)b->id);
	printf("%-16s %18s %18s %8s\n", "", ha, hb, "ratio");
	printf("%-16s %18s %18s\n", "date", fmt_date(a->start_unix_ms, da, sizeof(da)),
	       fmt_date(b->start_unix_ms, db, sizeof(db)));
	printf("%-16s %18.18s %18.18s\n", "host", a->host, b->host);
	if (a->label || b->label)
		printf("%-16s %18.18s %18.18s\n", "label", a->label ?: "-", b->label ?: "-");
	for (int d = 0; d < 3; d++) {
		if (d < 2 && !a->dir[d].ios && !b->dir[d].ios)
			continue; /* a direction neither run did */
		for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
			double x = metric(a, d, &metrics[m]), y = metric(b, d, &metrics[m]);
			double q = ratio(x, y);
			char name[32], sx[32], sy[32], sq[32] = "-";

			snprintf(name, sizeof(name), "%s %s", dir_names[d], metrics[m].unit);
			fmt_fig(x, metrics[m].lat, sx, sizeof(sx));
			fmt_fig(y, metrics[m].lat, sy, sizeof(sy));
			if (isfinite(q))
				snprintf(sq, sizeof(sq), "%.3f", q);
			/* µ is two bytes: one more column of width for the names holding it */
			printf(metrics[m].lat ? "%-17s %18s %18s %8s\n" : "%-16s %18s %18s %8s\n",
			       name, sx, sy, sq);
		}
	}
	if (json_array_size(diff))
		printf("\nthe runs differ in:\n");
	json_array_foreach(diff, i, v)
		printf("  %s\n", json_string_value(v));
	if (*status_of(a) || *status_of(b))
		printf("\nnote: run %lld %s, run %lld %s\n", (long long)a->id,
		       *status_of(a) ? status_of(a) : "completed", (long long)b->id,
		       *status_of(b) ? status_of(b) : "completed");
	json_decref(diff);
	return 0;
}

static int do_compare(struct hopts *o, int argc, char **argv)
{
	struct history_run a, b;
	char err[PATH_MAX + 256];
	struct history *h;
	int64_t ia = 0, ib = 0;
	int r;

	if (argc != 2)
		return usage_error("history compare: needs two run ids "
				   "(see 'iorate history list')");
	if (parse_id(argv[0], &ia) || parse_id(argv[1], &ib))
		return EXIT_USAGE;
	if ((r = open_db(o, false, &h)))
		return r;
	if (!h)
		return run_error("no history yet in %s", o->path);
	r = history_get(h, ia, &a, err, sizeof(err));
	if (!r && (r = history_get(h, ib, &b, err, sizeof(err))))
		history_run_release(&a);
	history_close(h);
	if (r)
		return run_error("history: %s", err);
	r = compare_out(o, &a, &b);
	history_run_release(&a);
	history_run_release(&b);
	return r;
}

static int do_rm(struct hopts *o, int argc, char **argv)
{
	char err[PATH_MAX + 256];
	struct history *h;
	int64_t id = 0;
	int r;

	if (argc != 1)
		return usage_error("history rm: needs one run id");
	if (parse_id(argv[0], &id))
		return EXIT_USAGE;
	if ((r = open_db(o, false, &h)))
		return r;
	if (!h)
		return run_error("no history yet in %s", o->path);
	r = history_remove(h, id, err, sizeof(err));
	history_close(h);
	if (r)
		return run_error("history: %s", err);
	printf("removed run %lld\n", (long long)id);
	return 0;
}

int cmd_history(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(struct hopts *o, int argc, char **argv);
		bool list_opts, label, csv;
	} subs[] = {
		{"list", do_list, true, false, true},  {"ls", do_list, true, false, true},
		{"show", do_show, false, false, false}, {"import", do_import, false, true, false},
		{"compare", do_compare, false, false, false}, {"rm", do_rm, false, false, false},
	};
	struct hopts o = {0};
	int first = 0, r;

	if (argc < 2 || (argv[1][0] == '-' && strcmp(argv[1], "--help") && strcmp(argv[1], "-h")))
		return usage_error("history: needs a command: list, show, import, compare or rm "
				   "(see 'iorate history --help')");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		if (strcmp(argv[1], subs[i].name))
			continue;
		if ((r = parse_opts(argc - 1, argv + 1, &o, &first)))
			return r;
		if (o.help) {
			usage(stdout);
			return 0;
		}
		if (!subs[i].list_opts && (o.host || o.target || o.since_ms))
			return usage_error("--host, --target and --since are for 'history list'");
		if (!subs[i].label && o.label)
			return usage_error("--label is for 'history import'");
		if (!subs[i].csv && o.csv)
			return usage_error("--csv is for 'history list'");
		if (subs[i].fn == do_import && o.json)
			return usage_error("--json: 'history import' reads JSON, it prints none");
		return subs[i].fn(&o, argc - 1 - first, argv + 1 + first);
	}
	return usage_error("history: '%s' is not a command (list, show, import, compare, rm)",
			   argv[1]);
}
