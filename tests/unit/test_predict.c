#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"

/* Little's law: one thread at QD1 on premium storage is latency-bound. */
static void test_queue_depth(void **state)
{
	struct model_result r = predict("DS14", "P30", MODEL_CACHE_NONE, 4096, false, 1, 1);

	assert_string_equal(r.binding, "queue_depth");
	assert_within(r.iops, 1000.0 / r.latency_ms, 1);
}

/* A P20 bursts at 3,500 IOPS for 30 minutes, then holds 2,300. */
static void test_burst_timeline(void **state)
{
	struct model_config m;
	struct model_workload w = {4096, 0, false, 1, 64};
	struct model_result r;
	char err[256], *specs[1] = {"P20"};

	assert_int_equal(model_config_resolve(&cat, "D8s_v5", NULL, specs, 1, MODEL_CACHE_NONE,
					      &m, err, sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 7200, &r), 0);
	assert_within(r.iops, 2300, 0.1);
	assert_true(r.bursts);
	assert_within(r.burst_iops, 3500, 0.1);
	assert_within(r.burst_seconds, 1800, 0.1);
	assert_int_equal(r.nphases, 2);
	assert_within(r.phases[0].end_s, 1800, 0.1);
	assert_within(r.phases[1].iops, 2300, 0.1);
	assert_within(r.avg_iops, (3500 * 1800 + 2300 * 5400) / 7200.0, 0.1);
}

/* At 1 MiB a P20 is bound by MB/s: 170 MB/s while its credits last (30 minutes), then 150. */
static void test_burst_mbps(void **state)
{
	struct model_config m;
	struct model_workload w = {1048576, 0, false, 1, 64};
	struct model_result r;
	char err[256], *specs[1] = {"P20"};
	double hi = 170e6 / 1048576, lo = 150e6 / 1048576;

	(void)state;
	assert_int_equal(model_config_resolve(&cat, "D8s_v5", NULL, specs, 1, MODEL_CACHE_NONE,
					      &m, err, sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 7200, &r), 0);
	assert_string_equal(r.binding, "disk_mbps");
	assert_within(r.iops, lo, 1e-6);
	assert_true(r.bursts);
	assert_within(r.burst_iops, hi, 1e-6);
	assert_within(r.burst_seconds, 1800, 0.1);
	assert_int_equal(r.nphases, 2);
	assert_within(r.phases[0].end_s, 1800, 0.1);
	assert_within(r.phases[0].mbps, 170, 1e-6);
	assert_within(r.phases[1].mbps, 150, 1e-6);
	assert_within(r.avg_iops, (hi * 1800 + lo * 5400) / 7200, 1e-3);
}

/* The phases of a read workload of bs over `seconds` on vm with one group of disks. */
static struct model_result timeline_of(const char *vm, const char *disk, uint64_t bs,
				       double seconds)
{
	struct model_config m;
	struct model_workload w = {bs, 0, false, 4, 64};
	struct model_result r;
	char err[256], *specs[1] = {(char *)disk};

	assert_int_equal(model_config_resolve(&cat, vm, NULL, specs, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, seconds, &r), 0);
	return r;
}

/*
 * A VM's burst and its disks' together, the VM's bucket emptying first. D4s_v3: 96 MB/s
 * uncached, 200 in burst, a bucket of 1,800 s x (200 - 96) = 187,200 MB. 3 x P4: 25 MB/s each
 * (75), 170 in burst, a bucket of 1,800 x (170 - 25) = 261,000 MB each. At 1 MiB the MB/s bind
 * (the disks' 120 IOPS each count 4 per I/O: 94.4 MB/s, above 75):
 * - from 0: the VM's 200 binds; its bucket drains 200 - 96 = 104 MB/s, empty at 1,800 s; each
 *   disk's drains 200 / 3 - 25 = 41.67 MB/s, 75,000 MB by then: 186,000 MB left;
 * - from 1,800 s: the VM's 96 binds; each disk drains 96 / 3 - 25 = 7 MB/s, its 186,000 MB
 *   last 26,571.43 s: to 28,371.43 s;
 * - then the disks' 75 MB/s.
 */
static void test_vm_burst_ends_first(void **state)
{
	struct model_result r = timeline_of("D4s_v3", "3xP4", 1048576, 36000);

	(void)state;
	assert_int_equal(r.nphases, 3);
	assert_within(r.phases[0].end_s, 1800, 1e-6);
	assert_within(r.phases[0].mbps, 200, 1e-6);
	assert_within(r.phases[1].end_s, 1800 + 186000.0 / 7, 1e-3);
	assert_within(r.phases[1].mbps, 96, 1e-6);
	assert_within(r.phases[2].mbps, 75, 1e-6);
	assert_within(r.burst_seconds, 1800, 1e-6);
}

/*
 * The disk's bucket emptying first, the VM's still draining after. D2s_v3: 48 MB/s uncached,
 * 200 in burst, a bucket of 1,800 x 152 = 273,600 MB. P10: 100 MB/s, 170 in burst, a bucket of
 * 1,800 x 70 = 126,000 MB:
 * - from 0: the disk's 170 binds; it drains 70 MB/s, empty at 1,800 s; the VM's drains
 *   170 - 48 = 122 MB/s, 219,600 MB by then: 54,000 MB left;
 * - from 1,800 s: the disk's 100 binds; the VM's bucket drains 52 MB/s, 1,038.46 s: to
 *   2,838.46 s;
 * - then the VM's 48 MB/s.
 */
static void test_disk_burst_ends_first(void **state)
{
	struct model_result r = timeline_of("D2s_v3", "P10", 1048576, 7200);

	(void)state;
	assert_int_equal(r.nphases, 3);
	assert_within(r.phases[0].end_s, 1800, 1e-6);
	assert_within(r.phases[0].mbps, 170, 1e-6);
	assert_within(r.phases[1].end_s, 1800 + 54000.0 / 52, 1e-3);
	assert_within(r.phases[1].mbps, 100, 1e-6);
	assert_within(r.phases[2].mbps, 48, 1e-6);
}

/*
 * The VM's IOPS bucket outlasting its disks'. m5.large: 3,600 IOPS, 18,750 in burst, a bucket
 * of 1,800 s x 15,150 = 27,270,000 I/Os. 3 x gp2 of 500 GiB: 1,500 IOPS each (3 per GiB), 3,000
 * in burst, a bucket of 5,400,000 I/Os each. At 4 KiB the IOPS bind:
 * - from 0: the disks' 9,000 bind; each bucket drains 1,500 a second, empty at 3,600 s; the
 *   VM's drains 9,000 - 3,600 = 5,400 a second, 19,440,000 by then: 7,830,000 left;
 * - from 3,600 s: the disks' 4,500 bind; the VM's bucket drains 900 a second, 8,700 s: to
 *   12,300 s;
 * - then the VM's 3,600.
 */
static void test_vm_iops_burst_outlasts_disks(void **state)
{
	struct model_result r = timeline_of("m5.large", "3xgp2:500GiB", 4096, 20000);

	(void)state;
	assert_int_equal(r.nphases, 3);
	assert_within(r.phases[0].end_s, 3600, 1e-6);
	assert_within(r.phases[0].iops, 9000, 1e-6);
	assert_within(r.phases[1].end_s, 3600 + 7830000.0 / 900, 1e-3);
	assert_within(r.phases[1].iops, 4500, 1e-6);
	assert_within(r.phases[2].iops, 3600, 1e-6);
}

/*
 * A column bursting barely above its IOPS cap drains its bucket as slowly, and keeps what it
 * did not spend. V allows 1,000 IOPS, 2,000 in burst for 1,000 s (a bucket of 1,000,000 I/Os).
 * Its disk D 1,000.25, 1,000.5 in burst for 1,000 s (a bucket of 250 I/Os):
 * - from 0: D's 1,000.5 bind; D's bucket drains 0.25 a second, empty at 1,000 s; V's drains
 *   0.5 a second, 500 by then: 999,500 left;
 * - from 1,000 s: D's 1,000.25 bind; V's bucket drains 0.25 a second, 3,998,000 s: to
 *   3,999,000 s;
 * - then V's 1,000.
 */
static void test_vm_burst_drained_slowly(void **state)
{
	struct catalog c = {0};
	struct model_config m;
	struct model_workload w = {4096, 0, false, 4, 64};
	struct model_result r;
	char err[256], *specs[1] = {"D"};

	(void)state;
	assert_int_equal(catalog_load_text(&c, "slow.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\", \"uncached_iops\": 1000, \"uncached_mbps\": 1000, "
		"\"burst_iops\": 2000, \"burst_mbps\": 1000, \"burst_seconds\": 1000, "
		"\"max_disks\": 4, \"premium\": true, \"source\": \"s\", \"date\": \"d\"}], "
		"\"disks\": [{\"name\": \"D\", \"gib\": 128, \"iops\": 1000.25, "
		"\"burst_iops\": 1000.5, \"burst_seconds\": 1000, \"mbps\": 900, "
		"\"premium\": true, \"source\": \"s\", \"date\": \"d\"}]}", err, sizeof(err)), 0);
	assert_int_equal(model_config_resolve(&c, "V", NULL, specs, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 5e6, &r), 0);
	assert_int_equal(r.nphases, 3);
	assert_within(r.phases[0].iops, 1000.5, 1e-9);
	assert_within(r.phases[0].end_s, 1000, 1e-6);
	assert_within(r.phases[1].iops, 1000.25, 1e-9);
	assert_within(r.phases[1].end_s, 3999000, 1e-3);
	assert_within(r.phases[2].iops, 1000, 1e-9);
	catalog_release(&c);
}

/*
 * Two groups whose disks allow as many IOPS each (a gp3 and an io1 given 3,000): the disk
 * limit is the first group's, its source the gp3's.
 */
static void test_disk_limit_tie_first_group(void **state)
{
	const char *specs[] = {"gp3:100GiB", "io1:100GiB:iops=3000"};
	struct model_config m;
	struct model_workload w = {4096, 0, false, 4, 32};
	struct model_result r;
	char err[256];
	unsigned k;

	(void)state;
	assert_int_equal(model_config_resolve(&cat, "m5.8xlarge", NULL, (char *const *)specs, 2,
					      MODEL_CACHE_DEFAULT, &m, err, sizeof(err)), 0);
	assert_true(m.disks[0].iops == 3000 && m.disks[1].iops == 3000);
	assert_string_not_equal(m.disks[0].type->source, m.disks[1].type->source);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	for (k = 0; k < r.nlimits && strcmp(r.limits[k].name, "disk_iops"); k++)
		;
	assert_true(k < r.nlimits);
	assert_true(r.limits[k].source == m.disks[0].type->source);
	assert_true(r.limits[k].cap == 6000);
}

/* The limit named `name` of a prediction (the test fails when there is none). */
static const struct model_limit *limit_of(const struct model_result *r, const char *name)
{
	for (unsigned k = 0; k < r->nlimits; k++)
		if (!strcmp(r->limits[k].name, name))
			return &r->limits[k];
	fail_msg("no limit %s", name);
	return NULL;
}

/*
 * A VM column with one MB/s figure for reads and writes caps them together: D8s_v3's 192 MB/s
 * uncached hold a 70/30 mix at 192 MB/s (183.1 I/Os of 1 MiB), not at 192 / 0.7.
 */
static void test_vm_mbps_shared_by_a_mix(void **state)
{
	const char *specs[] = {"4xP30"};
	struct model_workload w = {1048576, 30, false, 4, 32};
	struct model_result r = predict_groups("D8s_v3", specs, 1, 0, w);
	const struct model_limit *l = limit_of(&r, "vm_uncached_mbps");

	(void)state;
	assert_within(l->mbps, 192, 1e-6);
	assert_within(l->iops, 192e6 / 1048576, 1e-6);
}

/*
 * A disk's MB/s cap holds its reads and writes together: four P30 of 200 MB/s each hold a 70/30
 * mix of 1 MiB at 800 MB/s (762.9 I/Os), not at 800 / (0.7 - 0.3).
 */
static void test_disk_mbps_shared_by_a_mix(void **state)
{
	const char *specs[] = {"4xP30"};
	struct model_workload w = {1048576, 30, false, 4, 32};
	struct model_result r = predict_groups("D8s_v3", specs, 1, 0, w);
	const struct model_limit *l = limit_of(&r, "disk_mbps");

	(void)state;
	assert_within(l->mbps, 800, 1e-6);
	assert_within(l->iops, 800e6 / 1048576, 1e-6);
}

/*
 * A working set larger than the volume is noted with both sizes, the volume's over all its
 * groups: 2 P30 of 1,024 GiB and a P10 of 128 GiB hold 2,176 GiB, under a 4,096 GiB set.
 */
static void test_working_set_over_volume(void **state)
{
	char *specs[] = {"2xP30:cache=readonly", "P10:cache=readonly"};
	struct model_config m;
	struct model_workload w = {4096, 0, false, 4, 32};
	struct model_result r;
	char err[256];
	unsigned k;

	(void)state;
	assert_int_equal(model_config_resolve(&cat, "D16s_v3", NULL, specs, 2, MODEL_CACHE_DEFAULT,
					      &m, err, sizeof(err)), 0);
	m.working_set = 4096 * 1073741824.0;
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	for (k = 0; k < r.nnotes && r.notes[k].kind != MODEL_NOTE_WS_OVER_VOLUME; k++)
		;
	assert_true(k < r.nnotes);
	assert_within(r.notes[k].a, 4096, 1e-9);
	assert_within(r.notes[k].b, 2176, 1e-9);
	/* Within the volume: no such note. */
	m.working_set = 2000 * 1073741824.0;
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	for (k = 0; k < r.nnotes; k++)
		assert_int_not_equal(r.notes[k].kind, MODEL_NOTE_WS_OVER_VOLUME);
}

/*
 * A catalog's figures below 1 are figures. A disk whose transfer rate is 0.5 MB/s: a 4 KiB read
 * takes its 1 ms plus 4,096 / 0.5e6 s = 8.192 ms. A VM whose IOPS cap is 0.5, 1 in burst for
 * 100 s (a bucket of 50 I/Os): the burst drains it 0.5 a second, for 100 s.
 */
static void test_figures_below_one_predicted(void **state)
{
	struct catalog c = {0};
	struct model_config m;
	struct model_workload w = {4096, 0, false, 1, 1};
	struct model_result r;
	char err[256], *specs[1] = {"D"};

	(void)state;
	assert_int_equal(catalog_load_text(&c, "small.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\", \"uncached_iops\": 100000, \"uncached_mbps\": 1000, "
		"\"max_disks\": 4, \"premium\": true, \"source\": \"s\", \"date\": \"d\"}, "
		"{\"name\": \"W\", \"uncached_iops\": 0.5, \"uncached_mbps\": 1000, "
		"\"burst_iops\": 1, \"burst_mbps\": 1000, \"burst_seconds\": 100, "
		"\"max_disks\": 4, \"premium\": true, \"source\": \"s\", \"date\": \"d\"}, "
		"{\"name\": \"X\", \"uncached_iops\": 0.5, \"uncached_mbps\": 1000, "
		"\"burst_iops\": 1, \"burst_mbps\": 1000, \"burst_seconds\": 1, "
		"\"max_disks\": 4, \"premium\": true, \"source\": \"s\", \"date\": \"d\"}], "
		"\"disks\": [{\"name\": \"D\", \"gib\": 128, \"iops\": 5000, \"mbps\": 200, "
		"\"transfer_mbps\": 0.5, \"latency_read_ms\": 1, \"premium\": true, "
		"\"source\": \"s\", \"date\": \"d\"}]}", err, sizeof(err)), 0);
	assert_int_equal(model_config_resolve(&c, "V", NULL, specs, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	assert_within(r.service_ms, 1 + 8.192, 1e-9);
	assert_int_equal(model_config_resolve(&c, "W", NULL, specs, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	assert_true(r.bursts);
	assert_within(r.iops, 0.5, 1e-9);
	assert_within(r.burst_iops, 1, 1e-9);
	assert_within(r.burst_seconds, 100, 1e-6);
	/* A burst of one second: a bucket of 0.5 I/Os, drained 0.5 a second, for 1 s. */
	assert_int_equal(model_config_resolve(&c, "X", NULL, specs, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	assert_true(r.bursts);
	assert_within(r.burst_iops, 1, 1e-9);
	assert_within(r.burst_seconds, 1, 1e-6);
	catalog_release(&c);
}

/*
 * A disk's burst counted in I/O units: 8 KiB reads on a disk of 4 KiB units are 2 operations
 * each. Caps of 100 operations a second, 300 in burst for 100 s (a bucket of 20,000): the burst
 * runs 150 reads a second, spending 2 x 150 - 100 = 200 operations of credit a second, for
 * 100 s; then 50 reads a second.
 */
static void test_disk_burst_in_units(void **state)
{
	struct catalog c = {0};
	struct model_config m;
	struct model_workload w = {8192, 0, false, 1, 32};
	struct model_result r;
	char err[256], *specs[1] = {"U"};

	(void)state;
	assert_int_equal(catalog_load_text(&c, "units.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\", \"uncached_iops\": 100000, \"uncached_mbps\": 1000, "
		"\"max_disks\": 4, \"premium\": true, \"source\": \"s\", \"date\": \"d\"}], "
		"\"disks\": [{\"name\": \"U\", \"gib\": 128, \"iops\": 100, \"mbps\": 1000, "
		"\"burst_iops\": 300, \"burst_mbps\": 1000, \"burst_seconds\": 100, "
		"\"io_unit_kib\": 4, \"latency_read_ms\": 1, \"premium\": true, "
		"\"source\": \"s\", \"date\": \"d\"}]}", err, sizeof(err)), 0);
	assert_int_equal(model_config_resolve(&c, "V", NULL, specs, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	assert_true(r.bursts);
	assert_within(r.iops, 50, 1e-9);
	assert_within(r.burst_iops, 150, 1e-9);
	assert_within(r.burst_seconds, 100, 1e-6);
	catalog_release(&c);
}

/*
 * As many groups as a configuration holds: eight P10s named one by one on a DS4 are eight
 * disks of 500 IOPS, 4,000 together (the VM allows 12,800), whatever lies past the groups.
 */
static void test_every_group_slot(void **state)
{
	struct model_config m;
	struct model_workload w = {4096, 0, false, 8, 32};
	struct model_result r;
	char err[256], *specs[MODEL_MAX_GROUPS];

	(void)state;
	for (unsigned i = 0; i < MODEL_MAX_GROUPS; i++)
		specs[i] = "P10";
	assert_int_equal(model_config_resolve(&cat, "DS4", NULL, specs, MODEL_MAX_GROUPS,
					      MODEL_CACHE_NONE, &m, err, sizeof(err)), 0);
	assert_int_equal(m.ngroups, MODEL_MAX_GROUPS);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	assert_within(r.iops, 4000, 1e-9);
}

static void test_impossible(void **state)
{
	struct model_config m;
	char err[256], *p30[1] = {"P30"}, *nine[1] = {"9xP10"}, *bad[1] = {"P31"};

	assert_int_equal(model_config_resolve(&cat, "A4", NULL, p30, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "premium"));
	assert_int_equal(model_config_resolve(&cat, "DS2", NULL, nine, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at most 4"));
	assert_int_equal(model_config_resolve(&cat, "DS2", NULL, bad, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "P30"));
	assert_int_equal(model_config_resolve(&cat, "L4", NULL, p30, 1, MODEL_CACHE_READONLY, &m,
					      err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "host caching"));
}

static void test_rules(void **state)
{
	struct model_config m;
	char err[256], *pv2[1] = {"pv2:512GiB:iops=20000:mbps=600"}, *big[1] = {"pv2:8GiB:iops=9000"};
	char *gp3[1] = {"gp3:1TiB"};

	assert_int_equal(model_config_resolve(&cat, "D16s_v5", NULL, pv2, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), 0);
	assert_within(m.disks[0].iops, 20000, 0.01);
	assert_within(m.disks[0].mbps, 600, 0.01);
	assert_int_equal(model_config_resolve(&cat, "D16s_v5", NULL, big, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "need at least 18 GiB"));
	assert_int_equal(model_config_resolve(&cat, "m5.large", NULL, gp3, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), 0);
	assert_within(m.disks[0].iops, 3000, 0.01);
	assert_within(m.disks[0].mbps, 125 * 1.048576, 0.01);
}

/* Host caching: who counts hits, misses and writes (docs/model.md, "Host caching"). */
static void test_cache_accounting(void **state)
{
	const char *half[1] = {"2xP30:cache=readonly"}, *four[1] = {"4xP30:cache=readonly"};
	const char *old[1] = {"2xP30:cache=readonly"};
	struct model_workload reads = {4096, 0, false, 4, 64}, writes = {4096, 100, false, 4, 64};
	struct model_result r;

	/* Half the reads hit: the disks see the other half (10,000 / 0.5). */
	r = predict_groups("D16s_v3", half, 1, 50, reads);
	assert_within(r.iops, 20000, 0.01);
	assert_string_equal(r.binding, "disk_iops");
	/* Writes to a read-cached disk count at the uncached limit too (12,800 < 16,000). */
	r = predict_groups("D8s_v3", four, 1, 100, writes);
	assert_within(r.iops, 12800, 0.01);
	assert_string_equal(r.binding, "vm_uncached_iops");
	/* 2015: all I/O of a cached disk at the cached limit (8,000), none at the uncached. */
	r = predict_groups("azure-2015:DS2", old, 1, 0, writes);
	assert_within(r.iops, 8000, 0.01);
	assert_string_equal(r.binding, "vm_cached_iops");
	/* ...and hits still at the disk: a warm cache does not raise a P10 past 500. */
	r = predict_groups("azure-2015:DS2", (const char *[]){"P10:cache=readonly"}, 1, 100, reads);
	assert_within(r.iops, 500, 0.01);
}

/* The OS disk caches ReadWrite unless told; --host-cache or :cache= override; one, alone. */
static void test_os_disk(void **state)
{
	struct model_config m;
	char err[256], *os[1] = {"os"}, *two[1] = {"2xos"}, *with[2] = {"os", "4xstandard"};

	assert_int_equal(model_config_resolve(&cat, "A4", NULL, os, 1, MODEL_CACHE_DEFAULT, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(m.disks[0].cache, MODEL_CACHE_READWRITE);
	assert_int_equal(model_config_resolve(&cat, "A4", NULL, os, 1, MODEL_CACHE_NONE, &m, err,
					      sizeof(err)), 0);
	assert_int_equal(m.disks[0].cache, MODEL_CACHE_NONE);
	assert_int_equal(model_config_resolve(&cat, "A4", NULL, two, 1, MODEL_CACHE_DEFAULT, &m,
					      err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "one OS disk"));
	/* A volume of its own, not striped with data disks. */
	assert_int_equal(model_config_resolve(&cat, "A4", NULL, with, 2, MODEL_CACHE_DEFAULT, &m,
					      err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "a volume of its own"));
}

/* mbps= is in the unit the provider provisions in: MiB/s on AWS and GCP, MB/s on Azure. */
static void test_mbps_units(void **state)
{
	assert_within(disk_of("m5.large", "gp3:1TiB:mbps=500").mbps, 500 * MIB, 0.001);
	assert_within(disk_of("c3-standard-8", "hyperdisk-balanced:1TiB:mbps=500").mbps, 500 * MIB,
		      0.001);
	assert_within(disk_of("D16s_v5", "pv2:1TiB:iops=4000:mbps=500").mbps, 500, 0.001);
}

/* A stripe splits a large I/O into interleave-sized requests, sent at once: smaller units cut
 * a QD1 write's transfer time; one unit as large as the I/O leaves it whole. */
static void test_interleave(void **state)
{
	struct model_config m;
	struct model_workload w = {1 << 20, 100, true, 1, 1};
	struct model_result small, whole;
	char err[256], *two[1] = {"2xP30"};

	assert_int_equal(model_config_resolve(&cat, "azure-2015:DS14", NULL, two, 1,
					      MODEL_CACHE_DEFAULT, &m, err, sizeof(err)), 0);
	m.interleave = 64 << 10;
	model_predict(&m, &w, 0, &small);
	m.interleave = 1 << 20;
	model_predict(&m, &w, 0, &whole);
	/* 2.5 ms + 64 KiB at 40 MB/s, against 2.5 ms + 1 MiB at 40 MB/s */
	assert_within(small.service_ms, 2.5 + 65536 / 40e3, 0.1);
	assert_within(whole.service_ms, 2.5 + 1048576 / 40e3, 0.1);
}

/* The limit that binds, of several that share a name: the one the prediction sits at. */
static void test_binding_of_mixed_types(void **state)
{
	const char *pd[] = {"2xpd-ssd:10GiB", "2xpd-balanced:10GiB"}, *p[] = {"2xP10", "2xP30"};
	struct model_workload w = {.bs = 4096, .threads = 8, .depth = 64};
	struct model_result r = predict_groups("n2-standard-4", pd, 2, 0, w);
	unsigned named = 0;

	(void)state;
	/* Each PD type has its own pool: pd-balanced's (3,000 + 6 x 20 GiB) holds its half. */
	assert_string_equal(r.binding, "disk_iops");
	assert_within(r.iops, 2 * 3120, 1e-6);
	assert_true(r.binding_limit < r.nlimits);
	assert_within(r.limits[r.binding_limit].iops, r.iops, 1e-6);
	assert_int_equal(r.limits[r.binding_limit].detail.kind, MODEL_DETAIL_POOL_IOPS);
	assert_string_equal(r.limits[r.binding_limit].detail.name, "pd-balanced");
	/* The pool's GiB: two disks of 10 GiB. */
	assert_true(r.limits[r.binding_limit].detail.c == 20);
	/* A stripe of P10 and P30: the two P10 set the pace of all four members. */
	r = predict_groups("D8s_v3", p, 2, 0, w);
	assert_string_equal(r.binding, "disk_iops");
	assert_within(r.iops, 4 * 500, 1e-6);
	/* The two P10 of four members, 500 IOPS each (worded in test_model_fmt). */
	assert_int_equal(r.limits[r.binding_limit].detail.kind, MODEL_DETAIL_DISK_IOPS);
	assert_string_equal(r.limits[r.binding_limit].detail.name, "P10");
	assert_int_equal(r.limits[r.binding_limit].detail.k, 2);
	assert_int_equal(r.limits[r.binding_limit].detail.n, 4);
	assert_true(r.limits[r.binding_limit].detail.a == 500);
	for (unsigned i = 0; i < r.nlimits; i++)
		named += !strcmp(r.limits[i].name, "disk_iops");
	assert_int_equal(named, 1);
}

/*
 * pd-standard counts a write at twice a read's rate per GiB (1.5 against 0.75 IOPS), in the one
 * pool the VM's pd-standard disks share: reads and writes each meet their own cap.
 */
static void test_pd_standard_writes(void **state)
{
	const char *pd[] = {"pd-standard:1000GiB"};
	struct model_workload w = {.bs = 4096, .write_pct = 0, .threads = 8, .depth = 64};
	struct model_result r = predict_groups("n2-standard-4", pd, 1, 0, w);

	(void)state;
	assert_string_equal(r.binding, "disk_iops");
	assert_within(r.iops, 750, 1e-6);
	w.write_pct = 100;
	r = predict_groups("n2-standard-4", pd, 1, 0, w);
	assert_string_equal(r.binding, "disk_iops");
	assert_within(r.iops, 1500, 1e-6);
	/* each limit says its rate in MB/s too: 1,500 x 4 KiB */
	assert_within(r.limits[r.binding_limit].mbps, 1500 * 4096 / 1e6, 1e-9);
	/* Half reads: the reads' 750 IOPS are half of 1,500 I/Os a second. */
	w.write_pct = 50;
	r = predict_groups("n2-standard-4", pd, 1, 0, w);
	assert_within(r.iops, 1500, 1e-6);
	/* A quarter of writes: the reads' cap binds at 750 / 0.75. */
	w.write_pct = 25;
	r = predict_groups("n2-standard-4", pd, 1, 0, w);
	assert_within(r.iops, 1000, 1e-6);
}

/*
 * A VM's temp disk: its own IOPS, read and write MB/s (D3's 187 and 93 MB/s) and, at low depth,
 * its latency plus the transfer at the direction's rate.
 */
static void test_local_disk(void **state)
{
	const char *local[] = {"local"};
	struct model_workload w = {.bs = 65536, .write_pct = 0, .threads = 4, .depth = 32};
	struct model_result r = predict_groups("azure-2015:D3", local, 1, 0, w);

	(void)state;
	assert_string_equal(r.binding, "local_mbps");
	assert_within(r.iops, 187e6 / 65536, 1e-6);
	w.write_pct = 100;
	r = predict_groups("azure-2015:D3", local, 1, 0, w);
	assert_string_equal(r.binding, "local_mbps");
	assert_within(r.iops, 93e6 / 65536, 1e-6);
	/* half writes: the writes' 93 MB/s are half of the I/O */
	w.write_pct = 50;
	r = predict_groups("azure-2015:D3", local, 1, 0, w);
	assert_within(r.iops, 2 * 93e6 / 65536, 1e-6);
	/* one I/O at a time: 0.1 ms plus 4 KiB at 93 MB/s for a write, at 187 for a read */
	w = (struct model_workload){.bs = 4096, .write_pct = 100, .threads = 1, .depth = 1};
	r = predict_groups("azure-2015:D3", local, 1, 0, w);
	assert_string_equal(r.binding, "queue_depth");
	assert_within(r.service_ms, 0.1 + 4096 / 93e6 * 1000, 1e-9);
	assert_within(r.iops, 1000 / (0.1 + 4096 / 93e6 * 1000), 1e-6);
	w.write_pct = 25;
	r = predict_groups("azure-2015:D3", local, 1, 0, w);
	assert_within(r.service_ms, 0.1 + 0.75 * 4096 / 187e6 * 1000 + 0.25 * 4096 / 93e6 * 1000,
		      1e-9);
	/* small I/O at depth: the IOPS cap */
	w = (struct model_workload){.bs = 4096, .write_pct = 0, .threads = 4, .depth = 32};
	r = predict_groups("azure-2015:D3", local, 1, 0, w);
	assert_string_equal(r.binding, "local_iops");
	assert_within(r.iops, 12000, 1e-6);
	assert_within(r.limits[r.binding_limit].cap, 12000, 1e-6);
}

/* The IOPS the queue depth allows (Little's law over one I/O's latency). */
static double queue_limit(const struct model_result *r)
{
	for (unsigned i = 0; i < r->nlimits; i++)
		if (!strcmp(r->limits[i].name, "queue_depth"))
			return r->limits[i].iops;
	fail_msg("no queue_depth limit");
	return 0;
}

/* A read the host cache serves takes the cache's latency (0.1 ms for a 2015 P30) and its
 * transfer at the cache's rate (1,000 MB/s), not the disk's 1.3 ms and rate. */
static void test_cached_latency(void **state)
{
	const char *p30[] = {"P30:cache=readonly"};
	struct model_workload w = {.bs = 4096, .threads = 1, .depth = 1};
	struct model_result r = predict_groups("DS14", p30, 1, 100, w);

	(void)state;
	assert_within(queue_limit(&r), 1000 / (0.1 + 4096 / 1000e6 * 1000), 1e-6);
	/* a miss: the disk's own latency and transfer rate */
	struct model_disk d = disk_of("DS14", p30[0]);
	double rate = d.xfer_mbps > 0 ? d.xfer_mbps : d.mbps;

	assert_within(d.lat_cached_ms, 0.1, 1e-9);
	assert_within(d.lat_read_ms, 1.3, 1e-9);
	r = predict_groups("DS14", p30, 1, 0, w);
	assert_within(queue_limit(&r), 1000 / (1.3 + 4096 / (rate * 1e6) * 1000), 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_depth),
		cmocka_unit_test(test_burst_timeline), cmocka_unit_test(test_burst_mbps),
		cmocka_unit_test(test_vm_burst_ends_first),
		cmocka_unit_test(test_disk_burst_ends_first),
		cmocka_unit_test(test_vm_iops_burst_outlasts_disks),
		cmocka_unit_test(test_vm_burst_drained_slowly),
		cmocka_unit_test(test_disk_limit_tie_first_group),
		cmocka_unit_test(test_vm_mbps_shared_by_a_mix),
		cmocka_unit_test(test_working_set_over_volume),
		cmocka_unit_test(test_disk_mbps_shared_by_a_mix),
		cmocka_unit_test(test_figures_below_one_predicted),
		cmocka_unit_test(test_disk_burst_in_units),
		cmocka_unit_test(test_every_group_slot),
		cmocka_unit_test(test_impossible),
		cmocka_unit_test(test_rules), cmocka_unit_test(test_cache_accounting),
		cmocka_unit_test(test_os_disk), cmocka_unit_test(test_mbps_units),
		cmocka_unit_test(test_interleave), cmocka_unit_test(test_binding_of_mixed_types),
		cmocka_unit_test(test_pd_standard_writes), cmocka_unit_test(test_local_disk),
		cmocka_unit_test(test_cached_latency),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
