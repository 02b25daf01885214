/*
 * 'iorate catalog prices' (prices.h): download a provider's price list, convert it, and keep it
 * in the user's catalog directory through the write gate. Nothing is written unless every page
 * arrived: a failed download leaves the prices kept before in use, and says which they are.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/gate.h"
#include "core/json_in.h"
#include "model/http.h"
#include "model/import.h"
#include "model/prices.h"
#include "model/url.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/field.h"
#include "util/jsonout.h"
#include "util/parse.h"
#include "util/stop.h"

#define AZURE_HOST "https://prices.azure.com"
#define AWS_HOST "https://pricing.us-east-1.amazonaws.com"

/* One download: where it may go, and until when. */
struct fetch {
	const struct prices_request *rq;
	struct url_origin origin;   /* the endpoint's: every page and index entry stays on it */
	char origin_str[300];
	uint64_t timeout_ns, deadline_ns;
};

/* A link a price list gives (what: "NextPageLink"): allowed, and on the endpoint's server. */
static int check_link(const struct fetch *f, const char *from, const char *what,
		      const char *link, char *err, size_t errlen)
{
	struct url_origin o;
	char why[320];
	int ret;

	if ((ret = url_allowed(link, &o, why, sizeof(why))))
		return err_set(err, errlen, ret, "GET %s: %s %s", from, what, why);
	if (!url_same_origin(&o, &f->origin))
		return err_set(err, errlen, -EPERM, "GET %s: %s '%.200s' leads away from %s, the "
			       "server the download started on", from, what, link, f->origin_str);
	return 0;
}

/* http_get within the download's time, which its error names when it runs out. */
static int get(const struct fetch *f, const char *url, http_sink sink, void *ctx, char *err,
	       size_t errlen)
{
	char d[32];
	int ret = http_get(url, f->deadline_ns, sink, ctx, err, errlen);

	if (ret == -ETIMEDOUT && clock_mono_ns() >= f->deadline_ns)
		return err_set(err, errlen, ret, "GET %s: not done after " FIELD("timeout")
			       " %s, the limit of the whole download", url,
			       duration_str(f->timeout_ns, d, sizeof(d)));
	return ret;
}

char *prices_path(const char *dir, const char *provider, const char *region,
		  const char *currency)
{
	char *p = NULL;

	if (asprintf(&p, "%s/prices-%s-%s-%s.json", dir, provider, region, currency) < 0)
		return NULL;
	return p;
}

void prices_result_free(struct prices_result *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->old_path);
	r->path = r->old_path = NULL;
}

/* Region and currency go into URLs and file names: letters, digits and dashes only. */
static bool word(const char *s, size_t max)
{
	size_t n = 0;

	for (; s && s[n]; n++)
		if (!isalnum((unsigned char)s[n]) && s[n] != '-')
			return false;
	return n > 0 && n <= max;
}

/* What an earlier download kept for the same provider, region and currency. */
static void kept_before(const struct prices_request *rq, const char *cur,
			struct prices_result *r)
{
	json_t *doc, *prices;

	if (!(r->old_path = prices_path(rq->dir, rq->provider, rq->region, cur)))
		return;
	doc = json_input_load(r->old_path, 0, &(json_error_t){0});
	prices = json_object_get(doc, "prices");
	r->old_count = (unsigned)json_array_size(prices);
	snprintf(r->old_date, sizeof(r->old_date), "%s",
		 json_string_value(json_object_get(json_array_get(prices, 0), "date")) ?: "");
	if (!doc) {
		free(r->old_path);
		r->old_path = NULL;
	}
	json_decref(doc);
}

static void progress(const struct prices_request *rq, const char *what, unsigned long pages,
		     unsigned long items, unsigned long kept, unsigned long long bytes)
{
	if (rq->progress)
		rq->progress(rq->ctx, &(struct prices_progress){.what = what, .pages = pages,
			.items = items, .kept = kept, .bytes = bytes});
}

/* ---- Azure ---- */

/* One query, page after page: each link on the endpoint's server, read once. */
static int azure_query(const struct fetch *f, struct prices_azure *a, const char *base,
		       const char *service, struct prices_result *r, char *err, size_t errlen)
{
	const struct prices_request *rq = f->rq;
	char filter[256], *ef, *ec, *url = NULL, *next = NULL, why[512];
	json_t *seen = json_object();
	int ret = 0;

	snprintf(filter, sizeof(filter), "serviceName eq '%s' and armRegionName eq '%s' and "
		 "priceType eq 'Consumption'", service, rq->region);
	snprintf(why, sizeof(why), "'%s'", a->currency);
	ef = http_escape(filter);
	ec = http_escape(why);
	if (!seen || !ef || !ec || asprintf(&url, "%s/api/retail/prices?currencyCode=%s&$filter=%s",
					    base, ec, ef) < 0) {
		url = NULL;
		ret = -ENOMEM;
	}
	if (!ret && !r->url[0])
		snprintf(r->url, sizeof(r->url), "%s", url);
	for (unsigned long page = 1; !ret && url; page++) {
		struct http_buf b = {0};

		if (stop_requested()) {
			ret = err_set(err, errlen, -EINTR, "GET %s: interrupted", url);
			break;
		}
		if (json_object_set_new(seen, url, json_true())) {
			ret = -ENOMEM;
			break;
		}
		if ((ret = get(f, url, http_buf_sink, &b, err, errlen)) == 0 &&
		    (ret = prices_azure_page(a, b.data ? b.data : "", &next, why,
					     sizeof(why))))
			ret = err_set(err, errlen, ret == -EINVAL ? -EBADMSG : ret,
				      "GET %s: page %lu: %s", url, page, why);
		r->pages++;
		progress(rq, service, page, a->items, 0, b.len);
		http_buf_free(&b);
		if (!ret && next && !(ret = check_link(f, url, "NextPageLink", next, err, errlen))) {
			if (json_object_get(seen, next))
				ret = err_set(err, errlen, -ELOOP, "GET %s: NextPageLink '%.200s' "
					      "leads back to a page already read", url, next);
			else if (page >= PRICES_MAX_PAGES)
				ret = err_set(err, errlen, -ELOOP, "GET %s: NextPageLink after %d "
					      "pages, more than any price list has: refused", url,
					      PRICES_MAX_PAGES);
		}
		free(url);
		url = next;
		next = NULL;
	}
	free(url);
	free(next);
	free(ef);
	free(ec);
	json_decref(seen);
	return ret;
}

static int azure(const struct fetch *f, const char *cur, json_t **prices,
		 struct prices_result *r, char *err, size_t errlen)
{
	const struct prices_request *rq = f->rq;
	const char *base = rq->endpoint ? rq->endpoint : AZURE_HOST;
	char source[1200];
	struct prices_azure a = {.region = rq->region, .currency = cur, .source = source,
				 .date = rq->date};
	int ret;

	snprintf(source, sizeof(source), "Azure Retail Prices API, %s/api/retail/prices, "
		 "pay as you go, Linux, %s, %s, read %s; confidence A", base, rq->region, cur,
		 rq->date);
	if ((ret = prices_azure_init(&a)) ||
	    (ret = azure_query(f, &a, base, "Virtual Machines", r, err, errlen)) ||
	    (ret = azure_query(f, &a, base, "Storage", r, err, errlen)))
		goto out;
	r->items = a.items;
	if (!(*prices = prices_azure_list(&a, &r->vms, &r->disks, &r->storage)))
		ret = -ENOMEM;
out:
	prices_azure_release(&a);
	return ret;
}

/* ---- AWS ---- */

/* base + a path from an index ("/offers/v1.0/..."), or the URL itself when it is one. */
static char *join(const char *base, const char *path, bool csv)
{
	char *u = NULL;
	size_t n = strlen(path);
	int len = csv && n > 5 && !strcmp(path + n - 5, ".json") ? (int)n - 5 : (int)n;

	if (asprintf(&u, "%s%.*s%s", strstr(path, "://") ? "" : base, len, path,
		     len < (int)n ? ".csv" : "") < 0)
		return NULL;
	return u;
}

static int get_json(const struct fetch *f, const char *url, struct http_buf *b, char *err,
		    size_t errlen)
{
	*b = (struct http_buf){0};
	return get(f, url, http_buf_sink, b, err, errlen);
}

struct csv_feed {
	const struct prices_request *rq;
	struct prices_aws *a;
	const char *what;
	unsigned long long bytes, shown;
	char *err;
	size_t errlen;
};

static int csv_sink(void *ctx, const char *data, size_t len)
{
	struct csv_feed *c = ctx;
	int ret = prices_aws_feed(c->a, data, len, c->err, c->errlen);

	c->bytes += len;
	/* Every 16 MiB: the offer file of a large region is gigabytes. */
	if (c->bytes - c->shown >= 16u << 20) {
		c->shown = c->bytes;
		progress(c->rq, c->what, 0, c->a->rows, 0, c->bytes);
	}
	return ret;
}

/* One offer (AmazonEC2, AmazonEBS): its region index, then the region's CSV. */
static int aws_offer(const struct fetch *f, struct prices_aws *a, const char *base,
		     const char *from, const char *index, const char *offer,
		     struct prices_result *r, char *err, size_t errlen)
{
	const struct prices_request *rq = f->rq;
	char *rel = NULL, *url = NULL, *region = NULL, *csv = NULL, why[512], what[96];
	struct http_buf b = {0};
	struct csv_feed c = {.rq = rq, .a = a, .what = what, .err = why, .errlen = sizeof(why)};
	int ret;

	snprintf(what, sizeof(what), "%s %s", offer, rq->region);
	/* An offer the service index does not list is not read. */
	if ((ret = prices_aws_offer_url(index, offer, &rel, why, sizeof(why))))
		return err_set(err, errlen, ret == -EINVAL ? -EBADMSG : ret,
			       "GET %s/offers/v1.0/aws/index.json: %s", base, why);
	if (!rel)
		return 0;
	if (!(url = join(base, rel, false))) {
		ret = -ENOMEM;
		goto out;
	}
	if ((ret = check_link(f, from, offer, url, err, errlen)) ||
	    (ret = get_json(f, url, &b, err, errlen)))
		goto out;
	if ((ret = prices_aws_region_url(b.data ? b.data : "", rq->region, &region, why,
					 sizeof(why)))) {
		/* EBS's own offer, where there is one, may not cover every region EC2 does. */
		if (ret == -ENOENT && strcmp(offer, "AmazonEC2"))
			ret = 0;
		else
			(void)err_set(err, errlen, ret, "GET %s: %s", url, why);
		goto out;
	}
	if (!(csv = join(base, region, true))) {
		ret = -ENOMEM;
		goto out;
	}
	if ((ret = check_link(f, url, rq->region, csv, err, errlen)))
		goto out;
	if (!r->url[0])
		snprintf(r->url, sizeof(r->url), "%s", csv);
	/* Each offer file has its own preamble and header row. */
	a->header = false;
	a->len = 0;
	why[0] = '\0';
	if ((ret = get(f, csv, csv_sink, &c, err, errlen))) {
		if (why[0])
			(void)err_set(err, errlen, ret, "GET %s: %s", csv, why);
	} else if ((ret = prices_aws_finish(a, why, sizeof(why)))) {
		(void)err_set(err, errlen, ret, "GET %s: %s", csv, why);
	}
	r->pages++;
	progress(rq, what, r->pages, a->rows, 0, c.bytes);
out:
	http_buf_free(&b);
	free(rel);
	free(url);
	free(region);
	free(csv);
	/* A malformed answer is the server's fault, not the command line's. */
	return ret == -EINVAL ? -EBADMSG : ret;
}

static int aws(const struct fetch *f, json_t **prices, struct prices_result *r, char *err,
	       size_t errlen)
{
	const struct prices_request *rq = f->rq;
	const char *base = rq->endpoint ? rq->endpoint : AWS_HOST;
	static const char *const offers[] = {"AmazonEC2", "AmazonEBS"};
	char source[1200], *url = NULL;
	struct prices_aws a = {.region = rq->region, .source = source, .date = rq->date};
	struct http_buf b = {0};
	int ret;

	snprintf(source, sizeof(source), "AWS Price List Bulk API, %s/offers/v1.0/aws/index.json, "
		 "on demand, Linux, shared tenancy, %s, USD, read %s; confidence A", base,
		 rq->region, rq->date);
	if ((ret = prices_aws_init(&a)) ||
	    asprintf(&url, "%s/offers/v1.0/aws/index.json", base) < 0) {
		url = NULL;
		ret = ret ? ret : -ENOMEM;
		goto out;
	}
	if ((ret = get_json(f, url, &b, err, errlen)))
		goto out;
	for (size_t k = 0; k < 2 && !ret; k++)
		ret = aws_offer(f, &a, base, url, b.data ? b.data : "", offers[k], r, err, errlen);
	if (!ret && !json_object_size(a.vms) && !json_object_size(a.disks))
		ret = err_set(err, errlen, -ENOENT,
			      "GET %s: no on-demand Linux or EBS price for region %s", url,
			      rq->region);
	r->items = a.rows;
	if (!ret && !(*prices = prices_aws_list(&a, &r->vms, &r->disks)))
		ret = -ENOMEM;
out:
	http_buf_free(&b);
	free(url);
	prices_aws_release(&a);
	return ret;
}

/* ---- keeping them ---- */

static int keep(const struct prices_request *rq, const char *cur, json_t *prices,
		struct prices_result *r, char *err, size_t errlen)
{
	char name[160], title[1400];
	struct gate_out o;
	json_t *doc;
	int ret;

	snprintf(name, sizeof(name), "prices-%s-%s-%s", rq->provider, rq->region, cur);
	snprintf(title, sizeof(title), "%s prices for %s in %s, read %s from %s", rq->provider,
		 rq->region, cur, rq->date, r->url);
	if (!(r->path = prices_path(rq->dir, rq->provider, rq->region, cur)))
		return -ENOMEM;
	if ((ret = import_mkdirs(rq->dir, err, errlen)))
		return ret;
	if (!(doc = json_pack("{s:s, s:s, s:s, s:O}", "catalog", name, "provider", rq->provider,
			      "title", title, "prices", prices)))
		return -ENOMEM;
	if ((ret = gate_out_open(&o, "catalog prices", r->path, err, errlen)) == 0) {
		if (jsonout_dumpf(doc, o.f, JSON_INDENT(1)) || fputc('\n', o.f) == EOF) {
			gate_out_abort(&o);
			ret = err_set(err, errlen, -EIO, "catalog prices: %s: cannot write",
				      r->path);
		} else {
			ret = gate_out_commit(&o, err, errlen);
		}
	}
	json_decref(doc);
	return ret;
}

int prices_fetch(const struct prices_request *rq, struct prices_result *r, char *err,
		 size_t errlen)
{
	const char *cur = rq->currency ? rq->currency : "USD";
	char upper[8], why[320];
	struct fetch f = {.rq = rq};
	json_t *prices = NULL;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!strcmp(rq->provider, "gcp"))
		return err_set(err, errlen, -ENOTSUP, "GCP's public price list (the Cloud Billing "
			       "Catalog API) cannot be read without an API key, and iorate "
			       "reads only lists published without one: GCP prices stay the "
			       "built-in ones (docs/catalog.md)");
	if (strcmp(rq->provider, "azure") && strcmp(rq->provider, "aws"))
		return err_set(err, errlen, -EINVAL,
			       FIELD("provider") ": '%s' is not azure, aws or gcp", rq->provider);
	if (!word(rq->region, 40) || !word(cur, 3) || strlen(cur) != 3)
		return err_set(err, errlen, -EINVAL, "%s", !word(rq->region, 40) ?
			       FIELD("region") ": expected a region name such as northeurope or "
			       "us-east-1" :
			       FIELD("currency") ": expected a three-letter currency code such "
			       "as GBP");
	for (size_t i = 0; i < 4; i++)
		upper[i] = (char)toupper((unsigned char)cur[i]);
	cur = upper;
	if (!strcmp(rq->provider, "aws") && strcmp(cur, "USD"))
		return err_set(err, errlen, -EINVAL,
			       FIELD("currency") ": AWS's price list is in USD only");
	f.timeout_ns = rq->timeout_ns ? rq->timeout_ns : PRICES_TIMEOUT_NS;
	if ((ret = url_allowed(rq->endpoint ? rq->endpoint : !strcmp(rq->provider, "azure") ?
			       AZURE_HOST : AWS_HOST, &f.origin, why, sizeof(why))))
		return err_set(err, errlen, -EINVAL, FIELD("endpoint") " %s", why);
	url_origin_str(&f.origin, f.origin_str, sizeof(f.origin_str));
	kept_before(rq, cur, r);
	f.deadline_ns = clock_mono_ns() + f.timeout_ns;
	ret = !strcmp(rq->provider, "azure") ? azure(&f, cur, &prices, r, err, errlen) :
	      aws(&f, &prices, r, err, errlen);
	if (!ret)
		ret = keep(rq, cur, prices, r, err, errlen);
	json_decref(prices);
	return ret;
}
