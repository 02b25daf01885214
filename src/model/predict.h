#ifndef IORATE_MODEL_PREDICT_H
#define IORATE_MODEL_PREDICT_H
#include <stdbool.h>
#include <stdint.h>

#include "model/catalog.h"
#include "model/hostcache.h"

/*
 * The performance model: a VM, groups of disks striped into one volume (or the VM's local disk),
 * each group with its host-cache mode, the share of reads the host cache serves, and a workload
 * give IOPS, MB/s and mean latency, the limit that binds, and every limit considered. Formulas
 * and their sources: docs/model.md.
 */

/* MODEL_CACHE_DEFAULT: each group's own default (none; readwrite for an OS disk). */
enum model_cache { MODEL_CACHE_NONE, MODEL_CACHE_READONLY, MODEL_CACHE_READWRITE,
		   MODEL_CACHE_DEFAULT };

struct model_workload {
	uint64_t bs;            /* bytes per I/O */
	unsigned write_pct;     /* 0..100 */
	bool sequential;
	unsigned threads, depth;
};

/* One group of identical disks, resolved from a SPEC such as "2xP30" or "gp3:1TiB:iops=6000". */
struct model_disk {
	const struct cat_disk *type;    /* NULL for the VM's local (temp) disk */
	unsigned count;
	bool local, ondemand;
	enum model_cache cache;         /* MODEL_CACHE_DEFAULT until model_check() settles it */
	double gib;
	double iops, write_iops, mbps;  /* per disk, sustained; write_iops 0 = shared with reads */
	double write_mbps;              /* the local disk's write cap, when published apart */
	double burst_iops, burst_mbps;  /* per disk while credits last; 0 = no burst */
	double bucket_ios, bucket_mb;   /* credit buckets */
	double io_unit;                 /* bytes; larger I/Os count as several; 0 = none */
	double lat_read_ms, lat_write_ms, lat_cached_ms;
	double xfer_mbps, xfer_cached_mbps; /* one request's transfer rate (0: the disk's cap) */
	char spec[64];
};

#define MODEL_MAX_GROUPS 8
struct model_config {
	const struct cat_vm *vm;
	const struct cat_account *account;       /* set by model_check when a disk needs one */
	struct model_disk disks[MODEL_MAX_GROUPS];
	unsigned ngroups;
	/*
	 * In: the mode of groups that do not give their own (MODEL_CACHE_DEFAULT: each type's).
	 * After model_check(): none when no group is cached, else the first cached group's mode.
	 */
	enum model_cache cache;
	double read_hit;                /* percent of reads the host cache serves (cached groups) */
	/*
	 * With read_hit_set the ratio above is used as given. Else a working set (bytes over
	 * the volume; 0: not known, and read_hit is used) gives it, with the VM's host-cache
	 * size, the cache's state and the spread of random offsets (model_read_hit()).
	 */
	bool read_hit_set;
	double working_set;
	enum model_cache_state cache_state;
	struct model_skew skew;
	uint64_t interleave;            /* stripe unit, bytes; 0 = 256 KiB (Storage Spaces) */
	const char *controller;         /* disk controller, "scsi" or "nvme"; NULL: the VM's default */
};

/*
 * The VM's caps that disks of a family meet (docs/model.md, "Limits"): the caps_by_family row
 * for the family and controller, else the VM's uncached caps. -ENOENT when the VM publishes
 * none for the family (no per-VM limit applies).
 */
struct model_vm_column {
	const struct cat_family_caps *row;  /* NULL: the VM's uncached caps */
	double iops, write_iops, mbps, write_mbps, burst_iops, burst_mbps;
	bool mib;
	const char *source;
};
int model_vm_column(const struct model_config *m, const char *family,
		    struct model_vm_column *col);

#define MODEL_INTERLEAVE (256 * 1024)
#define MODEL_MAX_LIMITS 24

/*
 * What a limit is made of, as codes and figures: report/ words them (model_words_detail()).
 * Names (a VM, a disk type, an account, a column of the VM's caps) are the catalog's.
 */
enum model_detail_kind {
	MODEL_DETAIL_LOCAL_IOPS,        /* name: the VM; a: its local disk's IOPS */
	MODEL_DETAIL_LOCAL_MBPS,        /* a: MB/s; b > 0: a for reads, b for writes */
	MODEL_DETAIL_QUEUE,             /* n threads x k outstanding at a ms each */
	MODEL_DETAIL_DISK_IOPS,         /* k of the n members of type name set the pace: a IOPS */
	MODEL_DETAIL_DISK_MBPS,         /* likewise, a in unit each */
	MODEL_DETAIL_POOL_IOPS,         /* type name: a IOPS + b per GiB x c GiB, for the VM */
	MODEL_DETAIL_POOL_MBPS,         /* type name: a in unit for the VM's disks of c GiB */
	MODEL_DETAIL_VM_IOPS,           /* the VM's column: a IOPS (READ_WRITE: a read, b write) */
	MODEL_DETAIL_VM_MBPS,           /* likewise, in unit */
	MODEL_DETAIL_CACHED_IOPS,       /* name: the VM; a: its cached IOPS */
	MODEL_DETAIL_CACHED_MBPS,       /* a in unit */
	MODEL_DETAIL_ACCOUNT_IOPS,      /* name: the storage account; a: IOPS for all its disks */
};

#define MODEL_DETAIL_BURST       1u     /* the burst figure (a disk's, or the VM's column's) */
#define MODEL_DETAIL_SEVERAL     2u     /* an I/O counts as several operations */
#define MODEL_DETAIL_HITS_SPARE  4u     /* host-cache hits spare the disks */
#define MODEL_DETAIL_READ_WRITE  8u     /* a read and a write figure (GCP's per disk type) */

struct model_detail {
	enum model_detail_kind kind;
	unsigned flags;                 /* MODEL_DETAIL_* */
	const char *name;               /* the VM, disk type or storage account */
	const struct cat_family_caps *column;   /* VM_*: its column; NULL: the uncached caps */
	const char *unit;               /* "MB/s" or "MiB/s" */
	unsigned n, k;
	double a, b, c;
};

struct model_limit {
	const char *name;       /* disk_iops disk_mbps vm_uncached_iops ... queue_depth */
	double iops, mbps;      /* the workload's IOPS and MB/s were this limit the only one */
	double cap;             /* the published figure (IOPS, MB/s, or outstanding I/Os) */
	struct model_detail detail;
	const char *source;
};

/* What the model assumed or could not bound: a code and its figures, worded by report/. */
enum model_note_kind {
	MODEL_NOTE_NO_VM_LIMIT,         /* vm publishes no per-VM limit for family's disks */
	MODEL_NOTE_HITS_AT_DISK,        /* the 2015 rule: hits counted at the disk's limits too */
	MODEL_NOTE_NO_CACHED_LIMIT,     /* vm publishes no cached limit: hits count uncached */
	MODEL_NOTE_WS_OVER_VOLUME,      /* the working set (a GiB) exceeds the volume (b GiB) */
};

struct model_note {
	enum model_note_kind kind;
	const char *vm, *family;        /* the catalog's names */
	double a, b;
};

struct model_phase {
	double start_s, end_s, iops, mbps;
	const char *binding;
};

struct model_result {
	double iops, mbps, latency_ms;  /* sustained, once every burst credit is spent */
	double service_ms;              /* latency of one I/O with no queue (the floor) */
	const char *binding;
	unsigned binding_limit;         /* limits[binding_limit] binds (names may repeat) */
	struct model_limit limits[MODEL_MAX_LIMITS];
	unsigned nlimits;
	bool bursts;                    /* the start of a run is faster, while credits last */
	double burst_iops, burst_mbps, burst_seconds;
	const char *burst_binding;
	struct model_phase phases[8];   /* timeline over duration_s (when asked) */
	unsigned nphases;
	double duration_s, avg_iops, avg_mbps;
	struct model_note notes[4];     /* what the model assumed or could not bound */
	unsigned nnotes;
	struct model_hit hit;           /* the host cache's read-hit ratio used, and why */
};

/*
 * Resolves one SPEC "[Nx]TYPE[:SIZE][:iops=N][:mbps=N][:burst=ondemand][:cache=MODE]" for a VM.
 * TYPE is a disk name ("P30", "gp3", "os"), a family with a size ("premium:600GiB" picks P30),
 * or "local"/"temp". mbps= is in the unit the provider provisions in (MiB/s for EBS and PD, MB/s
 * for Azure). -ENOENT for an unknown name (err suggests close ones), -EINVAL for a bad spec.
 */
int model_parse_disk(const struct catalog *c, const struct cat_vm *vm, const char *spec,
		     struct model_disk *d, char *err, size_t errlen);

/*
 * Settles each group's host cache (its own, else m->cache, else its type's default), refuses
 * impossible combinations (too many disks, premium disks on a VM without premium support, host
 * caching where unsupported) and finds the storage account a disk type needs.
 */
int model_check(const struct catalog *c, struct model_config *m, char *err, size_t errlen);

/*
 * The share of reads of cached groups the host cache serves for w on m, and why
 * (docs/model.md, "Host caching"): as given with read_hit_set or without a working set, else
 * from the working set against the VM's cache_gib (unknown when the VM publishes none: no hits
 * are then assumed, and said).
 */
void model_read_hit(const struct model_config *m, const struct model_workload *w,
		    struct model_hit *h);

/*
 * Refuses a controller the VM does not take, or one given for a size that publishes no caps
 * by controller (where it would change nothing). model_check() calls it too.
 */
int model_check_controller(const struct model_config *m, char *err, size_t errlen);

/* duration_s > 0 adds a timeline of burst phases and the average over it. */
int model_predict(const struct model_config *m, const struct model_workload *w, double duration_s,
		  struct model_result *r);

const char *model_cache_name(enum model_cache c);
int model_cache_parse(const char *s, enum model_cache *c);

/* The provisioning unit of a disk type: "MiB/s" (EBS, PD, Hyperdisk) or "MB/s" (Azure). */
const char *model_mbps_unit(const struct cat_disk *t);
/* A rate in MB/s written in the type's provisioning unit. */
double model_mbps_in_unit(const struct cat_disk *t, double mbps);

/* Operations an I/O of bs bytes counts as where each unit of `unit` bytes is one (0: one). */
double model_ops_per_io(double bs, double unit);

/*
 * Per-GiB rules, for plan's sizing as for iops=/mbps=: the most IOPS a volume of gib may
 * provision (or derives, for types that derive it), for a VM (NULL: any); the most MB/s that
 * many provisioned IOPS allow; and the least GiB that holds iops.
 */
double model_rule_max_iops(const struct cat_disk *t, const struct cat_vm *vm, double gib);
double model_rule_max_mbps(const struct cat_disk *t, double iops);
double model_rule_min_gib(const struct cat_disk *t, const struct cat_vm *vm, double iops);

#endif
