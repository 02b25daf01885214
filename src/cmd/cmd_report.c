/*
 * iorate report: an HTML page with tables and charts for runs from the history (by id) or from
 * JSON files ('iorate run', 'sweep' or 'mark' --json). The page itself is src/report/html.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/gate.h"
#include "report/html.h"
#include "report/png.h"
#include "result/result_json.h"
#include "store/history.h"
#include "util/err.h"
#include "util/parse.h"

struct collect {
	struct html_input in;
	struct history *h;
	const char *db, *out, *title, *png;
	int units;                   /* 0: not given, else 1 + enum job_units */
};

static int report_main(int argc, char **argv);

static int set_units(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct collect *st = c->state;

	if (!strcmp(val, "si"))
		st->units = 1 + UNITS_SI;
	else if (!strcmp(val, "iec"))
		st->units = 1 + UNITS_IEC;
	else
		return opt_refuse(c, val, "is not a unit system (iec: MiB/s, si: MB/s)");
	return 0;
}

#define RC(field) .in = OPT_IN_CMD, .off = offsetof(struct collect, field)

static const struct opt report_opts[] = {
	{.name = "output", .arg = "FILE", .help = "the page to write ('-' for stdout)",
	 .example = "--output today.html", .set = opt_set_string, RC(out)},
	{.name = "png", .arg = "DIR", .help = "also write each chart as a PNG file into DIR, "
	 "made when missing (names say what each shows: run-1-iops-over-time.png)",
	 .example = "--png charts", .set = opt_set_string, RC(png)},
	{.name = "units", .arg = "UNITS", .help = OPT_UNITS_HELP, .example = "--units si",
	 .set = set_units, .values = "iec si", RC(units)},
	{.name = "db", .arg = "FILE", .help = OPT_DB_HELP, .example = "--db runs.db",
	 .set = opt_set_string, RC(db)},
	{.name = "title", .arg = "TEXT", .help = "the page's title (default \"iorate report\")",
	 .example = "--title 'day 2'", .set = opt_set_string, RC(title)},
	{0},
};
static const struct opt_group report_group = {.title = "Options", .opts = report_opts};
static const struct opt_group *const report_groups[] = {&report_group, NULL};

const struct command cmd_report = {
	.name = "report",
	.summary = "write an HTML report with charts (and PNG files of them) from stored or JSON "
		   "results",
	.synopsis = "[OPTIONS] --output FILE.html [--png DIR] [ID|FILE.json]...\n"
		    "[OPTIONS] --png DIR [ID|FILE.json]...",
	.about = "Writes one self-contained HTML page (inline SVG charts, no script, nothing\n"
		 "fetched) with, for each run, its parameters, a table per target, the latency\n"
		 "percentiles, and charts of IOPS, throughput and p99 latency over the run and\n"
		 "of the percentile curve; a run of several jobs has its groups and total, then\n"
		 "each job so. A sweep's JSON adds IOPS, throughput and p99 against the value\n"
		 "swept and the load-latency curve (p99 against IOPS) with its knee marked: the\n"
		 "last point before p99 rose by a larger factor than IOPS. A mark's JSON adds\n"
		 "its tests side by side. Several other runs get a comparison table and charts\n"
		 "by run. Runs are named by their history label, their sweep value or mark test,\n"
		 "or the words of their command that tell them apart. Every chart's throughput\n"
		 "is in the units of the tables beside it (--units).\n"
		 "\n"
		 "--png DIR writes every chart of the page as a PNG file (rendered by librsvg\n"
		 "from the same SVG, twice its size) into DIR, with or without --output; a DIR\n"
		 "that does not exist is made (in a directory that does, never through a link).\n"
		 "\n"
		 "Runs are history ids (see 'iorate history list') or JSON files of 'iorate run\n"
		 "--json' (also 'sweep --json' and 'mark --json': every run they hold); '-'\n"
		 "reads stdin. Without any, the newest run in the history. Each file is written\n"
		 "to a temporary name and renamed into place when complete.",
	.groups = report_groups,
	.examples = "  iorate run --save -b 8k -w 30 -d 60 /mnt/data/t &&\n"
		    "      iorate report --output today.html\n"
		    "  iorate report 12 17 --output compare.html        (two days side by side)\n"
		    "  iorate run --json -d 30 /dev/nvme0n1 > r.json; iorate report r.json --output r.html\n"
		    "  iorate sweep depth=1..64:x2 --json /mnt/data/t > s.json\n"
		    "      iorate report s.json --output sweep.html --png charts\n",
	.exit_status = "0 written, 1 a run or a file could not be read or written, 2 bad usage.",
	.fn = report_main,
};

static int open_history(struct collect *c)
{
	char err[PATH_MAX + 256];

	if (c->h)
		return 0;
	if (!c->db && history_default_path(err, sizeof(err)) == 0 && access(err, F_OK))
		return run_error("no history yet in %s (save runs with 'iorate run --save')", err);
	if (c->db && access(c->db, F_OK))
		return run_error("%s: %s", c->db, strerror(errno));
	int r = history_open(c->db, &c->h, err, sizeof(err));
	if (r)
		return r == -EINVAL ? usage_error("%s", err) : run_error("history: %s", err);
	return 0;
}

static int add_id(struct collect *c, int64_t id)
{
	char err[PATH_MAX + 256], source[64];
	struct history_entry e;
	int r;

	if ((r = open_history(c)))
		return r;
	if ((r = history_get(c->h, id, &e, err, sizeof(err))))
		return run_error("%s%s", r == -EBADMSG ? "" : "history: ", err);
	snprintf(source, sizeof(source), "history run %lld", (long long)id);
	if (html_input_add(&c->in, &e.run, e.label, source))
		r = run_error("out of memory");
	else
		c->in.runs[c->in.n - 1].id = (long long)id;
	history_entry_release(&e);
	return r;
}

static int add_file(struct collect *c, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char err[PATH_MAX + 512], why[512];
	int r = 0;
	json_t *doc = result_json_load_doc(path, &r, err, sizeof(err));

	if (!doc)
		return run_error("%s", err);
	r = html_input_add_doc(&c->in, doc, strcmp(path, "-") ? base : "stdin", why, sizeof(why));
	json_decref(doc);
	return r ? run_error("%s: %s", path, why) : 0;
}

/* An argument is a history id when it is a number and no file has that name. */
static bool is_id(const char *s, int64_t *id)
{
	uint64_t v;

	if (parse_u64(s, 1, INT64_MAX, &v) || !access(s, F_OK))
		return false;
	*id = (int64_t)v;
	return true;
}

static int newest_id(const struct history_entry *e, void *arg)
{
	*(int64_t *)arg = e->id;
	return 0;
}

static int add_newest(struct collect *c)
{
	struct history_filter f = {.limit = 1};
	char err[PATH_MAX + 256];
	int64_t id = 0;
	int r;

	if ((r = open_history(c)))
		return r;
	if ((r = history_list(c->h, &f, newest_id, &id, err, sizeof(err))))
		return run_error("%s%s", r == -EBADMSG ? "" : "history: ", err);
	return id ? add_id(c, id)
		  : run_error("no run in %s: name runs or JSON files (see 'iorate report --help')",
			      history_path(c->h));
}

/* --png DIR: each chart becomes DIR/NAME.png, through the gate. */
struct png_dir {
	const char *dir;
	unsigned written;
	char err[PATH_MAX + 1024];
};

static int png_chart(void *arg, const char *name, const char *svg, size_t len)
{
	struct png_dir *p = arg;
	char path[PATH_MAX], why[512];
	struct gate_out o;
	int r;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s.png", p->dir, name) >= sizeof(path))
		return err_set(p->err, sizeof(p->err), -ENAMETOOLONG, "--png %s: %s", p->dir,
			       strerror(ENAMETOOLONG));
	if ((r = gate_out_open(&o, "--png", path, p->err, sizeof(p->err))))
		return r;
	if ((r = report_png_write(o.f, svg, len, why, sizeof(why)))) {
		gate_out_abort(&o);
		return err_set(p->err, sizeof(p->err), r, "--png %s: %s", path, why);
	}
	if ((r = gate_out_commit(&o, p->err, sizeof(p->err))))
		return r;
	p->written++;
	return 0;
}

static ssize_t discard(void *arg, const char *buf, size_t len)
{
	(void)arg, (void)buf;
	return (ssize_t)len;
}

/*
 * SOURCE_DATE_EPOCH (reproducible-builds.org's convention) fixes the page's "generated" time,
 * in UTC, so the same runs make the same page byte for byte; a value that is not a count of
 * seconds is refused rather than ignored.
 */
static int generated_time(struct html_opts *ho)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	uint64_t v;

	if (!s)
		return 0;
	if (parse_u64(s, 1, INT32_MAX, &v))
		return usage_error("SOURCE_DATE_EPOCH: '%s' is not a count of seconds since 1970", s);
	ho->now = (time_t)v;
	ho->utc = true;
	return 0;
}

/* The page to --output (or, with --png alone, nowhere) and the charts to --png. */
static int write_page(const struct collect *c)
{
	struct png_dir png = {.dir = c->png};
	struct html_opts ho = {.title = c->title, .chart = c->png ? png_chart : NULL, .arg = &png};
	struct gate_out o = {0};
	char err[PATH_MAX + 256];
	int r;

	ho.si = c->units ? c->units == 1 + UNITS_SI : html_input_mark_si(&c->in);
	if ((r = generated_time(&ho)))
		return r;
	if (c->out && (r = gate_out_open(&o, "--output", c->out, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("%s", err);
	if (!c->out && !(o.f = fopencookie(NULL, "w", (cookie_io_functions_t){.write = discard})))
		return run_error("out of memory");
	r = report_html_write(o.f, &c->in, &ho);
	if (!c->out)
		fclose(o.f);
	if (r) {
		if (c->out)
			gate_out_abort(&o);
		if (png.err[0])
			return run_error("%s", png.err);
		return run_error("--output %s: %s", c->out ? c->out : "-", strerror(-r));
	}
	if (c->out && gate_out_commit(&o, err, sizeof(err)))
		return run_error("%s", err);
	if (c->out && strcmp(c->out, "-"))
		run_error("wrote %s (%zu run%s)", c->out, c->in.n, c->in.n == 1 ? "" : "s");
	if (c->png)
		run_error("wrote %u chart%s into %s", png.written, png.written == 1 ? "" : "s",
			  c->png);
	return 0;
}

/* What the command line asks for, checked before any run is read. */
static int check_outputs(const struct collect *c)
{
	char err[PATH_MAX + 256];
	struct stat st;
	int r, fd;

	if (!c->out && !c->png)
		return usage_error("report: needs --output FILE.html (or --output - for stdout) "
				   "or --png DIR");
	if (c->out && (r = gate_check_output("--output", c->out, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("%s", err);
	if (!c->png)
		return 0;
	if (!report_png_available())
		return usage_error("--png: this iorate was built without librsvg (make deps "
				   "installs librsvg2-dev)");
	/* A DIR that does not exist yet is made, one level, never through a link. */
	if ((fd = gate_hold(c->png, true, &st)) == -ENOENT &&
	    (r = gate_mkdir("--png", c->png, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("%s", err);
	if (fd == -ENOENT && (fd = gate_hold(c->png, false, &st)) < 0)
		return run_error("--png %s: %s", c->png, strerror(-fd));
	if (fd < 0)
		return usage_error("--png %s: %s", c->png, strerror(-fd));
	close(fd);
	if (!S_ISDIR(st.st_mode))
		return usage_error("--png %s: not a directory but %s", c->png,
				   gate_kind(st.st_mode));
	return 0;
}

/*
 * The files the page is made from (JSON inputs, --db) may not be replaced by an output
 * (--output r.json r.json); a signal stops the outputs from being committed.
 */
static int note_inputs(const struct collect *c, int n, char **words)
{
	if (c->db && gate_use(c->db, "the --db history", "--db"))
		return run_error("out of memory");
	for (int i = 0; i < n; i++) {
		int64_t id;

		if (!is_id(words[i], &id) && gate_use(words[i], "an input of this report", NULL))
			return run_error("out of memory");
	}
	return 0;
}

static int report_main(int argc, char **argv)
{
	struct collect c = {0};
	struct opt_ctx ctx = {.cmd = &cmd_report, .state = &c};
	int first, r = 0;

	html_input_init(&c.in);
	if ((r = options_parse(&ctx, argc, argv, &first)))
		return r;
	if (ctx.help) {
		options_help(stdout, &cmd_report);
		return 0;
	}
	if ((r = note_inputs(&c, argc - first, argv + first)) || (r = check_outputs(&c)))
		return r;
	if (first == argc)
		r = add_newest(&c);
	for (int i = first; i < argc && !r; i++) {
		int64_t id;

		r = is_id(argv[i], &id) ? add_id(&c, id) : add_file(&c, argv[i]);
	}
	/* Stopped (Ctrl-C, kill): no page from part of the runs; the old one stays. */
	if (!r && *cmd_stop_flag())
		r = run_error("report: interrupted before the page was written");
	if (!r)
		r = write_page(&c);
	history_close(c.h);
	html_input_release(&c.in);
	return r;
}
