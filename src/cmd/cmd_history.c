/*
 * iorate history: list, show, import, compare and remove runs kept in the SQLite history
 * (src/store/history.c). Runs get there with 'iorate run --save' or 'iorate history import'.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "report/history_fmt.h"
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

static int print_json(json_t *o)
{
	int r = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));

	fputc('\n', stdout);
	json_decref(o);
	return r ? run_error("writing JSON: %s", strerror(errno)) : 0;
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
			json_array_append_new(a, report_history_run_json(&runs[i]));
		json_object_set_new(root, "schema", json_integer(HISTORY_SCHEMA));
		json_object_set_new(root, "database", json_string(o->path));
		json_object_set_new(root, "runs", a);
		r = print_json(root);
	} else if (o->csv) {
		report_history_list_csv(stdout, runs, n);
	} else if (n) {
		report_history_list_text(stdout, runs, n);
	}
	history_runs_free(runs, n);
	return r;
}

static int do_show(struct hopts *o, int argc, char **argv)
{
	char err[PATH_MAX + 256];
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
	r = history_get_obj(h, id, &run, err, sizeof(err));
	if (!r && (r = history_get(h, id, &row, err, sizeof(err))))
		json_decref(run);
	history_close(h);
	if (r)
		return run_error("%s%s", r == -EBADMSG ? "" : "history: ", err);
	if (o->json) {
		r = print_json(run);
	} else {
		report_history_show_text(stdout, id, row.label, run);
		json_decref(run);
	}
	history_run_release(&row);
	return r;
}

static int import_file(struct history *h, const char *path, const char *label)
{
	char err[PATH_MAX + 256];
	json_t *runs, *run;
	size_t i;
	int bad = 0;

	if (history_runs_in_file(path, &runs, err, sizeof(err)))
		return run_error("%s", err);
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
	if (o->json) {
		r = print_json(report_history_compare_json(&a, &b));
	} else {
		report_history_compare_text(stdout, &a, &b);
		r = 0;
	}
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
