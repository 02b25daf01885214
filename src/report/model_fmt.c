/*
 * The outputs of 'iorate model', 'plan' and 'explain' (model_fmt.h): the model returns a
 * prediction's numbers, and these name them, in text or JSON.
 */
#include "report/model_fmt.h"
#include "report/model_words.h"
#include "report/summary.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>

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
	/* The controller, where the size's caps depend on it (its default unless given). */
	const char *ctl = !m->vm->controllers ? NULL : m->controller ? m->controller :
			  m->vm->controller;
	size_t n = (size_t)snprintf(out, len, "%s%s", m->vm->name,
				    !ctl ? "" : strcasecmp(ctl, "nvme") ? " over SCSI" :
				    " over NVMe");
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
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "name", name, "catalog", m->vm->catalog,
			 "vm", m->vm->name, "cache", cache_words(m), "read_hit_pct",
			 num(any_cached(m) ? m->read_hit : 0), "disks", disks);
	const char *ctl = m->controller ? m->controller : m->vm->controller;

	/* The disk controller, where the size's caps depend on it. */
	if (o && m->vm->controllers && ctl && json_object_set_new(o, "controller", json_string(ctl))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *limits_json(const struct model_result *r)
{
	json_t *limits = json_array();

	for (unsigned i = 0; limits && i < r->nlimits; i++) {
		const struct model_limit *l = &r->limits[i];
		char d[MODEL_WORDS_DETAIL];

		json_array_append_new(limits, json_pack("{s:s, s:o, s:o, s:o, s:s, s:s}",
			"name", l->name, "iops", num(l->iops), "mbps", num(l->mbps), "cap",
			num(l->cap), "detail", model_words_detail(&l->detail, d, sizeof(d)),
			"source", l->source));
	}
	return limits;
}

static json_t *notes_json(const struct model_result *r)
{
	json_t *a = json_array();

	char n[MODEL_WORDS_NOTE];

	for (unsigned i = 0; a && i < r->nnotes; i++)
		json_array_append_new(a, json_string(model_words_note(&r->notes[i], n, sizeof(n))));
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

/* The read-hit ratio the prediction used and what gave it (null: unknown, none assumed). */
static json_t *host_cache_json(const struct model_config *m, const struct model_hit *h)
{
	static const char *const bases[] = {
		[MODEL_HIT_GIVEN] = "given", [MODEL_HIT_NO_WS] = "no_working_set",
		[MODEL_HIT_COLD] = "cold", [MODEL_HIT_FITS] = "fits",
		[MODEL_HIT_SHARE] = "hottest_share", [MODEL_HIT_SEQ_LARGER] = "sequential_larger",
		[MODEL_HIT_UNKNOWN] = "unknown"};
	char why[MODEL_WORDS_HIT];

	return json_pack("{s:o, s:s, s:s, s:s, s:o, s:o}",
			 "read_hit_pct", h->known && any_cached(m) ? num(h->pct) : json_null(),
			 "basis", bases[h->basis], "why", model_words_hit(h, why, sizeof(why)),
			 "state", m->cache_state == MODEL_STATE_COLD ? "cold" : "warm",
			 "working_set_bytes", m->working_set > 0 ? num(m->working_set) : json_null(),
			 "cache_gib", m->vm->cache_gib > 0 ? num(m->vm->cache_gib) : json_null());
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
	/* The ratio used, which a working set may have given. */
	json_object_set_new(json_object_get(o, "config"), "read_hit_pct",
			    num(any_cached(m->config) ? r->hit.pct : 0));
	json_object_set_new(o, "host_cache", host_cache_json(m->config, &r->hit));
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
	if (json_object_size(o) < 8u + (r->bursts ? 1 : 0) + (r->duration_s > 0 ? 1 : 0)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int model_fmt_json(FILE *f, const struct model_report *m)
{
	json_t *o = model_fmt_prediction_json(m);
	int r = report_json_dump(f, o);

	json_decref(o);
	return r;
}

/* The limits considered, the binding one marked, each with its source; then the timeline. */
static void limits_text(FILE *f, const struct model_result *r)
{
	fprintf(f, "\nlimits considered (the workload's IOPS and MB/s were each the only limit):\n");
	for (unsigned i = 0; i < r->nlimits; i++) {
		const struct model_limit *l = &r->limits[i];
		char d[MODEL_WORDS_DETAIL];

		fprintf(f, "  %-17s %10.0f IOPS %9.1f MB/s  %s%s\n", l->name, l->iops, l->mbps,
			model_words_detail(&l->detail, d, sizeof(d)),
			i == r->binding_limit ? "  <- binds" : "");
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

/* The binding limit's detail, as the text of model and plan name it (buf: MODEL_WORDS_DETAIL). */
static const char *binding_detail(const struct model_result *r, char *buf, size_t len)
{
	if (r->binding_limit >= r->nlimits)
		return "";
	return model_words_detail(&r->limits[r->binding_limit].detail, buf, len);
}

/* A percentage as the text writes it: whole unless it has a fraction worth saying. */
static const char *pct_words(double v, char *buf, size_t len)
{
	snprintf(buf, len, fabs(v - round(v)) < 0.05 ? "%.0f%%" : "%.1f%%", v);
	return buf;
}

/* What the prediction takes for granted about caches (a measurement may differ by them). */
static void assumptions_text(FILE *f, const struct model_config *m, const struct model_hit *h)
{
	char pct[16], why[MODEL_WORDS_HIT];

	if (m->disks[0].local)
		fprintf(f, "assumes:       I/O that bypasses the guest's page cache (direct I/O)\n");
	else if (any_cached(m))
		fprintf(f, "assumes:       %s of reads served by the host cache (%s); I/O that "
			"bypasses the guest's page cache\n", pct_words(h->pct, pct, sizeof(pct)),
			model_words_hit(h, why, sizeof(why)));
	else
		fprintf(f, "assumes:       no host cache; I/O that bypasses the guest's page cache\n");
}

int model_fmt_text(FILE *f, const struct model_report *m)
{
	const struct model_workload *w = m->workload;
	const struct model_result *r = m->result;
	char name[256], bs[32], d[MODEL_WORDS_DETAIL], n[MODEL_WORDS_NOTE];

	model_fmt_config_name(m->config, name, sizeof(name));
	fprintf(f, "configuration: %s, host cache %s\n", name, cache_words(m->config));
	assumptions_text(f, m->config, &r->hit);
	fprintf(f, "workload:      %s %s, %u%% writes, %u thread%s x %u outstanding\n",
		fmt_size(w->bs, bs, sizeof(bs)), w->sequential ? "sequential" : "random",
		w->write_pct, w->threads, w->threads == 1 ? "" : "s", w->depth);
	fprintf(f, "predicted:     %.0f IOPS, %.1f MB/s (%.1f MiB/s), %.2f ms mean latency\n",
		r->iops, r->mbps, r->mbps / 1.048576, r->latency_ms);
	fprintf(f, "bound by:      %s (%s)\n", r->binding, binding_detail(r, d, sizeof(d)));
	if (r->bursts && isfinite(r->burst_seconds))
		fprintf(f, "burst:         %.0f IOPS, %.1f MB/s for the first %.0f s while credits "
			"last (%s)\n", r->burst_iops, r->burst_mbps, r->burst_seconds,
			r->burst_binding);
	else if (r->bursts)
		fprintf(f, "burst:         %.0f IOPS, %.1f MB/s (%s)\n", r->burst_iops,
			r->burst_mbps, r->burst_binding);
	for (unsigned i = 0; i < r->nnotes; i++)
		fprintf(f, "note:          %s\n", model_words_note(&r->notes[i], n, sizeof(n)));
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
	r = report_json_dump(f, a);
out:
	json_decref(a);
	return r;
}

/* What plan took for granted: hits, region, hours, the prices' dates (on each line). */
static void plan_assumptions(FILE *f, const struct plan_report *p)
{
	const struct plan_target *t = p->target;

	fprintf(f, "\nassumes: ");
	if (t->read_hit > 0 || (t->read_hit_set && t->working_set > 0))
		fprintf(f, "%.0f%% of reads served by a host cache where one is tried", t->read_hit);
	else if (t->working_set > 0)
		fprintf(f, "where a host cache is tried, the reads its VM's cache holds of a %.4g GiB "
			"working set (%s; each answer's ratio on its line), on volumes that hold it",
			t->working_set / 1073741824.0,
			t->cache_state == MODEL_STATE_COLD ? "cold: none" : "warm");
	else
		fprintf(f, "no host-cache hits (a host cache is tried only with a read-hit ratio or "
			"a working set)");
	/* A currency not asked for is a default: said, with the option that changes it. */
	fprintf(f, "; I/O that bypasses the guest's page cache;\n         list prices, pay as you "
		"go, in %s%s, %s%s, the VM for 730 h a month, and disks priced per operation doing "
		"the\n         target's I/Os all that time; each price's date is on its line\n",
		p->result->currency ? p->result->currency : "USD",
		t->currency ? "" : " (that of the first price in scope; --currency asks another)",
		t->region ? "in " : "",
		t->region ? t->region : "in each catalog's first priced region (downloaded prices "
		"first; built-in: Azure eastus, AWS us-east-1, GCP us-central1)");
	/* Defaults of the settings file are said to be such, with the file. */
	if (t->region_from)
		fprintf(f, "         region %s (from %s)\n", t->region, t->region_from);
	if (t->currency_from)
		fprintf(f, "         currency %s (from %s)\n", t->currency, t->currency_from);
}

int plan_fmt_text(FILE *f, const struct plan_report *p)
{
	const struct plan_result *r = p->result;
	unsigned nstale = 0;

	fprintf(f, "%u configurations considered; the cheapest that meet the target, one per VM "
		"size and disk type:\n\n", r->considered);
	for (unsigned i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->options[i];
		char name[256], d[MODEL_WORDS_DETAIL], n[MODEL_WORDS_NOTE];

		model_fmt_config_name(&o->config, name, sizeof(name));
		fprintf(f, "%u. %s, cache %s: %.2f %s a month\n", i + 1, name,
			cache_words(&o->config), o->cost.total, o->cost.currency);
		fprintf(f, "   predicted %.0f IOPS, %.1f MB/s, %.2f ms unloaded latency; bound by "
			"%s (%s)\n", o->result.iops, o->result.mbps, o->result.service_ms,
			o->result.binding, binding_detail(&o->result, d, sizeof(d)));
		if (any_cached(&o->config) && o->result.hit.basis != MODEL_HIT_GIVEN) {
			char pct[16], why[MODEL_WORDS_HIT];

			fprintf(f, "   host cache: %s of reads (%s)\n",
				pct_words(o->result.hit.pct, pct, sizeof(pct)),
				model_words_hit(&o->result.hit, why, sizeof(why)));
		}
		for (unsigned k = 0; k < o->result.nnotes; k++) /* what the model could not bound */
			fprintf(f, "   note: %s\n", model_words_note(&o->result.notes[k], n,
								       sizeof(n)));
		for (unsigned k = 0; k < o->cost.nlines; k++) {
			const struct cost_line *l = &o->cost.lines[k];
			char age[512]; /* a long date ("undated copy (...)") and its staleness */
			char what[MODEL_WORDS_COST];

			fprintf(f, "   %-50s %10.2f  (%s)\n", model_words_cost(l, what, sizeof(what)),
				l->amount,
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

/* Decimals a unit shows; seconds show one below 100 s. */
static int fig_decimals(const struct explain_fig *g)
{
	switch (g->unit) {
	case EXPLAIN_MBPS: case EXPLAIN_PCT: case EXPLAIN_GIB:
		return 1;
	case EXPLAIN_MS: case EXPLAIN_RATIO:
		return 2;
	case EXPLAIN_SECONDS:
		return fabs(g->v) < 99.95 ? 1 : 0;
	default:
		return 0;
	}
}

double explain_fig_value(const struct explain_fig *g)
{
	double p = pow(10, fig_decimals(g));

	return isfinite(g->v) ? round(g->v * p) / p : g->v;
}

/* "1234567.5" with d decimals as "1,234,567.5". */
static void grouped(double v, int d, char *buf, size_t len)
{
	char raw[64], *dot;
	size_t n = 0, k, i;

	snprintf(raw, sizeof(raw), "%.*f", d, fabs(v));
	dot = strchr(raw, '.');
	k = dot ? (size_t)(dot - raw) : strlen(raw);
	if (v < 0 && n + 1 < len)
		buf[n++] = '-';
	for (i = 0; raw[i] && n + 1 < len; i++) {
		if (i && i < k && (k - i) % 3 == 0)
			buf[n++] = ',';
		if (n + 1 < len)
			buf[n++] = raw[i];
	}
	buf[n] = '\0';
}

const char *explain_fig_text(const struct explain_fig *g, char *buf, size_t len)
{
	static const char *const units[] = {" IOPS", " MB/s", " ms", "%", " s", " GiB", "x", ""};
	double v = explain_fig_value(g);
	char num[64];

	if (isnan(v))
		return snprintf(buf, len, "unknown"), buf;
	if (isinf(v))
		return snprintf(buf, len, "unbounded"), buf;
	grouped(v, fig_decimals(g), num, sizeof(num));
	snprintf(buf, len, "%s%s", num, units[g->unit]);
	return buf;
}

/*
 * Each code's words: {key} is the item's figure of that key, {name} its name, {window} the
 * window of the figure set against, {*} its figures not named in the line ("label value, ...").
 * noname: the words when the item names nothing. A new code is a new row.
 */
static const struct explain_words {
	const char *code, *label, *words, *noname;
} explain_words[] = {
	{.code = "measured", .label = "measured",
	 .words = "{iops}, {mbps}, {latency_ms} mean latency"},
	{.code = "sustained", .label = "sustained",
	 .words = "{iops}, {mbps}, {latency_ms} mean latency; bound by {name}"},
	{.code = "burst", .label = "burst",
	 .words = "{iops}, {mbps} for up to {seconds} while credits last; bound by {name}"},
	{.code = "average", .label = "average",
	 .words = "{iops}, {mbps} over the run's {seconds} (the model's timeline)"},
	{.code = "compared", .label = "compared",
	 .words = "with the {name} figure, {iops}: measured is {ratio} it"},
	{.code = "at_limit", .label = "sits at",
	 .words = "{name}, {window}: {iops} (within {within_pct})"},
	{.code = "below", .label = "sits",
	 .words = "below every published limit"},
	{.code = "below_device", .label = "sits",
	 .words = "below every published limit, at the {name}: it was busy the whole window"},
	{.code = "below_cpu", .label = "sits",
	 .words = "below every published limit, at the {name}: the CPUs were {cpu_pct} busy"},
	{.code = "host_cache", .label = "sits",
	 .words = "above the uncached limits: reachable with at least {min_hit_pct} host-cache read "
	 "hits"},
	{.code = "page_cache", .label = "sits",
	 .words = "above every published limit: a page cache served it"},
	{.code = "above_limits", .label = "sits",
	 .words = "above every published limit"},
	{.code = "emulated", .label = "sits",
	 .words = "at the emulated {name} cap ({*}, within {within_pct})"},
	{.code = "device_unknown", .label = "device",
	 .words = "unknown: no device counts"},
	{.code = "device_reads", .label = "device",
	 .words = "reads: {ios_pct} of the I/Os and {bytes_pct} of the bytes reached {name}"},
	{.code = "device_writes", .label = "device",
	 .words = "writes: {ios_pct} of the I/Os and {bytes_pct} of the bytes reached {name}"},
	{.code = "device_busy", .label = "device",
	 .words = "{name} busy {util_pct} of the window"},
	{.code = "emulated_caps", .label = "emulated",
	 .words = "the run ran under emulated caps from {name}: it measured the emulation, not a "
	 "cloud disk",
	 .noname = "the run ran under emulated caps: it measured the emulation, not a cloud disk"},
	{.code = "emulated_disk", .label = "emulated",
	 .words = "disk caps over {targets} target(s): {*}"},
	{.code = "emulated_vm", .label = "emulated",
	 .words = "VM caps: {*}"},
	{.code = "held", .label = "held",
	 .words = "the I/Os waited longest for {name}: {*}",
	 .noname = "no I/O waited for an emulated cap"},
	{.code = "note_emulated_at", .label = "note",
	 .words = "the measured figure sits at the emulated {name} cap ({*})"},
	{.code = "note_null_engine", .label = "note",
	 .words = "the run used the null engine: no I/O reached any device, so it measured iorate "
	 "itself, not storage"},
	{.code = "note_direct", .label = "note",
	 .words = "the run used direct I/O (O_DIRECT), so no page cache served it: the device "
	 "measured is faster than anything this configuration publishes (a local disk, or a cache "
	 "below the guest)"},
	{.code = "note_memory", .label = "note",
	 .words = "less than {under_pct} of the run's I/Os and bytes reached the device: a page "
	 "cache served it"},
	{.code = "note_cache_unknown", .label = "note",
	 .words = "the run used the page cache; whether it served the I/O is unknown: no device "
	 "counts"},
	{.code = "note_device_served", .label = "note",
	 .words = "the device counts show the I/O reached the device: it is faster than anything "
	 "this configuration publishes (a local disk, or a cache below the guest)"},
	{.code = "note_below", .label = "note",
	 .words = "measured is {pct} of the prediction and below every published limit: more "
	 "threads or depth, or the guest or the device, hold it back"},
	{.code = "note_host_cache_hits", .label = "note",
	 .words = "reaching it needs at least {min_hit_pct} of reads served by the host cache; the "
	 "model assumed {assumed_pct} ({name})"},
};

/* The {*} labels of the emulated caps: a figure's key in words; other items' figures have none. */
static const char *fig_label(const char *code, const char *key)
{
	static const char *const keys[] = {"iops", "mbps", "burst_iops", "burst_mbps",
					    "burst_seconds"};
	static const char *const labels[] = {"sustained", "sustained", "burst", "burst",
					      "burst window"};

	if (strncmp(code, "emulated_", 9))
		return strcmp(code, "held") ? "" : key;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return labels[i];
	return key;
}

static const struct explain_words *words_of(const char *code)
{
	for (size_t i = 0; i < sizeof(explain_words) / sizeof(explain_words[0]); i++)
		if (!strcmp(explain_words[i].code, code))
			return &explain_words[i];
	return NULL;
}

/* Appends to buf at *n, keeping it terminated. */
static void put_str(char *buf, size_t len, size_t *n, const char *s, size_t k)
{
	while (k-- && *s && *n + 1 < len)
		buf[(*n)++] = *s++;
	buf[*n < len ? *n : len - 1] = '\0';
}

/* An item's name: for note_host_cache_hits, what gave the hits the model assumed. */
static const char *item_name(const struct explanation *x, const struct explain_item *it,
			     char *buf, size_t len)
{
	if (strcmp(it->code, "note_host_cache_hits"))
		return it->name;
	if (x->hit.basis == MODEL_HIT_GIVEN && x->hit.set)
		return "--read-hit";
	return model_words_hit(&x->hit, buf, len);
}

void explain_item_text(const struct explain_report *e, const struct explain_item *it,
		       char *buf, size_t len)
{
	char why[MODEL_WORDS_HIT];
	const char *name = item_name(e->x, it, why, sizeof(why));
	const struct explain_words *w = words_of(it->code);
	const char *p = w ? (name || !w->noname ? w->words : w->noname) : it->code;
	bool used[EXPLAIN_FIGS] = {0};
	char v[64];
	size_t n = 0;

	buf[0] = '\0';
	/* Which figures the words name: {*} gives the others. */
	for (unsigned i = 0; i < it->nfig; i++) {
		char tag[48];

		snprintf(tag, sizeof(tag), "{%s}", it->fig[i].key);
		used[i] = strstr(p, tag) != NULL;
	}
	while (*p) {
		const char *end = *p == '{' ? strchr(p, '}') : NULL;

		if (!end) {
			put_str(buf, len, &n, p++, 1);
			continue;
		}
		size_t k = (size_t)(end - p - 1);
		if (k == 4 && !strncmp(p + 1, "name", 4)) {
			put_str(buf, len, &n, name ? name : "-", SIZE_MAX);
		} else if (k == 6 && !strncmp(p + 1, "window", 6)) {
			put_str(buf, len, &n, e->x->window ? e->x->window : "-", SIZE_MAX);
		} else if (k == 1 && p[1] == '*') {
			bool first = true;

			for (unsigned i = 0; i < it->nfig; i++) {
				if (used[i])
					continue;
				put_str(buf, len, &n, first ? "" : ", ", SIZE_MAX);
				const char *l = fig_label(it->code, it->fig[i].key);

				put_str(buf, len, &n, l, SIZE_MAX);
				put_str(buf, len, &n, " ", l[0] ? 1 : 0);
				put_str(buf, len, &n, explain_fig_text(&it->fig[i], v, sizeof(v)),
					SIZE_MAX);
				first = false;
			}
		} else {
			for (unsigned i = 0; i < it->nfig; i++)
				if (strlen(it->fig[i].key) == k &&
				    !strncmp(p + 1, it->fig[i].key, k))
					put_str(buf, len, &n, explain_fig_text(&it->fig[i], v,
									       sizeof(v)), SIZE_MAX);
		}
		p = end + 1;
	}
}

/* The item of a code, or NULL. */
static const struct explain_item *find_item(const struct explanation *x, const char *code)
{
	for (unsigned i = 0; i < x->nitem; i++)
		if (!strcmp(x->item[i].code, code))
			return &x->item[i];
	return NULL;
}

/* A figure of an item as JSON: rounded as the text shows it; null when unknown or unbounded. */
static json_t *fig_json(const struct explain_fig *g)
{
	double v = explain_fig_value(g);

	return isfinite(v) ? json_real(v) : json_null();
}

/* The figure of key in the item of code, as JSON; null when there is none. */
static json_t *item_fig(const struct explanation *x, const char *code, const char *key)
{
	const struct explain_item *it = find_item(x, code);

	for (unsigned i = 0; it && i < it->nfig; i++)
		if (!strcmp(it->fig[i].key, key))
			return fig_json(&it->fig[i]);
	return json_null();
}

static json_t *items_json(const struct explanation *x)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < x->nitem; i++) {
		const struct explain_item *it = &x->item[i];
		char why[MODEL_WORDS_HIT];
		const char *name = item_name(x, it, why, sizeof(why));
		json_t *o = json_pack("{s:s, s:o}", "code", it->code, "name",
				      name ? json_string(name) : json_null());

		for (unsigned k = 0; o && k < it->nfig; k++)
			json_object_set_new(o, it->fig[k].key, fig_json(&it->fig[k]));
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int explain_fmt_json(FILE *f, const struct explain_report *e)
{
	const struct explanation *x = e->x;
	json_t *out = model_fmt_prediction_json(&e->model), *notes = json_array(), *ex;
	const struct explain_item *em = find_item(x, "emulated");
	char line[1024];
	int r = -ENOMEM;

	for (unsigned i = 0; notes && i < x->nitem; i++) {
		if (strncmp(x->item[i].code, "note_", 5))
			continue;
		explain_item_text(e, &x->item[i], line, sizeof(line));
		json_array_append_new(notes, json_string(line));
	}
	ex = json_pack("{s:s?, s:s?, s:s?, s:o, s:o}", "origin", x->origin, "limit", x->limit,
		       "window", x->window, "tolerance", json_real(x->tolerance),
		       "items", items_json(x));
	if (!out || !notes || !ex)
		goto out;
	/* The summary keys, each the figure of an item. */
	json_object_set_new(out, "measured", json_pack("{s:o, s:o, s:o}",
		"iops", item_fig(x, "measured", "iops"), "mbps", item_fig(x, "measured", "mbps"),
		"latency_ms", item_fig(x, "measured", "latency_ms")));
	json_object_set_new(out, "ratio_iops", item_fig(x, "compared", "ratio"));
	json_object_set_new(out, "origin", json_string(x->origin));
	json_object_set_new(out, "at_limit", !strcmp(x->origin, "at_limit") && x->limit ?
			    json_string(x->limit) : json_null());
	json_object_set_new(out, "emulated_cap", em && em->nfig ? json_pack("{s:s, s:o}",
		"name", em->name, "value", fig_json(&em->fig[0])) : json_null());
	json_object_set_new(out, "tolerance", json_real(x->tolerance));
	json_object_set_new(out, "min_hit_pct", item_fig(x, "host_cache", "min_hit_pct"));
	json_object_set(out, "notes", notes);
	json_object_set(out, "explanation", ex);
	r = report_json_dump(f, out);
out:
	json_decref(out);
	json_decref(notes);
	json_decref(ex);
	return r;
}

int explain_fmt_text(FILE *f, const struct explain_report *e)
{
	const struct explanation *x = e->x;
	char name[256], line[1024];

	model_fmt_config_name(e->model.config, name, sizeof(name));
	fputs("run:        ", f);
	escape_fputs(e->path, f);
	fprintf(f, " on %s\n", name);
	for (unsigned i = 0; i < x->nitem; i++) {
		const struct explain_item *it = &x->item[i];
		const struct explain_words *w = words_of(it->code);

		/* Above every limit with a host cache configured: no hit ratio reaches it. */
		if (any_cached(e->model.config) && (!strcmp(it->code, "above_limits") ||
						    !strcmp(it->code, "page_cache")))
			fprintf(f, "%-11s above what any host-cache hit ratio allows%s\n", "sits:",
				!strcmp(it->code, "page_cache") ? ": a page cache served it" : "");
		else {
			explain_item_text(e, it, line, sizeof(line));
			fprintf(f, "%s:%*s", w ? w->label : it->code,
				(int)(11 - strlen(w ? w->label : it->code)), "");
			escape_fputs(line, f);
			fputc('\n', f);
		}
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* A predicted row's figures, as mark's table computes a run's (mark_run_figures). */
static void mark_row_figures(const struct model_mark_report *m, const struct model_workload *w,
			     const struct model_result *r, struct mark_figures *s)
{
	double iops = m->test_s > 0 && r->duration_s > 0 ? r->avg_iops : r->iops;
	double bps = iops * (double)w->bs;

	*s = (struct mark_figures){.mbps = bps / 1e6, .mibps = bps / 1048576.0,
		.kdiskmark_mbps = floor(bps / 1024.0) / 1000.0, .iops = iops,
		.lat_mean_us = iops > 0 ? fmax(r->service_ms, (double)w->threads * w->depth /
					       iops * 1000) * 1000 : NAN};
}

/* Whether every row's reads were given their hits for the same reason. */
static bool one_reason(const struct model_mark_report *m)
{
	char a[MODEL_WORDS_HIT], b[MODEL_WORDS_HIT];

	model_words_hit(&m->rows[0].r[0].hit, a, sizeof(a));
	for (unsigned i = 1; i < m->nrows; i++)
		if (strcmp(model_words_hit(&m->rows[i].r[0].hit, b, sizeof(b)), a))
			return false;
	return true;
}

int model_mark_fmt_text(FILE *f, const struct model_mark_report *m)
{
	static const char *const rule = "------------------------------------------------------"
					 "------------------------";
	static const char *const titles[2] = {"Read", "Write"};
	char name[256], pct[16], size[32], why[MODEL_WORDS_HIT];

	fprintf(f, "%s\niorate model --mark %s: CrystalDiskMark's tests, predicted\n%s\n", rule,
		IORATE_VERSION, rule);
	fprintf(f, "%s\n* KiB = 1024 bytes, MiB = 1024 KiB\n", mark_fmt_legend(MARK_UNITS_SI));
	fprintf(f, "* Predicted: each test's mean over %.3g s of I/O, from full burst credits\n",
		m->test_s);
	for (int d = 0; d < 2; d++) {
		fprintf(f, "\n[%s]\n", titles[d]);
		for (unsigned i = 0; i < m->nrows; i++) {
			struct mark_figures s;

			mark_row_figures(m, &m->rows[i].w[d], &m->rows[i].r[d], &s);
			mark_fmt_row(f, m->rows[i].test, &s, MARK_UNITS_SI);
		}
	}
	model_fmt_config_name(m->config, name, sizeof(name));
	fprintf(f, "\nProfile: %s", m->title);
	if (m->preset_title)
		fprintf(f, " [%s]", m->preset_title);
	fprintf(f, "\n   Test: %s working set\n  Model: %s, host cache %s\n",
		m->config->working_set > 0 ? fmt_size((uint64_t)m->config->working_set, size,
						      sizeof(size)) : "no",
		name, cache_words(m->config));
	bool cached = any_cached(m->config), same = cached && one_reason(m);

	if (!cached)
		fprintf(f, "  Cache: no host cache\n");
	else if (same)
		fprintf(f, "  Cache: %s of reads served by the host cache (%s)\n",
			pct_words(m->rows[0].r[0].hit.pct, pct, sizeof(pct)),
			model_words_hit(&m->rows[0].r[0].hit, why, sizeof(why)));
	for (unsigned i = 0; cached && !same && i < m->nrows; i++)
		fprintf(f, "  Cache: %s: %s of reads (%s)\n", m->rows[i].test->name,
			pct_words(m->rows[i].r[0].hit.pct, pct, sizeof(pct)),
			model_words_hit(&m->rows[i].r[0].hit, why, sizeof(why)));
	for (unsigned i = 0; i < m->nrows; i++)
		fprintf(f, "  Bound: %s: read %s, write %s\n", m->rows[i].test->name,
			m->rows[i].r[0].binding, m->rows[i].r[1].binding);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

static json_t *mark_cell_json(const struct model_mark_report *m, const struct model_workload *w,
			      const struct model_result *r)
{
	struct mark_figures s;
	char why[MODEL_WORDS_HIT];

	mark_row_figures(m, w, r, &s);
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:s}", "mbps", num(s.mbps),
			 "mibps", num(s.mibps), "kdiskmark_mbps", num(s.kdiskmark_mbps),
			 "iops", num(s.iops), "lat_mean_us", num(s.lat_mean_us),
			 "binding", r->binding, "read_hit_pct",
			 r->hit.known && any_cached(m->config) ? num(r->hit.pct) : json_null(),
			 "read_hit_why", model_words_hit(&r->hit, why, sizeof(why)));
}

int model_mark_fmt_json(FILE *f, const struct model_mark_report *m)
{
	json_t *tests = json_array(), *o;
	int rc;

	for (unsigned i = 0; tests && i < m->nrows; i++) {
		const struct model_mark_row *row = &m->rows[i];

		json_array_append_new(tests, json_pack("{s:s, s:s, s:I, s:i, s:i, s:o, s:o}",
			"name", row->test->name, "pattern", row->test->seq ? "sequential" : "random",
			"bs", (json_int_t)row->test->bs, "depth", (int)row->test->depth,
			"threads", (int)row->test->threads,
			"read", mark_cell_json(m, &row->w[0], &row->r[0]),
			"write", mark_cell_json(m, &row->w[1], &row->r[1])));
	}
	o = json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "schema", 1,
		      "origin", "model --mark", "profile", m->profile, "preset", m->preset,
		      "config", config_json(m->config),
		      "working_set_bytes", m->config->working_set > 0 ?
		      num(m->config->working_set) : json_null(),
		      "test_s", num(m->test_s), "tests", tests);
	if (!o || json_array_size(tests) != m->nrows) {
		json_decref(o);
		return -ENOMEM;
	}
	json_object_set_new(json_object_get(o, "config"), "read_hit_pct",
			    m->nrows && one_reason(m) && m->rows[0].r[0].hit.known ?
			    num(any_cached(m->config) ? m->rows[0].r[0].hit.pct : 0) :
			    json_null());
	rc = report_json_dump(f, o);
	json_decref(o);
	return rc;
}

static const struct model_format model_entries[] = {
	{.f = REPORT_TEXT, .write = model_fmt_text, .mark = model_mark_fmt_text},
	{.f = REPORT_JSON, .write = model_fmt_json, .mark = model_mark_fmt_json},
};
static const struct plan_format plan_entries[] = {
	{.f = REPORT_TEXT, .write = plan_fmt_text},
	{.f = REPORT_JSON, .write = plan_fmt_json},
};
static const struct explain_format explain_entries[] = {
	{.f = REPORT_TEXT, .write = explain_fmt_text},
	{.f = REPORT_JSON, .write = explain_fmt_json},
};

const struct report_formats model_formats = REPORT_FORMATS("iorate model", model_entries);
const struct report_formats plan_formats = REPORT_FORMATS("iorate plan", plan_entries);
const struct report_formats explain_formats = REPORT_FORMATS("iorate explain", explain_entries);
