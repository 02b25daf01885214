/*
 * The Azure Retail Prices API's pages read into catalog prices. An item is one meter:
 * {currencyCode, retailPrice, armRegionName, effectiveStartDate, meterName, productName,
 * skuName, serviceName, unitOfMeasure, type, armSkuName, tierMinimumUnits, ...}. Kept:
 *   VMs        serviceName "Virtual Machines", pay as you go, Linux (a productName without
 *              "Windows"), neither Spot nor Low Priority, per hour: per_hour of armSkuName;
 *   disks      "Premium SSD / Standard SSD / Standard HDD Managed Disks", skuName "P30 LRS",
 *              the disk meter per month; the "... Disk Operations" meter per 10K of Standard
 *              SSD and of Standard HDD, one for every size of the product (Microsoft bills an
 *              E30 under "E4 LRS Disk Operations"): per_10k_transactions of each size of it,
 *              E<n> and S<n>; "Azure Premium SSD v2" (pv2) and "Ultra Disks"
 *              (ultra): capacity, IOPS and MB/s per hour, times 730 (the paid tier of each);
 *   storage    "General Block Blob v2", skuName "Hot LRS": data stored per GB-month (first
 *              tier), write and read operations per 10,000.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/cost.h"
#include "model/prices.h"
#include "util/err.h"

#define HOURS 730 /* a month, as the Azure pricing calculator counts it */

/*
 * An hourly price times 730, to 12 significant digits (far more than a price list gives): the
 * kept figure is 0.073 a month, not the product's 0.07300000000000001.
 */
static double per_month(double hourly)
{
	char b[40];

	snprintf(b, sizeof(b), "%.12g", hourly * HOURS);
	return strtod(b, NULL);
}

int prices_azure_init(struct prices_azure *a)
{
	a->items = 0;
	a->ops_ssd = a->ops_hdd = a->geo = -1;
	a->vms = json_object();
	a->disks = json_object();
	a->storage = json_object();
	return a->vms && a->disks && a->storage ? 0 : -ENOMEM;
}

void prices_azure_release(struct prices_azure *a)
{
	json_decref(a->vms);
	json_decref(a->disks);
	json_decref(a->storage);
	a->vms = a->disks = a->storage = NULL;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static bool has(const char *s, const char *part)
{
	return strcasestr(s, part) != NULL;
}

static bool ends(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && !strcasecmp(s + n - m, end);
}

/* The price entry of name in map (created: kind, name, region, currency, source, date). */
static json_t *entry(struct prices_azure *a, json_t *map, const char *kind, const char *name,
		     const char *catalog)
{
	json_t *e = json_object_get(map, name);

	if (e)
		return e;
	e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "kind", kind, "name", name, "region",
		      a->region, "currency", a->currency, "source", a->source, "date", a->date);
	if (e && catalog)
		json_object_set_new(e, "catalog", json_string(catalog));
	if (!e || json_object_set_new(map, name, e))
		return NULL;
	return e;
}

/* An item's price kept under key, once it is within the key's bound (what: the meter). */
static int set_price(struct prices_azure *a, json_t *e, const char *key, double listed,
		     double kept, const char *what, char *err, size_t errlen)
{
	int ret = prices_check(key, listed, kept, what, a->currency, err, errlen);

	return ret ? ret : prices_set_first(e, key, kept);
}

/* Sets a figure once: the first meter found for it is kept. */
static int vm_item(struct prices_azure *a, json_t *it, double price, const char *what,
		   char *err, size_t errlen)
{
	const char *sku = str(it, "armSkuName"), *prod = str(it, "productName");
	const char *sname = str(it, "skuName"), *meter = str(it, "meterName");

	if (!*sku || has(prod, "Windows") || has(sname, "Spot") || has(sname, "Low Priority") ||
	    has(meter, "Spot") || has(meter, "Low Priority") ||
	    strcasecmp(str(it, "unitOfMeasure"), "1 Hour"))
		return 0;
	if (!strncasecmp(sku, "Standard_", 9))
		sku += 9;
	return set_price(a, entry(a, a->vms, "vm", sku, "azure"), "per_hour", price, price, what,
			 err, errlen);
}

/* The operations meter of Standard SSD or HDD, locally redundant: the first one found. */
static int operations_item(struct prices_azure *a, json_t *it, double price, const char *what,
			   char *err, size_t errlen)
{
	const char *prod = str(it, "productName");
	double *ops = !strcasecmp(prod, "Standard SSD Managed Disks") ? &a->ops_ssd :
		      !strcasecmp(prod, "Standard HDD Managed Disks") ? &a->ops_hdd : NULL;

	int ret;

	if (ops && *ops < 0 && has(str(it, "skuName"), " LRS") &&
	    !strcasecmp(str(it, "unitOfMeasure"), "10K")) {
		if ((ret = prices_check("per_10k_transactions", price, price, what, a->currency,
					err, errlen)))
			return ret;
		*ops = price;
	}
	return 0;
}

/* "P30 LRS" of a managed disk product: the size, when it is locally redundant. */
static int disk_item(struct prices_azure *a, json_t *it, double price, const char *what,
		     char *err, size_t errlen)
{
	const char *sname = str(it, "skuName"), *meter = str(it, "meterName");
	char size[16];
	int n = 0;

	if (ends(meter, "Disk Operations"))
		return operations_item(a, it, price, what, err, errlen);
	if (sscanf(sname, "%15[A-Za-z0-9] LRS%n", size, &n) != 1 || sname[n] ||
	    !has(str(it, "unitOfMeasure"), "Month") || !(ends(meter, " Disk") ||
	    ends(meter, " Disks")))
		return 0;
	return set_price(a, entry(a, a->disks, "disk", size, "azure"), "per_month", price, price,
			 what, err, errlen);
}

/* Premium SSD v2 and Ultra: hourly capacity, IOPS and MB/s; the paid tier of each. */
static int provisioned_item(struct prices_azure *a, json_t *it, const char *name, double price,
			    const char *what, char *err, size_t errlen)
{
	const char *meter = str(it, "meterName"), *key;
	double tier = json_number_value(json_object_get(it, "tierMinimumUnits"));
	json_t *e;

	if (!has(str(it, "unitOfMeasure"), "Hour") || has(meter, "vCPU"))
		return 0;
	if (ends(meter, "Provisioned Capacity"))
		key = "per_gib_month";
	else if (ends(meter, "Provisioned IOPS"))
		key = "per_iops_month";
	else if (ends(meter, "Provisioned Throughput (MBps)"))
		key = "per_mbps_month";
	else
		return 0;
	if (!(e = entry(a, a->disks, "disk", name, "azure")))
		return -ENOMEM;
	/* A free first tier (pv2: 3,000 IOPS, 125 MB/s) is priced 0: the paid tier counts. */
	if (price <= 0 && tier <= 0)
		return 0;
	json_object_del(e, key);
	return set_price(a, e, key, price, per_month(price), what, err, errlen);
}

/* Block blobs: "Hot LRS" -> storage "hot-lrs", tier hot, redundancy lrs. */
static int blob_item(struct prices_azure *a, json_t *it, double price, const char *what,
		     char *err, size_t errlen)
{
	const char *sname = str(it, "skuName"), *meter = str(it, "meterName"), *key;
	char tier[16], red[16], name[40];
	int n = 0;

	if (sscanf(sname, "%15[A-Za-z] %15[A-Za-z-]%n", tier, red, &n) != 2 || sname[n])
		return 0;
	if (ends(meter, "Data Stored") && json_number_value(json_object_get(it,
						"tierMinimumUnits")) <= 0)
		key = "per_gb_month";
	else if (ends(meter, "Write Operations"))
		key = "write_per_10k";
	else if (ends(meter, "Read Operations"))
		key = "read_per_10k";
	else
		return 0;
	for (char *p = tier; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	/* "RA-GRS" is ragrs, as 'cost upload --redundancy' spells it. */
	for (char *p = red, *q = red; ; p++) {
		if (*p != '-')
			*q++ = (char)tolower((unsigned char)*p);
		if (!*p)
			break;
	}
	snprintf(name, sizeof(name), "%s-%s", tier, red);
	json_t *e = entry(a, a->storage, "storage", name, NULL);

	if (!e || (!json_object_get(e, "tier") &&
		   (json_object_set_new(e, "tier", json_string(tier)) ||
		    json_object_set_new(e, "redundancy", json_string(red)))))
		return -ENOMEM;
	return set_price(a, e, key, price, price, what, err, errlen);
}

static int item(struct prices_azure *a, json_t *it, size_t i, char *err, size_t errlen)
{
	const char *service = str(it, "serviceName"), *prod = str(it, "productName");
	json_t *price = json_object_get(it, "retailPrice");
	char what[400];
	double p;
	int ret;

	if (!json_is_object(it) || !json_is_number(price))
		return err_set(err, errlen, -EINVAL,
			       "Items[%zu]: expected an object with a retailPrice", i);
	/* The meter a refused price is named by, as the price list names it. */
	snprintf(what, sizeof(what), "Items[%zu]: meter '%.80s' (skuName '%.80s', product "
		 "'%.80s')", i, str(it, "meterName"), str(it, "skuName"), prod);
	if ((ret = prices_check(NULL, json_number_value(price), json_number_value(price), what,
				str(it, "currencyCode"), err, errlen)))
		return ret;
	if (strcasecmp(str(it, "currencyCode"), a->currency))
		return err_set(err, errlen, -EINVAL, "Items[%zu]: priced in '%.8s', not %s as "
			       "asked (is the currency one the API supports?)", i,
			       str(it, "currencyCode"), a->currency);
	a->items++;
	p = json_number_value(price);
	if (strcasecmp(str(it, "type"), "Consumption") ||
	    strcasecmp(str(it, "armRegionName"), a->region))
		return 0;
	if (!strcasecmp(service, "Virtual Machines"))
		return vm_item(a, it, p, what, err, errlen);
	if (strcasecmp(service, "Storage"))
		return 0;
	if (ends(prod, "SSD Managed Disks") || ends(prod, "HDD Managed Disks"))
		return disk_item(a, it, p, what, err, errlen);
	if (!strcasecmp(prod, "Azure Premium SSD v2"))
		return provisioned_item(a, it, "pv2", p, what, err, errlen);
	if (!strcasecmp(prod, "Ultra Disks"))
		return provisioned_item(a, it, "ultra", p, what, err, errlen);
	if (!strcasecmp(prod, "General Block Blob v2"))
		return blob_item(a, it, p, what, err, errlen);
	/*
	 * GRS and RA-GRS accounts pay this per GB written (the meter infracost reads for
	 * "Geo-replication data transfer"): the first tier's, kept for each such storage price.
	 */
	if (!strcasecmp(prod, "Storage - Bandwidth") &&
	    !strcasecmp(str(it, "meterName"), "Geo-Replication v2 Data Transfer") && a->geo < 0 &&
	    json_number_value(json_object_get(it, "tierMinimumUnits")) <= 0) {
		if ((ret = prices_check("geo_per_gb", p, p, what, a->currency, err, errlen)))
			return ret;
		a->geo = p;
	}
	return 0;
}

int prices_azure_page(struct prices_azure *a, const char *text, char **next, char *err,
		      size_t errlen)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je), *items, *it, *link;
	size_t i;
	int ret = 0;

	*next = NULL;
	if (!root)
		return err_set(err, errlen, -EINVAL, "not JSON (line %d: %s)", je.line, je.text);
	items = json_object_get(root, "Items");
	link = json_object_get(root, "NextPageLink");
	if (!json_is_array(items) || (link && !json_is_null(link) && !json_is_string(link)))
		ret = err_set(err, errlen, -EINVAL,
			      "expected {\"Items\": [...], \"NextPageLink\": ...}");
	json_array_foreach(items, i, it)
		if (!ret)
			ret = item(a, it, i, err, errlen);
	if (!ret && json_is_string(link) && *json_string_value(link) &&
	    !(*next = strdup(json_string_value(link))))
		ret = -ENOMEM;
	json_decref(root);
	return ret;
}

/* The values of map that have any of keys (all of them when all is set). */
static int values(json_t *out, json_t *map, unsigned *n, const char *const *keys, bool all)
{
	const char *name;
	json_t *e;

	json_object_foreach(map, name, e) {
		size_t k, got = 0;

		for (k = 0; keys[k]; k++)
			got += json_object_get(e, keys[k]) != NULL;
		if (!got || (all && got < k))
			continue;
		if (json_array_append(out, e))
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

json_t *prices_azure_list(const struct prices_azure *a, unsigned *vms, unsigned *disks,
			  unsigned *storage)
{
	static const char *const vk[] = {"per_hour", NULL};
	static const char *const dk[] = {"per_month", "per_gib_month", "per_iops_month",
					 "per_mbps_month", NULL};
	/* An upload is priced by its writes and its storage: both are needed. */
	static const char *const sk[] = {"per_gb_month", "write_per_10k", NULL};
	json_t *out = json_array(), *e;
	const char *name;

	/* Each size of Standard SSD (E<n>) and HDD (S<n>) with a monthly price: its operations. */
	json_object_foreach(a->disks, name, e) {
		double ops = name[0] == 'E' ? a->ops_ssd : name[0] == 'S' ? a->ops_hdd : -1;

		if (ops >= 0 && isdigit((unsigned char)name[1]) && json_object_get(e, "per_month") &&
		    !json_object_get(e, "per_10k_transactions") &&
		    json_object_set_new(e, "per_10k_transactions", json_real(ops))) {
			json_decref(out);
			return NULL;
		}
	}
	/* Every geo-replicated storage price: the region's transfer price per GB written. */
	json_object_foreach(a->storage, name, e) {
		const char *red = json_string_value(json_object_get(e, "redundancy"));

		if (a->geo >= 0 && cost_geo_replicated(red) &&
		    json_object_set_new(e, "geo_per_gb", json_real(a->geo))) {
			json_decref(out);
			return NULL;
		}
	}
	*vms = *disks = *storage = 0;
	if (!out || values(out, a->vms, vms, vk, false) ||
	    values(out, a->disks, disks, dk, false) || values(out, a->storage, storage, sk, true)) {
		json_decref(out);
		return NULL;
	}
	return out;
}
