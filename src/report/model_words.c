/*
 * The model returns codes and figures (model/predict.h, hostcache.h, cost.h); these are their
 * words, shared by every output of model, plan, explain and cost (model_words.h).
 */
#include "report/model_words.h"

#include <math.h>
#include <stdio.h>
#include <strings.h>

#include "util/parse.h"

const char *model_words_note(const struct model_note *n, char *buf, size_t len)
{
	switch (n->kind) {
	case MODEL_NOTE_NO_VM_LIMIT:
		snprintf(buf, len, "%s publishes no per-VM limit for %s disks: none is applied",
			 n->vm, n->family);
		break;
	case MODEL_NOTE_HITS_AT_DISK:
		snprintf(buf, len, "2015 rule: host-cache hits were still counted at the disk's "
			 "limits and all I/O of a cached disk at the VM's cached limit");
		break;
	case MODEL_NOTE_NO_CACHED_LIMIT:
		snprintf(buf, len, "%s publishes no cached limit: host-cache hits are counted at "
			 "its uncached limit", n->vm);
		break;
	case MODEL_NOTE_WS_OVER_VOLUME:
		snprintf(buf, len, "the working set (%.4g GiB) is larger than the volume (%.4g GiB)",
			 n->a, n->b);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

/* "D16s_v6 uncached", "D16s_v6 Premium SSD v2 and Ultra Disk over NVMe": whose cap it is. */
static const char *column_words(const struct model_detail *d, char *buf, size_t len)
{
	const struct cat_family_caps *r = d->column;

	if (!r)
		snprintf(buf, len, "%s uncached", d->name);
	else if (r->column)
		snprintf(buf, len, "%s %s%s%s", d->name, r->column, r->controller ? " over " : "",
			 r->controller ? (strcasecmp(r->controller, "nvme") ? "SCSI" : "NVMe") : "");
	else
		snprintf(buf, len, "%s with %s", d->name, r->family);
	return buf;
}

/* Who sets a stripe's pace: "4 x P30" when every member is one kind, else "2 x P10 set ...". */
static const char *pace_words(const struct model_detail *d, char *buf, size_t len)
{
	if (d->k == d->n)
		snprintf(buf, len, "%u x %s", d->n, d->name);
	else
		snprintf(buf, len, "%u x %s set the pace of %u members", d->k, d->name, d->n);
	return buf;
}

const char *model_words_detail(const struct model_detail *d, char *buf, size_t len)
{
	bool burst = d->flags & MODEL_DETAIL_BURST, rw = d->flags & MODEL_DETAIL_READ_WRITE;
	char who[160];

	switch (d->kind) {
	case MODEL_DETAIL_LOCAL_IOPS:
		snprintf(buf, len, "%s local disk: %.0f IOPS", d->name, d->a);
		break;
	case MODEL_DETAIL_LOCAL_MBPS:
		if (d->b > 0)
			snprintf(buf, len, "%s local disk: %.0f MB/s read, %.0f MB/s write", d->name,
				 d->a, d->b);
		else
			snprintf(buf, len, "%s local disk: %.0f MB/s", d->name, d->a);
		break;
	case MODEL_DETAIL_QUEUE:
		snprintf(buf, len, "%u threads x %u outstanding at %.3f ms each", d->n, d->k, d->a);
		break;
	case MODEL_DETAIL_DISK_IOPS:
		snprintf(buf, len, "%s: %.0f IOPS each%s%s%s", pace_words(d, who, 96), d->a,
			 burst ? " (burst)" : "",
			 d->flags & MODEL_DETAIL_SEVERAL ? " (an I/O counts as several)" : "",
			 d->flags & MODEL_DETAIL_HITS_SPARE ? " (host-cache hits spare the disks)" : "");
		break;
	case MODEL_DETAIL_DISK_MBPS:
		snprintf(buf, len, "%s: %.0f %s each%s", pace_words(d, who, 96), d->a, d->unit,
			 burst ? " (burst)" : "");
		break;
	case MODEL_DETAIL_POOL_IOPS:
		snprintf(buf, len, "%s: %.0f IOPS + %g per GiB x %.0f GiB, shared by the VM's %s "
			 "disks", d->name, d->a, d->b, d->c, d->name);
		break;
	case MODEL_DETAIL_POOL_MBPS:
		snprintf(buf, len, "%s: %.0f %s for the VM's %s disks (%.0f GiB)", d->name, d->a,
			 d->unit, d->name, d->c);
		break;
	case MODEL_DETAIL_VM_IOPS:
		column_words(d, who, sizeof(who));
		if (rw)
			snprintf(buf, len, "%s: %.0f read / %.0f write IOPS", who, d->a, d->b);
		else
			snprintf(buf, len, "%s: %.0f IOPS%s", who, d->a, burst ? " (VM burst)" : "");
		break;
	case MODEL_DETAIL_VM_MBPS:
		column_words(d, who, sizeof(who));
		if (rw)
			snprintf(buf, len, "%s: %.0f read / %.0f write %s", who, d->a, d->b, d->unit);
		else
			snprintf(buf, len, "%s: %.0f %s%s", who, d->a, d->unit,
				 burst ? " (VM burst)" : "");
		break;
	case MODEL_DETAIL_CACHED_IOPS:
		snprintf(buf, len, "%s cached: %.0f IOPS (all I/O of cached disks)", d->name, d->a);
		break;
	case MODEL_DETAIL_CACHED_MBPS:
		snprintf(buf, len, "%s cached: %.0f %s", d->name, d->a, d->unit);
		break;
	case MODEL_DETAIL_ACCOUNT_IOPS:
		snprintf(buf, len, "one %s storage account: %.0f IOPS for all its disks", d->name,
			 d->a);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

/* "zipf:1.2", as the distribution was given. */
static const char *skew_words(const struct model_hit *h, char *buf, size_t len)
{
	if (h->dist == DIST_ZIPF || h->dist == DIST_PARETO || h->dist == DIST_NORMAL)
		snprintf(buf, len, "%s:%g", job_dist_name(h->dist), h->param);
	else
		snprintf(buf, len, "%s", job_dist_name(h->dist));
	return buf;
}

const char *model_words_hit(const struct model_hit *h, char *buf, size_t len)
{
	char ws[32], cache[32], skew[48];

	fmt_size_human((uint64_t)h->working_set, ws, sizeof(ws));
	fmt_size_human((uint64_t)h->cache, cache, sizeof(cache));
	switch (h->basis) {
	case MODEL_HIT_GIVEN:
		snprintf(buf, len, "as given");
		break;
	case MODEL_HIT_NO_WS:
		snprintf(buf, len, "%s", h->uncached ? "no host cache" :
			 "no working set given: a cold cache");
		break;
	case MODEL_HIT_COLD:
		snprintf(buf, len, "the first pass over the %s working set: a cold cache, every read "
			 "misses", ws);
		break;
	case MODEL_HIT_UNKNOWN:
		if (!(h->cache > 0))
			snprintf(buf, len, "unknown: %s publishes no host-cache size to hold the %s "
				 "working set; none assumed", h->vm ? h->vm : "the VM", ws);
		else
			snprintf(buf, len, "unknown: no rule for the share of %s reads a host cache "
				 "holds; none assumed", skew_words(h, skew, sizeof(skew)));
		break;
	case MODEL_HIT_FITS:
		snprintf(buf, len, "working set %s fits the %s host cache: reads hit after the first "
			 "pass", ws, cache);
		break;
	case MODEL_HIT_SEQ_LARGER:
		snprintf(buf, len, "working set %s, read in order, is larger than the %s host cache: "
			 "each block is evicted before it is read again", ws, cache);
		break;
	case MODEL_HIT_SHARE:
		snprintf(buf, len, "working set %s is larger than the %s host cache: the share of %s "
			 "random reads that falls in its hottest %s", ws, cache,
			 skew_words(h, skew, sizeof(skew)), cache);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

/* A quantity derived by arithmetic (a difference of MB/s): to the millionth, then exact. */
static const char *qty(double v, char *buf, size_t len)
{
	return fmt_decimal(round(v * 1e6) / 1e6, 0, buf, len);
}

const char *model_words_cost(const struct cost_line *l, char *buf, size_t len)
{
	char p[32], a[48], mib[48] = "", above[48] = "", each[32] = "";

	/* Prices print as the catalog wrote them (fmt_decimal), every digit they have. */
	fmt_decimal(l->price, 0, p, sizeof(p));
	switch (l->kind) {
	case COST_LINE_VM_HOURS:
		snprintf(buf, len, "%s: %.0f h x %s per hour", l->name, l->a, p);
		break;
	case COST_LINE_MONTH:
		snprintf(buf, len, "%u x %s at %s per month", l->count, l->name, p);
		break;
	case COST_LINE_GIB:
		snprintf(buf, len, "%u x %s: %s GiB x %s per GiB-month", l->count, l->name,
			 qty(l->a, a, sizeof(a)), p);
		break;
	case COST_LINE_IOPS:
		snprintf(buf, len, "%u x %s: %.0f IOPS above %.0f x %s per IOPS", l->count, l->name,
			 l->a, l->b, p);
		break;
	case COST_LINE_MBPS: {
		char c[32];

		if (l->mib)
			snprintf(mib, sizeof(mib), " (%s MiB/s)", qty(l->c, c, sizeof(c)));
		if (l->b > 0)
			snprintf(above, sizeof(above), " above %s", qty(l->b, c, sizeof(c)));
		snprintf(buf, len, "%u x %s: %s MB/s%s%s x %s per MB/s", l->count, l->name,
			 qty(l->a, a, sizeof(a)), mib, above, p);
		break;
	}
	case COST_LINE_OPS:
		if (l->b > 1)
			snprintf(each, sizeof(each), " (%.0f ops each)", l->b);
		snprintf(buf, len, "%u x %s: %s IOPS%s x %.0f h of operations%s x %s per 10k",
			 l->count, l->name, qty(l->a, a, sizeof(a)), each, l->c,
			 l->capped ? " (capped)" : "", p);
		break;
	case COST_LINE_OPS_UNCOUNTED:
		snprintf(buf, len, "%u x %s: operations at %s per 10k, not counted (no I/O rate)",
			 l->count, l->name, p);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}
