/*
 * The emulated caps' arithmetic (src/core/throttle.c), deterministically: throttle_reserve()
 * answers when an I/O arriving at `now` may go without sleeping, so every
 * arrival below is a made-up time, seconds after the buckets were made (they are then idle:
 * full of credit, slack regained). Nothing here depends on how fast the machine is.
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/job.h"
#include "core/throttle.h"
#include "util/clock.h"

#define MS 1000000ull
#define SEC 1000000000ull


/* Far enough after the buckets' creation that every bucket is idle and full. */
static uint64_t later(void)
{
	return clock_ns() + 100 * SEC;
}

static struct throttle_set *make(struct job *j)
{
	struct throttle_set *s = NULL;

	clock_init();
	assert_int_equal(throttle_set_new(j, &s), 0);
	assert_non_null(s);
	return s;
}

/* When each of n I/Os of `bytes` to target `tgt`, all arriving at t0, may go. */
static void gos(struct throttle_set *s, unsigned tgt, uint32_t bytes, uint64_t t0, uint64_t *go,
		unsigned n)
{
	struct throttle *t = throttle_set_get(s, tgt);

	for (unsigned i = 0; i < n; i++) {
		go[i] = throttle_reserve(t, bytes, t0);
		assert_true(go[i] >= t0);
		if (i)
			assert_true(go[i] >= go[i - 1]);
	}
}

/* I/Os allowed to go before `until`. */
static unsigned count_before(const uint64_t *go, unsigned n, uint64_t until)
{
	unsigned c = 0;

	for (unsigned i = 0; i < n; i++)
		c += go[i] < until;
	return c;
}

/* Once a bucket's slack is spent, I/Os go exactly one increment apart (to the nanosecond). */
static void assert_spacing(const uint64_t *go, unsigned from, unsigned to, uint64_t inc)
{
	for (unsigned i = from + 1; i < to; i++)
		if (go[i] - go[i - 1] < inc - 1 || go[i] - go[i - 1] > inc + 1)
			fail_msg("go[%u] - go[%u] = %llu ns, expected %llu", i, i - 1,
				 (unsigned long long)(go[i] - go[i - 1]), (unsigned long long)inc);
}

static void test_no_caps(void **state)
{
	struct job j;
	struct throttle_set *s = (struct throttle_set *)&j;

	job_init(&j);
	j.ntargets = 2;
	assert_int_equal(throttle_set_new(&j, &s), 0);
	assert_null(s);
	throttle_set_free(NULL);
}

/* 1,000 IOPS: 1 ms apart; in any second from the first I/O, 1,000 plus at most the slack. */
static void test_iops(void **state)
{
	static uint64_t go[3000];
	struct job j;

	job_init(&j);
	j.ntargets = 1;
	j.cap.iops = 1000;
	struct throttle_set *s = make(&j);
	uint64_t t0 = later();
	gos(s, 0, 4096, t0, go, 3000);
	assert_int_equal(go[0], t0);
	assert_spacing(go, 200, 3000, MS);
	unsigned c = count_before(go, 3000, t0 + SEC);
	assert_true(c >= 1000 && c <= 1000 + 101); /* the slack is at most 100 ms */
	/* Over 2 s after the slack, exactly 2,000. */
	assert_int_equal(count_before(go, 3000, go[500] + 2 * SEC) - 500, 2000);
	throttle_set_free(s);
}

/* From 100 to 1,000,000 IOPS, once the slack (at most 100 ms of the rate) is spent. */
static void test_rates_span(void **state)
{
	const double rates[] = {100, 1000, 10000, 100000, 1000000};

	for (unsigned r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		unsigned from = (unsigned)(rates[r] / 10) + 10, n = from + 1000;
		uint64_t *go = malloc(n * sizeof(*go));
		struct job j;
		assert_non_null(go);
		job_init(&j);
		j.ntargets = 1;
		j.cap.iops = rates[r];
		struct throttle_set *s = make(&j);
		gos(s, 0, 512, later(), go, n);
		/* Increments are whole nanoseconds: 1e9 / rate, truncated. */
		assert_spacing(go, from, n, (uint64_t)(1e9 / rates[r]));
		throttle_set_free(s);
		free(go);
	}
}

/* MB/s are 10^6 B/s: 64 KiB at 65.536 MB/s is 1,000 I/Os a second. */
static void test_mbps(void **state)
{
	static uint64_t go[1000];
	struct job j;

	job_init(&j);
	j.ntargets = 1;
	j.cap.mbps = 65.536;
	struct throttle_set *s = make(&j);
	gos(s, 0, 65536, later(), go, 1000);
	assert_spacing(go, 200, 1000, MS);
	throttle_set_free(s);
}

/* The tighter of an IOPS and an MB/s cap wins. */
static void test_both_caps(void **state)
{
	static uint64_t go[1000];
	struct job j;

	job_init(&j);
	j.ntargets = 1;
	j.cap.iops = 500;
	j.cap.mbps = 65.536; /* 1,000 of 64 KiB: the IOPS cap binds */
	struct throttle_set *s = make(&j);
	gos(s, 0, 65536, later(), go, 1000);
	assert_spacing(go, 200, 1000, 2 * MS);
	gos(s, 0, 1 << 20, later() + 100 * SEC, go, 1000); /* 1 MiB: 62.5/s by MB/s */
	assert_spacing(go, 200, 1000, 16 * MS);
	throttle_set_free(s);
}

/* --cap-io-unit: an I/O counts as ceil(bytes / unit) operations. */
static void test_io_unit(void **state)
{
	static uint64_t go[800];
	const struct {
		uint32_t bytes;
		uint64_t ops;
	} cases[] = {{4096, 1}, {65536, 1}, {65536 + 1, 2}, {65536 + 512, 2}, {196608, 3},
		     {262144, 4}};

	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct job j;
		job_init(&j);
		j.ntargets = 1;
		j.cap.iops = 1000;
		j.cap_io_unit = 65536;
		struct throttle_set *s = make(&j);
		gos(s, 0, cases[k].bytes, later(), go, 800);
		assert_spacing(go, 400, 800, cases[k].ops * MS);
		throttle_set_free(s);
	}
}

/*
 * The VM's cap is shared by all targets and each target keeps its own: two targets of 1,000
 * IOPS under a VM cap of 1,500 get 1,500 together; under 10,000, 2,000.
 */
static void vm_case(double vm_iops, unsigned want)
{
	static uint64_t go[2][4000];
	struct throttle *t[2];
	struct job j;

	job_init(&j);
	j.ntargets = 2;
	j.cap.iops = 1000;
	j.vm_cap.iops = vm_iops;
	struct throttle_set *s = make(&j);
	uint64_t t0 = later();
	t[0] = throttle_set_get(s, 0);
	t[1] = throttle_set_get(s, 1);
	assert_ptr_not_equal(t[0], t[1]);
	for (unsigned i = 0; i < 4000; i++)
		for (unsigned k = 0; k < 2; k++)
			go[k][i] = throttle_reserve(t[k], 4096, t0);
	/* Over the second that starts 1 s in, after any slack. */
	unsigned c = 0;
	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < 4000; i++)
			c += go[k][i] >= t0 + SEC && go[k][i] < t0 + 2 * SEC;
	if (c + 2 < want || c > want + 2)
		fail_msg("VM cap %g: %u I/Os in a second, expected %u", vm_iops, c, want);
	throttle_set_free(s);
}

static void test_vm_cap(void **state)
{
	vm_case(1500, 1500);
	vm_case(10000, 2000);
}

/*
 * Burst: base 1,000, burst 5,000 for 1 s. A full bucket (tau = 1 s x 4,000 / 1,000 = 4 s of
 * base-rate time) lets 5,000 I/Os go 0.2 ms apart, then they go 1 ms apart.
 */
static void test_burst(void **state)
{
	static uint64_t go[8000];
	struct job j;

	job_init(&j);
	j.ntargets = 1;
	j.cap.iops = 1000;
	j.cap.burst_iops = 5000;
	j.cap.burst_seconds = 1;
	struct throttle_set *s = make(&j);
	uint64_t t0 = later();
	gos(s, 0, 4096, t0, go, 8000);
	assert_spacing(go, 300, 4900, MS / 5);
	assert_spacing(go, 5100, 8000, MS);
	/* The burst lasted its second: 5,000 I/Os, give or take the slack of each bucket. */
	unsigned c = count_before(go, 8000, t0 + SEC);
	assert_true(c >= 4990 && c <= 5000 + 500 + 1);
	throttle_set_free(s);
}

/*
 * Which bucket held the I/Os: base 1,000, burst 5,000 for 1 s, under a VM cap of 6,000 (near the
 * burst). Every wait counts for the bucket that answered last: the burst bucket's while credit
 * lasts, the base's after, never the VM's, which answers earlier; the waits add up to all.
 */
static void test_held(void **state)
{
	static uint64_t go[8000];
	double held[CAP_BUCKETS], burst = 0, base = 0, all = 0;
	struct job j;

	job_init(&j);
	j.ntargets = 1;
	j.cap.iops = 1000;
	j.cap.burst_iops = 5000;
	j.cap.burst_seconds = 1;
	j.vm_cap.iops = 6000;
	struct throttle_set *s = make(&j);
	uint64_t t0 = later();
	gos(s, 0, 4096, t0, go, 8000);
	throttle_set_held(s, held);
	/* An I/O of the burst goes 0.2 ms after the one before it, of the base 1 ms after. */
	for (unsigned i = 0; i < 8000; i++)
		*(!i || go[i] - go[i - 1] < MS / 2 ? &burst : &base) += (double)(go[i] - t0) / SEC;
	for (unsigned b = 0; b < CAP_BUCKETS; b++)
		all += held[b];
	if (fabs(all / (burst + base) - 1) > 1e-6)
		fail_msg("waits %g s, held %g s", burst + base, all);
	if (fabs(held[CAP_DISK_IOPS_BURST] / burst - 1) > 0.001 ||
	    fabs(held[CAP_DISK_IOPS] / base - 1) > 0.001)
		fail_msg("burst %g s (waits %g s), base %g s (waits %g s)",
			 held[CAP_DISK_IOPS_BURST], burst, held[CAP_DISK_IOPS], base);
	assert_true(held[CAP_VM_IOPS] < all * 0.001);
	throttle_set_free(s);
	throttle_set_held(NULL, held);
	assert_true(held[CAP_DISK_IOPS] == 0 && held[CAP_DISK_IOPS_BURST] == 0);
}

/* The credit left, percent of the bucket, as the per-second series states it. */
static void test_credit(void **state)
{
	static uint64_t go[2100];
	double ci, cm;
	struct job j;

	job_init(&j);
	j.ntargets = 1;
	j.cap.iops = 1000;
	struct throttle_set *s = make(&j);
	throttle_set_credit(s, &ci, &cm);
	assert_true(ci < 0 && cm < 0); /* no burst cap: no bucket to state */
	throttle_set_free(s);

	j.cap.burst_iops = 5000;
	j.cap.burst_seconds = 1;
	s = make(&j);
	throttle_set_credit(s, &ci, &cm);
	if (fabs(ci - 100) > 0.01 || cm >= 0)
		fail_msg("fresh bucket: %g%% %g%%", ci, cm);
	/* 2,000 I/Os now use 2 s of base-rate time: half of the 4 s bucket. */
	gos(s, 0, 4096, clock_ns(), go, 2000);
	throttle_set_credit(s, &ci, &cm);
	if (fabs(ci - 50) > 1)
		fail_msg("after 2,000 I/Os: %g%%, expected 50%%", ci);
	gos(s, 0, 4096, clock_ns(), go, 2100);
	throttle_set_credit(s, &ci, &cm);
	if (ci != 0)
		fail_msg("after 4,100 I/Os: %g%%, expected 0%%", ci);
	throttle_set_free(s);
}

/*
 * With a disk's burst and a VM's, the disk's bucket states the credit, even empty: the VM's
 * only stands in for a disk with no bucket of the kind (IOPS or MB/s) at all.
 */
static void test_credit_disk_before_vm(void **state)
{
	static uint64_t go[4100];
	double ci, cm;
	struct job j;

	job_init(&j);
	j.ntargets = 1;
	j.vm_cap.iops = 100000;
	j.vm_cap.burst_iops = 200000;
	j.vm_cap.burst_seconds = 100;
	/* the disk's IOPS bucket, 4 s of its base rate, emptied as in test_credit() */
	j.cap.iops = 1000;
	j.cap.burst_iops = 5000;
	j.cap.burst_seconds = 1;
	struct throttle_set *s = make(&j);
	gos(s, 0, 4096, clock_ns(), go, 4100);
	throttle_set_credit(s, &ci, &cm);
	if (ci != 0 || cm >= 0)
		fail_msg("an empty disk IOPS bucket: %g%% %g%%, expected 0%% and none", ci, cm);
	throttle_set_free(s);
	/* the same with its MB/s bucket (1,000 I/Os of 4,096 bytes a second, 5,000 in burst) */
	job_init(&j);
	j.ntargets = 1;
	j.vm_cap = (struct job_caps){.mbps = 1000, .burst_mbps = 2000, .burst_seconds = 100};
	j.cap.mbps = 4.096;
	j.cap.burst_mbps = 20.48;
	j.cap.burst_seconds = 1;
	s = make(&j);
	gos(s, 0, 4096, clock_ns(), go, 4100);
	throttle_set_credit(s, &ci, &cm);
	if (ci >= 0 || cm != 0)
		fail_msg("an empty disk MB/s bucket: %g%% %g%%, expected none and 0%%", ci, cm);
	throttle_set_free(s);
	/* a disk with no burst: the VM's buckets, full */
	job_init(&j);
	j.ntargets = 1;
	j.vm_cap = (struct job_caps){.iops = 100000, .burst_iops = 200000, .burst_seconds = 100};
	j.cap.iops = 1000;
	s = make(&j);
	throttle_set_credit(s, &ci, &cm);
	if (fabs(ci - 100) > 0.01 || cm >= 0)
		fail_msg("the VM's bucket: %g%% %g%%, expected 100%% and none", ci, cm);
	throttle_set_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_caps),     cmocka_unit_test(test_iops),
		cmocka_unit_test(test_rates_span),  cmocka_unit_test(test_mbps),
		cmocka_unit_test(test_both_caps),   cmocka_unit_test(test_io_unit),
		cmocka_unit_test(test_vm_cap),      cmocka_unit_test(test_burst),
		cmocka_unit_test(test_credit_disk_before_vm),
		cmocka_unit_test(test_credit),      cmocka_unit_test(test_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
