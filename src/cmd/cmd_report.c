/*
 * iorate report: an HTML page with tables and charts for runs from the history (by id) or from
 * JSON files ('iorate run', 'sweep' or 'mark' --json). The page itself is src/report/html.c.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "report/html.h"
#include "store/history.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iorate report [--db FILE] [--title TEXT] -o FILE.html [ID|FILE.json]...\n\n"
		"Writes one self-contained HTML page (inline SVG charts, no script, nothing\n"
		"fetched) with, for each run, its parameters, a table per target, the latency\n"
		"percentiles, and charts of IOPS, MiB/s and p99 latency per second and of the\n"
		"percentile curve; with several runs, a comparison table and charts of IOPS and\n"
		"p99 by run.\n\n"
		"Runs are history ids (see 'iorate history list') or JSON files of 'iorate run\n"
		"--json' (also 'sweep --json' and 'mark --json': every run they hold); '-' reads\n"
		"stdin. Without any, the newest run in the history.\n\n"
		"Options:\n"
		"  -o, --output FILE  the page to write ('-' for stdout)\n"
		"  --db FILE          the history database (default as 'iorate history')\n"
		"  --title TEXT       the page's title (default \"iorate report\")\n\n"
		"Examples:\n"
		"  iorate run --save -b 8k -w 30 -d 60 /mnt/data/t && iorate report -o today.html\n"
		"  iorate report 12 17 -o compare.html          (two days side by side)\n"
		"  iorate run --json -d 30 /dev/nvme0n1 > r.json; iorate report r.json -o r.html\n"
		"  iorate report sweep.json -o sweep.html\n"
		"Exit status: 0 written, 1 a run or a file could not be read or written,\n"
		"2 bad usage.\n");
}

struct collect {
	struct html_run *runs;
	size_t n, cap;
	json_t *keep;            /* every run object, so they live until the page is written */
	char **labels;
	struct history *h;
	const char *db;
};

static int add_run(struct collect *c, json_t *run, const char *label)
{
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 8;
		struct html_run *g = realloc(c->runs, nc * sizeof(*g));
		char **l;

		if (!g)
			return run_error("out of memory");
		c->runs = g;
		if (!(l = realloc(c->labels, nc * sizeof(*l))))
			return run_error("out of memory");
		c->labels = l;
		c->cap = nc;
	}
	if (!(c->labels[c->n] = strdup(label)) || json_array_append(c->keep, run))
		return run_error("out of memory");
	c->runs[c->n].run = run;
	c->runs[c->n].label = c->labels[c->n];
	c->n++;
	return 0;
}

static int open_history(struct collect *c)
{
	char err[PATH_MAX + 256];

	if (c->h)
		return 0;
	if (!c->db && history_default_path(err, sizeof(err)) == 0 && access(err, F_OK))
		return run_error("no history yet in %s (save runs with 'iorate run --save')", err);
	if (c->db && access(c->db, F_OK))
		return run_error("%s: %s", c->db, strerror(errno));
	if (history_open(c->db, &c->h, err, sizeof(err)))
		return run_error("history: %s", err);
	return 0;
}

static int add_id(struct collect *c, int64_t id)
{
	struct history_run row;
	char err[PATH_MAX + 256], label[320];
	json_t *run;
	int r;

	if ((r = open_history(c)))
		return r;
	if ((r = history_get_obj(c->h, id, &run, err, sizeof(err))))
		return run_error("%s%s", r == -EBADMSG ? "" : "history: ", err);
	snprintf(label, sizeof(label), "run %lld", (long long)id);
	if (!history_get(c->h, id, &row, NULL, 0)) {
		if (row.label)
			snprintf(label, sizeof(label), "run %lld: %.256s", (long long)id,
				 row.label);
		history_run_release(&row);
	}
	r = add_run(c, run, label);
	json_decref(run);
	return r;
}

static int add_file(struct collect *c, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char err[PATH_MAX + 256];
	json_t *runs, *run;
	size_t i, n;
	int r = 0;

	if (history_runs_in_file(path, &runs, err, sizeof(err)))
		return run_error("%s", err);
	n = json_array_size(runs);
	json_array_foreach(runs, i, run) {
		char label[PATH_MAX + 32];

		if (n > 1)
			snprintf(label, sizeof(label), "%s #%zu", base, i + 1);
		else
			snprintf(label, sizeof(label), "%s", base);
		if ((r = add_run(c, run, label)))
			break;
	}
	json_decref(runs);
	return r;
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

static int add_newest(struct collect *c)
{
	struct history_filter f = {.limit = 1};
	struct history_run *runs;
	char err[PATH_MAX + 256];
	size_t n;
	int r;

	if ((r = open_history(c)))
		return r;
	if (history_list(c->h, &f, &runs, &n, err, sizeof(err)))
		return run_error("history: %s", err);
	r = n ? add_id(c, runs[0].id)
	      : run_error("no run in %s: name runs or JSON files (see 'iorate report --help')",
			  history_path(c->h));
	history_runs_free(runs, n);
	return r;
}

static int write_page(const char *out, const char *title, const struct collect *c)
{
	FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	int r;

	if (!f)
		return run_error("%s: %s", out, strerror(errno));
	r = report_html_write(f, title, c->runs, c->n);
	if (f != stdout) {
		if (fclose(f) && !r)
			r = -errno;
	} else if (fflush(f) && !r) {
		r = -errno;
	}
	if (r) {
		if (f != stdout)
			unlink(out);
		return run_error("%s: %s", out, strerror(-r));
	}
	if (f != stdout)
		fprintf(stderr, "iorate: wrote %s (%zu run%s)\n", out, c->n, c->n == 1 ? "" : "s");
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'}, {"db", required_argument, NULL, 'D'},
		{"title", required_argument, NULL, 'T'},  {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct collect c = {0};
	const char *out = NULL, *title = NULL;
	int ch, r = 0;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': out = optarg; break;
		case 'D': c.db = optarg; break;
		case 'T': title = optarg; break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return usage_error("%s: needs an argument (see 'iorate report --help')",
					   argv[optind - 1]);
		default:
			return usage_error("%s: unknown option (see 'iorate report --help')",
					   argv[optind - 1]);
		}
	}
	if (!out)
		return usage_error("report: needs -o FILE.html (or -o - for stdout)");
	if (!(c.keep = json_array()))
		return run_error("out of memory");
	if (optind == argc)
		r = add_newest(&c);
	for (int i = optind; i < argc && !r; i++) {
		int64_t id;

		r = is_id(argv[i], &id) ? add_id(&c, id) : add_file(&c, argv[i]);
	}
	if (!r)
		r = write_page(out, title, &c);
	history_close(c.h);
	for (size_t i = 0; i < c.n; i++)
		free(c.labels[i]);
	free(c.labels);
	free(c.runs);
	json_decref(c.keep);
	return r;
}
