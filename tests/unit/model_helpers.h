/* Shared by the model's unit tests: build a configuration from names, predict, compare. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/config.h"

static struct catalog cat;

static int setup(void **state)
{
	char err[256];

	(void)state;
	return model_catalog_open(&cat, NULL, 0, err, sizeof(err));
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

static inline struct model_result predict(const char *vm, const char *disk, enum model_cache cache,
				   uint64_t bs, bool seq, unsigned threads, unsigned depth)
{
	struct model_config m;
	struct model_workload w = {bs, 0, seq, threads, depth};
	struct model_result r;
	char err[256], *specs[1] = {(char *)disk};

	assert_int_equal(model_config_resolve(&cat, vm, NULL, specs, 1, cache, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	return r;
}

#define assert_within(got, want, pct) \
	assert_true(fabs((got) - (want)) <= (want) * (pct) / 100.0)
