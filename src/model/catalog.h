#ifndef IORATE_MODEL_CATALOG_H
#define IORATE_MODEL_CATALOG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The catalog of published cloud limits and prices: the JSON files of data/catalog/ compiled into
 * the binary, plus files given with --catalog that add entries or replace entries of the same
 * name. The schema is in docs/catalog.md. Strings point into the parsed JSON, which the catalog
 * owns; MB/s are 10^6 bytes per second everywhere (entries written in MiB/s are converted on load).
 */

struct cat_disk {
	const char *catalog, *provider, *name, *family, *account;
	const char *source, *date, *note, *latency_source, *file;
	void *aliases;                      /* json_t array or NULL */
	bool premium, cache, rule, provisioned;
	double gib, min_gib, max_gib;
	double iops, iops_per_gib, write_iops_per_gib, iops_free_gib, iops_min, iops_max;
	double mbps, mbps_per_gib, mbps_per_iops, mbps_min, mbps_max;
	double mbps_steps[8][2];            /* {from GiB, MB/s}, ascending */
	unsigned nsteps;
	double burst_iops, burst_mbps, burst_seconds, burst_bucket_ios;
	double burst_mbps_per_gib, burst_mbps_max, burst_bucket_mb_per_gib;
	double ondemand_iops, ondemand_mbps;
	double io_unit_kib;
	double latency_read_ms, latency_write_ms, latency_cached_ms;
};

/* Caps of a VM for one disk family (GCP's per-VM limits depend on the disk type). */
struct cat_family_caps {
	const char *family;
	double iops, write_iops, mbps, write_mbps;
};

struct cat_vm {
	const char *catalog, *provider, *name, *source, *date, *note, *file;
	const char *uncached_source, *local_latency_source;
	void *aliases;
	unsigned vcpus, max_disks;
	double mem_gib;
	bool premium, cache, local_shares_cache;
	double uncached_iops, uncached_mbps;
	double burst_iops, burst_mbps, burst_seconds;
	double cached_iops, cached_mbps, cache_gib;
	double local_iops, local_mbps, local_gib, local_latency_ms;
	double io_unit_kib;
	struct cat_family_caps fcaps[8];
	unsigned nfcaps;
};

struct cat_account {
	const char *catalog, *name, *source, *date, *note;
	double iops, mbps;
};

struct cat_price {
	const char *catalog, *kind, *name, *tier, *redundancy, *region, *currency, *source, *date;
	const char *note;
	double per_hour, per_month, per_gib_month, per_iops_month, per_mbps_month;
	double per_10k_transactions, per_gb_month, write_per_10k, read_per_10k;
};

struct catalog {
	struct cat_disk *disks;
	struct cat_vm *vms;
	struct cat_account *accounts;
	struct cat_price *prices;
	size_t ndisks, nvms, naccounts, nprices;
	void **roots;                       /* json_t documents the strings point into */
	size_t nroots;
	char **names;                       /* catalog names in load order */
	size_t nnames;
};

/* Loads the built-in catalogs. On error writes "file:line: why" into err. */
int catalog_load_builtin(struct catalog *c, char *err, size_t errlen);
/* Adds a file; its entries come before built-in ones of the same catalog and name. */
int catalog_load_file(struct catalog *c, const char *path, char *err, size_t errlen);
/* Parses one document held in memory (tests); name is used in messages. */
int catalog_load_text(struct catalog *c, const char *name, const char *text, char *err,
		      size_t errlen);
void catalog_release(struct catalog *c);

/*
 * Lookups take "NAME" or "CATALOG:NAME"; names compare without case and without a "Standard_"
 * prefix, and aliases count. With a NULL catalog, a VM is searched in every catalog (current
 * ones first); -ENOENT when nothing matches.
 */
const struct cat_vm *catalog_find_vm(const struct catalog *c, const char *catalog,
				     const char *name);
const struct cat_disk *catalog_find_disk(const struct catalog *c, const char *catalog,
					 const char *name);
/* The smallest fixed disk of a family whose size holds gib ("premium" with 600 GiB: P30). */
const struct cat_disk *catalog_find_family(const struct catalog *c, const char *catalog,
					   const char *family, double gib);
const struct cat_price *catalog_find_price(const struct catalog *c, const char *catalog,
					   const char *kind, const char *name, const char *region);
bool catalog_has(const struct catalog *c, const char *catalog);

/*
 * Writes up to three names close to `name` (edit distance, or a shared prefix) among VMs
 * (kind "vm") or disks (kind "disk") of a catalog (NULL: all): "DS2, DS3, DS12".
 */
void catalog_suggest(const struct catalog *c, const char *kind, const char *catalog,
		     const char *name, char *out, size_t outlen);

/*
 * A VM's caps for disks of a family (GCP publishes them so), or NULL when its caps do not
 * depend on the family. Families compare without case; of two entries the later one counts.
 */
const struct cat_family_caps *catalog_vm_family_caps(const struct cat_vm *vm, const char *family);

/* Case-insensitive comparison that ignores a "Standard_" prefix on either side. */
bool catalog_name_eq(const char *a, const char *b);

#endif
