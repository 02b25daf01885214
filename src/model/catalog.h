#ifndef IORATE_MODEL_CATALOG_H
#define IORATE_MODEL_CATALOG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The catalog of published cloud limits and prices: the JSON files of data/catalog/ compiled into
 * the binary, plus files given with --catalog that add entries or replace entries of the same
 * name. The schema is in docs/catalog.md. Strings point into the parsed JSON, which the catalog
 * owns; MB/s are 10^6 bytes per second everywhere (figures written in MiB/s are converted on load,
 * and *_mib says which unit the source used, for messages and for provisioning in that unit).
 */

/*
 * The layers the catalog is read from, lowest first (docs/catalog.md, "Layers"): the files
 * compiled in, those installed with iorate (PREFIX/share/iorate/catalog), the user's
 * ($XDG_DATA_HOME/iorate/catalog), and --catalog files. An entry of a layer takes the place of
 * the entry of the same catalog and name of a lower one.
 */
enum cat_layer { CAT_BUILTIN, CAT_INSTALLED, CAT_USER, CAT_FILE };

/* "built-in", "installed", "user", "--catalog". */
const char *catalog_layer_name(enum cat_layer l);

/* Throughput per provisioned IOPS from some IOPS on, up to a ceiling (EBS io1/io2). */
struct cat_iops_tier {
	double from_iops, mbps_per_iops, mbps_max;
};

struct cat_disk {
	const char *catalog, *provider, *name, *family, *account;
	const char *source, *date, *note, *latency_source, *file;
	const void *json;                   /* the entry as written (json_t object) */
	enum cat_layer layer;
	void *aliases;                      /* json_t array or NULL */
	const char *cache_rule, *default_cache;
	bool premium, cache, rule, provisioned, os, baseline_per_vm, throughput_follows_iops;
	bool block_express;                 /* needs a VM that runs EBS Block Express */
	bool iops_by_size;                  /* the free IOPS too are bounded by iops_per_gib x GiB
					     * (Hyperdisk Balanced: 2,000 at 4 GiB) */
	bool mbps_mib;                      /* the source gives (and iops=/mbps= take) MiB/s */
	bool hits_count_against_disk;       /* cache_rule "2015": every I/O counts at the disk */
	double gib, min_gib, max_gib;
	double iops, iops_per_gib, write_iops_per_gib, iops_free_gib, iops_min, iops_max;
	double mbps, mbps_per_gib, mbps_per_iops, mbps_min, mbps_max;
	double mbps_min_per_iops;           /* provisioned MB/s at least this per IOPS */
	double mbps_steps[8][2];            /* {from GiB, MB/s}, ascending */
	unsigned nsteps;
	double burst_iops, burst_mbps, burst_seconds, burst_bucket_ios;
	double burst_mbps_per_gib, burst_mbps_max, burst_bucket_mb_per_gib;
	double ondemand_iops, ondemand_mbps;
	double io_unit_kib;
	double iops_per_mbps;               /* IOPS follow provisioned throughput (Hyperdisk
					     * Throughput): IOPS per MB/s, or MiB/s as units say */
	double latency_read_ms, latency_write_ms, latency_cached_ms;
	double transfer_mbps, transfer_cached_mbps; /* one request's rate; 0: the disk's cap */
	double iops_max_without_nitro;
	/* How the provider counts the operations it bills (a price's per_10k_transactions). */
	double ops_unit_kib;                /* an I/O is one operation per unit; 0 = one per I/O */
	double ops_per_io_max;              /* at most this many per I/O; 0 = no limit */
	double ops_per_hour_max;            /* billed an hour per disk, at most; 0 = no cap */
	struct cat_iops_tier tiers[4];      /* mbps_by_iops, ascending */
	unsigned ntiers;
};

/*
 * Caps of a VM for one disk family (GCP's per-VM limits depend on the disk type; Azure publishes
 * a column for Premium SSD v2 and Ultra Disk apart, and one per disk controller on some sizes).
 * family "*" covers every family, "premium-v2|ultra" either (one cap for both); controller
 * NULL: any controller.
 */
struct cat_family_caps {
	const char *family;
	const char *controller;             /* "scsi", "nvme" or NULL */
	const char *column;                 /* the page's name of the column, for messages */
	const char *source;                 /* of a series rule; NULL: the VM's own source */
	double iops, write_iops, mbps, write_mbps;
	double burst_iops, burst_mbps;      /* VM-level credit burst of the column; 0: none */
	bool mib;
};

/*
 * A machine series' caps by disk family and vCPU count (GCP publishes them so): a VM of the
 * series ("n2" for n2-highmem-8) whose entry gives no caps_by_family gets the rows of its vCPU
 * count, so a machine type imported with only its vCPUs and memory is modelled as the page says.
 */
struct cat_series_row {
	struct cat_family_caps caps;
	unsigned vcpus_min, vcpus_max;
};

struct cat_series {
	const char *catalog, *name, *source, *date, *note, *file;
	const void *json;
	enum cat_layer layer;
	unsigned max_disks;                 /* for VMs that give none */
	struct cat_series_row *rows;
	size_t nrows;
};

struct cat_vm {
	const char *catalog, *provider, *name, *source, *date, *note, *file;
	const void *json;
	enum cat_layer layer;
	const char *uncached_source, *local_latency_source, *local_source;
	const char *series;                 /* whose rules gave caps_by_family, or NULL */
	const char *controller;             /* the disk controller a new VM gets ("scsi", "nvme") */
	void *aliases;
	void *controllers;                  /* json_t array of the controllers it takes, or NULL */
	unsigned vcpus, max_disks;
	double mem_gib;
	bool premium, cache, local_shares_cache, nitro, block_express;
	bool uncached_mib, cached_mib, local_mib; /* the source gives those caps in MiB/s */
	double uncached_iops, uncached_mbps;
	double burst_iops, burst_mbps, burst_seconds;
	double cached_iops, cached_mbps, cache_gib;
	double local_iops, local_mbps, local_write_mbps, local_gib, local_latency_ms;
	double io_unit_kib;
	struct cat_family_caps fcaps[8];
	unsigned nfcaps;
	struct cat_type_max {               /* max_disks_by_type: {"hyperdisk-balanced": 16} */
		const char *type;           /* a type's name, or "prefix*": every type so named,
					     * together ("hyperdisk-*": all Hyperdisk volumes) */
		unsigned max;
	} type_max[8];
	unsigned ntype_max;
	struct cat_type_max gib_max[4];     /* max_gib_by_type: {"hyperdisk-*": 263168}, GiB */
	unsigned ngib_max;
};

struct cat_account {
	const char *catalog, *name, *source, *date, *note, *file;
	const void *json;
	enum cat_layer layer;
	double iops, mbps;
};

/* A volume's IOPS above `from` priced at `price` per IOPS-month (io2's tiers). */
struct cat_price_step {
	double from, price;
};

#define CAT_PRICE_STEPS 3

struct cat_price {
	const char *catalog, *kind, *name, *tier, *redundancy, *region, *currency, *source, *date;
	const char *note, *file;
	const void *json;
	enum cat_layer layer;
	double per_hour, per_month, per_gib_month, per_iops_month, per_mbps_month;
	double per_10k_transactions, per_gb_month, write_per_10k, read_per_10k;
	double geo_per_gb;          /* storage: geo-replication data transfer per GB; 0: unknown */
	/* per_iops_month_above: the IOPS of a volume above each step at its price, ascending */
	struct cat_price_step iops_above[CAT_PRICE_STEPS];
	unsigned niops_above;
};

/*
 * A figure an entry of one layer gives otherwise than the entry it replaced, of a lower layer
 * (an installed file edited after installation): the higher layer's figure is used.
 */
struct cat_conflict {
	enum cat_layer layer, below;        /* whose figure is used, whose it replaced */
	const char *file;                   /* the file of the entry used */
	const char *catalog, *kind, *name;  /* kind: "vm", "disk", "price", "account", "series" */
	const char *field;
	const void *is, *was;               /* json_t values; NULL where a layer gives none */
	const void *entry;                  /* the entry used (json_t object: its units) */
};

struct catalog {
	struct cat_disk *disks;
	struct cat_vm *vms;
	struct cat_account *accounts;
	struct cat_price *prices;
	struct cat_series *series;
	size_t ndisks, nvms, naccounts, nprices, nseries;
	void **roots;                       /* json_t documents the strings point into */
	size_t nroots;
	char **names;                       /* catalog names in load order */
	size_t nnames;
	struct cat_conflict *conflicts;
	size_t nconflicts;
	enum cat_layer layer;               /* of the files being loaded */
};

/*
 * Loads the built-in catalogs, then gives every VM without caps of its own the caps of its
 * series (catalog_finish). On error writes "file:line: why" into err.
 */
int catalog_load_builtin(struct catalog *c, char *err, size_t errlen);
/*
 * Gives each VM that has no caps_by_family those of its series' rules for its vCPU count
 * (and the series' data-disk maximum when it states none). Called again after more files are
 * loaded; a VM is completed once.
 */
void catalog_finish(struct catalog *c);
const struct cat_series *catalog_find_series(const struct catalog *c, const char *catalog,
					     const char *vm_name);
/*
 * Adds a file of c->layer. Entries are searched in load order, so a file loaded before the
 * built-in ones (--catalog) comes first; catalog_open_layers() puts higher layers first too.
 */
int catalog_load_file(struct catalog *c, const char *path, char *err, size_t errlen);
/* Parses one document held in memory (tests); name is used in messages. */
int catalog_load_text(struct catalog *c, const char *name, const char *text, char *err,
		      size_t errlen);
void catalog_release(struct catalog *c);

/*
 * Where the layers above the built-in one are read from. The installed catalog's directory is
 * $IORATE_CATALOG_DIR when set (tests, or a catalog kept elsewhere), else the one `make install`
 * filled: PREFIX/share/iorate/catalog, PREFIX as the Makefile had it. The user's is
 * $XDG_DATA_HOME/iorate/catalog, else $HOME/.local/share/iorate/catalog (NULL when neither
 * variable is set).
 */
const char *catalog_installed_dir(char *buf, size_t len);
const char *catalog_user_dir(char *buf, size_t len);

struct catalog_layers {
	char *const *files;                 /* --catalog */
	unsigned nfiles;
	const char *installed, *user;       /* directories; NULL: none; missing: empty */
};

/*
 * Loads the catalog every command sees: the --catalog files (first: their entries win), the
 * price lists 'catalog prices' keeps in the user's directory (prices-*.json: before the
 * built-in prices), the built-in catalogs, then every *.json of the installed directory and
 * the other *.json of the user's, each file's entries taking the place of those of a lower
 * layer with the same catalog and name (a price: of the same region, currency, tier and
 * redundancy). Where the figures of the two differ, c->conflicts says so. Files of a
 * directory are read in name order. VMs get their series' caps once everything is loaded.
 */
int catalog_open_layers(struct catalog *c, const struct catalog_layers *l, char *err,
			size_t errlen);
/*
 * One document of c->layer held in memory, laid over the entries of lower layers loaded
 * before it, as a file of an installed or user directory is (tests, the fuzz target).
 */
int catalog_load_layer_text(struct catalog *c, const char *name, const char *text, char *err,
			    size_t errlen);
/* The same with the installed and user directories of the environment, no --catalog files. */
int catalog_open_default(struct catalog *c, char *err, size_t errlen);

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
/*
 * The first price of a VM or disk (kind "vm", "disk") of a catalog, in a region and currency
 * (NULL: any; compared without case). Files are searched in load order: --catalog files, the
 * prices 'iorate catalog prices' downloaded, then the built-in ones.
 */
const struct cat_price *catalog_find_price(const struct catalog *c, const char *catalog,
					   const char *kind, const char *name, const char *region,
					   const char *currency);

/*
 * A price's age in whole days at now, from its date ("2026-11-30"; "2026-09" and "2015" count
 * from the first day they may mean), or -1 when the date is none of those ("undated", "about
 * 2016"). A price older than CATALOG_PRICE_STALE_DAYS, or of unknown age, is flagged as stale.
 */
#define CATALOG_PRICE_STALE_DAYS 90
int catalog_price_age_days(const char *date, long long now);
bool catalog_price_stale(int age_days);
bool catalog_has(const struct catalog *c, const char *catalog);
/* Whether s names a disk controller the catalogs know: "scsi" or "nvme". */
bool catalog_controller_known(const char *s);

/*
 * Writes up to three names close to `name` (edit distance, or a shared prefix) among VMs
 * (kind "vm") or disks (kind "disk") of a catalog (NULL: all): "DS2, DS3, DS12".
 */
void catalog_suggest(const struct catalog *c, const char *kind, const char *catalog,
		     const char *name, char *out, size_t outlen);

/*
 * A VM's caps for disks of a family (GCP publishes them so), or NULL when its caps do not
 * depend on the family. Families compare without case; of two entries the later one counts.
 * The rows of the VM's default controller are searched (catalog_vm_column).
 */
const struct cat_family_caps *catalog_vm_family_caps(const struct cat_vm *vm, const char *family);
/*
 * The row of caps_by_family that applies to disks of a family behind a controller (NULL: the
 * VM's default): the family's own row before a "*" row, a row of that controller before one
 * for any; NULL when none applies (the VM's uncached caps then do, if it has any).
 */
const struct cat_family_caps *catalog_vm_column(const struct cat_vm *vm, const char *family,
						const char *controller);
/* Whether the VM takes a disk controller ("scsi", "nvme"); one that names none takes any. */
bool catalog_vm_takes_controller(const struct cat_vm *vm, const char *controller);

/*
 * How many disks of a type the VM takes (the least of its max_disks_by_type entries that name
 * the type or a prefix of it), or UINT_MAX when no such limit.
 */
unsigned catalog_vm_type_max(const struct cat_vm *vm, const char *type);
/* Whether a max_disks_by_type key ("hyperdisk-balanced", "hyperdisk-*") covers a type. */
bool catalog_type_max_covers(const char *key, const char *type);

/*
 * Whether an entry's file gives the figure `key` in MiB/s (its "units", for that figure or for
 * all): entry is the entry's JSON object, as catalog_fmt reads it.
 */
bool catalog_field_mib(const void *entry, const char *key);

/* Case-insensitive comparison that ignores a "Standard_" prefix on either side. */
bool catalog_name_eq(const char *a, const char *b);

#endif
