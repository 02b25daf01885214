/*
 * The AWS Price List Bulk API: the service index and region indexes (JSON), and a region's offer
 * file as CSV, read line by line as it arrives. The CSV starts with a few lines of metadata,
 * then a header row naming the columns ("SKU", "TermType", "PricePerUnit", ...), then a row per
 * price dimension. Kept, on demand and in the region asked for:
 *   instances  Product Family "Compute Instance", Linux, shared tenancy, no pre-installed
 *              software, no license, capacity "Used", per hour: per_hour of the instance type;
 *   volumes    usage types EBS:VolumeUsage.TYPE (per GB-month), EBS:VolumeP-IOPS.TYPE (per
 *              provisioned IOPS-month, the first tier; io2's .tier2 and .tier3 above 32,000
 *              and 64,000 IOPS a volume, the bounds AWS's billing codes page gives, as the
 *              list has none), EBS:VolumeP-Throughput.gp3 (per GiB/s or MiB/s-month,
 *              converted to per MB/s-month as the catalog records it).
 * "piops" is io1; io2-bx is billed as io2.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/prices.h"
#include "util/err.h"

#define MIB_MB 1.048576
#define MAX_LINE (256 * 1024)
#define MAX_PREAMBLE 20 /* lines before the header row */

enum col {
	C_SKU, C_TERM, C_UNIT, C_PRICE, C_CURRENCY, C_FAMILY, C_TYPE, C_TENANCY, C_OS, C_LICENSE,
	C_SOFTWARE, C_CAPACITY, C_USAGE, C_LOCTYPE, C_REGION, NCOLS
};

static const char *const col_names[NCOLS] = {
	[C_SKU] = "SKU", [C_TERM] = "TermType", [C_UNIT] = "Unit", [C_PRICE] = "PricePerUnit",
	[C_CURRENCY] = "Currency", [C_FAMILY] = "Product Family", [C_TYPE] = "Instance Type",
	[C_TENANCY] = "Tenancy", [C_OS] = "Operating System", [C_LICENSE] = "License Model",
	[C_SOFTWARE] = "Pre Installed S/W", [C_CAPACITY] = "CapacityStatus",
	[C_USAGE] = "usageType", [C_LOCTYPE] = "Location Type", [C_REGION] = "Region Code",
};

/* Usage types of EBS volumes: which volume and which price of it. */
static const struct {
	const char *usage, *volume, *key;
} ebs[] = {
	{.usage = "EBS:VolumeUsage.gp2", .volume = "gp2", .key = "per_gib_month"},
	{.usage = "EBS:VolumeUsage.gp3", .volume = "gp3", .key = "per_gib_month"},
	{.usage = "EBS:VolumeUsage.piops", .volume = "io1", .key = "per_gib_month"},
	{.usage = "EBS:VolumeUsage.io2", .volume = "io2", .key = "per_gib_month"},
	{.usage = "EBS:VolumeUsage.st1", .volume = "st1", .key = "per_gib_month"},
	{.usage = "EBS:VolumeUsage.sc1", .volume = "sc1", .key = "per_gib_month"},
	{.usage = "EBS:VolumeP-IOPS.gp3", .volume = "gp3", .key = "per_iops_month"},
	{.usage = "EBS:VolumeP-IOPS.piops", .volume = "io1", .key = "per_iops_month"},
	{.usage = "EBS:VolumeP-IOPS.io2", .volume = "io2", .key = "per_iops_month"},
	{.usage = "EBS:VolumeP-IOPS.io2.tier2", .volume = "io2", .key = NULL},    /* io2_tier[0] */
	{.usage = "EBS:VolumeP-IOPS.io2.tier3", .volume = "io2", .key = NULL},    /* io2_tier[1] */
	{.usage = "EBS:VolumeP-Throughput.gp3", .volume = "gp3", .key = "per_mbps_month"},
};

int prices_aws_init(struct prices_aws *a)
{
	a->vms = json_object();
	a->disks = json_object();
	a->col = malloc(NCOLS * sizeof(*a->col));
	a->line = NULL;
	a->len = a->cap = 0;
	a->header = false;
	a->rows = 0;
	a->io2_tier[0] = a->io2_tier[1] = -1;
	return a->vms && a->disks && a->col ? 0 : -ENOMEM;
}

void prices_aws_release(struct prices_aws *a)
{
	json_decref(a->vms);
	json_decref(a->disks);
	free(a->col);
	free(a->line);
	a->vms = a->disks = NULL;
	a->col = NULL;
	a->line = NULL;
}

/*
 * Splits a CSV line in place: fields separated by commas, each maybe "quoted" with "" for a
 * quote. Returns the number of fields (at most max).
 */
static size_t split(char *s, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *w = s, c;

		f[n++] = w;
		if (*s == '"') {
			for (s++; *s; ) {
				if (*s != '"') {
					*w++ = *s++;
				} else if (s[1] == '"') {
					*w++ = '"';
					s += 2;
				} else {
					s++; /* the closing quote */
					break;
				}
			}
		}
		while (*s && *s != ',')
			*w++ = *s++;
		c = *s;
		*w = '\0';
		if (c != ',')
			break;
		s++;
	}
	return n;
}

static const char *field(const struct prices_aws *a, char **f, size_t n, enum col c)
{
	int k = a->col[c];

	return k >= 0 && (size_t)k < n ? f[k] : NULL;
}

/* A column that may be missing from the file matches anything; present, it must be want. */
static bool is(const struct prices_aws *a, char **f, size_t n, enum col c, const char *want)
{
	const char *v = field(a, f, n, c);

	return !v || !strcasecmp(v, want);
}

static json_t *entry(struct prices_aws *a, json_t *map, const char *kind, const char *name)
{
	json_t *e = json_object_get(map, name);

	if (e)
		return e;
	e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "catalog", "aws", "kind", kind,
		      "name", name, "region", a->region, "currency", "USD", "source", a->source,
		      "date", a->date);
	if (!e || json_object_set_new(map, name, e))
		return NULL;
	return e;
}

/* A row's price kept under key, once it is within the key's bound (what: the SKU). */
static int set_price(json_t *e, const char *key, double listed, double kept, const char *what,
		     char *err, size_t errlen)
{
	int ret = prices_check(key, listed, kept, what, "USD", err, errlen);

	return ret ? ret : prices_set_first(e, key, kept);
}

static int volume_row(struct prices_aws *a, const char *usage, const char *unit, double p,
		      const char *what, char *err, size_t errlen)
{
	const char *u = strstr(usage, "EBS:");
	int ret = 0;

	/* "USE2-EBS:..." elsewhere than us-east-1; a Local Zone's has more before it. */
	if (!u || (u != usage && u[-1] != '-'))
		return 0;
	for (size_t k = 0; k < sizeof(ebs) / sizeof(ebs[0]); k++) {
		double v = p;

		if (strcmp(u, ebs[k].usage))
			continue;
		/* io2's upper tiers are kept apart, and set on io2's entry once it has its own. */
		if (!ebs[k].key) {
			double *tier = &a->io2_tier[strstr(u, "tier3") != NULL];

			if ((ret = prices_check("per_iops_month_above", p, p, what, "USD", err,
						errlen)))
				return ret;
			if (*tier < 0)
				*tier = p;
			continue;
		}
		if (!strcmp(ebs[k].key, "per_mbps_month")) {
			if (!strcasecmp(unit, "GiBps-mo"))
				v = p / 1024 / MIB_MB;
			else if (!strcasecmp(unit, "MiBps-Mo"))
				v = p / MIB_MB;
			else
				return 0;
		}
		ret = set_price(entry(a, a->disks, "disk", ebs[k].volume), ebs[k].key, p, v, what,
				err, errlen);
		if (!ret && !strcmp(ebs[k].volume, "io2"))
			ret = prices_set_first(entry(a, a->disks, "disk", "io2-bx"), ebs[k].key, v);
	}
	return ret;
}

static int row(struct prices_aws *a, char **f, size_t n, char *err, size_t errlen)
{
	const char *price = field(a, f, n, C_PRICE), *type = field(a, f, n, C_TYPE);
	const char *usage = field(a, f, n, C_USAGE), *unit = field(a, f, n, C_UNIT);
	const char *sku = field(a, f, n, C_SKU);
	char *end, what[300];
	double p;
	int ret;

	a->rows++;
	if (!price || !is(a, f, n, C_TERM, "OnDemand") || !is(a, f, n, C_CURRENCY, "USD") ||
	    !is(a, f, n, C_LOCTYPE, "AWS Region") || !is(a, f, n, C_REGION, a->region))
		return 0;
	p = strtod(price, &end);
	if (end == price || *end)
		return 0;
	/* The row a refused price is named by: its SKU and usage type, as the list names them. */
	snprintf(what, sizeof(what), "SKU '%.80s' (usage type '%.80s')", sku ? sku : "",
		 usage ? usage : "");
	if ((ret = prices_check(NULL, p, p, what, "USD", err, errlen)))
		return ret;
	if (is(a, f, n, C_FAMILY, "Compute Instance") && field(a, f, n, C_FAMILY)) {
		if (!type || !*type || type[strspn(type, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")] || !is(a, f, n, C_OS, "Linux") ||
		    !is(a, f, n, C_TENANCY, "Shared") || !is(a, f, n, C_SOFTWARE, "NA") ||
		    !is(a, f, n, C_LICENSE, "No License required") ||
		    !is(a, f, n, C_CAPACITY, "Used") || !unit || strcasecmp(unit, "Hrs"))
			return 0;
		return set_price(entry(a, a->vms, "vm", type), "per_hour", p, p, what, err, errlen);
	}
	return usage ? volume_row(a, usage, unit ? unit : "", p, what, err, errlen) : 0;
}

/* The header row: where each column read is (-1: not in this file). */
static int header(struct prices_aws *a, char **f, size_t n, char *err, size_t errlen)
{
	for (int c = 0; c < NCOLS; c++) {
		a->col[c] = -1;
		for (size_t k = 0; k < n; k++)
			if (!strcasecmp(f[k], col_names[c]))
				a->col[c] = (int)k;
	}
	if (a->col[C_TERM] < 0 || a->col[C_PRICE] < 0 || a->col[C_USAGE] < 0)
		return err_set(err, errlen, -EINVAL, "the header row has no TermType, PricePerUnit "
			       "or usageType column");
	a->header = true;
	return 0;
}

static int line(struct prices_aws *a, char *s, char *err, size_t errlen)
{
	char *f[512];
	size_t n, len = strlen(s);

	if (len && s[len - 1] == '\r')
		s[len - 1] = '\0';
	n = split(s, f, sizeof(f) / sizeof(f[0]));
	if (a->header)
		return row(a, f, n, err, errlen);
	if (!strcmp(f[0], "SKU"))
		return header(a, f, n, err, errlen);
	if (++a->rows > MAX_PREAMBLE)
		return err_set(err, errlen, -EINVAL, "no header row (\"SKU\",...) in the first %d "
			       "lines: not an offer file in CSV", MAX_PREAMBLE);
	return 0;
}

/* Room for one more byte and the NUL in the line being gathered. */
static int room(struct prices_aws *a, char *err, size_t errlen)
{
	size_t cap = a->cap ? a->cap * 2 : 4096;
	char *p;

	if (a->len + 2 <= a->cap)
		return 0;
	if (cap > MAX_LINE)
		return err_set(err, errlen, -EINVAL,
			       "a line longer than %d bytes: not an offer file in CSV", MAX_LINE);
	if (!(p = realloc(a->line, cap)))
		return -ENOMEM;
	a->line = p;
	a->cap = cap;
	return 0;
}

int prices_aws_feed(struct prices_aws *a, const char *data, size_t len, char *err,
		    size_t errlen)
{
	int ret;

	for (size_t i = 0; i < len; i++) {
		if ((ret = room(a, err, errlen)))
			return ret;
		if (data[i] != '\n' && data[i] != '\0') {
			a->line[a->len++] = data[i];
			continue;
		}
		a->line[a->len] = '\0';
		a->len = 0;
		if ((ret = line(a, a->line, err, errlen)))
			return ret;
	}
	return 0;
}

int prices_aws_finish(struct prices_aws *a, char *err, size_t errlen)
{
	int ret;

	if (a->len) {
		a->line[a->len] = '\0';
		a->len = 0;
		if ((ret = line(a, a->line, err, errlen)))
			return ret;
	}
	if (!a->header)
		return err_set(err, errlen, -EINVAL, "no header row: not an offer file in CSV");
	return 0;
}

/*
 * io2's tiers as per_iops_month_above of an io2 entry: the price of each tier read, above its
 * bound. Only where the entry has a first tier priced above 0, and a tier only with the one
 * below it.
 */
static int io2_steps(const struct prices_aws *a, json_t *e)
{
	static const double from[] = {32000, 64000};
	json_t *steps;

	if (!e || !(json_number_value(json_object_get(e, "per_iops_month")) > 0) ||
	    a->io2_tier[0] < 0)
		return 0;
	if (!(steps = json_array()))
		return -ENOMEM;
	for (size_t k = 0; k < 2 && a->io2_tier[k] >= 0; k++)
		if (json_array_append_new(steps, json_pack("[f, f]", from[k], a->io2_tier[k]))) {
			json_decref(steps);
			return -ENOMEM;
		}
	return json_object_set_new(e, "per_iops_month_above", steps) ? -ENOMEM : 0;
}

json_t *prices_aws_list(const struct prices_aws *a, unsigned *vms, unsigned *disks)
{
	json_t *out = json_array(), *e;
	const char *name;

	if (io2_steps(a, json_object_get(a->disks, "io2")) ||
	    io2_steps(a, json_object_get(a->disks, "io2-bx"))) {
		json_decref(out);
		return NULL;
	}
	*vms = *disks = 0;
	json_object_foreach(a->vms, name, e)
		if (!json_array_append(out, e))
			(*vms)++;
	json_object_foreach(a->disks, name, e)
		if (!json_array_append(out, e))
			(*disks)++;
	return out;
}

/* ---- the indexes ---- */

static int index_url(const char *text, const char *a, const char *b, const char *key,
		     char **url, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je), *v;

	*url = NULL;
	if (!root)
		return err_set(err, errlen, -EINVAL, "not JSON (line %d: %s)", je.line, je.text);
	v = json_object_get(json_object_get(json_object_get(root, a), b), key);
	if (v && !json_is_string(v)) {
		json_decref(root);
		return err_set(err, errlen, -EINVAL, "'%s.%s.%s': expected a URL", a, b, key);
	}
	if (v && !(*url = strdup(json_string_value(v)))) {
		json_decref(root);
		return -ENOMEM;
	}
	json_decref(root);
	return 0;
}

int prices_aws_offer_url(const char *index, const char *offer, char **url, char *err,
			 size_t errlen)
{
	return index_url(index, "offers", offer, "currentRegionIndexUrl", url, err, errlen);
}

int prices_aws_region_url(const char *index, const char *region, char **url, char *err,
			  size_t errlen)
{
	int ret = index_url(index, "regions", region, "currentVersionUrl", url, err, errlen);

	if (!ret && !*url)
		return err_set(err, errlen, -ENOENT, "the region index lists no region '%s'",
			       region);
	return ret;
}
