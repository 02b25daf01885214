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

/* A configuration of several groups ("3xP30:cache=readwrite", "2xP30"), predicted. */
static inline struct model_result predict_groups(const char *vm, const char *const *specs,
						 unsigned n, double read_hit,
						 struct model_workload w)
{
	struct model_config m;
	struct model_result r;
	char err[256];

	if (model_config_resolve(&cat, vm, NULL, (char *const *)specs, n, MODEL_CACHE_DEFAULT, &m,
				 err, sizeof(err)))
		fail_msg("%s: %s", vm, err);
	m.read_hit = read_hit;
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	return r;
}

/* One group of disks on a VM, resolved (the test fails on a refusal). */
static inline struct model_disk disk_of(const char *vm, const char *spec)
{
	struct model_config m;
	char err[256], *specs[1] = {(char *)spec};

	if (model_config_resolve(&cat, vm, NULL, specs, 1, MODEL_CACHE_DEFAULT, &m, err,
				 sizeof(err)))
		fail_msg("%s %s: %s", vm, spec, err);
	return m.disks[0];
}

/* The refusal of a spec on a VM: its message, or fails when it is accepted. */
static inline const char *refusal(const char *vm, const char *spec, char *err, size_t len)
{
	struct model_config m;
	char *specs[1] = {(char *)spec};

	if (!model_config_resolve(&cat, vm, NULL, specs, 1, MODEL_CACHE_DEFAULT, &m, err, len))
		fail_msg("%s %s: accepted", vm, spec);
	return err;
}

#define MIB 1.048576 /* MB/s in a MiB/s */

#define assert_within(got, want, pct) \
	assert_true(fabs((got) - (want)) <= (want) * (pct) / 100.0)
