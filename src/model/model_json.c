/* JSON rendering of a prediction; the commands print it, the model only builds it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model_json.h"

/* JSON has no infinity: an unbounded figure is written as null. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(round(v * 1000) / 1000) : json_null();
}

void model_config_name(const struct model_config *m, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s", m->vm->name);

	for (unsigned i = 0; i < m->ngroups && n < len; i++) {
		const struct model_disk *d = &m->disks[i];

		if (d->local)
			n += (size_t)snprintf(out + n, len - n, " + local disk");
		else if (d->type->rule)
			n += (size_t)snprintf(out + n, len - n, " + %u x %s %.0f GiB (%.0f IOPS, "
					      "%.0f MB/s)", d->count, d->type->name, d->gib,
					      d->iops, d->mbps);
		else
			n += (size_t)snprintf(out + n, len - n, " + %u x %s%s", d->count,
					      d->type->name, d->ondemand ? " (on-demand burst)" : "");
	}
	if (n < len)
		snprintf(out + n, len - n, " (%s)", m->vm->catalog);
}

json_t *model_result_json(const struct model_config *m, const struct model_workload *w,
			  const struct model_result *r)
{
	json_t *o = json_object(), *disks = json_array(), *limits = json_array();
	char name[256];

	if (!o || !disks || !limits)
		goto oom;
	model_config_name(m, name, sizeof(name));
	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];

		json_array_append_new(disks, json_pack("{s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:s}",
			"spec", d->spec, "type", d->local ? "local" : d->type->name,
			"count", (int)d->count, "gib", num(d->gib), "iops", num(d->iops),
			"mbps", num(d->mbps), "burst_iops", num(d->burst_iops),
			"burst_mbps", num(d->burst_mbps),
			"source", d->local ? m->vm->source : d->type->source));
	}
	for (unsigned i = 0; i < r->nlimits; i++) {
		const struct model_limit *l = &r->limits[i];

		json_array_append_new(limits, json_pack("{s:s, s:o, s:o, s:o, s:s, s:s}",
			"name", l->name, "iops", num(l->iops), "mbps", num(l->mbps),
			"cap", num(l->cap), "detail", l->detail, "source", l->source));
	}
	json_object_set_new(o, "schema", json_integer(1));
	json_object_set_new(o, "config", json_pack("{s:s, s:s, s:s, s:s, s:o}", "name", name,
		"catalog", m->vm->catalog, "vm", m->vm->name, "cache", model_cache_name(m->cache),
		"disks", disks));
	json_object_set_new(o, "workload", json_pack("{s:I, s:i, s:s, s:i, s:i}",
		"bs", (json_int_t)w->bs, "write_pct", (int)w->write_pct,
		"pattern", w->sequential ? "sequential" : "random", "threads", (int)w->threads,
		"depth", (int)w->depth));
	json_object_set_new(o, "predicted", json_pack("{s:o, s:o, s:o, s:o}", "iops", num(r->iops),
		"mbps", num(r->mbps), "mibps", num(r->mbps / 1.048576),
		"latency_ms", num(r->latency_ms)));
	json_object_set_new(o, "binding", json_string(r->binding));
	json_object_set_new(o, "limits", limits);
	if (r->bursts)
		json_object_set_new(o, "burst", json_pack("{s:o, s:o, s:o, s:s}",
			"iops", num(r->burst_iops), "mbps", num(r->burst_mbps),
			"seconds", num(r->burst_seconds), "binding", r->burst_binding));
	if (r->duration_s > 0) {
		json_t *ph = json_array();

		for (unsigned i = 0; i < r->nphases; i++)
			json_array_append_new(ph, json_pack("{s:o, s:o, s:o, s:o, s:s}",
				"start_s", num(r->phases[i].start_s), "end_s", num(r->phases[i].end_s),
				"iops", num(r->phases[i].iops), "mbps", num(r->phases[i].mbps),
				"binding", r->phases[i].binding));
		json_object_set_new(o, "timeline", json_pack("{s:o, s:o, s:o, s:o}",
			"duration_s", num(r->duration_s), "average_iops", num(r->avg_iops),
			"average_mbps", num(r->avg_mbps), "phases", ph));
	}
	return o;
oom:
	json_decref(o);
	json_decref(disks);
	json_decref(limits);
	return NULL;
}

json_t *model_cost_json(const struct cost_breakdown *b)
{
	json_t *lines = json_array();

	for (unsigned i = 0; lines && i < b->nlines; i++)
		json_array_append_new(lines, json_pack("{s:s, s:f, s:s}", "what", b->lines[i].what,
			"month", b->lines[i].amount, "source", b->lines[i].source));
	/* "o" takes lines, and frees it when the pack fails. */
	return json_pack("{s:f, s:s, s:o}", "total_month", b->total, "currency", b->currency,
			 "lines", lines);
}
