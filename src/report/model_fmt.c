/*
 * The outputs of 'iorate model', 'plan' and 'explain' (model_fmt.h): the model returns a
 * prediction's numbers, and these name them, in text or JSON.
 */
#include "report/model_fmt.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/escape.h"
#include "util/jsonout.h"
#include "util/parse.h"

/*
 * A figure to three decimals, as the model's inputs have no more; null when unbounded, since
 * JSON has no infinity.
 */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(round(v * 1000) / 1000) : json_null();
}

int model_fmt_dump(FILE *f, const json_t *v)
{
	int r;

	if (!v)
		return -ENOMEM;
	if ((r = jsonout_dumpf(v, f, JSON_INDENT(2))))
		return r;
	return fputc('\n', f) == EOF || fflush(f) ? -EIO : 0;
}

/* Whether the groups differ in host cache (each is then named with its own). */
static bool mixed_cache(const struct model_config *m)
{
	for (unsigned i = 1; i < m->ngroups; i++)
		if (m->disks[i].cache != m->disks[0].cache)
			return true;
	return false;
}

void model_fmt_config_name(const struct model_config *m, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s", m->vm->name);
	bool mixed = mixed_cache(m);

	for (unsigned i = 0; i < m->ngroups && n < len; i++) {
		const struct model_disk *d = &m->disks[i];
		const struct cat_disk *t = d->type;

		if (d->local)
			n += (size_t)snprintf(out + n, len - n, " + local disk");
		else if (t->rule && t->baseline_per_vm)
			n += (size_t)snprintf(out + n, len - n, " + %u x %s %.0f GiB", d->count,
					      t->name, d->gib);
		else if (t->rule)
			n += (size_t)snprintf(out + n, len - n, " + %u x %s %.0f GiB (%.0f IOPS, "
					      "%.0f %s)", d->count, t->name, d->gib, d->iops,
					      model_mbps_in_unit(t, d->mbps), model_mbps_unit(t));
		else
			n += (size_t)snprintf(out + n, len - n, " + %u x %s%s", d->count, t->name,
					      d->ondemand ? " (on-demand burst)" : "");
		if (mixed && n < len && !d->local)
			n += (size_t)snprintf(out + n, len - n, " [cache %s]",
					      model_cache_name(d->cache));
	}
	if (n < len)
		snprintf(out + n, len - n, " (%s)", m->vm->catalog);
}

/* The host cache of the configuration as the text names it. */
static const char *cache_words(const struct model_config *m)
{
	return mixed_cache(m) ? "per disk group" : model_cache_name(m->disks[0].cache);
}

static bool any_cached(const struct model_config *m)
{
	for (unsigned i = 0; i < m->ngroups; i++)
		if (!m->disks[i].local && m->disks[i].cache != MODEL_CACHE_NONE)
			return true;
	return false;
}

static json_t *config_json(const struct model_config *m)
{
	json_t *disks = json_array();
	char name[256];

	for (unsigned i = 0; disks && i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];

		json_array_append_new(disks, json_pack("{s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:s, "
			"s:s}", "spec", d->spec, "type", d->local ? "local" : d->type->name,
			"count", (int)d->count, "gib", num(d->gib), "iops", num(d->iops),
			"mbps", num(d->mbps), "burst_iops", num(d->burst_iops),
			"burst_mbps", num(d->burst_mbps), "cache", model_cache_name(d->cache),
			"source", d->local ? m->vm->source : d->type->source));
	}
	model_fmt_config_name(m, name, sizeof(name));
	/* "o" takes disks, and frees it when the pack fails. */
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "name", name, "catalog", m->vm->catalog,
			 "vm", m->vm->name, "cache", cache_words(m), "read_hit_pct",
			 num(any_cached(m) ? m->read_hit : 0), "disks", disks);
}

static json_t *limits_json(const struct model_result *r)
{
	json_t *limits = json_array();

	for (unsigned i = 0; limits && i < r->nlimits; i++) {
		const struct model_limit *l = &r->limits[i];

		json_array_append_new(limits, json_pack("{s:s, s:o, s:o, s:o, s:s, s:s}",
			"name", l->name, "iops", num(l->iops), "mbps", num(l->mbps),
			"cap", num(l->cap), "detail", l->detail, "source", l->source));
	}
	return limits;
}

static json_t *notes_json(const struct model_result *r)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < r->nnotes; i++)
		json_array_append_new(a, json_string(r->notes[i]));
	return a;
}

static json_t *timeline_json(const struct model_result *r)
{
	json_t *ph = json_array();

	for (unsigned i = 0; ph && i < r->nphases; i++)
		json_array_append_new(ph, json_pack("{s:o, s:o, s:o, s:o, s:s}",
			"start_s", num(r->phases[i].start_s), "end_s", num(r->phases[i].end_s),
			"iops", num(r->phases[i].iops), "mbps", num(r->phases[i].mbps),
			"binding", r->phases[i].binding));
	return json_pack("{s:o, s:o, s:o, s:o}", "duration_s", num(r->duration_s),
			 "average_iops", num(r->avg_iops), "average_mbps", num(r->avg_mbps),
			 "phases", ph);
}

json_t *model_fmt_prediction_json(const struct model_report *m)
{
	const struct model_workload *w = m->workload;
	const struct model_result *r = m->result;
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "schema", json_integer(1));
	json_object_set_new(o, "config", config_json(m->config));
	json_object_set_new(o, "workload", json_pack("{s:I, s:i, s:s, s:i, s:i}",
		"bs", (json_int_t)w->bs, "write_pct", (int)w->write_pct,
		"pattern", w->sequential ? "sequential" : "random", "threads", (int)w->threads,
		"depth", (int)w->depth));
	json_object_set_new(o, "predicted", json_pack("{s:o, s:o, s:o, s:o}", "iops", num(r->iops),
		"mbps", num(r->mbps), "mibps", num(r->mbps / 1.048576),
		"latency_ms", num(r->latency_ms)));
	json_object_set_new(o, "binding", json_string(r->binding));
	json_object_set_new(o, "limits", limits_json(r));
	json_object_set_new(o, "notes", notes_json(r));
	if (r->bursts)
		json_object_set_new(o, "burst", json_pack("{s:o, s:o, s:o, s:s}",
			"iops", num(r->burst_iops), "mbps", num(r->burst_mbps),
			"seconds", num(r->burst_seconds), "binding", r->burst_binding));
	if (r->duration_s > 0)
		json_object_set_new(o, "timeline", timeline_json(r));
	/* A part that could not be built is missing: say out of memory rather than print it. */
	if (json_object_size(o) < 7u + (r->bursts ? 1 : 0) + (r->duration_s > 0 ? 1 : 0)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int model_fmt_json(FILE *f, const struct model_report *m)
{
	json_t *o = model_fmt_prediction_json(m);
	int r = model_fmt_dump(f, o);

	json_decref(o);
	return r;
}

/* The limits considered, the binding one marked, each with its source; then the timeline. */
static void limits_text(FILE *f, const struct model_result *r)
{
	fprintf(f, "\nlimits considered (the workload's IOPS and MB/s were each the only limit):\n");
	for (unsigned i = 0; i < r->nlimits; i++) {
		const struct model_limit *l = &r->limits[i];

		fprintf(f, "  %-17s %10.0f IOPS %9.1f MB/s  %s%s\n", l->name, l->iops, l->mbps,
			l->detail, i == r->binding_limit ? "  <- binds" : "");
		fprintf(f, "  %-17s source: %s\n", "", l->source);
	}
	if (r->duration_s <= 0)
		return;
	fprintf(f, "\ntimeline over %.0f s (average %.0f IOPS, %.1f MB/s):\n", r->duration_s,
		r->avg_iops, r->avg_mbps);
	for (unsigned i = 0; i < r->nphases; i++)
		fprintf(f, "  %8.0f s - %8.0f s  %10.0f IOPS %9.1f MB/s  %s\n", r->phases[i].start_s,
			r->phases[i].end_s, r->phases[i].iops, r->phases[i].mbps,
			r->phases[i].binding);
}

/* The binding limit's detail, as the text of model and plan name it. */
static const char *binding_detail(const struct model_result *r)
{
	return r->binding_limit < r->nlimits ? r->limits[r->binding_limit].detail : "";
}

/* What the prediction takes for granted about caches (a measurement may differ by them). */
static void assumptions_text(FILE *f, const struct model_config *m)
{
	if (m->disks[0].local)
		fprintf(f, "assumes:       I/O that bypasses the guest's page cache (direct I/O)\n");
	else if (any_cached(m))
		fprintf(f, "assumes:       %.0f%% of reads served by the host cache%s; I/O that "
			"bypasses the guest's page cache\n", m->read_hit,
			m->read_hit > 0 ? "" : " (a cold cache)");
	else
		fprintf(f, "assumes:       no host cache; I/O that bypasses the guest's page cache\n");
}

int model_fmt_text(FILE *f, const struct model_report *m)
{
	const struct model_workload *w = m->workload;
	const struct model_result *r = m->result;
	char name[256], bs[32];

	model_fmt_config_name(m->config, name, sizeof(name));
	fprintf(f, "configuration: %s, host cache %s\n", name, cache_words(m->config));
	assumptions_text(f, m->config);
	fprintf(f, "workload:      %s %s, %u%% writes, %u thread%s x %u outstanding\n",
		fmt_size(w->bs, bs, sizeof(bs)), w->sequential ? "sequential" : "random",
		w->write_pct, w->threads, w->threads == 1 ? "" : "s", w->depth);
	fprintf(f, "predicted:     %.0f IOPS, %.1f MB/s (%.1f MiB/s), %.2f ms mean latency\n",
		r->iops, r->mbps, r->mbps / 1.048576, r->latency_ms);
	fprintf(f, "bound by:      %s (%s)\n", r->binding, binding_detail(r));
	if (r->bursts && isfinite(r->burst_seconds))
		fprintf(f, "burst:         %.0f IOPS, %.1f MB/s for the first %.0f s while credits "
			"last (%s)\n", r->burst_iops, r->burst_mbps, r->burst_seconds,
			r->burst_binding);
	else if (r->bursts)
		fprintf(f, "burst:         %.0f IOPS, %.1f MB/s (%s)\n", r->burst_iops,
			r->burst_mbps, r->burst_binding);
	for (unsigned i = 0; i < r->nnotes; i++)
		fprintf(f, "note:          %s\n", r->notes[i]);
	limits_text(f, r);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* plan models each answer at its own depth: the workload is bs and writes at any depth. */
static struct model_workload plan_workload(const struct plan_target *t)
{
	return (struct model_workload){.bs = t->bs, .write_pct = t->write_pct,
				       .sequential = false, .threads = 1, .depth = 1024};
}

int plan_fmt_json(FILE *f, const struct plan_report *p)
{
	const struct model_workload w = plan_workload(p->target);
	json_t *a = json_array();
	int r = -ENOMEM;

	for (unsigned i = 0; a && i < p->result->n; i++) {
		const struct plan_option *o = &p->result->options[i];
		const struct model_report m = {.config = &o->config, .workload = &w,
			.result = &o->result};
		json_t *e = model_fmt_prediction_json(&m);

		if (!e)
			goto out;
		if (json_object_set_new(e, "cost", model_fmt_cost_json(&o->cost))) {
			json_decref(e);
			goto out;
		}
		if (json_array_append_new(a, e)) /* which frees e when it fails */
			goto out;
	}
	r = model_fmt_dump(f, a);
out:
	json_decref(a);
	return r;
}

/* What plan took for granted: hits, region, hours, the prices' dates (on each line). */
static void plan_assumptions(FILE *f, const struct plan_report *p)
{
	const struct plan_target *t = p->target;

	fprintf(f, "\nassumes: ");
	if (t->read_hit > 0)
		fprintf(f, "%.0f%% of reads served by a host cache where one is tried", t->read_hit);
	else
		fprintf(f, "no host-cache hits (a host cache is tried only with a read-hit ratio)");
	/* A currency not asked for is a default: said, with the option that changes it. */
	fprintf(f, "; I/O that bypasses the guest's page cache;\n         list prices, pay as you "
		"go, in %s%s, %s%s, the VM for 730 h a month, and disks priced per operation doing "
		"the\n         target's I/Os all that time; each price's date is on its line\n",
		p->result->currency ? p->result->currency : "USD",
		t->currency ? "" : " (that of the first price in scope; --currency asks another)",
		t->region ? "in " : "",
		t->region ? t->region : "in each catalog's first priced region (downloaded prices "
		"first; built-in: Azure eastus, AWS us-east-1, GCP us-central1)");
}

int plan_fmt_text(FILE *f, const struct plan_report *p)
{
	const struct plan_result *r = p->result;
	unsigned nstale = 0;

	fprintf(f, "%u configurations considered; the cheapest that meet the target, one per VM "
		"size and disk type:\n\n", r->considered);
	for (unsigned i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->options[i];
		char name[256];

		model_fmt_config_name(&o->config, name, sizeof(name));
		fprintf(f, "%u. %s, cache %s: %.2f %s a month\n", i + 1, name,
			cache_words(&o->config), o->cost.total, o->cost.currency);
		fprintf(f, "   predicted %.0f IOPS, %.1f MB/s, %.2f ms unloaded latency; bound by "
			"%s (%s)\n", o->result.iops, o->result.mbps, o->result.service_ms,
			o->result.binding, binding_detail(&o->result));
		for (unsigned k = 0; k < o->result.nnotes; k++) /* what the model could not bound */
			fprintf(f, "   note: %s\n", o->result.notes[k]);
		for (unsigned k = 0; k < o->cost.nlines; k++) {
			const struct cost_line *l = &o->cost.lines[k];
			char age[512]; /* a long date ("undated copy (...)") and its staleness */

			fprintf(f, "   %-50s %10.2f  (%s)\n", l->what, l->amount,
				model_fmt_price_age(l->date, l->age_days, l->stale, age,
						    sizeof(age)));
		}
		nstale += o->cost.nstale;
	}
	if (r->unpriced)
		fprintf(f, "\n(%u more configurations meet the target but have no price in the "
			"catalog)\n", r->unpriced);
	if (r->no_vm_limit[0])
		fprintf(f, "\n(left out: %s, whose per-VM limits the catalog lacks, so no VM would "
			"bound them; --uncapped includes them)\n", r->no_vm_limit);
	if (nstale)
		fputc('\n', f);
	model_fmt_stale_note(f, nstale, "");
	plan_assumptions(f, p);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* A figure that may be missing (NAN): null in JSON. */
static json_t *maybe(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

int explain_fmt_json(FILE *f, const struct explain_report *e)
{
	json_t *out = model_fmt_prediction_json(&e->model), *notes = json_array();
	int r = -ENOMEM;

	for (unsigned i = 0; notes && i < e->nnotes; i++)
		json_array_append_new(notes, json_string(e->notes[i]));
	if (!out || !notes)
		goto out;
	json_object_set_new(out, "measured", json_pack("{s:f, s:f, s:o}", "iops",
		e->measured_iops, "mbps", isnan(e->measured_mbps) ? 0 : e->measured_mbps,
		"latency_ms", maybe(e->measured_latency_ms)));
	json_object_set_new(out, "ratio_iops", maybe(e->ratio_iops));
	json_object_set_new(out, "at_limit", e->at_limit ? json_string(e->at_limit) : json_null());
	json_object_set_new(out, "origin", e->origin ? json_string(e->origin) : json_null());
	json_object_set_new(out, "emulated_cap", e->emulated_cap ? json_pack("{s:s, s:o}",
		"name", e->emulated_cap, "value", num(e->emulated_value)) : json_null());
	json_object_set_new(out, "tolerance", json_real(e->tolerance));
	json_object_set_new(out, "min_hit_pct", maybe(e->min_hit_pct));
	json_object_set(out, "notes", notes);
	r = model_fmt_dump(f, out);
out:
	json_decref(out);
	json_decref(notes);
	return r;
}

/* Where the measurement sits, in words: at a limit, below them, or above what caches allow. */
static void explain_where(FILE *f, const struct explain_report *e)
{
	const char *o = e->origin ? e->origin : "";

	fputs("measured:   ", f);
	if (!strcmp(o, "at_limit"))
		fprintf(f, "at %s (within %.0f%%)\n", e->at_limit, e->tolerance * 100);
	else if (!strcmp(o, "below"))
		fprintf(f, "below every published limit\n");
	else if (!strcmp(o, "host_cache"))
		fprintf(f, "above the uncached limits: reachable with at least %.0f%% host-cache "
			"read hits\n", e->min_hit_pct);
	else if (!strcmp(o, "page_cache") && any_cached(e->model.config))
		fprintf(f, "above what any host-cache hit ratio allows\n");
	else if (!strcmp(o, "page_cache") || !strcmp(o, "above_limits"))
		fprintf(f, "above every published limit\n");
	else if (!strcmp(o, "emulated"))
		fprintf(f, "at the emulated %s cap (%.*f %s, within %.0f%%)\n",
			!strncmp(e->emulated_cap, "vm_", 3) ? "VM" : "disk",
			strstr(e->emulated_cap, "mbps") ? 1 : 0, e->emulated_value,
			strstr(e->emulated_cap, "mbps") ? "MB/s" : "IOPS", e->tolerance * 100);
	else
		fputs("-\n", f);
}

int explain_fmt_text(FILE *f, const struct explain_report *e)
{
	const struct model_result *r = e->model.result;
	double pm = e->predicted_mbps;
	char name[256];

	model_fmt_config_name(e->model.config, name, sizeof(name));
	fputs("run:        ", f);
	escape_fputs(e->path, f);
	fprintf(f, " on %s\n", name);
	fprintf(f, "%-10s %12s %12s %8s\n", "", "measured", "predicted", "ratio");
	fprintf(f, "%-10s %12.0f %12.0f %7.2fx\n", "IOPS", e->measured_iops, e->predicted_iops,
		e->ratio_iops);
	if (!isnan(e->measured_mbps))
		fprintf(f, "%-10s %12.1f %12.1f %7.2fx\n", "MB/s", e->measured_mbps, pm,
			pm > 0 ? e->measured_mbps / pm : NAN);
	if (!isnan(e->measured_latency_ms))
		fprintf(f, "%-10s %12.2f %12.2f %7.2fx\n", "lat ms", e->measured_latency_ms,
			r->latency_ms, e->measured_latency_ms / r->latency_ms);
	fprintf(f, "model binds at %s\n", r->binding);
	explain_where(f, e);
	for (unsigned i = 0; i < e->nnotes; i++) {
		fputs("note: ", f);
		escape_fputs(e->notes[i], f);
		fputc('\n', f);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}
