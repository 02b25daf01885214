/*
 * A direction's nested values (result_fields_fig and result_fields_dir, fields.c): the figures'
 * lat_us, written for readers, and the histogram, written and read back.
 */
#include <stdlib.h>

#include "result/result_json.h"
#include "result/result_json_int.h"

#define put result_json_put
#define append result_json_append

/* lat_us: min, mean, stdev, max and the percentiles; null without latencies. */
json_t *result_json_put_lat(const void *base, int *err)
{
	const struct dir_summary *s = base;
	const double pct[STATS_NPCT] = {s->p50, s->p90, s->p99, s->p99_9, s->p99_99, s->p99_999};

	if (!s->has_lat)
		return json_null();
	json_t *o = json_object();

	put(o, "min", result_json_real(s->lat_min), err);
	put(o, "mean", result_json_real(s->lat_mean), err);
	put(o, "stdev", result_json_real(s->lat_stdev), err);
	put(o, "max", result_json_real(s->lat_max), err);
	for (unsigned i = 0; i < STATS_NPCT; i++)
		put(o, stats_pct_names[i], result_json_real(pct[i]), err);
	return o;
}

/* The non-empty buckets as [index, count] pairs, in index order. */
static json_t *hist_arr(const struct hist *h, int *err)
{
	json_t *a = json_array();

	for (unsigned i = 0; h && i < HIST_BUCKETS; i++) {
		if (!h->counts[i])
			continue;
		json_t *c = result_json_u64(h->counts[i]);

		append(a, c ? json_pack("[Io]", (json_int_t)i, c) : NULL, err);
	}
	return a;
}

json_t *result_json_put_hist(const void *base, int *err)
{
	return hist_arr(((const struct dir_stats *)base)->hist, err);
}

/* The non-empty buckets, [index, count] in rising index order, adding up to lat_n. */
static void read_hist(struct rd *rd, const json_t *o, struct dir_stats *d)
{
	json_t *a = rd_arr(rd, o, "hist"), *e;
	size_t i, m = rd_enter(rd, "hist", 0);
	json_int_t prev = -1;
	uint64_t sum = 0, c = 0;

	json_array_foreach(a, i, e) {
		json_t *ix = json_array_get(e, 0);
		json_int_t k = json_integer_value(ix);
		size_t m2 = rd_enter(rd, NULL, i);

		if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_integer(ix) ||
		    rd_u64_of(json_array_get(e, 1), &c))
			rd_fail(rd, NULL, "not an [index, count] pair of integers");
		else if (k <= prev || k >= HIST_BUCKETS)
			rd_fail(rd, NULL, "bucket %lld is not after %lld and below %u", (long long)k,
				(long long)prev, HIST_BUCKETS);
		else if (sum + c < sum)
			rd_fail(rd, NULL, "the counts add up past 2^64");
		rd_leave(rd, m2);
		if (!rd->rc && !d->hist && !(d->hist = calloc(1, sizeof(*d->hist))))
			rd_fail(rd, NULL, "out of memory");
		if (rd->rc)
			break;
		d->hist->counts[k] = c;
		sum += c;
		prev = k;
	}
	if (!rd->rc && sum != d->lat_n)
		rd_fail(rd, NULL, "counts %llu latencies, lat_n %llu", (unsigned long long)sum,
			(unsigned long long)d->lat_n);
	rd_leave(rd, m);
}

void result_json_get_hist(struct rd *rd, const json_t *o, const char *key, void *base)
{
	(void)key;
	read_hist(rd, o, base);
}
