/*
 * iorate explain: sets a measured run (the JSON of 'iorate run --json') beside the model, says
 * which limit it sits at, and flags results that caching inflates.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/config.h"
#include "model/model_json.h"
#include "report/jpath.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: iorate explain RESULT.json --vm NAME --disk SPEC [--disk SPEC...] [options]\n"
"\n"
"Reads a result of 'iorate run --json', models the same workload (bs, threads, depth, writes,\n"
"pattern, duration) on the named VM and disks, and compares measured with predicted.\n"
"  --vm NAME           VM size the run was made on               --vm DS2\n"
"  --disk SPEC         disks as in 'iorate model' (repeatable)   --disk 2xP30\n"
"  --cache MODE        host cache of the disks: none, readonly, readwrite --cache readonly\n"
"  --provider CAT      look names up in one catalog              --provider azure-2015\n"
"  --catalog FILE      add or override catalog entries           --catalog mine.json\n"
"  --json              JSON on stdout                            --json\n"
"  -h, --help          this text\n"
"\n"
"Example:\n"
"  iorate run --json -b 4k -t 1 -o 32 /mnt/data/f > r.json\n"
"  iorate explain r.json --vm DS2 --disk 2xP30\n");
}

static const struct option options[] = {
	MO_OPT_VM, MO_OPT_DISK, MO_OPT_CACHE, MO_OPT_PROVIDER, MO_OPT_CATALOG, MO_OPT_JSON,
	MO_OPT_HELP, {NULL, 0, NULL, 0},
};

int cmd_explain(int argc, char **argv)
{
	char notes[4][256];
	const char *path = NULL;
	unsigned nnotes = 0;
	struct model_opts mo;
	struct catalog c = {0};
	struct model_config m;
	struct model_result r;
	json_t *run = NULL;
	json_error_t je;
	int o, ret = 0;

	model_opts_init(&mo, "explain", usage);
	optind = 0;
	while ((o = model_getopt(&mo, argc, argv, "h", options)) != -1)
		if ((ret = model_opts_take(&mo, o, optarg)) || mo.help)
			return ret;
	if (optind != argc - 1)
		return usage_error("explain: expected one RESULT.json (see 'iorate explain --help')");
	path = argv[optind];
	if (!mo.vm || !mo.nspecs)
		return usage_error("explain: --vm and --disk are required (e.g. --vm DS2 --disk P30)");
	if (!(run = json_load_file(path, 0, &je))) {
		if (je.line < 0)
			return usage_error("%s: %s", path, je.text);
		return usage_error("%s:%d: %s", path, je.line, je.text);
	}
	struct model_workload w = {0};
	double bs = jpath_num(run, "params.bs"), th = jpath_num(run, "params.threads");
	double qd = jpath_num(run, "params.depth"), wr = jpath_num(run, "params.write");
	double secs = jpath_num(run, "params.time"), size = jpath_num(run, "params.size");
	double mem = jpath_num(run, "host.mem_bytes");
	double m_iops = jpath_num(run, "total.total.iops");
	double m_mbps = jpath_num(run, "total.total.mbps");
	double m_lat = jpath_num(run, "total.total.lat_us.mean") / 1000;
	const char *pattern = jpath_str(run, "params.pattern");
	const char *hcache = jpath_str(run, "params.cache");
	size_t ntargets = json_array_size(json_object_get(run, "targets"));

	if (!(bs > 0) || !(th >= 1) || !(qd >= 1) || !(m_iops >= 0)) {
		ret = usage_error("%s: not a result of 'iorate run --json' (needs params.bs, "
				  "params.threads, params.depth and total.total.iops)", path);
		goto out;
	}
	w.bs = (uint64_t)bs;
	w.threads = (unsigned)th * (unsigned)(ntargets ? ntargets : 1);
	w.depth = (unsigned)qd;
	w.write_pct = isnan(wr) ? 0 : (unsigned)wr;
	w.sequential = pattern && !strcmp(pattern, "sequential");
	if ((ret = model_opts_catalog(&mo, &c)) || (ret = model_opts_config(&mo, &c, &m)))
		goto out;
	model_predict(&m, &w, secs > 0 ? secs : 0, &r);
	/* A run shorter than the burst compares with what credits gave it: the average. */
	double p_iops = r.duration_s > 0 ? r.avg_iops : r.iops;
	double p_mbps = r.duration_s > 0 ? r.avg_mbps : r.mbps;
	double ratio = p_iops > 0 ? m_iops / p_iops : NAN;
	double ws = (isnan(size) ? 0 : size) * (ntargets ? ntargets : 1);
	const char *at = NULL;

	for (unsigned i = 0; i < r.nlimits; i++)
		if (fabs(m_iops / r.limits[i].iops - 1) <= 0.1 && !at)
			at = r.limits[i].name;
	if (ratio > 1.5)
		snprintf(notes[nnotes++], 256, "measured is %.1fx the prediction, far above every "
			 "published cap: caching is inflating it", ratio);
	if (hcache && strcmp(hcache, "direct") && ws > 0 && mem > 0 && ws <= mem)
		snprintf(notes[nnotes++], 256, "the working set (%.1f GiB) fits in RAM (%.1f GiB) and "
			 "the run used the page cache (%s): reads may never reach the disk",
			 ws / (1 << 30), mem / (1 << 30), hcache);
	if (m.cache != MODEL_CACHE_NONE && m.vm->cache_gib > 0 && ws > 0 &&
	    ws <= m.vm->cache_gib * (1 << 30))
		snprintf(notes[nnotes++], 256, "the working set (%.1f GiB) fits in %s's host cache "
			 "(%.0f GiB): reads are served by the host cache", ws / (1 << 30), m.vm->name,
			 m.vm->cache_gib);
	if (ratio < 0.7 && strcmp(r.binding, "queue_depth"))
		snprintf(notes[nnotes++], 256, "measured is %.0f%% of the prediction: more threads or "
			 "depth, or the device and guest, not the cloud caps, limit it", ratio * 100);
	if (mo.json) {
		json_t *out = model_result_json(&m, &w, &r), *na = json_array();

		for (unsigned i = 0; i < nnotes; i++)
			json_array_append_new(na, json_string(notes[i]));
		json_object_set_new(out, "measured", json_pack("{s:f, s:f, s:o}", "iops", m_iops,
			"mbps", isnan(m_mbps) ? 0 : m_mbps, "latency_ms",
			isnan(m_lat) ? json_null() : json_real(m_lat)));
		json_object_set_new(out, "ratio_iops", isnan(ratio) ? json_null() : json_real(ratio));
		json_object_set_new(out, "at_limit", at ? json_string(at) : json_null());
		json_object_set_new(out, "notes", na);
		json_dumpf(out, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(out);
		goto out;
	}
	char name[256];

	model_config_name(&m, name, sizeof(name));
	printf("run:        %s on %s\n", path, name);
	printf("%-10s %12s %12s %8s\n", "", "measured", "predicted", "ratio");
	printf("%-10s %12.0f %12.0f %7.2fx\n", "IOPS", m_iops, p_iops, ratio);
	if (!isnan(m_mbps))
		printf("%-10s %12.1f %12.1f %7.2fx\n", "MB/s", m_mbps, p_mbps,
		       p_mbps > 0 ? m_mbps / p_mbps : NAN);
	if (!isnan(m_lat))
		printf("%-10s %12.2f %12.2f %7.2fx\n", "lat ms", m_lat, r.latency_ms,
		       m_lat / r.latency_ms);
	printf("model binds at %s", r.binding);
	if (at)
		printf("; the measured IOPS sit at %s", at);
	printf("\n");
	for (unsigned i = 0; i < nnotes; i++)
		printf("note: %s\n", notes[i]);
out:
	json_decref(run);
	catalog_release(&c);
	return ret;
}
