#ifndef IORATE_MODEL_ATTRIBUTE_H
#define IORATE_MODEL_ATTRIBUTE_H
#include "core/job.h"
#include "model/predict.h"

/*
 * Where a measured figure comes from, for 'iorate explain': the limit it sits at, or, when it is
 * above every published limit, whether host-cache hits could give it (and how many) or only a
 * page cache could. The model's figures are steady states (or a timed run's average).
 */
enum model_origin {
	MODEL_AT_LIMIT,     /* within the tolerance of the prediction: sits at its binding limit */
	MODEL_BELOW,        /* under every limit: the guest, the device or the run held it back */
	MODEL_HOST_CACHE,   /* above it, but reachable with enough host-cache read hits */
	MODEL_PAGE_CACHE,   /* above what any host-cache hit ratio allows: a page cache served it */
};

/* Which of the prediction's figures a measurement was set against. */
enum model_window {
	MODEL_SUSTAINED,    /* once every burst credit is spent (or nothing bursts) */
	MODEL_BURST,        /* the whole run lies within the burst window */
	MODEL_AVERAGE,      /* a timed run that outlasts the burst: the timeline's average */
};

struct model_attribution {
	enum model_origin origin;
	const char *limit;          /* the binding limit (at min_hit_pct for MODEL_HOST_CACHE) */
	enum model_window window;   /* of predicted_iops, and of limit */
	double predicted_iops;      /* at the configuration's own read-hit ratio */
	double ratio;               /* measured / predicted */
	double min_hit_pct;         /* MODEL_HOST_CACHE: the fewest read hits that reach it */
	double max_iops;            /* with every read a hit (the prediction when nothing is cached) */
};

/*
 * Places measured_iops against the model of m (its cache modes as given, its read-hit ratio as
 * the starting point) for workload w; duration_s > 0 compares with the timeline's average.
 * tol is relative (0.15: within 15%). 0, or -EINVAL for a configuration model_predict refuses.
 */
int model_attribute(const struct model_config *m, const struct model_workload *w,
		    double duration_s, double measured_iops, double tol,
		    struct model_attribution *a);

/* "at_limit", "below", "host_cache", "page_cache". */
const char *model_origin_name(enum model_origin o);
/* "sustained", "burst", "average". */
const char *model_window_name(enum model_window w);

/*
 * What 'iorate explain' states about a run, as codes and figures: one struct that both of its
 * writers (src/report/model_fmt.c, text and JSON) walk, so the two cannot disagree. Each item
 * is a statement (its code, docs/model.md "What explain says") naming at most one thing (a
 * limit, a cap, a device) and carrying its figures, each with its JSON key and unit.
 */
enum explain_unit { EXPLAIN_IOPS, EXPLAIN_MBPS, EXPLAIN_MS, EXPLAIN_PCT, EXPLAIN_SECONDS,
		    EXPLAIN_GIB, EXPLAIN_RATIO, EXPLAIN_COUNT };

struct explain_fig {
	const char *key;            /* the item's JSON member */
	double v;                   /* NAN: unknown; INFINITY: unbounded */
	enum explain_unit unit;
};

#define EXPLAIN_FIGS 8
struct explain_item {
	const char *code;
	const char *name;           /* the limit, cap, window or device it names, or NULL */
	struct explain_fig fig[EXPLAIN_FIGS];
	unsigned nfig;
};

#define EXPLAIN_ITEMS 24
struct explanation {
	const char *origin;         /* at_limit below host_cache page_cache above_limits emulated */
	const char *limit;          /* where the measurement sits (explain_limits[]), or NULL */
	struct model_hit hit;       /* the host cache's assumed hits (note_host_cache_hits) */
	const char *window;         /* sustained, burst, average: of the figure set against it */
	double tolerance;           /* relative (0.15) */
	struct explain_item item[EXPLAIN_ITEMS];
	unsigned nitem;
};

/* A run as explain sets it beside the model (read from its result JSON by the command). */
struct explain_run {
	struct model_workload w;    /* threads over every target */
	double secs;                /* the duration asked for; 0: untimed */
	double iops, mbps, lat_ms;  /* measured; lat_ms NAN when not recorded */
	bool direct;                /* O_DIRECT: no page cache on the path */
	bool no_io;                 /* the null engine: nothing reached any device */
	double ws;                  /* working set, bytes; 0: unknown */
	double cpu_pct;             /* user + system over the run, percent of every CPU; NAN unknown */
	/* diskstats: the devices the targets sit on directly (not disks or members below). */
	bool has_devices;
	char devices[64];           /* their names, comma-separated */
	double run_ios[2], run_bytes[2];    /* iorate's reads [0] and writes [1] above them */
	double dev_ios[2], dev_bytes[2];    /* what the kernel counted reaching them */
	double dev_util_pct;        /* the busiest one's busy time over the window; NAN unknown */
	/* Emulated caps the run ran under (all 0: none), and which bucket held its I/Os. */
	struct job_caps cap, vm_cap;
	unsigned ntargets;
	const char *emulate;        /* the profile they came from, or NULL */
	bool has_held;
	double held_s[CAP_BUCKETS];
};

/*
 * Fills x from the run set against the model of m: the measured, sustained, burst and average
 * figures, where the measurement sits (within tol, relative), what reached the device, what the
 * emulation applied and which bucket held, and the notes. r gets the prediction (duration
 * run->secs). 0, or -EINVAL for a configuration model_predict refuses.
 */
int model_explain(const struct model_config *m, const struct explain_run *run, double tol,
		  struct model_result *r, struct explanation *x);

/*
 * A page cache served a buffered run only when the device counts show it: less than this share
 * (percent) of its I/Os and of its bytes reached the device.
 */
#define EXPLAIN_MEMORY_PCT 10.0
/*
 * Below every limit, a device busy this share (percent) of the window is what held the run; else
 * CPUs busy this share of their time.
 */
#define EXPLAIN_BUSY_PCT 90.0

#endif
