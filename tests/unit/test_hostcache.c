/*
 * The host cache's read-hit ratio from the working set (model/hostcache.h): a working set that
 * fits is served after one pass, a larger one in the share its hottest cache-sized part draws
 * (uniform, zipf, pareto, normal, zoned), a cold cache or a scan larger than the cache not at
 * all, and a VM without a published cache size gives an unknown ratio, never a guess.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"
#include "report/model_words.h"

#define GIB 1073741824.0

/* DS2 (86 GiB of host cache in the 2015 catalog) with a ReadOnly-cached P30. */
static struct model_config ds2(double ws)
{
	struct model_config m;
	char err[256], *specs[1] = {"P30:cache=readonly"};

	assert_int_equal(model_config_resolve(&cat, "DS2", NULL, specs, 1, MODEL_CACHE_DEFAULT,
					      &m, err, sizeof(err)), 0);
	assert_true(m.vm->cache_gib == 86);
	m.working_set = ws;
	return m;
}

/* What gave a ratio, in the words the outputs print. */
static const char *why(const struct model_hit *h)
{
	static char buf[MODEL_WORDS_HIT];

	return model_words_hit(h, buf, sizeof(buf));
}

/* A note in the outputs' words. */
static const char *note(const struct model_note *n)
{
	static char buf[MODEL_WORDS_NOTE];

	return model_words_note(n, buf, sizeof(buf));
}

static const struct model_workload rnd4k = {.bs = 4096, .threads = 1, .depth = 32};

static void test_fits(void **state)
{
	struct model_config m = ds2(GIB);
	struct model_hit h;

	model_read_hit(&m, &rnd4k, &h);
	assert_int_equal(h.basis, MODEL_HIT_FITS);
	assert_true(h.known);
	assert_true(h.pct == 100);
	assert_string_equal(why(&h), "working set 1 GiB fits the 86 GiB host cache: reads hit after "
			    "the first pass");
	/* The whole cache is still a fit; and sequential reads of it hit as well. */
	m.working_set = 86 * GIB;
	model_read_hit(&m, &(struct model_workload){.bs = 1 << 20, .sequential = true,
						    .threads = 1, .depth = 1}, &h);
	assert_true(h.pct == 100);
}

static void test_larger_than_cache(void **state)
{
	struct model_config m = ds2(172 * GIB);
	struct model_hit h;

	model_read_hit(&m, &rnd4k, &h);
	assert_int_equal(h.basis, MODEL_HIT_SHARE);
	assert_true(fabs(h.pct - 50) < 1e-9);
	m.working_set = 860 * GIB;
	model_read_hit(&m, &rnd4k, &h);
	assert_true(fabs(h.pct - 10) < 1e-9);
	/* Read in order, a scan larger than the cache evicts each block before it returns. */
	model_read_hit(&m, &(struct model_workload){.bs = 1 << 20, .sequential = true,
						    .threads = 1, .depth = 1}, &h);
	assert_int_equal(h.basis, MODEL_HIT_SEQ_LARGER);
	assert_true(h.pct == 0);
}

/* sum of i^-theta for i = 1..n, term by term. */
static double direct_harmonic(double n, double theta)
{
	double s = 0;

	for (double i = 1; i <= n; i++)
		s += pow(i, -theta);
	return s;
}

static void test_skewed(void **state)
{
	struct model_skew zipf = {.dist = DIST_ZIPF, .param = 1.2};
	struct model_skew pareto = {.dist = DIST_PARETO, .param = 0.2};
	struct model_skew normal = {.dist = DIST_NORMAL, .param = 10};
	struct model_skew zoned = {.dist = DIST_ZONED, .nzones = 3, .zones = {
		{.access_pct = 10, .size_pct = 70}, {.access_pct = 60, .size_pct = 10},
		{.access_pct = 30, .size_pct = 20}}};

	/* zipf: the hottest ranks' sum over all ranks, summed term by term below 4096 ranks
	 * and in closed form above (checked against the sum at 200,000 ranks). */
	assert_true(fabs(model_hot_share(&zipf, 100, 1000, 1) - direct_harmonic(100, 1.2) /
			 direct_harmonic(1000, 1.2)) < 1e-12);
	assert_true(fabs(model_hot_share(&zipf, 20000 * 4096.0, 200000 * 4096.0, 4096) -
			 direct_harmonic(20000, 1.2) / direct_harmonic(200000, 1.2)) < 1e-9);
	/* pareto h = 0.2: the 80/20 rule, the hottest 20% draw 80%. */
	assert_true(fabs(model_hot_share(&pareto, 20, 100, 1) - 0.8) < 1e-12);
	/* normal, 10% deviation: the central 20% is within one deviation, 68.27%. */
	assert_true(fabs(model_hot_share(&normal, 20, 100, 1) - erf(1 / sqrt(2)) /
			 erf(5 / sqrt(2))) < 1e-12);
	/* zoned: the densest zone first (60% in 10%), then half of the next (30% in 20%). */
	assert_true(fabs(model_hot_share(&zoned, 10, 100, 1) - 0.6) < 1e-12);
	assert_true(fabs(model_hot_share(&zoned, 20, 100, 1) - 0.75) < 1e-12);
	/* Through the VM: 860 GiB of zipf:1.2 on DS2's 86 GiB hits far more than uniform's 10%. */
	struct model_config m = ds2(860 * GIB);
	struct model_hit h;

	m.skew = zipf;
	model_read_hit(&m, &rnd4k, &h);
	assert_int_equal(h.basis, MODEL_HIT_SHARE);
	assert_true(fabs(h.pct / 100 - model_hot_share(&zipf, 86 * GIB, 860 * GIB, 4096)) < 1e-12);
	assert_true(h.pct > 90);
	assert_non_null(strstr(why(&h), "zipf:1.2 random reads"));
}

static void test_no_cache_size_is_unknown(void **state)
{
	struct model_config m = ds2(GIB);
	struct cat_vm vm = *m.vm;
	struct model_hit h;
	struct model_result r;

	vm.cache_gib = 0;
	m.vm = &vm;
	model_read_hit(&m, &rnd4k, &h);
	assert_int_equal(h.basis, MODEL_HIT_UNKNOWN);
	assert_false(h.known);
	assert_true(h.pct == 0);
	assert_non_null(strstr(why(&h), "unknown: DS2 publishes no host-cache size"));
	/* The prediction assumes none, and says why. */
	assert_int_equal(model_predict(&m, &rnd4k, 0, &r), 0);
	assert_false(r.hit.known);
}

static void test_cold_and_given(void **state)
{
	struct model_config m = ds2(GIB);
	struct model_hit h;

	m.cache_state = MODEL_STATE_COLD;
	model_read_hit(&m, &rnd4k, &h);
	assert_int_equal(h.basis, MODEL_HIT_COLD);
	assert_true(h.pct == 0);
	/* A ratio given wins over the working set, warm or cold. */
	m.read_hit = 40;
	m.read_hit_set = true;
	model_read_hit(&m, &rnd4k, &h);
	assert_int_equal(h.basis, MODEL_HIT_GIVEN);
	assert_true(h.pct == 40);
	/* No working set and no ratio: no hits, as before. */
	m = ds2(0);
	model_read_hit(&m, &rnd4k, &h);
	assert_int_equal(h.basis, MODEL_HIT_NO_WS);
	assert_true(h.pct == 0);
}

/* Today's rule: hits spare the uncached limit, so a warm cache lifts D8s_v3 + 3 x P30 reads. */
static void test_prediction_follows_the_ratio(void **state)
{
	struct model_config m;
	struct model_result cold, warm;
	char err[256], *specs[1] = {"3xP30:cache=readonly"};

	assert_int_equal(model_config_resolve(&cat, "D8s_v3", NULL, specs, 1, MODEL_CACHE_DEFAULT,
					      &m, err, sizeof(err)), 0);
	m.working_set = 10 * GIB;
	m.cache_state = MODEL_STATE_COLD;
	assert_int_equal(model_predict(&m, &(struct model_workload){4096, 0, false, 8, 32}, 0,
				       &cold), 0);
	m.cache_state = MODEL_STATE_WARM;
	assert_int_equal(model_predict(&m, &(struct model_workload){4096, 0, false, 8, 32}, 0,
				       &warm), 0);
	assert_string_equal(cold.binding, "vm_uncached_iops");
	assert_string_equal(warm.binding, "vm_cached_iops");
	assert_true(warm.iops > cold.iops);
	assert_true(warm.hit.pct == 100);
}

/* A working set the volume cannot hold is said, not silently modelled. */
static void test_larger_than_volume_noted(void **state)
{
	struct model_config m = ds2(860 * GIB);
	struct model_result r;
	bool noted = false;

	assert_int_equal(model_predict(&m, &rnd4k, 0, &r), 0);
	for (unsigned i = 0; i < r.nnotes; i++)
		assert_null(strstr(note(&r.notes[i]), "larger than the volume"));
	m.working_set = 2048 * GIB;
	assert_int_equal(model_predict(&m, &rnd4k, 0, &r), 0);
	for (unsigned i = 0; i < r.nnotes; i++)
		noted |= !strcmp(note(&r.notes[i]), "the working set (2048 GiB) is larger than the volume "
				 "(1024 GiB)");
	assert_true(noted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits), cmocka_unit_test(test_larger_than_cache),
		cmocka_unit_test(test_skewed), cmocka_unit_test(test_no_cache_size_is_unknown),
		cmocka_unit_test(test_cold_and_given),
		cmocka_unit_test(test_prediction_follows_the_ratio),
		cmocka_unit_test(test_larger_than_volume_noted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
