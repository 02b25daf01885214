/*
 * iorate history: list, show, import, compare, remove and check runs kept in the SQLite
 * history (src/store/history.c). Runs get there with 'iorate run --save' or 'iorate history
 * import'.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/gate.h"
#include "report/history_fmt.h"
#include "report/format.h"
#include "report/history_list.h"
#include "report/report.h"
#include "result/result_json.h"
#include "store/history.h"
#include "util/escape.h"
#include "util/parse.h"

struct hopts {
	const char *db, *host, *target, *label;
	struct output_opts output; /* --format and its aliases, --units, --series, --brief */
	int64_t since_ms;
	unsigned limit;
	char path[PATH_MAX];
	FILE *out;  /* standard output, keeping its first write error (cmd_stdout_open) */
	int wrote;  /* 0, or the -errno a writer returned: said when out is closed (run_sub) */
};

static int history_main(int argc, char **argv);

/* The subcommands, in the order of the entry's list and of history_main()'s table. */
enum { SUB_LIST, SUB_SHOW, SUB_IMPORT, SUB_COMPARE, SUB_RM, SUB_CHECK, NSUBS };
static const char *const subcommands[NSUBS + 1] = {
	[SUB_LIST] = "list", [SUB_SHOW] = "show", [SUB_IMPORT] = "import",
	[SUB_COMPARE] = "compare", [SUB_RM] = "rm", [SUB_CHECK] = "check", [NSUBS] = NULL,
};
static int parse_since(const char *s, int64_t *ms);

static int set_since(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct hopts *h = c->state;

	if (parse_since(val, &h->since_ms))
		return opt_refuse(c, val, "is not a date (2024-05-01, '2024-05-01 14:30') or a time "
				  "ago (7d, 12h)");
	return 0;
}

#define H(field) .in = OPT_IN_CMD, .off = offsetof(struct hopts, field)
#define O(field) .in = OPT_IN_OUT, .off = offsetof(struct output_opts, field)

static const struct opt history_opts[] = {
	{.name = "db", .arg = "FILE", .help = OPT_DB_HELP, .example = "--db runs.db",
	 .set = opt_set_string, H(db)},
	{.name = "host", .arg = "H", .help = "list: runs of this host name only",
	 .example = "--host db1", .set = opt_set_string, H(host)},
	{.name = "target", .arg = "PAT",
	 .help = "list: runs with a target path matching PAT (SQL LIKE: % any text, _ one "
	 "character; without either, paths containing PAT)", .example = "--target /mnt/data",
	 .set = opt_set_string, H(target)},
	{.name = "since", .arg = "DATE",
	 .help = "list: runs started from DATE (2024-05-01, '2024-05-01 14:30', local time) or "
	 "that long ago (7d, 12h)", .example = "--since 7d", .set = set_since},
	{.name = "limit", .letter = 'n', .arg = "N",
	 .help = "list: the newest N runs (default 50; 0 = all)", .example = "--limit 10",
	 .set = opt_set_count, H(limit), .max = 1u << 30},
	{.name = "label", .arg = "TEXT",
	 .help = "import: a note kept with the runs ('before firmware update')",
	 .example = "--label 'old SAN'", .set = opt_set_string, H(label)},
	{0},
};

/*
 * The output options are the shared rows (opt_output*); which subcommand prints which format
 * is checked once the subcommand is known (list: text, json, csv; show: text, json, csv,
 * fio-json; compare: text, json), as are --units, --series and --brief (show only).
 */
static const struct opt history_format_opts[] = {
	{.name = "format", .arg = "FMT", .help = OPT_FORMAT_HELP, .example = "--format csv",
	 .set = opt_set_format, .excl = EXCL_FORMAT, .values = "text json csv fio-json"},
	{0},
};
static const struct opt_group history_group = {.title = "Options", .opts = history_opts};
static const struct opt_group history_format = {.title = "Output", .opts = history_format_opts};
static const struct opt_group *const history_groups[] = {
	&history_group, &opt_output, &opt_output_csv, &opt_output_fio_json, &history_format,
	&opt_output_units, &opt_output_series, &opt_output_brief, NULL,
};

const struct command cmd_history = {
	.name = "history",
	.subcommands = subcommands,
	.summary = "list and query past runs kept in SQLite",
	.synopsis = "list [--db FILE] [--host H] [--target PAT] [--since DATE] [--limit N] "
		    "[--json|--csv|--format FMT]\n"
		    "show ID [--format FMT|--json|--csv|--fio-json|--brief] [--units U] [--series]\n"
		    "import FILE.json... [--label TEXT]\n"
		    "compare ID ID [--json]\n"
		    "rm ID\n"
		    "check [--db FILE]",
	.about = "Runs saved with 'iorate run --save' (or imported from 'iorate run --json' files)\n"
		 "are kept in SQLite, so tests repeated on other days can be listed and compared.\n"
		 "\n"
		 "Commands:\n"
		 "  list      the newest runs first: date, host, workload, IOPS, MiB/s, p99,\n"
		 "            the caps, open loop or emulation profile (LIMITS)\n"
		 "  show      one run: the report it printed, byte for byte (its format, units,\n"
		 "            --series, --brief); the output options print it another way\n"
		 "            (--json: its 'iorate run --json' object)\n"
		 "  import    save runs from JSON files ('-' reads stdin) of 'iorate run',\n"
		 "            'sweep' or 'mark' --json; a run already there is not saved twice\n"
		 "  compare   two runs side by side: IOPS, MiB/s, mean and p99 latency per\n"
		 "            direction, the ratio second/first, whether the change is beyond\n"
		 "            run-to-run noise (Welch's t-test on the values per interval, p < 0.01),\n"
		 "            and every parameter that differs, named by its option\n"
		 "  rm        remove a run\n"
		 "  check     list what is damaged, changing nothing: each problem SQLite's\n"
		 "            integrity check finds and each run that cannot be read back (its\n"
		 "            id and why); exit 1 when there is any. 'list' skips such runs,\n"
		 "            naming each on stderr, and still exits 0",
	.groups = history_groups,
	.examples = "  iorate run --save -b 8k -w 30 -d 60 /mnt/data/t     (save each day's run)\n"
		    "  iorate history list --target /mnt/data --since 7d\n"
		    "  iorate history compare 12 17\n"
		    "  iorate history show 17 --json > day2.json\n"
		    "  iorate history import --label 'old SAN' r1.json r2.json\n"
		    "  iorate history check --db runs.db\n"
		    "  iorate report 12 17 --output compare.html\n",
	.exit_status = "0 done, 1 failed (no such run, unreadable database; check: damage "
		       "found), 2 bad usage.",
	.fn = history_main,
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
	return -EINVAL;
}

/* The options into o, the words (the subcommand first) moved to argv[*first] on. */
static int parse_opts(int argc, char **argv, struct hopts *o, int *first, bool *help)
{
	struct opt_ctx c = {.cmd = &cmd_history, .out = &o->output, .state = o};
	int r;

	o->limit = 50;
	output_opts_init(&o->output);
	if ((r = options_parse(&c, argc, argv, first)))
		return r;
	*help = c.help;
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
	/* The default database's directory is made on first use, as 'run --save' does. */
	if ((r = history_open(o->db ? o->path : NULL, h, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("history: %s", err);
	return 0;
}

/* history_list's callback: each run to the format's row function as the store reads it. */
struct list_out {
	const struct report_history_list_ops *ops;
	void *state;
	FILE *f;
};

static int list_row(const struct history_entry *e, void *arg)
{
	struct list_out *l = arg;
	struct history_row row = {.id = e->id, .label = e->label, .run = &e->run};

	return l->ops->row(l->f, &row, l->state);
}

/* A run that cannot be read is named on stderr; the others still list (exit 0). */
static void list_skipped(int64_t id, const char *why, void *arg)
{
	(void)id;
	(void)arg;
	run_error("%s (skipped; see 'iorate history check')", why);
}

static int do_list(struct hopts *o, int argc, char **argv)
{
	struct history_filter f = {.host = o->host, .target = o->target,
				   .since_unix_ms = o->since_ms, .limit = o->limit,
				   .skipped = list_skipped};
	const struct report_format *fmt = o->output.fmt; /* for its kind: check_sub_opts() */
	struct list_out l = {.ops = REPORT_WRITER(struct history_list_format, fmt)->ops, .f = o->out};
	char err[PATH_MAX + 256];
	struct history *h;
	int r;

	if (argc)
		return usage_error("history list: unexpected argument '%s'", argv[0]);
	if ((r = open_db(o, false, &h)))
		return r;
	/* No database: said on stderr, unless the output itself names the database. */
	if (!h && !l.ops->names_database) {
		fputs("iorate: no history yet in ", stderr);
		escape_fputs(o->path, stderr);
		fputs(" (save runs with 'iorate run --save')\n", stderr);
	}
	if ((r = l.ops->begin(o->out, o->path, &l.state))) {
		history_close(h);
		return run_error("%s", strerror(-r));
	}
	if (h && (r = history_list(h, &f, list_row, &l, err, sizeof(err))))
		r = run_error("%s%s", r == -EBADMSG ? "" : "history: ", err);
	history_close(h);
	o->wrote = l.ops->end(o->out, l.state);
	return r;
}

/*
 * How show prints a run: as it printed itself (text with default units when that was not
 * recorded), then the options given: --units replaces the units; a format, --series or
 * --brief replaces the format, the series and the headline together.
 */
static int show_output(const struct hopts *o, const struct history_entry *e,
		       const struct report_format **fmt, struct report_opts *ro)
{
	const struct output_opts *given = &o->output;
	const char *name = e->output.format[0] ? e->output.format : "text";

	*ro = (struct report_opts){.units = e->output.units, .series = e->output.series,
				   .brief = e->output.brief};
	if (given->format || given->ropts.series || given->ropts.brief) {
		name = given->fmt->name; /* text unless named: check_sub_opts() */
		ro->series = given->ropts.series;
		ro->brief = given->ropts.brief;
	}
	if (given->units_given)
		ro->units = given->ropts.units;
	if (!(*fmt = report_format_find(&result_formats, name)))
		return run_error("run %lld was printed as %s, which this iorate does not print: give "
				 "--format", (long long)e->id, name);
	return 0;
}

/* The run as it printed itself (show_output), or as the output options ask. */
static int do_show(struct hopts *o, int argc, char **argv)
{
	const struct report_format *fmt;
	struct report_opts ro;
	char err[PATH_MAX + 256];
	struct history_entry e;
	struct history *h;
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
	r = history_get(h, id, &e, err, sizeof(err));
	history_close(h);
	if (r)
		return run_error("%s%s", r == -EBADMSG ? "" : "history: ", err);
	if ((r = show_output(o, &e, &fmt, &ro))) {
		history_entry_release(&e);
		return r;
	}
	o->wrote = report_write_set(REPORT_WRITER(struct result_format, fmt)->ops, o->out, &e.run,
				    &ro);
	history_entry_release(&e);
	return 0;
}

/* Whether a signal asked to stop (Ctrl-C, kill): an import stops between runs. */
static bool stopped(void)
{
	return *cmd_stop_flag() != 0;
}

static int import_file(FILE *out, struct history *h, const char *path, const char *label)
{
	char err[PATH_MAX + 256], *p;
	struct result_set *runs;
	size_t n;
	int bad = 0;

	if (result_json_load_sets(path, &runs, &n, err, sizeof(err)))
		return stopped() ? 1 : run_error("%s", err); /* a read cut short says no more */
	p = escape_dup(path);
	for (size_t i = 0; i < n && !stopped(); i++) {
		int64_t id = 0;
		int r = history_save_set(h, &runs[i], label, &id, err, sizeof(err));

		if (r == -EEXIST)
			fprintf(out, "%s: already saved as run %lld\n", p ? p : "?", (long long)id);
		else if (r)
			bad = run_error("%s: %s", path, err);
		else
			fprintf(out, "imported %s as run %lld\n", p ? p : "?", (long long)id);
	}
	free(p);
	result_sets_free(runs, n);
	return bad;
}

/*
 * Every file is read and each run saved in its own transaction; a signal stops the import
 * between runs (those saved stay), and a database made for it that got no run is removed.
 */
static int do_import(struct hopts *o, int argc, char **argv)
{
	struct history *h;
	int r, bad = 0;

	if (argc < 1)
		return usage_error("history import: needs FILE.json (or - for stdin)");
	/* --db may not name a file being imported. */
	for (int i = 0; i < argc; i++)
		if (gate_use(argv[i], "a file being imported", NULL))
			return run_error("out of memory");
	if ((r = open_db(o, true, &h)))
		return r;
	for (int i = 0; i < argc && !stopped(); i++)
		if (import_file(o->out, h, argv[i], o->label))
			bad = 1;
	history_close_unused(h);
	if (stopped())
		return run_error("history import: interrupted; the runs imported before it are kept");
	return bad;
}

static int do_compare(struct hopts *o, int argc, char **argv)
{
	struct history_entry a, b;
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
		history_entry_release(&a);
	history_close(h);
	if (r)
		return run_error("%s%s", r == -EBADMSG ? "" : "history: ", err);
	struct history_row ra = {.id = a.id, .label = a.label, .run = &a.run};
	struct history_row rb = {.id = b.id, .label = b.label, .run = &b.run};
	struct history_compare c = {.a = &ra, .b = &rb};
	o->wrote = REPORT_WRITER(struct history_compare_format, o->output.fmt)->write(o->out,
											  &c);
	history_entry_release(&a);
	history_entry_release(&b);
	return 0;
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
	fprintf(o->out, "removed run %lld\n", (long long)id);
	return 0;
}

/* history check's findings: one line each on standard output, escaped. */
static void check_say(struct hopts *o, const char *prefix, const char *what)
{
	char *line = strdup(what);

	/* SQLite's integrity messages may span lines: one problem, one line. */
	for (char *p = line; p && *p; p++)
		if (*p == '\n')
			*p = ' ';
	fputs(prefix, o->out);
	escape_fputs(line ? line : what, o->out);
	fputc('\n', o->out);
	free(line);
}

static void check_line(const char *what, void *arg)
{
	check_say(arg, "integrity: ", what);
}

static void check_run(int64_t id, const char *what, void *arg)
{
	(void)id;
	check_say(arg, "", what);
}

/* Whether the schema was refused for what the file holds: damage for 'check'. */
static bool refused_content(int r)
{
	return r == -EILSEQ || r == -EPROTO || r == -EEXIST;
}

/*
 * On a read-only connection, changing nothing (a database of an older iorate is not
 * migrated): SQLite's integrity check first, so a file history_open() would refuse still says
 * what is wrong with it; then, on an intact file, its schema as history_open() checks it, and
 * every run read back.
 */
static int do_check(struct hopts *o, int argc, char **argv)
{
	char err[PATH_MAX + 256];
	struct history *h;
	int r, bad;

	if (argc)
		return usage_error("history check: unexpected argument '%s'", argv[0]);
	if (o->db)
		snprintf(o->path, sizeof(o->path), "%s", o->db);
	else if (history_default_path(o->path, sizeof(o->path)))
		return run_error("no history database: set IORATE_HISTORY or HOME, or give --db");
	if (access(o->path, F_OK))
		return run_error("no history in %s: nothing to check", o->path);
	if ((r = history_open_readonly(o->path, &h, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("history: %s", err);
	bad = history_integrity(h, check_line, o, err, sizeof(err));
	if (!bad && (r = history_check_schema(h, err, sizeof(err)))) {
		if (!refused_content(r)) {
			history_close(h);
			return run_error("history: %s", err);
		}
		check_say(o, "refused: ", err);
		bad = 1;
	} else if (!bad) {
		bad = history_check_runs(h, check_run, o, err, sizeof(err));
	}
	history_close(h);
	if (bad < 0)
		return run_error("history: %s", err);
	escape_fputs(o->path, o->out);
	fprintf(o->out, bad ? ": %d problem%s found\n" : ": no damage found\n", bad,
		bad == 1 ? "" : "s");
	return bad ? 1 : 0;
}

/*
 * A command, its output through a stream that keeps the first write error: a full disk or a
 * closed pipe is named as itself (ENOSPC, EPIPE), once, and the exit status is 1.
 */
static int run_sub(int (*fn)(struct hopts *o, int argc, char **argv), struct hopts *o, int argc,
		   char **argv)
{
	int r, w;

	if (!(o->out = cmd_stdout_open()))
		return 1;
	r = fn(o, argc, argv);
	w = cmd_stdout_close(o->out, o->wrote);
	return r ? r : w;
}

/* What a subcommand takes and prints. */
struct sub {
	int (*fn)(struct hopts *o, int argc, char **argv);
	bool list_opts, label, show_opts;
	bool prints;            /* takes a format: kind's */
	const struct report_formats *kind;
};

static const struct sub subs[NSUBS] = {
	[SUB_LIST] = {.fn = do_list, .list_opts = true, .prints = true,
		      .kind = &history_list_formats},
	[SUB_SHOW] = {.fn = do_show, .show_opts = true, .prints = true, .kind = &result_formats},
	[SUB_IMPORT] = {.fn = do_import, .label = true},
	[SUB_COMPARE] = {.fn = do_compare, .prints = true, .kind = &history_compare_formats},
	[SUB_RM] = {.fn = do_rm},
	[SUB_CHECK] = {.fn = do_check},
};

/*
 * Whether the options given are the subcommand's: 0, or the exit code after saying why. The
 * formats are those of the subcommand's table (report/format.h).
 */
static int check_sub_opts(int sub, struct hopts *o)
{
	const struct sub *s = &subs[sub];
	const struct output_opts *out = &o->output;
	const char *format = out->format;

	if (!s->list_opts && (o->host || o->target || o->since_ms))
		return usage_error("--host, --target and --since are for 'history list'");
	if (!s->label && o->label)
		return usage_error("--label is for 'history import'");
	if (!s->show_opts && (out->units_given || out->ropts.series || out->ropts.brief))
		return usage_error("--units, --series and --brief are for 'history show'");
	if (format && !s->prints)
		return usage_error("%s: 'iorate history %s' prints no report", out->format_given,
				   subcommands[sub]);
	return s->prints ? output_opts_format(&o->output, s->kind) : 0;
}

/* "list, show, import, compare, rm or check", from the entry. */
static const char *sub_words(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < NSUBS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", !i ? "" : i + 1 < NSUBS ? ", "
							       : " or ", subcommands[i]);
	return buf;
}

static int history_main(int argc, char **argv)
{
	struct hopts o = {0};
	int first = 0, r, sub;
	const char *word;
	char words[64], near[120];
	bool help;

	if ((r = parse_opts(argc, argv, &o, &first, &help)))
		return r;
	word = first < argc ? argv[first] : NULL;
	if (help || (word && !strcmp(word, "help"))) {
		options_help(stdout, &cmd_history);
		return 0;
	}
	if (word && !strcmp(word, "ls")) /* as ls(1) lists */
		word = subcommands[SUB_LIST];
	if ((sub = options_subcommand(&cmd_history, word)) < 0) {
		sub_words(words, sizeof(words));
		if (!word)
			return usage_error("history: needs a command: %s (see 'iorate history "
					   "--help')", words);
		return usage_error("history: '%s' is not a command%s (%s)", word,
				   options_near_word(NULL, &cmd_history, word, near, sizeof(near)),
				   words);
	}
	if ((r = check_sub_opts(sub, &o)))
		return r;
	return run_sub(subs[sub].fn, &o, argc - first - 1, argv + first + 1);
}
