/*
 * The bounds of a kept price (prices.h): a price list is input from a server, and a stored price
 * file input from disk, so a price of 1e308 or -1 is refused before cost multiplies it into
 * "inf USD".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/prices.h"
#include "util/err.h"

/*
 * The largest real prices, in USD: a VM about 400 an hour (AWS's u7in-32tb.224xlarge), a disk
 * about 3,600 a month (Azure's 32 TiB P80), a GiB, IOPS or MB/s-month and a GB of blob under 1,
 * 10,000 blob operations under 100 (Archive's priority reads). The weakest currency the Azure
 * API prices in is KRW (about 1,400 to the dollar): 6e5 an hour, 5e6 a month, 1.4e5 per 10,000.
 * Each bound is more than ten times that, so no real list trips one, and none overflows a cost.
 */
static const struct {
	const char *key;
	double max;
} bounds[] = {
	{.key = "per_hour", .max = 1e7},
	{.key = "per_month", .max = 1e8},
	{.key = "per_gib_month", .max = 1e6},
	{.key = "per_iops_month", .max = 1e6},
	{.key = "per_iops_month_above", .max = 1e6},
	{.key = "per_mbps_month", .max = 1e6},
	{.key = "per_gb_month", .max = 1e6},
	{.key = "per_10k_transactions", .max = 1e7},
	{.key = "write_per_10k", .max = 1e7},
	{.key = "read_per_10k", .max = 1e7},
	{.key = "geo_per_gb", .max = 1e6},
};

double prices_bound(const char *key)
{
	for (size_t i = 0; key && i < sizeof(bounds) / sizeof(bounds[0]); i++)
		if (!strcmp(bounds[i].key, key))
			return bounds[i].max;
	return INFINITY;
}

int prices_check(const char *key, double listed, double kept, const char *what,
		 const char *currency, char *err, size_t errlen)
{
	const char *cur = currency && *currency ? currency : "";
	double max = prices_bound(key);

	if (isnan(listed) || isnan(kept))
		return err_set(err, errlen, -EINVAL, "%s: the price is not a number", what);
	if (isinf(listed))
		return err_set(err, errlen, -EINVAL, "%s: the price is infinite", what);
	if (listed < 0 || kept < 0)
		return err_set(err, errlen, -EINVAL, "%s: the price %g%s%s is negative", what,
			       listed, *cur ? " " : "", cur);
	if (kept > max) {
		char as[80] = "";

		if (kept != listed)
			snprintf(as, sizeof(as), " (%s %g)", key, kept);
		return err_set(err, errlen, -EINVAL, "%s: the price %g%s%s%s is above %g, the "
			       "bound of %s: beyond any real price list", what, listed,
			       *cur ? " " : "", cur, as, max, key);
	}
	return 0;
}
