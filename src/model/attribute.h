#ifndef IORATE_MODEL_ATTRIBUTE_H
#define IORATE_MODEL_ATTRIBUTE_H
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

struct model_attribution {
	enum model_origin origin;
	const char *limit;          /* the binding limit (at min_hit_pct for MODEL_HOST_CACHE) */
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

#endif
