/*
 * The calculator page's data (report/calc_html.h, schema in docs/cost.md): every price 'iorate
 * cost' would find for each choice the page offers, found with the model's own lookups (the
 * upload's here, the configuration's in calc_config.c), so the page's script only does the
 * arithmetic. The tables both parts share (sources, messages, markets) are calc_parts.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/cost.h"
#include "report/calc_int.h"

/* The chunk sizes 'cost upload' compares (cmd_cost.c), offered first. */
static const uint64_t upload_chunks[] = {64 << 10, 512 << 10, 4 << 20};
static const char *const tiers[] = {"hot", "cool", "cold", "archive", NULL};
static const char *const redundancies[] = {"lrs", "grs", "ragrs", "zrs", NULL};

/* A string for JSON: NULL as "" (the page treats both alike, as the command line does). */
const char *calc_str(const char *s)
{
	return s ? s : "";
}

/* ---- markets: the regions and currencies prices exist in ---- */

/* ---- upload ---- */

static bool is_storage(const struct cat_price *p, void *arg)
{
	(void)arg;
	return !strcmp(p->kind, "storage") && p->tier && p->redundancy;
}

/* The price 'cost upload' finds for each tier, redundancy and market (cost_upload itself). */
static json_t *upload_prices(struct pool *pl, const struct catalog *c, const json_t *mk)
{
	json_t *out = json_array();

	for (size_t m = 0; out && m < json_array_size(mk); m++) {
		const json_t *mt = json_array_get(mk, m);

		for (unsigned t = 0; tiers[t]; t++)
			for (unsigned r = 0; redundancies[r]; r++) {
				struct cost_upload u = {.write_per_10k = -1, .per_gb_month = -1,
					.tier = tiers[t], .redundancy = redundancies[r],
					.region = calc_market_str(mt, "region"),
					.currency = calc_market_str(mt, "currency"), .now = pl->now};
				struct cost_upload_result res;
				char err[256];

				if (cost_upload(c, &u, &res, err, sizeof(err)))
					continue;
				/* geo_per_gb: null where the list has none (or none is billed). */
				calc_push(pl, out, json_pack("{s:i, s:s, s:s, s:f, s:f, s:o, s:s, s:s, "
					"s:I}", "market", (int)m, "tier", tiers[t], "redundancy",
					redundancies[r], "write_per_10k", res.write_per_10k,
					"per_gb_month", res.per_gb_month, "geo_per_gb",
					res.geo && res.geo_per_gb >= 0 ? json_real(res.geo_per_gb) :
					json_null(), "currency", calc_str(res.currency),
					"region", calc_str(res.price_region), "source",
					calc_pool_source(pl, res.price_source, res.price_date)));
			}
	}
	return out;
}

static json_t *upload_initial(const struct calc_upload_init *u)
{
	char data[32];

	snprintf(data, sizeof(data), "%llu", (unsigned long long)u->data);
	return json_pack("{s:s?, s:I, s:s?, s:s?, s:s?, s:s?, s:f, s:o, s:o, s:o, s:o}",
		"data", u->data ? data : NULL, "chunk", (json_int_t)(u->chunk ? u->chunk : 512 << 10),
		"tier", u->tier, "redundancy", u->redundancy, "region", u->region,
		"currency", u->currency, "months", u->months > 0 ? u->months : 1,
		"write_price", calc_optional_price(u->write_per_10k),
		"gb_price", calc_optional_price(u->per_gb_month),
		"geo_price", calc_optional_price(u->geo_given ? u->geo_per_gb : -1),
		"keep", u->keep_days > 0 ? json_real(u->keep_days) : json_null());
}

static json_t *upload_data(struct pool *pl, const struct catalog *c,
			   const struct calc_upload_init *u)
{
	json_t *mk = calc_markets(c, is_storage, NULL), *chunks = json_array(), *words = json_array();
	json_t *reds = json_array();
	uint64_t given = u->chunk ? u->chunk : 512 << 10;
	bool listed = false;

	for (unsigned i = 0; i < 3; i++) {
		calc_push(pl, chunks, json_integer((json_int_t)upload_chunks[i]));
		listed |= upload_chunks[i] == given;
	}
	if (!listed)
		calc_push(pl, chunks, json_integer((json_int_t)given));
	for (unsigned i = 0; tiers[i]; i++)
		calc_push(pl, words, json_string(tiers[i]));
	for (unsigned i = 0; redundancies[i]; i++)
		calc_push(pl, reds, json_string(redundancies[i]));
	json_t *mins = json_object();

	/* Each tier's minimum retention, as cost_min_days() has it (the page's early deletion). */
	for (unsigned i = 0; mins && tiers[i]; i++)
		if (json_object_set_new(mins, tiers[i], json_integer(cost_min_days(tiers[i]))))
			pl->oom = true;
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "min_days", mins,
			 "chunks", chunks, "compare",
			 json_pack("[I, I, I]", (json_int_t)upload_chunks[0],
				   (json_int_t)upload_chunks[1], (json_int_t)upload_chunks[2]),
			 "tiers", words, "redundancies", reds, "markets", mk,
			 "prices", upload_prices(pl, c, mk), "initial", upload_initial(u));
}

json_t *calc_data(const struct calc_page *p)
{
	struct pool pl = {.sources = json_array(), .source_index = json_object(),
			  .messages = json_array(), .message_index = json_object(),
			  .now = cost_now(p->now)};
	time_t t = (time_t)pl.now;
	struct tm tm;
	char date[16] = "";
	json_t *o = NULL, *up = upload_data(&pl, p->cat, &p->upload);
	json_t *conf = calc_config_data(&pl, p->cat, &p->config);

	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	if (!pl.oom && pl.sources && pl.messages)
		o = json_pack("{s:i, s:s, s:s, s:i, s:O, s:O, s:O, s:O}", "schema", 1, "open",
			      p->config_first ? "config" : "upload", "date", date,
			      "stale_after_days", CATALOG_PRICE_STALE_DAYS, "sources", pl.sources,
			      "messages", pl.messages, "upload", up, "config", conf);
	json_decref(up);
	json_decref(conf);
	json_decref(pl.sources);
	json_decref(pl.source_index);
	json_decref(pl.messages);
	json_decref(pl.message_index);
	return o;
}
