/* src/core/zbd.c: emulated zones, written only at their write pointers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/zbd.h"

#define ZS 65536u
#define BS 4096u

static struct zbd_set *sets;
static char err[256];

static int teardown(void **state)
{
	(void)state;
	zbd_sets_free(&sets);
	return 0;
}

/* A view over the whole of a target of nz zones (its identity ino). */
static void view(struct zbd_view *v, ino_t ino, unsigned nz, const struct zbd_params *p,
		 bool writes, bool random, unsigned *open)
{
	struct zbd_set *s;

	assert_int_equal(zbd_set_get(&sets, 1, ino, (uint64_t)nz * ZS, p, &s, err, sizeof(err)),
			 0);
	assert_int_equal(zbd_view_init(v, s, p, 0, (uint64_t)nz * ZS, writes, random, BS, 0, open,
				       err, sizeof(err)), 0);
	v->bs = BS;
}

/*
 * Random writes land at their zone's write pointer: within each zone the offsets follow each
 * other block by block; a zone filled is reset before it is written again, once per fill.
 */
static void test_random_writes_at_wp(void **state)
{
	struct zbd_params p = {.zone_size = ZS};
	struct zbd_view v;
	unsigned open = 0;
	uint64_t next[8] = {0}, n[8] = {0}, want = 0;

	(void)state;
	view(&v, 10, 8, &p, true, true, &open);
	for (unsigned i = 0; i < 8 * 16 * 3; i++) {
		uint64_t off = (uint64_t)(i * 2654435761u % 8) * ZS + (i * 7 % 16) * BS;
		uint32_t len = BS;
		unsigned z = (unsigned)(off / ZS);

		assert_true(zbd_adjust(&v, 1, &off, &len));
		assert_int_equal(len, BS);
		assert_int_equal(off / ZS, z);               /* the zone the draw fell in */
		assert_int_equal(off, z * (uint64_t)ZS + next[z]);
		next[z] = (next[z] + BS) % ZS;
		n[z]++;
	}
	/* Each write past a zone's 16 blocks started a fill after a reset. */
	for (unsigned z = 0; z < 8; z++)
		want += n[z] ? (n[z] - 1) / (ZS / BS) : 0;
	assert_true(want > 0);
	assert_int_equal(v.resets, want);
}

/* Sequential writes: zone after zone; a second pass resets each zone once. */
static void test_sequential_second_pass(void **state)
{
	struct zbd_params p = {.zone_size = ZS};
	struct zbd_view v;
	unsigned open = 0;

	(void)state;
	view(&v, 11, 4, &p, true, false, &open);
	for (unsigned i = 0; i < 2 * 4 * ZS / BS; i++) {
		uint64_t off = 0;
		uint32_t len = BS;

		assert_true(zbd_adjust(&v, 1, &off, &len));
		assert_int_equal(off, (uint64_t)i * BS % (4 * ZS));
	}
	assert_int_equal(v.resets, 4);
	assert_int_equal(zbd_set_resets(v.set), 4);
}

/* Reads read only what was written: none at first, then only below the write pointers. */
static void test_reads_below_wp(void **state)
{
	struct zbd_params p = {.zone_size = ZS};
	struct zbd_view w, r;
	unsigned wo = 0, ro = 0;
	uint64_t off;
	uint32_t len = BS;

	(void)state;
	view(&r, 12, 4, &p, false, true, &ro);
	off = 3 * ZS;
	assert_false(zbd_adjust(&r, 0, &off, &len));   /* empty zones: nothing to read */
	view(&w, 12, 4, &p, true, false, &wo);
	for (unsigned i = 0; i < 3; i++) {               /* 3 blocks in zone 0 */
		off = 0;
		len = BS;
		assert_true(zbd_adjust(&w, 1, &off, &len));
	}
	for (unsigned i = 0; i < 200; i++) {
		off = (uint64_t)(i % 4) * ZS + (i * 13 % 16) * BS;
		len = BS;
		assert_true(zbd_adjust(&r, 0, &off, &len));
		assert_true(off + len <= 3 * BS);
		assert_int_equal(off % BS, 0);
	}
	/* read_beyond_wp: reads go where they were drawn. */
	struct zbd_params pb = p;
	struct zbd_view rb;
	unsigned bo = 0;

	pb.read_beyond_wp = true;
	view(&rb, 12, 4, &pb, false, true, &bo);
	off = 3 * ZS + 5 * BS;
	len = BS;
	assert_true(zbd_adjust(&rb, 0, &off, &len));
	assert_int_equal(off, 3 * ZS + 5 * BS);
}

/* At most max_open zones written at once: the others' draws go to an open zone. */
static void test_open_limit(void **state)
{
	struct zbd_params p = {.zone_size = ZS, .max_open = 2};
	struct zbd_view v;
	unsigned open = 0;
	bool used[16] = {false};

	(void)state;
	view(&v, 13, 16, &p, true, true, &open);
	for (unsigned i = 0; i < ZS / BS; i++) {
		uint64_t off = (uint64_t)(i * 5 % 16) * ZS;
		uint32_t len = BS;

		assert_true(zbd_adjust(&v, 1, &off, &len));
		used[off / ZS] = true;
		assert_true(open <= 2);
	}
	unsigned n = 0;
	for (unsigned z = 0; z < 16; z++)
		n += used[z];
	assert_int_equal(n, 2);            /* a zone's worth of blocks never fills one of them */
}

/* A job's end leaves its open zones open, no longer its: the next job's count starts at 0. */
static void test_forget(void **state)
{
	struct zbd_params p = {.zone_size = ZS, .job_max_open = 1};
	struct zbd_view a, b;
	unsigned oa = 0, ob = 0;
	uint64_t off = 0;
	uint32_t len = BS;

	(void)state;
	view(&a, 16, 4, &p, true, true, &oa);
	assert_true(zbd_adjust(&a, 1, &off, &len));
	assert_int_equal(oa, 1);
	zbd_sets_forget(sets, &oa);
	view(&b, 16, 4, &p, true, true, &ob);
	off = 0;                                         /* the zone a opened: not b's */
	len = BS;
	for (unsigned i = 0; i + 1 < ZS / BS; i++) {      /* b fills the zone a opened */
		off = 0;
		len = BS;
		assert_true(zbd_adjust(&b, 1, &off, &len));
	}
	assert_int_equal(oa, 1);                         /* its closing did not count on a */
	assert_int_equal(ob, 0);
	off = 2 * ZS;
	len = BS;
	assert_true(zbd_adjust(&b, 1, &off, &len));      /* b may open a zone of its own */
	assert_int_equal(off, 2 * ZS);
	assert_int_equal(ob, 1);
}

/* A trim resets the zones it covers; trimming empty zones has nothing to do. */
static void test_trim_resets(void **state)
{
	struct zbd_params p = {.zone_size = ZS};
	struct zbd_view v, t;
	unsigned o1 = 0, o2 = 0;
	uint64_t off;
	uint32_t len;

	(void)state;
	view(&v, 14, 2, &p, true, false, &o1);
	view(&t, 14, 2, &p, true, true, &o2);
	t.bs = 0;
	off = ZS;
	len = ZS;
	assert_false(zbd_adjust(&t, 2, &off, &len));      /* all empty */
	for (unsigned i = 0; i < 3; i++) {
		off = 0;
		len = BS;
		assert_true(zbd_adjust(&v, 1, &off, &len));
	}
	off = ZS;                                        /* drawn in an empty zone: moved */
	len = ZS;
	assert_true(zbd_adjust(&t, 2, &off, &len));
	assert_int_equal(off, 0);
	assert_int_equal(t.resets, 1);
	off = 0;
	len = BS;
	assert_true(zbd_adjust(&v, 1, &off, &len));      /* the zone starts over */
	assert_int_equal(off, 0);                        /* at its write pointer */
}

/* The reset threshold and frequency: past the threshold, every 1/f-th write resets first. */
static void test_reset_frequency(void **state)
{
	struct zbd_params p = {.zone_size = ZS, .reset_threshold = 0.5, .reset_frequency = 0.25};
	struct zbd_view v;
	unsigned open = 0;

	(void)state;
	view(&v, 15, 4, &p, true, true, &open);
	/* Half of 4 zones (32 blocks) in zone 0 and 1 without a reset (each zone's own 16). */
	for (unsigned i = 0; i < 32; i++) {
		uint64_t off = (uint64_t)(i / 16) * ZS;
		uint32_t len = BS;

		assert_true(zbd_adjust(&v, 1, &off, &len));
	}
	assert_int_equal(v.resets, 0);
	/* Now every 4th write resets its zone first: 8 writes to zone 2, 2 resets (the second
	 * of an emptied zone only when it has data again). */
	for (unsigned i = 0; i < 8; i++) {
		uint64_t off = 2 * (uint64_t)ZS;
		uint32_t len = BS;

		assert_true(zbd_adjust(&v, 1, &off, &len));
	}
	assert_int_equal(v.resets, 2);
}

/* What cannot be: a zone bigger than the target, a region without a whole zone, a second job
 * with other zones on the same target. */
static void test_refusals(void **state)
{
	struct zbd_params p = {.zone_size = ZS}, q = {.zone_size = 2 * ZS};
	struct zbd_set *s;
	struct zbd_view v;
	unsigned open = 0;

	(void)state;
	assert_int_equal(zbd_set_get(&sets, 2, 1, ZS / 2, &p, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "do not hold one zone"));
	assert_int_equal(zbd_set_get(&sets, 2, 2, 4 * ZS, &p, &s, err, sizeof(err)), 0);
	assert_int_equal(zbd_set_get(&sets, 2, 2, 4 * ZS, &q, &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(zbd_view_init(&v, s, &p, 1, ZS, true, true, BS, 0, &open, err,
				       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no whole zone"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_random_writes_at_wp, teardown),
		cmocka_unit_test_teardown(test_sequential_second_pass, teardown),
		cmocka_unit_test_teardown(test_reads_below_wp, teardown),
		cmocka_unit_test_teardown(test_open_limit, teardown),
		cmocka_unit_test_teardown(test_trim_resets, teardown),
		cmocka_unit_test_teardown(test_forget, teardown),
		cmocka_unit_test_teardown(test_reset_frequency, teardown),
		cmocka_unit_test_teardown(test_refusals, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
