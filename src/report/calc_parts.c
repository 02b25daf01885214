/*
 * The bottom of the calculator page's data (calc_int.h): the tables both its parts share, the
 * pool of sources and messages, the markets, and how a price is pushed into them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/cost.h"
#include "report/calc_int.h"

json_int_t calc_pool_source(struct pool *pl, const char *source, const char *date)
{
	char *key = NULL;
	json_t *at;
	json_int_t i;
	int age = catalog_price_age_days(date, pl->now);

	if (asprintf(&key, "%s\x1f%s", source ? source : "", date ? date : "") < 0) {
		pl->oom = true;
		return 0;
	}
	if ((at = json_object_get(pl->source_index, key))) {
		free(key);
		return json_integer_value(at);
	}
	i = (json_int_t)json_array_size(pl->sources);
	if (json_array_append_new(pl->sources, json_pack("[s, s, o, b]", source ? source : "",
			date ? date : "", age < 0 ? json_null() : json_integer(age),
			catalog_price_stale(age))) ||
	    json_object_set_new(pl->source_index, key, json_integer(i)))
		pl->oom = true;
	free(key);
	return i;
}

json_int_t calc_pool_message(struct pool *pl, const char *msg)
{
	json_t *at = json_object_get(pl->message_index, msg);
	json_int_t i;

	if (at)
		return json_integer_value(at);
	i = (json_int_t)json_array_size(pl->messages);
	if (json_array_append_new(pl->messages, json_string(msg)) ||
	    json_object_set_new(pl->message_index, msg, json_integer(i)))
		pl->oom = true;
	return i;
}

/* Appends v to a, noting when memory ran out (json_array_append_new frees v then). */
void calc_push(struct pool *pl, json_t *a, json_t *v)
{
	if (!v || json_array_append_new(a, v))
		pl->oom = true;
}

/*
 * The distinct (region, currency) pairs of the prices that match: every region a price names
 * (case aside), and with each the currencies of the prices of that region or of none. A price
 * without a region counts in every region; with no region at all, one pair of none ("").
 */
json_t *calc_markets(const struct catalog *c, bool (*match)(const struct cat_price *, void *),
		     void *arg)
{
	json_t *out = json_array(), *regions = json_array();
	size_t i, j;

	for (i = 0; i < c->nprices; i++) {
		const struct cat_price *p = &c->prices[i];
		bool seen = false;

		if (!match(p, arg) || !p->region)
			continue;
		for (j = 0; j < json_array_size(regions) && !seen; j++)
			seen = !strcasecmp(json_string_value(json_array_get(regions, j)), p->region);
		if (!seen)
			json_array_append_new(regions, json_string(p->region));
	}
	if (!json_array_size(regions))
		json_array_append_new(regions, json_string(""));
	for (j = 0; j < json_array_size(regions); j++) {
		const char *r = json_string_value(json_array_get(regions, j));
		json_t *cur = json_array();

		for (i = 0; cur && i < c->nprices; i++) {
			const struct cat_price *p = &c->prices[i];
			bool seen = false;

			if (!match(p, arg) || !p->currency || (p->region && strcasecmp(p->region, r)))
				continue;
			for (size_t k = 0; k < json_array_size(cur) && !seen; k++)
				seen = !strcasecmp(json_string_value(json_array_get(cur, k)),
						   p->currency);
			if (!seen)
				json_array_append_new(cur, json_string(p->currency));
		}
		if (cur && !json_array_size(cur))
			json_array_append_new(cur, json_string(""));
		for (size_t k = 0; cur && k < json_array_size(cur); k++)
			json_array_append_new(out, json_pack("{s:s, s:O}", "region", r, "currency",
							     json_array_get(cur, k)));
		json_decref(cur);
	}
	json_decref(regions);
	return out;
}

/* A market's region or currency as the lookups take it: "" is none. */
const char *calc_market_str(const json_t *m, const char *key)
{
	const char *s = json_string_value(json_object_get(m, key));

	return s && *s ? s : NULL;
}

json_t *calc_optional_price(double v)
{
	return v < 0 ? json_null() : json_real(v);
}
