/*
 * The format "fio-json": a run of one job or several in the layout of fio 3.33's
 * --output-format=json, so that tools written for fio read iorate's runs. Each field and where
 * it comes from is in docs/fio-json.md. What iorate does not measure (submission latency,
 * context switches, page faults, queue depth levels, disk ticks) is there with the zeros fio
 * itself prints when it has no such figure. The job options are fio_opts.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "report/fio_json.h"
#include "report/fio_stats.h"
#include "report/report.h"
#include "result/result_json.h"
#include "util/jsonout.h"

/* fio's default percentile_list. */
static const double fio_pcts[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
				  99.95, 99.99};
#define NPCTS (sizeof(fio_pcts) / sizeof(fio_pcts[0]))

/* jansson's own setters: a failed allocation leaves the key out and is caught at the end. */
static void set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v);
}

static json_t *u64(uint64_t v)
{
	return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
}

/* A figure; 0 for one a file held as unknown (null), as fio has no unknown. */
static json_t *real(double v)
{
	return json_real(isfinite(v) ? v : 0);
}

/* json+'s bins: the histogram in fio's buckets, each non-empty one keyed by its value in ns. */
static json_t *bins_obj(const struct hist *h)
{
	uint64_t *plat = malloc(FIO_PLAT_NR * sizeof(*plat));
	json_t *o = json_object();
	char key[32];

	if (!plat)
		return NULL; /* the key is left out */
	fio_plat_from_hist(h, plat);
	for (unsigned i = 0; i < FIO_PLAT_NR; i++) {
		if (!plat[i])
			continue;
		snprintf(key, sizeof(key), "%llu", (unsigned long long)fio_plat_value(i));
		set(o, key, u64(plat[i]));
	}
	free(plat);
	return o;
}

/*
 * min, max, mean, stddev (fio's: of a sample, n - 1) and N; zeros when there is none. With
 * pcts, the percentiles; with bins too (json+), the I/Os in each bucket of fio's histogram,
 * keyed by the bucket's value in ns.
 */
static json_t *lat_obj(const struct dir_stats *d, bool pcts, bool bins)
{
	json_t *o = json_object();
	double n = (double)d->lat_n, mean = 0, dev = 0;

	if (d->lat_n) {
		mean = (double)d->lat_sum / n;
		if (d->lat_n > 1) {
			double var = (d->lat_sumsq - (double)d->lat_sum * mean) / (n - 1);
			dev = var > 0 ? sqrt(var) : 0;
		}
	}
	set(o, "min", u64(d->lat_n ? d->lat_min : 0));
	set(o, "max", u64(d->lat_n ? d->lat_max : 0));
	set(o, "mean", real(mean));
	set(o, "stddev", real(dev));
	set(o, "N", u64(d->lat_n));
	if (pcts && d->lat_n && d->hist) {
		json_t *p = json_object();
		char key[32];

		for (size_t i = 0; i < NPCTS; i++) {
			snprintf(key, sizeof(key), "%f", fio_pcts[i]);
			set(p, key, u64(hist_percentile(d->hist, fio_pcts[i], d->lat_min,
							d->lat_max)));
		}
		set(o, "percentile", p);
		if (bins)
			set(o, "bins", bins_obj(d->hist));
	}
	return o;
}

static void samples_put(json_t *o, const char *pfx, const struct fio_samples *s,
			const char *dev)
{
	char k[32];

	snprintf(k, sizeof(k), "%s_min", pfx);
	set(o, k, u64(s->min));
	snprintf(k, sizeof(k), "%s_max", pfx);
	set(o, k, u64(s->max));
	if (!strcmp(pfx, "bw"))
		return; /* bw_agg comes between: the caller puts it, then the rest */
	snprintf(k, sizeof(k), "%s_mean", pfx);
	set(o, k, real(s->mean));
	snprintf(k, sizeof(k), "%s_%s", pfx, dev);
	set(o, k, real(s->dev));
	snprintf(k, sizeof(k), "%s_samples", pfx);
	set(o, k, u64(s->n));
}

/* Nothing measured: every slat. */
static const struct dir_stats no_stats;

/* Direction dir (0 read, 1 write, 2 trim) of entry e; agg is its group's bytes/s that way. */
static json_t *dir_obj(const struct fio_entry *e, unsigned dir, uint64_t agg, bool plus)
{
	json_t *o = json_object();
	const struct dir_stats *d = &e->dir[dir];
	uint64_t ms = e->runtime_ms[dir];
	uint64_t bwb = ms ? (uint64_t)((unsigned __int128)d->bytes * 1000 / ms) : 0;

	set(o, "io_bytes", u64(d->bytes));
	set(o, "io_kbytes", u64(d->bytes >> 10));
	set(o, "bw_bytes", u64(bwb));
	set(o, "bw", u64(bwb / 1024));
	set(o, "iops", json_real(ms ? 1000.0 * (double)d->ios / (double)ms : 0));
	set(o, "runtime", u64(ms));
	set(o, "total_ios", u64(d->ios));
	set(o, "short_ios", json_integer(0));
	set(o, "drop_ios", json_integer(0));
	set(o, "slat_ns", lat_obj(&no_stats, false, false));
	set(o, "clat_ns", lat_obj(d, true, plus));
	set(o, "lat_ns", lat_obj(d, false, false));
	samples_put(o, "bw", &e->bw[dir], "dev");
	set(o, "bw_agg", real(fio_agg_pct(&e->bw[dir], agg)));
	set(o, "bw_mean", real(e->bw[dir].mean));
	set(o, "bw_dev", real(e->bw[dir].dev));
	set(o, "bw_samples", u64(e->bw[dir].n));
	samples_put(o, "iops", &e->iops[dir], "stddev");
	return o;
}

static const char *const lat_keys[] = {"2", "4", "10", "20", "50", "100", "250", "500", "750",
				       "1000", "2000", ">=2000"};

/*
 * latency_ns, latency_us and latency_ms: the percentage of the entry's I/Os whose latency falls
 * in each of fio's ranges (at least 0.01 where any does, as fio prints).
 */
static void lat_ranges(json_t *root, const struct fio_entry *e)
{
	static const char *const names[3] = {"latency_ns", "latency_us", "latency_ms"};
	static const unsigned nslots[3] = {10, 10, 12};

	for (unsigned u = 0; u < 3; u++) {
		json_t *o = json_object();

		for (unsigned k = 0; k < nslots[u]; k++) {
			uint64_t c = e->lat[u][k];
			double pct = e->lat_total ? (double)c * 100.0 / (double)e->lat_total : 0;

			set(o, lat_keys[k], json_real(c && pct < 0.01 ? 0.01 : pct));
		}
		set(root, names[u], o);
	}
}

/* iodepth_level, _submit and _complete: fio's distributions, which iorate does not keep. */
static void depth_levels(json_t *root)
{
	static const char *const level[] = {"1", "2", "4", "8", "16", "32", ">=64"};
	static const char *const sub[] = {"0", "4", "8", "16", "32", "64", ">=64"};
	json_t *o[3] = {json_object(), json_object(), json_object()};

	for (unsigned k = 0; k < 7; k++) {
		set(o[0], level[k], json_real(0));
		set(o[1], sub[k], json_real(0));
		set(o[2], sub[k], json_real(0));
	}
	set(root, "iodepth_level", o[0]);
	set(root, "iodepth_submit", o[1]);
	set(root, "iodepth_complete", o[2]);
}

static json_t *sync_obj(void)
{
	json_t *o = json_object();

	set(o, "total_ios", json_integer(0));
	set(o, "lat_ns", lat_obj(&no_stats, false, false));
	return o;
}

/*
 * iorate's own key, after fio's: what a reader of the figures must know (an engine that ran in
 * place of the one named), each note of the entry's jobs once. Only when there is one.
 */
static void set_notes(json_t *o, const struct result_set *s, const struct fio_entry *e)
{
	json_t *a = json_array();

	for (unsigned i = e->first; i <= e->last; i++)
		for (unsigned k = 0; k < s->jobs[i].nnotes; k++) {
			const char *n = s->jobs[i].notes[k];
			bool seen = false;
			for (size_t m = 0; m < json_array_size(a) && !seen; m++)
				seen = !strcmp(json_string_value(json_array_get(a, m)) ?: "", n);
			if (!seen)
				json_array_append_new(a, result_json_str(n));
		}
	if (json_array_size(a))
		set(o, "iorate_notes", a);
	else
		json_decref(a);
}

/*
 * An entry of jobs[]: one job, or the jobs group_reporting merges. As fio: the name from the
 * first, the job options and latency depth from the last, the first failure.
 */
static json_t *job_obj(const struct result_set *s, const struct fio_stats *st, unsigned i,
		       uint64_t elapsed, bool plus)
{
	const struct fio_entry *e = &st->e[i];
	const struct result *first = &s->jobs[e->first], *last = &s->jobs[e->last];
	json_t *o = json_object();
	char name[32];
	const char *jobname = fio_job_name(first, e->first, name, sizeof(name));

	set(o, "jobname", result_json_str(jobname));
	set(o, "groupid", json_integer(e->groupid));
	set(o, "error", json_integer(e->error));
	set(o, "eta", json_integer(0));
	set(o, "elapsed", u64(elapsed));
	set(o, "job options", fio_job_options(last, jobname));
	for (unsigned d = 0; d < 3; d++) {
		static const char *const names[3] = {"read", "write", "trim"};
		set(o, names[d], dir_obj(e, d, st->agg[e->groupid][d], plus));
	}
	set(o, "sync", sync_obj());
	set(o, "job_runtime", u64(e->job_runtime_ms));
	set(o, "usr_cpu", real(e->usr_cpu));
	set(o, "sys_cpu", real(e->sys_cpu));
	set(o, "ctx", json_integer(0));
	set(o, "majf", json_integer(0));
	set(o, "minf", json_integer(0));
	depth_levels(o);
	lat_ranges(o, e);
	set(o, "latency_depth", json_integer(last->job.depth));
	set(o, "latency_target", json_integer(0));
	set(o, "latency_percentile", json_real(100));
	set(o, "latency_window", json_integer(0));
	set_notes(o, s, e);
	return o;
}

/* A device of a run written before iorate kept the devices' counters: its reads and writes. */
static json_t *disk_obj(const struct kernel_counts *k)
{
	json_t *o = json_object();

	set(o, "name", result_json_str(k->name));
	set(o, "read_ios", u64(k->read_ios));
	set(o, "write_ios", u64(k->write_ios));
	set(o, "read_merges", json_integer(0));
	set(o, "write_merges", json_integer(0));
	set(o, "read_ticks", json_integer(0));
	set(o, "write_ticks", json_integer(0));
	set(o, "in_queue", json_integer(0));
	set(o, "util", json_real(0));
	return o;
}

/* Those runs' disk_util: the block targets' devices, each once. */
static json_t *disk_util_old(const struct result_set *s)
{
	const struct result *r = &s->jobs[0];
	json_t *a = json_array();

	if (s->njobs > 1) {
		for (unsigned i = 0; i < s->total.ndevices; i++)
			json_array_append_new(a, disk_obj(&s->total.devices[i].kernel));
		return a;
	}
	for (unsigned t = 0; t < r->ntargets; t++) {
		const struct kernel_counts *k = &r->targets[t].kernel;
		bool seen = false;

		for (unsigned u = 0; u < t && !seen; u++)
			seen = r->targets[u].kernel.valid && !strcmp(r->targets[u].kernel.name,
								     k->name);
		if (k->valid && !seen)
			json_array_append_new(a, disk_obj(k));
	}
	return a;
}

/* The view whose role is role and which is under name, or NULL. */
static const struct device_view *under(const struct device_view *v, unsigned n,
				       enum device_role role, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i].role == role && !strcmp(v[i].of, name))
			return &v[i];
	return NULL;
}

/* As fio, a partition stands for its whole disk: a member that is one, by its disk. */
static const struct device_view *as_disk(const struct device_view *v, unsigned n,
					 const struct device_view *d)
{
	const struct device_view *disk = under(v, n, DEVICE_DISK, d->name);

	return disk ? disk : d;
}

static double util_of(const struct device_view *d)
{
	struct device_figures f;

	device_view_figures(d, &f);
	return isnan(f.util_pct) ? 0 : f.util_pct;
}

/* fio's aggr_ keys of a dm or md device: its members' counts averaged, their highest util. */
static void aggr(json_t *o, const struct device_view *v, unsigned n, const struct device_view *d)
{
	uint64_t a[7] = {0};
	double util = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct device_view *m = &v[i];
		if (m->role != DEVICE_MEMBER || strcmp(m->of, d->name))
			continue;
		m = as_disk(v, n, m);
		a[0] += m->disk.read_ios;
		a[1] += m->disk.write_ios;
		a[2] += m->disk.read_merges;
		a[3] += m->disk.write_merges;
		a[4] += m->disk.read_ms;
		a[5] += m->disk.write_ms;
		a[6] += m->disk.queue_ms;
		util = util_of(m) > util ? util_of(m) : util;
		k++;
	}
	if (!k)
		return;
	set(o, "aggr_read_ios", u64(a[0] / k));
	set(o, "aggr_write_ios", u64(a[1] / k));
	set(o, "aggr_read_merges", u64(a[2] / k));
	set(o, "aggr_write_merge", u64(a[3] / k)); /* sic: fio's key */
	set(o, "aggr_read_ticks", u64(a[4] / k));
	set(o, "aggr_write_ticks", u64(a[5] / k));
	set(o, "aggr_in_queue", u64(a[6] / k));
	set(o, "aggr_util", real(util));
}

static json_t *view_obj(const struct device_view *v, unsigned n, const struct device_view *d)
{
	json_t *o = json_object();

	set(o, "name", result_json_str(d->name));
	set(o, "read_ios", u64(d->disk.read_ios));
	set(o, "write_ios", u64(d->disk.write_ios));
	set(o, "read_merges", u64(d->disk.read_merges));
	set(o, "write_merges", u64(d->disk.write_merges));
	set(o, "read_ticks", u64(d->disk.read_ms));
	set(o, "write_ticks", u64(d->disk.write_ms));
	set(o, "in_queue", u64(d->disk.queue_ms));
	set(o, "util", real(util_of(d)));
	aggr(o, v, n, d);
	return o;
}

/*
 * disk_util: every device under the targets, from the kernel's counts over the window (the
 * run's, for several jobs); as fio, a partition is left out for its whole disk.
 */
json_t *fio_disk_util(const struct result_set *s)
{
	const struct device_view *v = s->njobs > 1 ? s->total.views : s->jobs[0].devices;
	unsigned n = s->njobs > 1 ? s->total.nviews : s->jobs[0].ndevices;
	json_t *a;

	if (!n)
		return disk_util_old(s);
	a = json_array();
	for (unsigned i = 0; i < n; i++)
		if (!under(v, n, DEVICE_DISK, v[i].name))
			json_array_append_new(a, view_obj(v, n, &v[i]));
	return a;
}

/* The top: when the run started (fio: when it printed), in its three forms. */
static void header(json_t *root, const struct result_set *s)
{
	uint64_t ms = result_set_start_ms(s);
	char when[64] = "";
	struct tm tm;
	time_t t = (time_t)(ms / 1000);

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	set(root, "fio version", json_string(FIO_JSON_VERSION));
	set(root, "timestamp", u64(ms / 1000));
	set(root, "timestamp_ms", u64(ms));
	set(root, "time", json_string(when));
}

json_t *fio_json_doc(const struct result_set *s, bool plus)
{
	json_t *root, *jobs, *global;
	double secs = s->njobs == 1 ? s->jobs[0].seconds : s->total.seconds;
	uint64_t elapsed = secs > 0 ? (uint64_t)ceil(secs) : 0;
	struct fio_stats st;

	if (fio_stats_build(&st, s))
		return NULL;
	root = json_object(), jobs = json_array(), global = fio_global_options(s);
	header(root, s);
	if (json_object_size(global))
		set(root, "global options", global);
	else
		json_decref(global);
	for (unsigned i = 0; i < st.n; i++)
		json_array_append_new(jobs, job_obj(s, &st, i, elapsed, plus));
	set(root, "jobs", jobs);
	set(root, "disk_util", fio_disk_util(s));
	fio_stats_release(&st);
	return root;
}

static int write_doc(FILE *f, const struct result_set *s, bool plus)
{
	json_t *root = fio_json_doc(s, plus);
	int r = root ? jsonout_dumpf(root, f, JSON_INDENT(2)) : -ENOMEM;

	json_decref(root);
	if (!r && fputc('\n', f) == EOF)
		r = -EIO;
	return r ? r : ferror(f) ? -EIO : 0;
}

static int fio_write_set(FILE *f, const struct result_set *s, const struct report_opts *o)
{
	return write_doc(f, s, false);
}

static int plus_write_set(FILE *f, const struct result_set *s, const struct report_opts *o)
{
	return write_doc(f, s, true);
}

/* One job: its groups and devices are summed as for several (result_set_view). */
static int one(FILE *f, const struct result *r, const struct report_opts *o,
	       int (*write_set)(FILE *, const struct result_set *, const struct report_opts *))
{
	struct result_set s;
	int ret = result_set_view(&s, r, 1);

	if (!ret)
		ret = write_set(f, &s, o);
	result_set_release(&s);
	return ret;
}

static int fio_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	return one(f, r, o, fio_write_set);
}

static int plus_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	return one(f, r, o, plus_write_set);
}

const struct report_ops report_fio_json = {
	.name = "fio-json",
	.write = fio_write,
	.write_set = fio_write_set,
};

/* fio's --output-format=json+: the same with each latency histogram in fio's buckets. */
const struct report_ops report_fio_json_plus = {
	.name = "fio-json+",
	.write = plus_write,
	.write_set = plus_write_set,
};
