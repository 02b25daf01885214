/*
 * `iorate mark`'s table in its three formats. The layout follows CrystalDiskMark's own text
 * export, so that the two can be read side by side; cmd_mark.c runs the tests and fills in
 * struct mark_table.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "report/json.h"
#include "report/mark_fmt.h"
#include "util/parse.h"

void mark_fmt_text(FILE *f, const struct mark_table *m)
{
	static const char *const rule = "------------------------------------------------------"
					 "------------------------";
	char size[32], date[64];

	fprintf(f, "%s\niorate mark %s: CrystalDiskMark's tests\n%s\n", rule, IORATE_VERSION, rule);
	fprintf(f, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
		   "* KB = 1000 bytes, KiB = 1024 bytes\n");
	for (int w = 0; w < 2; w++) {
		fprintf(f, "\n[%s]\n", w ? "Write" : "Read");
		for (unsigned i = 0; i < MARK_MAX_TESTS && m->tests[i]; i++) {
			const struct mark_test *t = m->tests[i];
			const struct mark_cell *c = &m->cell[i][w];
			char bs[32];

			fmt_size(t->bs, bs, sizeof(bs));
			fprintf(f, "  %s %7s (Q=%3u, T=%2u): ", t->seq ? "SEQ" : "RND", bs,
				t->depth, t->threads);
			if (!c->done)
				fprintf(f, "%9s\n", w && m->read_only ? "(skipped)" : "(not run)");
			else
				fprintf(f, "%9.3f MB/s [%9.1f IOPS] <%9.2f us>\n", c->sum.mbps,
					c->sum.iops, c->sum.lat_mean);
		}
	}
	strftime(date, sizeof(date), "%Y/%m/%d %H:%M:%S", localtime(&m->date));
	fprintf(f, "\nProfile: %s\n   Test: %s (x%u) %s\n", m->title,
		fmt_size(m->base->size, size, sizeof(size)), m->runs, m->fs_use);
	fprintf(f, "   Mode: %s I/O, engine %s\n", job_cache_name(m->base->cache), m->engine);
	fprintf(f, "   Time: Measure %.3g sec / Interval %.3g sec\n", m->measure_ns / 1e9,
		m->interval_ns / 1e9);
	fprintf(f, "   Date: %s\n Kernel: %s\n", date, m->kernel);
}


void mark_fmt_csv(FILE *f, const struct mark_table *m)
{
	fprintf(f, "profile,test,direction,pattern,bs,queue_depth,threads,mbps,mibps,iops,"
		   "lat_mean_us,lat_p99_us,runs,best_run\n");
	for (unsigned i = 0; i < MARK_MAX_TESTS && m->tests[i]; i++)
		for (int w = 0; w < 2; w++) {
			const struct mark_test *t = m->tests[i];
			const struct mark_cell *c = &m->cell[i][w];

			if (!c->done)
				continue;
			fprintf(f, "%s,%s,%s,%s,%llu,%u,%u,%.3f,%.3f,%.1f,%.2f,%.2f,%u,%u\n",
				m->profile, t->name, w ? "write" : "read",
				t->seq ? "sequential" : "random", (unsigned long long)t->bs,
				t->depth, t->threads, c->sum.mbps, c->sum.mibps, c->sum.iops,
				c->sum.lat_mean, c->sum.p99, c->nruns, c->best_run + 1);
		}
}


static json_t *cell_json(const struct mark_cell *c)
{
	json_t *o = json_object(), *runs = json_array(), *best;

	for (unsigned k = 0; k < c->nruns; k++)
		json_array_append_new(runs, json_real(c->run_mbps[k]));
	json_object_set_new(o, "mbps", json_real(c->sum.mbps));
	json_object_set_new(o, "mibps", json_real(c->sum.mibps));
	json_object_set_new(o, "iops", json_real(c->sum.iops));
	json_object_set_new(o, "lat_us", report_json_lat(&c->sum));
	json_object_set_new(o, "runs_mbps", runs);
	json_object_set_new(o, "best_run", json_integer(c->best_run + 1));
	best = report_json_result(&c->best);
	json_object_set_new(o, "result", best ? best : json_null());
	return o;
}


int mark_fmt_json(FILE *f, const struct mark_table *m)
{
	json_t *root = json_object(), *tests = json_array();
	char date[64];
	int r;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", localtime(&m->date));
	json_object_set_new(root, "schema", json_integer(REPORT_JSON_SCHEMA));
	json_object_set_new(root, "version", json_string(IORATE_VERSION));
	json_object_set_new(root, "origin", json_string("mark"));
	json_object_set_new(root, "command_line", json_string(m->base->command_line));
	json_object_set_new(root, "profile", json_string(m->profile));
	json_object_set_new(root, "target", json_string(m->path));
	json_object_set_new(root, "size", json_integer((json_int_t)m->base->size));
	json_object_set_new(root, "runs", json_integer(m->runs));
	json_object_set_new(root, "measure", json_real(m->measure_ns / 1e9));
	json_object_set_new(root, "interval", json_real(m->interval_ns / 1e9));
	json_object_set_new(root, "cache", json_string(job_cache_name(m->base->cache)));
	json_object_set_new(root, "engine", json_string(m->engine));
	json_object_set_new(root, "date", json_string(date));
	json_object_set_new(root, "kernel", json_string(m->kernel));
	for (unsigned i = 0; i < MARK_MAX_TESTS && m->tests[i]; i++) {
		const struct mark_test *t = m->tests[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(t->name));
		json_object_set_new(o, "pattern", json_string(t->seq ? "sequential" : "random"));
		json_object_set_new(o, "bs", json_integer((json_int_t)t->bs));
		json_object_set_new(o, "depth", json_integer(t->depth));
		json_object_set_new(o, "threads", json_integer(t->threads));
		for (int w = 0; w < 2; w++)
			json_object_set_new(o, w ? "write" : "read",
					    m->cell[i][w].done ? cell_json(&m->cell[i][w])
							       : json_null());
		json_array_append_new(tests, o);
	}
	json_object_set_new(root, "tests", tests);
	r = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return r ? -EIO : 0;
}
