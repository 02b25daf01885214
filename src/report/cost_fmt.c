/* The outputs of 'iorate cost' (model_fmt.h): an upload's price and a configuration's. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model_fmt.h"
#include "report/model_words.h"
#include "report/summary.h"
#include "util/parse.h"

/* The chunk size the model takes when none is given (cost.h). */
static uint64_t chunk_of(const struct cost_upload *u)
{
	return u->chunk ? u->chunk : 524288;
}

/* An age in days, or null when unknown (undated, or given on the command line). */
static json_t *age_json(int age_days)
{
	return age_days < 0 ? json_null() : json_integer(age_days);
}

/*
 * An amount in hundredths of its currency as the text prints it ("%.2f", which rounds the
 * exact binary value, a tie to even): a figure to compare exactly with what is shown.
 */
static json_t *cents(double v)
{
	char buf[40], *dot;

	if (!isfinite(v) || fabs(v) >= 1e15)
		return json_null();
	snprintf(buf, sizeof(buf), "%.2f", v);
	if ((dot = strchr(buf, '.')))
		memmove(dot, dot + 1, strlen(dot));
	return json_integer(strtoll(buf, NULL, 10));
}

/* "prices in: region northeurope (from ~/.config/iorate/config), ...": defaults of the file. */
static void defaults_line(FILE *f, const char *region, const char *region_from,
			  const char *currency, const char *currency_from)
{
	if (!region_from && !currency_from)
		return;
	fprintf(f, "prices in:     ");
	if (region_from)
		fprintf(f, "region %s (from %s)%s", region ? region : "", region_from,
			currency_from ? ", " : "");
	if (currency_from)
		fprintf(f, "currency %s (from %s)", currency ? currency : "", currency_from);
	fputc('\n', f);
}

static int set_from(json_t *o, const char *region_from, const char *currency_from)
{
	return o && (json_object_set_new(o, "region_from", region_from ?
					 json_string(region_from) : json_null()) ||
		     json_object_set_new(o, "currency_from", currency_from ?
					 json_string(currency_from) : json_null()));
}

int cost_fmt_upload_json(FILE *f, const struct cost_upload_report *u)
{
	const struct cost_upload_result *r = u->result;
	json_t *cmp = json_array(), *o;
	int ret;

	for (unsigned i = 0; cmp && i < u->nchunks; i++)
		json_array_append_new(cmp, json_pack("{s:I, s:I, s:f, s:o}", "chunk",
			(json_int_t)u->chunks[i], "transactions",
			(json_int_t)u->by_chunk[i].transactions, "transaction_cost",
			u->by_chunk[i].transaction_cost, "transaction_cost_cents",
			cents(u->by_chunk[i].transaction_cost)));
	o = json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o, s:o, s:o, s:s?,"
		" s:s?, s:s?, s:s?, s:o, s:b, s:i, s:o}",
		"data", (json_int_t)u->upload->data, "chunk", (json_int_t)chunk_of(u->upload),
		"transactions", (json_int_t)r->transactions, "gib", r->gib,
		"write_per_10k", r->write_per_10k, "per_gb_month", r->per_gb_month,
		"months", r->months, "transaction_cost", r->transaction_cost,
		"storage_cost", r->storage_cost, "total", r->total, "transaction_cost_cents",
		cents(r->transaction_cost), "storage_cost_cents", cents(r->storage_cost),
		"total_cents", cents(r->total), "currency", r->currency,
		"price_source", r->price_source, "price_date", r->price_date,
		"price_region", r->price_region, "price_age_days", age_json(r->age_days),
		"price_stale", r->stale, "stale_after_days", CATALOG_PRICE_STALE_DAYS,
		"by_chunk", cmp);
	/* Geo-replication (null when its price is unknown) and early deletion. */
	if (o && (json_object_set_new(o, "geo_replicated", json_boolean(r->geo)) ||
		  json_object_set_new(o, "geo_per_gb", r->geo && r->geo_per_gb >= 0 ?
				      json_real(r->geo_per_gb) : json_null()) ||
		  json_object_set_new(o, "geo_cost", r->geo && r->geo_per_gb >= 0 ?
				      json_real(r->geo_cost) : json_null()) ||
		  json_object_set_new(o, "geo_cost_cents", r->geo && r->geo_per_gb >= 0 ?
				      cents(r->geo_cost) : json_null()) ||
		  json_object_set_new(o, "min_days", json_integer(r->min_days)) ||
		  json_object_set_new(o, "keep_days", json_real(r->keep_days)) ||
		  json_object_set_new(o, "keep_assumed", json_boolean(!r->keep_given)) ||
		  json_object_set_new(o, "early_days", json_real(r->early_days)) ||
		  json_object_set_new(o, "early_cost", json_real(r->early_cost)) ||
		  json_object_set_new(o, "early_cost_cents", cents(r->early_cost)) ||
		  set_from(o, u->upload->region_from, u->upload->currency_from))) {
		json_decref(o);
		o = NULL;
	}
	ret = report_json_dump(f, o);
	json_decref(o);
	return ret;
}

/* Where a missing geo-replication price would come from, and the command that fetches it. */
static void geo_unknown(FILE *f, const struct cost_upload_report *u)
{
	const struct cost_upload_result *r = u->result;
	const char *region = r->price_region ? r->price_region : u->upload->region;
	const char *cur = r->currency ? r->currency : u->upload->currency;

	if (!r->price_source) {
		fprintf(f, "  note: the prices given have no geo-replication price: give "
			"--geo-price\n");
		return;
	}
	fprintf(f, "  note: no geo-replication price in %s %s; 'iorate catalog prices "
		"--provider azure --region %s --currency %s' downloads it, or give --geo-price\n",
		region ? region : "", cur ? cur : "", region ? region : "R", cur ? cur : "USD");
}

int cost_fmt_upload_text(FILE *f, const struct cost_upload_report *u)
{
	const struct cost_upload_result *r = u->result;
	const char *cur = r->currency ? r->currency : "";
	char b1[32], b2[32], p1[32], d1[32];

	if (!r->keep_given)
		fprintf(f, "upload:        %s (%.2f GiB) in %s chunks, %.0f month%s of storage\n",
			fmt_size(u->upload->data, b1, sizeof(b1)), r->gib,
			fmt_size(chunk_of(u->upload), b2, sizeof(b2)), r->months,
			r->months == 1 ? "" : "s");
	else
		fprintf(f, "upload:        %s (%.2f GiB) in %s chunks, kept %s days\n",
			fmt_size(u->upload->data, b1, sizeof(b1)), r->gib,
			fmt_size(chunk_of(u->upload), b2, sizeof(b2)),
			fmt_decimal(r->keep_days, 0, d1, sizeof(d1)));
	/* Prices as the list wrote them; amounts to the cent. */
	fprintf(f, "transactions:  %llu writes x %s per 10,000 = %.2f %s\n",
		(unsigned long long)r->transactions, fmt_decimal(r->write_per_10k, 0, p1, sizeof(p1)),
		r->transaction_cost, cur);
	if (!r->keep_given)
		fprintf(f, "storage:       %.2f GB x %s per GB-month x %.0f = %.2f %s\n", r->gib,
			fmt_decimal(r->per_gb_month, 0, p1, sizeof(p1)), r->months, r->storage_cost,
			cur);
	else
		fprintf(f, "storage:       %.2f GB x %s per GB-month x %s/%d days = %.2f %s\n",
			r->gib, fmt_decimal(r->per_gb_month, 0, p1, sizeof(p1)),
			fmt_decimal(r->keep_days, 0, d1, sizeof(d1)), COST_DAYS_PER_MONTH,
			r->storage_cost, cur);
	if (r->geo && r->geo_per_gb >= 0)
		fprintf(f, "geo-replication: %.2f GB written x %s per GB = %.2f %s\n", r->gib,
			fmt_decimal(r->geo_per_gb, 0, p1, sizeof(p1)), r->geo_cost, cur);
	else if (r->geo)
		fprintf(f, "geo-replication: %.2f GB written x price unknown, not in the total\n",
			r->gib);
	if (r->min_days) {
		char tier[16];
		size_t i = 0;

		/* The tier as the page's pull-down spells it: --tier takes any case. */
		for (const char *t = u->upload->tier ? u->upload->tier : "hot"; *t && i < 15; t++)
			tier[i++] = (char)tolower((unsigned char)*t);
		tier[i] = '\0';
		fprintf(f, "retention:     %s bills %u days at least; kept %s days%s\n", tier,
			r->min_days,
			fmt_decimal(r->keep_days, 0, d1, sizeof(d1)),
			!r->keep_given ? " (assumed: the months stored; --keep-days DAYS)" : "");
		if (r->early_days > 0)
			fprintf(f, "early deletion: %.2f GB x %s per GB-month x %s/%d days = %.2f %s\n",
				r->gib, fmt_decimal(r->per_gb_month, 0, p1, sizeof(p1)),
				fmt_decimal(r->early_days, 0, d1, sizeof(d1)), COST_DAYS_PER_MONTH,
				r->early_cost, cur);
	}
	fprintf(f, "total:         %.2f %s%s\n", r->total, cur,
		r->geo && r->geo_per_gb < 0 ? " (without geo-replication: price unknown)" : "");
	if (r->geo && r->geo_per_gb < 0)
		geo_unknown(f, u);
	defaults_line(f, u->upload->region, u->upload->region_from, u->upload->currency,
		      u->upload->currency_from);
	if (r->price_source) {
		char age[512]; /* a long date ("undated copy (...)") and its staleness */

		fprintf(f, "prices from:   %s (%s%s, dated %s)\n", r->price_source,
			r->price_region ? "region " : "", r->price_region ? r->price_region : "",
			model_fmt_price_age(r->price_date, r->age_days, r->stale, age,
					    sizeof(age)));
		model_fmt_stale_note(f, r->stale, "");
	}
	fprintf(f, "\nchunk size vs transaction cost (smaller chunks deduplicate better, cost more):"
		"\n");
	for (unsigned i = 0; i < u->nchunks; i++)
		fprintf(f, "  %8s  %12llu writes  %10.2f\n", fmt_size(u->chunks[i], b1, sizeof(b1)),
			(unsigned long long)u->by_chunk[i].transactions,
			u->by_chunk[i].transaction_cost);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

const char *model_fmt_price_age(const char *date, int age_days, bool stale, char *buf,
				size_t len)
{
	if (!stale)
		snprintf(buf, len, "%s", date ? date : "");
	else if (age_days < 0)
		snprintf(buf, len, "%s; STALE: of unknown age", date ? date : "");
	else
		snprintf(buf, len, "%s; STALE: %d days old", date ? date : "", age_days);
	return buf;
}

json_t *model_fmt_cost_json(const struct cost_breakdown *b)
{
	json_t *lines = json_array();
	char what[MODEL_WORDS_COST];

	for (unsigned i = 0; lines && i < b->nlines; i++)
		json_array_append_new(lines, json_pack("{s:s, s:f, s:o, s:s, s:s, s:o, s:b}",
			"what", model_words_cost(&b->lines[i], what, sizeof(what)), "month", b->lines[i].amount, "month_cents",
			cents(b->lines[i].amount), "source", b->lines[i].source,
			"date", b->lines[i].date ? b->lines[i].date : "", "age_days",
			age_json(b->lines[i].age_days), "stale", b->lines[i].stale));
	json_t *o;

	/* "o" takes lines, and frees it when the pack fails. */
	o = json_pack("{s:f, s:o, s:s, s:s, s:i, s:i, s:o}", "total_month", b->total,
			 "total_month_cents", cents(b->total), "currency",
			 b->currency, "region", b->region ? b->region : "", "stale_prices",
			 (int)b->nstale, "stale_after_days", CATALOG_PRICE_STALE_DAYS, "lines",
			 lines);
	if (set_from(o, b->region_from, b->currency_from)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void model_fmt_stale_note(FILE *f, unsigned nstale, const char *indent)
{
	if (nstale)
		fprintf(f, "%snote: %u price line%s older than %d days or undated (STALE "
			"above); 'iorate catalog prices' downloads current ones\n", indent, nstale,
			nstale == 1 ? " is" : "s are", CATALOG_PRICE_STALE_DAYS);
}

int cost_fmt_config_json(FILE *f, const struct cost_breakdown *b)
{
	json_t *o = model_fmt_cost_json(b);
	int r = report_json_dump(f, o);

	json_decref(o);
	return r;
}

int cost_fmt_config_text(FILE *f, const struct cost_breakdown *b)
{
	char age[512]; /* a long date ("undated copy (...)") and its staleness */
	char what[MODEL_WORDS_COST];

	for (unsigned i = 0; i < b->nlines; i++)
		fprintf(f, "%-52s %10.2f %s\n  source: %s (dated %s)\n",
			model_words_cost(&b->lines[i], what, sizeof(what)),
			b->lines[i].amount, b->currency, b->lines[i].source,
			model_fmt_price_age(b->lines[i].date, b->lines[i].age_days,
					    b->lines[i].stale, age, sizeof(age)));
	fprintf(f, "%-52s %10.2f %s per month%s%s\n", "total", b->total, b->currency,
		b->region && *b->region ? " in " : "", b->region ? b->region : "");
	defaults_line(f, b->region, b->region_from, b->currency, b->currency_from);
	model_fmt_stale_note(f, b->nstale, "");
	return fflush(f) || ferror(f) ? -EIO : 0;
}

static const struct cost_upload_format upload_formats[] = {
	{.f = REPORT_TEXT, .write = cost_fmt_upload_text},
	{.f = REPORT_JSON, .write = cost_fmt_upload_json},
};
static const struct cost_config_format config_formats[] = {
	{.f = REPORT_TEXT, .write = cost_fmt_config_text},
	{.f = REPORT_JSON, .write = cost_fmt_config_json},
};

const struct report_formats cost_upload_formats = REPORT_FORMATS("iorate cost upload",
								 upload_formats);
const struct report_formats cost_config_formats = REPORT_FORMATS("iorate cost config",
								 config_formats);
