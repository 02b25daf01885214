/*
 * How each foreign syntax spells the fields the core names (src/compat/spell.c): every flag of
 * DiskSpd and SQLIO, and every option of fio that sets something, is translated here through a
 * sink that records each setting, and each setting's field must have a spelling in its syntax
 * (the flag it came from, for DiskSpd; a real option of fio). field=value remedies are spelled
 * as each syntax writes them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compat/compat.h"
#include "compat/fio.h"
#include "util/field.h"
#include "split_args.h"

/* What a translation set: each field, with the flag it came from. */
static struct {
	char name[48], flag[96];
	bool is_default;
} seen[512];
static unsigned nseen;

static int record(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	for (unsigned i = 0; i < nseen; i++)
		if (!strcmp(seen[i].name, s->name) && !strcmp(seen[i].flag, s->flag))
			return 0;
	assert_true(nseen < sizeof(seen) / sizeof(seen[0]));
	snprintf(seen[nseen].name, sizeof(seen[nseen].name), "%s", s->name);
	snprintf(seen[nseen].flag, sizeof(seen[nseen].flag), "%s", s->flag);
	seen[nseen++].is_default = s->is_default;
	return 0;
}

static const struct compat_sink sink = {.set = record};
static char err[1024];

static bool was_set(const char *name)
{
	for (unsigned i = 0; i < nseen; i++)
		if (!strcmp(seen[i].name, name))
			return true;
	return false;
}

static const struct compat_sink *bind(void *arg, struct job *j)
{
	return &sink;
}

static unsigned line_start;     /* seen[] from here on came from the line translated last */
static void assert_all_spelled(const struct field_spelling *sp, bool flags);

static void dspd(const char *line)
{
	char *copy = strdup(line), *argv[64];
	int argc = split(copy, "diskspd", argv);
	struct job_list list = {0};
	struct compat_jobs out = {.list = &list, .bind = bind};

	compat_spell_forget();
	line_start = nseen;
	if (compat_diskspd_jobs(argc, argv, &out, NULL, err, sizeof(err)))
		fail_msg("diskspd %s: %s", line, err);
	assert_all_spelled(&compat_diskspd_spelling, true);
	job_list_release(&list);
	free(copy);
}

static void sqlio(const char *line)
{
	char *copy = strdup(line), *argv[64];
	int argc = split(copy, "sqlio", argv);
	struct job j;

	job_init(&j);
	compat_spell_forget();
	line_start = nseen;
	if (compat_sqlio_parse(argc, argv, &sink, &j, NULL, err, sizeof(err)))
		fail_msg("sqlio %s: %s", line, err);
	assert_all_spelled(&compat_sqlio_spelling, true);
	job_release(&j);
	free(copy);
}

/*
 * Every field a flag of the last line set has a spelling, and for DiskSpd and SQLIO it starts
 * the flag as typed (-o for -o8, -F for -F2 where -t is the other spelling of threads). A
 * default that no flag gives ("(no warm-up)") is not the syntax's to spell.
 */
static void assert_all_spelled(const struct field_spelling *sp, bool flags)
{
	for (unsigned i = line_start; i < nseen; i++) {
		if (flags && seen[i].flag[0] != '-')
			continue;
		const char *s = sp->field(seen[i].name);
		if (!s)
			fail_msg("%s (from %s) has no spelling", seen[i].name, seen[i].flag);
		if (flags && strncmp(seen[i].flag, s, strlen(s)))
			fail_msg("%s (from %s) is spelled %s", seen[i].name, seen[i].flag, s);
	}
}

static void assert_spells(const struct field_spelling *sp, const char *msg, const char *want)
{
	char out[256];

	field_expand(out, sizeof(out), msg, sp);
	assert_string_equal(out, want);
}

static void test_diskspd(void **state)
{
	nseen = 0;
	dspd("-b8k -B4k -c1G -C1 -d10 -D100 -f512M -F2 -g100i -h -L -o4 -r8k -rs20 -rdpct90/10 "
	     "-w30 -W2 -z5 -Z -n -v -a0 -P10 f");
	dspd("-b4k -t2 -T4k -s8k -Su -g20 -Zr f");
	dspd("-si -Sw -o8 -z f");
	dspd("-Sh -r -rdabs90/1G f");
	static const char *const must[] = {
		"bs", "offset", "size", "keep", "cooldown", "time", "interval", "range", "threads",
		"cap-iops", "cap-mbps", "cache", "depth", "align", "random-pct", "distribution",
		"write", "warmup", "seed", "fill", "thread-stride", "gap", "sequential",
		"seq-threads",
	};
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!was_set(must[i]))
			fail_msg("no DiskSpd flag of the probe set %s", must[i]);
	for (unsigned i = 0; i < nseen; i++)
		if (seen[i].flag[0] == '-' && !compat_diskspd_xml_spelling.field(seen[i].name))
			fail_msg("%s has no element of a profile", seen[i].name);
	assert_spells(&compat_diskspd_spelling, "use " FIELD_VAL("cache", "buffered") " for 1000",
		      "use -Sb for 1000");
	assert_spells(&compat_diskspd_spelling, FIELD_VAL("depth", "1") " or " FIELD("threads"),
		      "-o1 or -t");
	assert_spells(&compat_diskspd_xml_spelling, FIELD_VAL("cache", "direct"),
		      "<DisableOSCache>true");
}

static void test_sqlio(void **state)
{
	nseen = 0;
	sqlio("-kW -t2 -s10 -o4 -b64 -frandom -LS -BN f");
	sqlio("-kR -fsequential -BH -i10 f");
	sqlio("-BS f");
	sqlio("-BY f");
	static const char *const must[] = {"write", "threads", "time", "depth", "bs", "random",
					   "sequential", "cache"};
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!was_set(must[i]))
			fail_msg("no SQLIO flag of the probe set %s", must[i]);
	assert_spells(&compat_sqlio_spelling, "(" FIELD_VAL("cache", "buffered") ")", "(-BY)");
}

/* ---- fio: job texts, from a table, through the translator ---- */

static const char *text;

static int t_read(void *arg, const char *path, char **out)
{
	return (*out = strdup(text)) ? 0 : -ENOMEM;
}

static int t_stat(void *arg, const char *path, uint64_t *size, bool *regular)
{
	return -ENOENT;
}

static const char *t_getenv(void *arg, const char *name)
{
	return NULL;
}

static const struct compat_fio_env env = {
	.getenv = t_getenv, .read = t_read, .stat = t_stat,
	.pagesize = 4096, .mb_memory = 1000, .ncpus = 2,
};

static void fio_file(const char *job)
{
	struct compat_fio f;
	struct job_list list = {0};

	text = job;
	compat_spell_forget();
	line_start = nseen;
	compat_fio_init(&f, &env);
	if (compat_fio_read_file(&f, "job.fio", err, sizeof(err)) ||
	    compat_fio_translate(&f, &sink, &list, err, sizeof(err)))
		fail_msg("%s: %s%s", job, err, f.nrefused ? f.refused[0] : "");
	/* Spelled, and as an option fio has: the one the job gave where it gave one. */
	assert_all_spelled(&compat_fio_spelling, false);
	for (unsigned i = line_start; i < nseen; i++)
		if (!fio_opt_find(compat_fio_spelling.field(seen[i].name)))
			fail_msg("%s is spelled %s, which fio does not have", seen[i].name,
				 compat_fio_spelling.field(seen[i].name));
	job_list_release(&list);
	compat_fio_release(&f);
}

static const char *const fio_jobs[] = {
	"[a]\nsize=1m\nrw=randrw\nrwmixread=70\nbs=8k\nba=4k\nioengine=io_uring\niodepth=8\n"
	"iodepth_batch=4\ndirect=1\nsync=1\nfsync=4\nfdatasync=8\nend_fsync=1\ninvalidate=0\n"
	"thinktime=100\nthinktime_blocks=4\nstartdelay=1\nramp_time=1\nruntime=5\ntime_based\n"
	"randseed=7\nrandom_distribution=zipf:1.1\npercentage_random=50\noffset=4k\n"
	"io_size=512k\nunlink=1\nnumjobs=2\nrate_iops=100\nrate_process=poisson\n",
	"[b]\nsize=1m\nrw=read:8k\nnumber_ios=100\nrate=1m\nrandom_sequence_stride=1\n",
	"[c]\nsize=1m\nrw=randread\nbsrange=4k-16k\n",
	"[d]\nsize=1m\nrw=write\nverify=crc32c\nverify_interval=8k\nbs=8k\n",
	"[e]\nsize=1m\nrw=trimwrite\n",
	"[e2]\nsize=1m\nrw=randtrim\n",
	"[f]\nsize=1m\nexitall\nexit_what=all\nexitall_on_error\ncontinue_on_error=io\n"
	"ignore_error=EIO\nprio=2\nprioclass=2\n",
	"[g]\nsize=1m\nioengine=io_uring\ncmdprio_percentage=20\ncmdprio_class=3\n"
	"sqthread_poll=1\n[h]\nsize=1m\nioengine=io_uring\ncmdprio_bssplit=4k/10\n",
	"[i]\nsize=1m\nrw=write\nbuffer_compress_percentage=60\nbuffer_compress_chunk=4k\n"
	"dedupe_percentage=20\n[j]\nsize=1m\nrw=randwrite\ndedupe_percentage=50\n"
	"dedupe_mode=working_set\ndedupe_working_set_percentage=10\ndedupe_global=1\n"
	"buffer_pattern=\"ab\"\n[k]\nsize=1m\nrw=write\nscramble_buffers=0\nrefill_buffers=1\n"
	"[l]\nsize=1m\nrw=write\nzero_buffers\n",
	"[m]\nsize=1m\nrw=read\nzonemode=strided\nzonesize=16k\nzonerange=64k\nzoneskip=1m\n",
	"[n]\nzonemode=zbd\nzonesize=16k\nzonecapacity=8k\nsize=4z\nrw=randwrite\n"
	"max_open_zones=3\njob_max_open_zones=2\nzone_reset_threshold=0.7\n"
	"zone_reset_frequency=0.125\n[o]\nzonemode=zbd\nzonesize=16k\nsize=4z\nrw=randrw\n"
	"read_beyond_wp=1\n",
	"[p]\nsize=16m\nrw=randwrite\nsprandom=1\nspr_op=0.2\nspr_num_regions=10\nspr_cs=1m\n",
	"[q]\nsize=1m\nrw=write\nfill_device=1\n",
	"[r]\nsize=1m\nrw=randread\nsteadystate=iops:2%\nsteadystate_duration=10\n"
	"steadystate_ramp_time=1\nsteadystate_check_interval=1\n",
	"[s]\nsize=1m\nflow=2\nflow_id=1\nflow_sleep=100\n",
	"[t]\nsize=1m\nioengine=libaio\niodepth=16\nlatency_target=1000\nlatency_window=1s\n"
	"latency_percentile=99\nlatency_run=1\n",
	"[u]\nsize=1m\nioengine=io_uring\natomic=1\ndirect=1\nrw=write\n",
	"[v]\nsize=1m\nrw=randrw\nnumjobs=3\nrate=1m\nrate_iops=100\n",
};

static void test_fio(void **state)
{
	nseen = 0;
	for (size_t i = 0; i < sizeof(fio_jobs) / sizeof(fio_jobs[0]); i++)
		fio_file(fio_jobs[i]);
	/* Among them, the fields fio job files set that once printed as iorate's options. */
	static const char *const must[] = {
		"cache", "zbd", "zone-capacity", "zone-reset-frequency", "zone-reset-threshold",
		"max-open-zones", "job-max-open-zones", "read-beyond-wp", "sprandom", "spr-op",
		"spr-cs", "spr-num-regions", "verify-sum", "verify-block", "continue-on-error",
		"ignore-error", "ioprio", "scramble", "refill", "dedupe-global", "exit-all",
		"arrival", "keep", "no-invalidate", "fill", "compress-chunk",
	};
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!was_set(must[i]))
			fail_msg("no fio option of the probe set %s", must[i]);
	/* Without a translation, the table's spelling. */
	compat_spell_forget();
	for (unsigned i = 0; i < nseen; i++) {
		const char *sp = compat_fio_spelling.field(seen[i].name);
		if (!sp || !fio_opt_find(sp))
			fail_msg("%s is spelled %s, which fio does not have", seen[i].name,
				 sp ? sp : "(nothing)");
	}
	assert_spells(&compat_fio_spelling, "(use " FIELD_VAL("cache", "buffered") " for 1000)",
		      "(use direct=0 for 1000)");
	assert_spells(&compat_fio_spelling, FIELD_VAL("depth", "1"), "iodepth=1");
	assert_spells(&compat_fio_spelling, FIELD("zone-capacity") ": more than "
		      FIELD("zone-size"), "zonecapacity: more than zonesize");
	assert_spells(NULL, FIELD_VAL("cache", "buffered") " " FIELD("depth"),
		      "--cache buffered --depth");
}

static void test_field_map(void **state)
{
	static const struct field_map map[] = {{"depth", "-o"}, {"cache=buffered", "-Sb"}};

	static const struct field_map two[] = {{"threads", "-t"}, {"threads", "-F"}};

	assert_string_equal(field_map_spell(map, 2, "depth", NULL), "-o");
	assert_string_equal(field_map_spell(map, 2, "cache=buffered", NULL), "-Sb");
	assert_null(field_map_spell(map, 2, "cache", NULL));
	assert_null(field_map_spell(map, 0, "depth", NULL));
	/* Of two spellings, the one the user typed; else the first. */
	assert_string_equal(field_map_spell(two, 2, "threads", "-F4"), "-F");
	assert_string_equal(field_map_spell(two, 2, "threads", "-t4"), "-t");
	assert_string_equal(field_map_spell(two, 2, "threads", NULL), "-t");
	assert_string_equal(field_map_spell(two, 2, "threads", "<ThreadCount>4"), "-t");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_map),
		cmocka_unit_test(test_diskspd),
		cmocka_unit_test(test_sqlio),
		cmocka_unit_test(test_fio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
