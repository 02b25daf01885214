/*
 * The three CLIs' outputs read into catalog entries. Each figure is converted from the unit the
 * CLI prints to the one the catalog records, and says so in "units": Azure's SKU capabilities
 * give bytes and bytes per second (MB/s here are 10^6 B/s), AWS gives MB/s and MiB of memory,
 * gcloud MiB of memory. Fields the catalog has no use for are ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/import_int.h"
#include "util/err.h"
#include "util/stop.h"

#define GIB 1073741824.0

static int bad(struct import_batch *b, size_t i, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "FILE: [i] 'NAME': why" */
static int bad(struct import_batch *b, size_t i, const char *name, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return err_set(b->err, b->errlen, -EINVAL, "%s: [%zu]%s%.64s%s: %s", b->file, i,
		       name ? " '" : "", name ? name : "", name ? "'" : "", why);
}

json_t *import_entry(const struct import_batch *b, const char *name, const char *alias)
{
	json_t *e = json_pack("{s:s, s:s, s:s}", "name", name, "source", b->source, "date",
			      b->date);

	if (e && alias && strcmp(alias, name) &&
	    json_object_set_new(e, "aliases", json_pack("[s]", alias))) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* Every 1024 entries, whether a stop signal came: -EINTR, saying so, when it did. */
static int stopped(const struct import_batch *b, size_t i)
{
	if (i % 1024 || !stop_requested())
		return 0;
	return err_set(b->err, b->errlen, -EINTR, "%s: interrupted at entry %zu", b->file, i);
}

char *import_name_key(const char *name)
{
	char *k;

	if (!name)
		name = "";
	if (!strncasecmp(name, "Standard_", 9)) /* as catalog_name_eq() compares */
		name += 9;
	if (!(k = strdup(name)))
		return NULL;
	for (char *p = k; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return k;
}

int import_add(json_t *list, json_t *names, json_t *e)
{
	char *key = import_name_key(json_string_value(json_object_get(e, "name")));
	int ret = -ENOMEM;

	json_t *end = json_integer((json_int_t)json_array_size(list));

	if (key && json_object_get(names, key))
		ret = 0;
	else if (key && !json_object_set_new_nocheck(names, key, json_incref(end)))
		ret = json_array_append(list, e) ? -ENOMEM : 0;
	json_decref(end);
	json_decref(e);
	free(key);
	return ret;
}

/*
 * Sets a figure; NAN (not given) sets nothing. -1 when it could not be set (no memory): the
 * readers add up these results, so an entry short of a figure is never kept.
 */
static int num(json_t *e, const char *key, double v)
{
	return isnan(v) ? 0 : json_object_set_new(e, key, json_real(v));
}

/* e's field to, the same value as its field from when that is set. */
static int copy(json_t *e, const char *to, const char *from)
{
	json_t *v = json_object_get(e, from);

	return v ? json_object_set(e, to, v) : 0;
}

/* ---- az vm list-skus: capabilities are {"name", "value"} pairs of strings ---- */

/* A capability as a number: NAN when absent; -EINVAL through *ok when it is no number. */
static double cap_num(json_t *sku, const char *name, bool *ok)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(sku, "capabilities"), i, c) {
		const char *n = json_string_value(json_object_get(c, "name"));
		const char *v = json_string_value(json_object_get(c, "value"));
		char *end;
		double d;

		if (!n || strcmp(n, name))
			continue;
		d = v ? strtod(v, &end) : NAN;
		if (!v || end == v || *end || !isfinite(d) || d < 0) {
			*ok = false;
			return NAN;
		}
		return d;
	}
	return NAN;
}

static const char *cap_str(json_t *sku, const char *name)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(sku, "capabilities"), i, c) {
		const char *n = json_string_value(json_object_get(c, "name"));

		if (n && !strcmp(n, name))
			return json_string_value(json_object_get(c, "value"));
	}
	return NULL;
}

/* The capabilities of one VM size a catalog entry holds, with the unit each is converted to. */
static const struct {
	const char *cap, *key;
	double scale;               /* multiplies the CLI's value into the catalog's unit */
} vm_caps[] = {
	{.cap = "vCPUs", .key = "vcpus", .scale = 1},
	{.cap = "MemoryGB", .key = "mem_gib", .scale = 1},
	{.cap = "MaxDataDiskCount", .key = "max_disks", .scale = 1},
	{.cap = "UncachedDiskIOPS", .key = "uncached_iops", .scale = 1},
	{.cap = "UncachedDiskBytesPerSecond", .key = "uncached_mbps", .scale = 1e-6},
	{.cap = "CombinedTempDiskAndCachedIOPS", .key = "cached_iops", .scale = 1},
	{.cap = "CombinedTempDiskAndCachedReadBytesPerSecond", .key = "cached_mbps", .scale = 1e-6},
	{.cap = "CachedDiskBytes", .key = "cache_gib", .scale = 1 / GIB},
	{.cap = "MaxResourceVolumeMB", .key = "local_gib", .scale = 1 / 1024.0},
	{.cap = "NvmeDiskSizeInMiB", .key = "local_gib", .scale = 1 / 1024.0},
};

/* The temp disk shares the cache's limits ("CombinedTempDiskAndCached..."). */
static int azure_temp_disk(json_t *e, json_t *sku, bool *ok)
{
	double w = cap_num(sku, "CombinedTempDiskAndCachedWriteBytesPerSecond", ok);

	if (!json_object_get(e, "local_gib") || !json_object_get(e, "cached_iops"))
		return 0;
	return copy(e, "local_iops", "cached_iops") | copy(e, "local_mbps", "cached_mbps") |
	       num(e, "local_write_mbps", w * 1e-6) |
	       json_object_set_new(e, "local_shares_cache", json_true());
}

static int azure_vm(json_t *sku, size_t i, const char *name, struct import_batch *b)
{
	const char *size = json_string_value(json_object_get(sku, "size"));
	const char *premium = cap_str(sku, "PremiumIO");
	json_t *e = import_entry(b, size ? size : name, name);
	bool ok = true;
	int lost = 0;

	if (!e)
		return -ENOMEM;
	for (size_t k = 0; k < sizeof(vm_caps) / sizeof(vm_caps[0]); k++) {
		double v = cap_num(sku, vm_caps[k].cap, &ok);

		if (!ok) {
			json_decref(e);
			return bad(b, i, name, "capability '%s': not a non-negative number",
				   vm_caps[k].cap);
		}
		if (!isnan(v) && (v > 0 || strcmp(vm_caps[k].key, "local_gib")))
			lost |= num(e, vm_caps[k].key, v * vm_caps[k].scale);
	}
	/* Counts are integers in the catalog. */
	if (json_object_get(e, "vcpus"))
		lost |= json_object_set_new(e, "vcpus", json_integer(llround(json_real_value(
					    json_object_get(e, "vcpus")))));
	if (json_object_get(e, "max_disks"))
		lost |= json_object_set_new(e, "max_disks", json_integer(llround(json_real_value(
					    json_object_get(e, "max_disks")))));
	lost |= azure_temp_disk(e, sku, &ok);
	if (premium)
		lost |= json_object_set_new(e, "premium",
					    json_boolean(!strcasecmp(premium, "True")));
	if (json_real_value(json_object_get(e, "cache_gib")) > 0)
		lost |= json_object_set_new(e, "cache", json_true());
	lost |= json_object_set_new(e, "units", json_string("MB/s"));
	if (!ok) {
		json_decref(e);
		return bad(b, i, name, "capability 'CombinedTempDiskAndCachedWriteBytesPerSecond': "
			   "not a non-negative number");
	}
	if (lost) {
		json_decref(e);
		return -ENOMEM;
	}
	return import_add(b->vms, b->vm_names, e);
}

/* Disk SKUs "Premium_LRS" size "P30": the fixed sizes of the three families with sizes. */
static int azure_disk(json_t *sku, size_t i, const char *name, struct import_batch *b)
{
	static const struct {
		const char *sku, *family;
		bool premium;
	} fams[] = {
		{.sku = "Premium_LRS", .family = "premium", .premium = true},
		{.sku = "StandardSSD_LRS", .family = "standard-ssd", .premium = false},
		{.sku = "Standard_LRS", .family = "standard-hdd", .premium = false},
	};
	static const struct {
		const char *cap, *key;
	} caps[] = {
		{.cap = "MaxSizeGiB", .key = "gib"}, {.cap = "MaxIOps", .key = "iops"},
		{.cap = "MaxBandwidthMBps", .key = "mbps"},
		{.cap = "MaxBurstIops", .key = "burst_iops"},
		{.cap = "MaxBurstBandwidthMBps", .key = "burst_mbps"},
	};
	const char *size = json_string_value(json_object_get(sku, "size"));
	size_t f;
	bool ok = true;
	int lost = 0;
	json_t *e;

	for (f = 0; f < sizeof(fams) / sizeof(fams[0]) && strcmp(fams[f].sku, name); f++)
		;
	/* ZRS copies, Premium SSD v2 and Ultra (per-GiB rules, built in) are not sizes. */
	if (f == sizeof(fams) / sizeof(fams[0]) || !size) {
		b->skipped++;
		return 0;
	}
	if (!(e = import_entry(b, size, NULL)))
		return -ENOMEM;
	for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++) {
		double v = cap_num(sku, caps[k].cap, &ok);

		if (!ok) {
			json_decref(e);
			return bad(b, i, size, "capability '%s': not a non-negative number",
				   caps[k].cap);
		}
		lost |= num(e, caps[k].key, v);
	}
	if (json_real_value(json_object_get(e, "gib")) <= 0) {
		json_decref(e);
		return bad(b, i, size, "capability 'MaxSizeGiB': missing or 0");
	}
	lost |= json_object_set_new(e, "family", json_string(fams[f].family)) |
		json_object_set_new(e, "premium", json_boolean(fams[f].premium)) |
		json_object_set_new(e, "cache", json_true()) |
		json_object_set_new(e, "units", json_string("MB/s"));
	if (lost) {
		json_decref(e);
		return -ENOMEM;
	}
	return import_add(b->disks, b->disk_names, e);
}

int import_azure(json_t *root, struct import_batch *b)
{
	json_t *sku;
	size_t i;
	int ret;

	json_array_foreach(root, i, sku) {
		const char *type = json_string_value(json_object_get(sku, "resourceType"));
		const char *name = json_string_value(json_object_get(sku, "name"));

		if ((ret = stopped(b, i)))
			return ret;
		if (!json_is_object(sku))
			return bad(b, i, NULL, "expected an object (a SKU)");
		if (!type || !name || !*name)
			return bad(b, i, name, "missing '%s'", type ? "name" : "resourceType");
		if (json_object_get(sku, "capabilities") &&
		    !json_is_array(json_object_get(sku, "capabilities")))
			return bad(b, i, name, "'capabilities': expected an array");
		if (!strcmp(type, "virtualMachines"))
			ret = azure_vm(sku, i, name, b);
		else if (!strcmp(type, "disks"))
			ret = azure_disk(sku, i, name, b);
		else
			ret = 0, b->skipped++;
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- aws ec2 describe-instance-types: {"InstanceTypes": [...]} ---- */

/* A number at a path of objects ("EbsInfo", "EbsOptimizedInfo", "BaselineIops"), or NAN. */
static double path_num(json_t *o, const char *a, const char *b, const char *c, bool *ok)
{
	json_t *v = json_object_get(o, a);

	if (b)
		v = json_object_get(v, b);
	if (c)
		v = json_object_get(v, c);
	if (!v)
		return NAN;
	if (!json_is_number(v) || json_number_value(v) < 0) {
		*ok = false;
		return NAN;
	}
	return json_number_value(v);
}

/*
 * EBS-optimized limits: the baseline is sustained, the maximum lasts 30 minutes at least once
 * every 24 hours (Amazon EC2 User Guide, "Amazon EBS-optimized instances").
 */
static int aws_ebs(json_t *e, json_t *it, bool *ok)
{
	double bi = path_num(it, "EbsInfo", "EbsOptimizedInfo", "BaselineIops", ok);
	double bm = path_num(it, "EbsInfo", "EbsOptimizedInfo", "BaselineThroughputInMBps", ok);
	double mi = path_num(it, "EbsInfo", "EbsOptimizedInfo", "MaximumIops", ok);
	double mm = path_num(it, "EbsInfo", "EbsOptimizedInfo", "MaximumThroughputInMBps", ok);

	int lost = num(e, "uncached_iops", bi) | num(e, "uncached_mbps", bm);

	if ((mi > bi || mm > bm) && !isnan(bi) && !isnan(bm))
		lost |= num(e, "burst_iops", mi) | num(e, "burst_mbps", mm) |
			num(e, "burst_seconds", 1800);
	return lost;
}

/* NVMe instance store volumes: InstanceStorageInfo.Disks[].Count added up (0 when none). */
static double aws_store_volumes(json_t *it, bool *ok)
{
	json_t *disks = json_object_get(json_object_get(it, "InstanceStorageInfo"), "Disks"), *d;
	double n = 0;
	size_t k;

	json_array_foreach(disks, k, d) {
		double c = path_num(d, "Count", NULL, NULL, ok);

		if (!isnan(c))
			n += c;
	}
	return n;
}

/*
 * Data disks from the EBS volume limit ("Amazon EBS volume limits for Amazon EC2 instances"):
 * the root volume is one of them; a shared limit (28 attachments on most Nitro types) also
 * holds the one network interface and the NVMe instance store volumes. Older CLIs print no
 * limit: then Nitro's shared 28 or Xen's 40 volumes (Linux, best effort), as built in.
 */
static double aws_data_disks(json_t *it, const char *hv, bool *ok)
{
	double disks = path_num(it, "EbsInfo", "MaximumEbsAttachments", NULL, ok);
	const char *type = json_string_value(json_object_get(json_object_get(it, "EbsInfo"),
							     "AttachmentLimitType"));
	double held = 1;

	if (isnan(disks) && !hv)
		return NAN;
	if (isnan(disks) ? strcmp(hv, "nitro") == 0 : type && !strcmp(type, "shared"))
		held += 1 + aws_store_volumes(it, ok);
	if (isnan(disks))
		disks = strcmp(hv, "nitro") ? 40 : 28;
	return disks > held ? disks - held : 0;
}

static int aws_type(json_t *it, size_t i, struct import_batch *b)
{
	const char *name = json_string_value(json_object_get(it, "InstanceType"));
	const char *hv = json_string_value(json_object_get(it, "Hypervisor"));
	double vcpus, mem, local, disks;
	bool ok = true;
	int lost;
	json_t *e;

	if (!json_is_object(it))
		return bad(b, i, NULL, "expected an object (an instance type)");
	if (!name || !*name)
		return bad(b, i, NULL, "missing 'InstanceType'");
	if (!(e = import_entry(b, name, NULL)))
		return -ENOMEM;
	vcpus = path_num(it, "VCpuInfo", "DefaultVCpus", NULL, &ok);
	mem = path_num(it, "MemoryInfo", "SizeInMiB", NULL, &ok);
	local = path_num(it, "InstanceStorageInfo", "TotalSizeInGB", NULL, &ok);
	disks = aws_data_disks(it, hv, &ok);
	lost = aws_ebs(e, it, &ok);
	if (!ok) {
		json_decref(e);
		return bad(b, i, name, "a figure is not a non-negative number");
	}
	if (!isnan(vcpus))
		lost |= json_object_set_new(e, "vcpus", json_integer(llround(vcpus)));
	lost |= num(e, "mem_gib", mem / 1024) | num(e, "local_gib", local * 1e9 / GIB);
	if (hv)
		lost |= json_object_set_new(e, "nitro", json_boolean(!strcmp(hv, "nitro")));
	if (!isnan(disks))
		lost |= json_object_set_new(e, "max_disks", json_integer(llround(disks)));
	lost |= json_object_set_new(e, "premium", json_true()) |
		json_object_set_new(e, "cache", json_false()) |
		json_object_set_new(e, "units", json_string("MB/s"));
	if (lost) {
		json_decref(e);
		return -ENOMEM;
	}
	return import_add(b->vms, b->vm_names, e);
}

int import_aws(json_t *root, struct import_batch *b)
{
	json_t *list = json_object_get(root, "InstanceTypes"), *it;
	size_t i;
	int ret;

	if (!json_is_array(list))
		return err_set(b->err, b->errlen, -EINVAL, "%s: 'InstanceTypes': expected an array",
			       b->file);
	json_array_foreach(list, i, it)
		if ((ret = stopped(b, i)) || (ret = aws_type(it, i, b)))
			return ret;
	return 0;
}

/* ---- gcloud compute machine-types list: one object per machine type and zone ---- */

static int gcp_type(json_t *mt, size_t i, struct import_batch *b)
{
	const char *name = json_string_value(json_object_get(mt, "name"));
	json_t *cpus = json_object_get(mt, "guestCpus"), *mem = json_object_get(mt, "memoryMb");
	json_t *disks = json_object_get(mt, "maximumPersistentDisks"), *e;
	int lost;

	if (!json_is_object(mt))
		return bad(b, i, NULL, "expected an object (a machine type)");
	if (!name || !*name)
		return bad(b, i, NULL, "missing 'name'");
	if (!json_is_integer(cpus) || json_integer_value(cpus) < 1 ||
	    json_integer_value(cpus) > 100000)
		return bad(b, i, name, "'guestCpus': expected a count of vCPUs");
	if ((mem && (!json_is_number(mem) || json_number_value(mem) < 0)) ||
	    (disks && (!json_is_integer(disks) || json_integer_value(disks) < 0 ||
		       json_integer_value(disks) > 100000)))
		return bad(b, i, name, "'%s': expected a non-negative number",
			   disks && !json_is_integer(disks) ? "maximumPersistentDisks" :
			   "memoryMb");
	if (!(e = import_entry(b, name, NULL)))
		return -ENOMEM;
	lost = json_object_set(e, "vcpus", cpus);
	if (mem)
		lost |= json_object_set_new(e, "mem_gib", json_real(json_number_value(mem) / 1024));
	if (disks)
		lost |= json_object_set(e, "max_disks", disks);
	lost |= json_object_set_new(e, "premium", json_true()) |
		json_object_set_new(e, "cache", json_false());
	if (lost) {
		json_decref(e);
		return -ENOMEM;
	}
	return import_add(b->vms, b->vm_names, e);
}

int import_gcp(json_t *root, struct import_batch *b)
{
	json_t *mt;
	size_t i;
	int ret;

	json_array_foreach(root, i, mt)
		if ((ret = stopped(b, i)) || (ret = gcp_type(mt, i, b)))
			return ret;
	return 0;
}
