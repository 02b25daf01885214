#ifndef IORATE_REPORT_CALC_INT_H
#define IORATE_REPORT_CALC_INT_H
#include <stdbool.h>

#include <jansson.h>

#include "model/catalog.h"
#include "report/calc_html.h"

/* What calc_data.c and calc_config.c share while they build the page's data. */

/* The tables every part shares: price sources and messages, each written once. */
struct pool {
	json_t *sources, *source_index;     /* [[source, date, age_days, stale]], key -> index */
	json_t *messages, *message_index;
	long long now;
	bool oom;
};

/* The index of a price's source and date in the sources table (added when new). */
json_int_t calc_pool_source(struct pool *pl, const char *source, const char *date);
/* The index of a message in the messages table (added when new). */
json_int_t calc_pool_message(struct pool *pl, const char *msg);
/* A string for JSON: NULL as "" (the page treats both alike, as the command line does). */
const char *calc_str(const char *s);
/* Appends v to a, noting when memory ran out. */
void calc_push(struct pool *pl, json_t *a, json_t *v);
/* [{region, currency}]: where the prices that match are, "" for none (calc_data.c). */
json_t *calc_markets(const struct catalog *c, bool (*match)(const struct cat_price *, void *),
		     void *arg);
/* A market's region or currency as the lookups take it: NULL for "". */
const char *calc_market_str(const json_t *m, const char *key);
/* A price given on the command line, or null (< 0: none given). */
json_t *calc_optional_price(double v);
/* The configuration part: providers, their VMs, disk choices, markets; the first choices. */
json_t *calc_config_data(struct pool *pl, const struct catalog *c,
			 const struct calc_config_init *ci);

#endif
