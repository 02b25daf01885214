/*
 * Translators of DiskSpd and SQLIO command lines (src/compat/; fio is test_fio.c): every flag is
 * checked field by field in the struct job it becomes, through the option table of 'iorate run'
 * as the commands apply it, and every refusal names the flag.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/cmd_compat.h"
#include "cmd/options.h"
#include "compat/compat.h"
#include "core/target.h"
#include "split_args.h"

#define GiB (1ull << 30)
#define SEC 1000000000ull

static char tmpdir[256];
static char err[1024];
static char *explained;          /* the explanation of the last translation */
static struct job job;

/* Runs a translator as the command does, through the option table; keeps the explanation. */
static int translate(compat_translator fn, const char *tool, const char *line)
{
	char *copy = strdup(line), *argv[64];
	int argc = split(copy, tool, argv), r;
	size_t len = 0;
	FILE *ex;

	free(explained);
	explained = NULL;
	ex = open_memstream(&explained, &len);
	assert_non_null(ex);
	job_release(&job);
	job_init(&job);
	r = compat_cli_translate(fn, argc, argv, &job, ex, err, sizeof(err));
	fclose(ex);
	free(copy);
	return r;
}

static struct job_list jobs;      /* the jobs of the last DiskSpd translation */

/* A DiskSpd command line as the command translates it, into jobs; job is a copy of the first. */
static int dspd(const char *line)
{
	char *copy = strdup(line), *argv[64];
	int argc = split(copy, "diskspd", argv), r;
	size_t len = 0;
	FILE *ex;

	free(explained);
	explained = NULL;
	ex = open_memstream(&explained, &len);
	assert_non_null(ex);
	job_list_release(&jobs);
	job_release(&job);
	job_init(&job);
	r = compat_cli_translate_jobs(compat_diskspd_jobs, argc, argv, &jobs, ex, err,
				      sizeof(err));
	fclose(ex);
	free(copy);
	if (!r) {
		assert_true(jobs.n >= 1);
		job_release(&job);
		assert_int_equal(job_copy(&job, &jobs.jobs[0]), 0);
	}
	return r;
}

static int sqlio(const char *line)
{
	return translate(compat_sqlio_parse, "sqlio", line);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define assert_err_has(s) assert_non_null(strstr(err, (s)))

static void mkdirs(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_compat.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	/* A fake /sys/block: disks have a "device" link, virtual devices do not. */
	mkdirs("sys");
	const char *disks[] = {"sda", "sdb", "sr0", "nvme0n1", "nvme2n1", "nvme10n1"};
	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "sys/%s", disks[i]);
		mkdirs(rel);
		snprintf(rel, sizeof(rel), "sys/%s/device", disks[i]);
		mkdirs(rel);
	}
	mkdirs("sys/loop0");
	mkdirs("sys/zram0");
	char sys[300];
	snprintf(sys, sizeof(sys), "%s/sys", tmpdir);
	setenv("IORATE_SYSFS_BLOCK", sys, 1);
	job_init(&job);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	job_release(&job);
	job_list_release(&jobs);
	free(explained);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- DiskSpd ---- */

static void test_diskspd_a4_post(void **state)
{
	assert_int_equal(dspd("diskspd.exe -b64k -d30 -t8 -o8 #1"), 0);
	assert_int_equal(job.bs, 65536);
	assert_int_equal(job.time_ns, 30 * SEC);
	assert_int_equal(job.threads, 8);
	assert_int_equal(job.depth, 8);
	assert_int_equal(job.warmup_ns, 5 * SEC);  /* DiskSpd's default -W5 */
	assert_int_equal(job.cooldown_ns, 0);
	assert_int_equal(job.write_pct, 0);
	assert_int_equal(job.pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(job.cache, CACHE_BUFFERED);
	assert_true(job.seed_set);
	assert_int_equal(job.seed, 0);
	assert_string_equal(job.origin, "diskspd");
	assert_int_equal(job.ntargets, 1);
	assert_string_equal(job.targets[0], "/dev/nvme2n1");
	assert_non_null(strstr(job.command_line, "diskspd diskspd.exe -b64k -d30 -t8 -o8 "));

	/* The second form in the 2015 A4 DiskSpd post, and PowerShell's escaped `#N. */
	assert_int_equal(dspd("-b8k -d30 -t8 -o8 /mnt/data/file"), 0);
	assert_int_equal(job.bs, 8192);
	assert_string_equal(job.targets[0], "/mnt/data/file");
	assert_int_equal(dspd("-b8k `#4"), 0);
	assert_string_equal(job.targets[0], "/dev/sdb");
}

static void test_diskspd_defaults(void **state)
{
	assert_int_equal(dspd("f"), 0);
	assert_int_equal(job.bs, 65536);
	assert_int_equal(job.time_ns, 10 * SEC);
	assert_int_equal(job.warmup_ns, 5 * SEC);
	assert_int_equal(job.threads, 1);
	assert_int_equal(job.depth, 2);
	assert_int_equal(job.size, 0);
	assert_false(job.keep);
	assert_int_equal(job.offset, 0);
	assert_int_equal(job.range, 0);
	assert_int_equal(job.align, 0);
	assert_int_equal(job.fill, FILL_RANDOM);
	assert_string_equal(job.engine, "");
	assert_true(job.cap.mbps == 0);
}

static void test_diskspd_flags(void **state)
{
	assert_int_equal(dspd("-w30 f"), 0);
	assert_int_equal(job.write_pct, 30);
	assert_int_equal(dspd("-w f"), 0);
	assert_int_equal(job.write_pct, 0);
	assert_int_equal(dspd("-r f"), 0);
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(job.align, 0);
	assert_int_equal(dspd("-b64k -r4k f"), 0);
	assert_int_equal(job.align, 4096);
	assert_int_equal(dspd("-r -s f"), 0);            /* -r overrides -s */
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(dspd("-si -t4 f"), 0);
	assert_int_equal(job.pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(job.threads, 4);
	assert_int_equal(dspd("-b4K -F8 -T1b -s8b -o32 f"), 0); /* DiskSpd's sample command */
	assert_int_equal(job.threads, 8);
	assert_int_equal(job.depth, 32);
	assert_int_equal(job.pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(dspd("-T4k -t2 -b4k f"), 0);
	assert_int_equal(dspd("-W0 -C5 f"), 0);
	assert_int_equal(job.warmup_ns, 0);
	assert_int_equal(job.cooldown_ns, 5 * SEC);
	assert_int_equal(dspd("-c1G f"), 0);
	assert_int_equal(job.size, GiB);
	assert_true(job.keep);
	assert_int_equal(dspd("-b4k -c100b f"), 0);      /* b counts blocks */
	assert_int_equal(job.size, 409600);
	assert_int_equal(dspd("-B4k f"), 0);
	assert_int_equal(job.offset, 4096);
	assert_int_equal(dspd("-B1M -f3M f"), 0);
	assert_int_equal(job.offset, 1 << 20);
	assert_int_equal(job.range, 2 << 20);
	assert_int_equal(dspd("-fr f"), 0);
	assert_int_equal(dspd("-frst f"), 0);
	assert_int_equal(dspd("-Z f"), 0);
	assert_int_equal(job.fill, FILL_ZERO);
	assert_int_equal(dspd("-Zr f"), 0);
	assert_int_equal(job.fill, FILL_RANDOM);
	assert_int_equal(dspd("-Z1M f"), 0);
	assert_int_equal(job.fill, FILL_RANDOM);
	assert_int_equal(dspd("-z f"), 0);
	assert_false(job.seed_set);
	assert_int_equal(dspd("-z42 f"), 0);
	assert_true(job.seed_set);
	assert_int_equal(job.seed, 42);
	assert_int_equal(dspd("-g1000 -t2 f"), 0);       /* 1000 B/ms x 2 threads = 2 MB/s */
	assert_true(job.cap.mbps > 1.999 && job.cap.mbps < 2.001);
	assert_int_equal(dspd("-L -D -n -P -v -a -Rtext f"), 0);
	assert_false(job.verbose);                       /* no option of 'iorate run' reads it */
	assert_int_equal(dspd("-F4 a b"), 0);            /* each of 4 threads works on both */
	assert_int_equal(job.threads, 4);
	assert_true(job.shared_threads);
	assert_int_equal(job.depth, 4);                  /* -o2 on each of the 2 targets */
	assert_int_equal(job.ntargets, 2);
	assert_int_equal(dspd("-t4 a b"), 0);
	assert_false(job.shared_threads);
	assert_int_equal(job.depth, 2);
	assert_int_equal(jobs.n, 1);
	assert_null(job.name);
}

/* DiskSpd 2.1 and 2.2: mixed random/sequential, distributions, IOPS throttles, bounds. */
static void test_diskspd_21_flags(void **state)
{
	assert_int_equal(dspd("-b8k -r -rs20 f"), 0);
	assert_int_equal(job.random_pct, 20);
	assert_int_equal(job.skip, 0);
	assert_int_equal(dspd("-b8k -rs100 f"), 0);      /* -rs100 is -r */
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(job.random_pct, 0);
	/* Sequential runs of -rs advance by the alignment: 64K from an 8K I/O skips 56K. */
	assert_int_equal(dspd("-b8k -r64k -rs50 f"), 0);
	assert_int_equal(job.align, 65536);
	assert_int_equal(job.skip, 57344);
	/* DiskSpd's rule: the I/O a list leaves goes to what it leaves of the target. */
	assert_int_equal(dspd("-r -rdpct90/10:0/10:5/20 f"), 0);
	assert_int_equal(job.dist, DIST_ZONED);
	assert_int_equal(job.nzones, 4);
	assert_true(job.zones[0].access_pct == 90 && job.zones[0].size_pct == 10);
	assert_true(job.zones[1].access_pct == 0 && job.zones[1].size_pct == 10);
	assert_true(job.zones[2].access_pct == 5 && job.zones[2].size_pct == 20);
	assert_true(job.zones[3].access_pct == 5 && job.zones[3].size_pct == 60);
	assert_int_equal(dspd("-r -rdpct50/50:50/50 f"), 0);   /* complete: no remainder */
	assert_int_equal(job.nzones, 2);
	assert_int_equal(dspd("-b4k -r -rdabs90/10G:0/10G:5/20G f"), 0);
	assert_int_equal(job.dist, DIST_ZONED_ABS);
	assert_int_equal(job.nzones, 4);
	assert_int_equal(job.zones[0].size_bytes, 10 * GiB);
	assert_int_equal(job.zones[2].size_bytes, 20 * GiB);
	assert_true(job.zones[3].access_pct == 5 && job.zones[3].size_bytes == 0); /* to the end */
	assert_int_equal(dspd("-b4k -r -rdabs100/8b f"), 0);   /* b counts blocks */
	assert_int_equal(job.zones[0].size_bytes, 32768);
	/* -g per thread and target; iorate's caps are per target: times the threads on it. */
	assert_int_equal(dspd("-g500i -t4 f"), 0);
	assert_true(job.cap.iops == 2000 && job.cap.mbps == 0);
	assert_int_equal(dspd("-g500i -F3 a b"), 0);
	assert_true(job.cap.iops == 1500);
	assert_int_equal(dspd("-B1M:4M f"), 0);
	assert_int_equal(job.offset, 1 << 20);
	assert_int_equal(job.range, 4 << 20);
	/* Without -si each thread sweeps the region, thread k from k x -T. */
	assert_int_equal(dspd("-t4 -T1M f"), 0);
	assert_int_equal(job.pattern, PATTERN_SEQUENTIAL);
	assert_true(job.seq_per_thread);
	assert_int_equal(job.thread_stride, 1 << 20);
	assert_int_equal(job.skip, 0);
	assert_int_equal(dspd("-t4 f"), 0);              /* all four from the start */
	assert_true(job.seq_per_thread);
	assert_int_equal(job.thread_stride, 0);
	assert_int_equal(dspd("-t4 -si f"), 0);          /* one shared offset: interleaved */
	assert_false(job.seq_per_thread);
	assert_int_equal(dspd("-t1 f"), 0);
	assert_false(job.seq_per_thread);
	/* DiskSpd's sample: 8 threads, thread k at block k, stride 8 blocks: interleaved. */
	assert_int_equal(dspd("-b4K -F8 -T1b -s8b -o32 f"), 0);
	assert_true(job.seq_per_thread);
	assert_int_equal(job.thread_stride, 4096);
	assert_int_equal(job.skip, 7 * 4096);
	assert_int_equal(dspd("-b4k -s16k f"), 0);       /* one thread: a stride is a gap */
	assert_int_equal(job.skip, 12288);
	/* DiskSpd leaves the page cache as it is. */
	assert_false(job.invalidate);
	assert_non_null(strstr(explained, "default (cache kept) --no-invalidate: "));
}

static void test_diskspd_21_errors(void **state)
{
	static const struct {
		const char *line, *needle;
	} cases[] = {
		{"-rs0 f", "-rs0: takes the percent of I/Os at random offsets, from 1 to 100"},
		{"-rs101 f", "-rs101: takes the percent"},
		{"-rs f", "-rs: takes the percent"},
		{"-rs20 -rs30 f", "-rs20 and -rs30: give one"},
		{"-rs20 -s f", "-rs20 and -s: give one"},
		{"-b8k -r4k -rs20 f", "-rs20: sequential runs advance by the alignment -r4k"},
		{"-rdpct90/10 f", "-rdpct90/10: a distribution places random I/Os; give -r or -rs"},
		{"-r -rdpct50/100 f", "-rdpct50/100: the ranges cover the target with 50% of the I/O"},
		{"-r -rdpct100/50 f", "the target percents add up to 50%; they must cover all"},
		{"-r -rdpct60/60:50/10 f", "the I/O percents add up to more than 100%"},
		{"-r -rdpct10/60:10/50 f", "the target percents add up to more than 100%"},
		{"-r -rdpct90/60:10/50 f", "the target percents add up to more than 100%"},
		{"-r -rdpct10/0 f", "-rdpct10/0: each range is IO%/TARGET%"},
		{"-r -rdpct100/101 f", "-rdpct100/101: each range is IO%/TARGET%"},
		{"-r -rdxyz10/10 f", "the distribution is pct or abs"},
		{"-r -rdpct f", "names no range"},
		{"-b64k -r -rdabs50/4k f", "a range of 4096 bytes is below the block size"},
		{"-r -rdpct1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1 f",
		 "iorate takes at most 16 ranges, with the one for the I/O left"},
		{"-r -rdpct10/5 -rdabs10/1G f", "give one distribution"},
		{"-B1M:4M -f8M f", "-B1M:4M and -f8M: both set where the region ends"},
		{"-B1M: f", "-B1M:: takes a size"},
		{"-B1M:0 f", "-B1M:0: the length must be above 0"},
		{"-si -T4k -t2 f", "-si and -T4k: give one"},
		{"-b4k -si16k -t4 f", "-si16k: interlocked threads with a stride of 16KiB"},
		{"-b64k -s4k f", "-s4k: a stride below the block size"},
		{"-s0 f", "-s0: a stride of 0"},
		{"-g5x f", "-g5x: -g takes bytes per millisecond"},
		{"-o3000 -F2 a b", "-o3000: 3000 for each of the 2 targets"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = dspd(cases[i].line);
		if (r != -EINVAL || !strstr(err, cases[i].needle))
			fail_msg("'%s' gave %d '%s', expected -EINVAL and '%s'", cases[i].line, r,
				 err, cases[i].needle);
	}
}

static void test_diskspd_cache(void **state)
{
	static const struct {
		const char *flags;
		enum job_cache cache;
	} cases[] = {
		{"-Sb f", CACHE_BUFFERED},   {"-S f", CACHE_DIRECT},  {"-Su f", CACHE_DIRECT},
		{"-Sh f", CACHE_DIRECTSYNC}, {"-h f", CACHE_DIRECTSYNC},  {"-Sw f", CACHE_WRITETHROUGH},
		{"-Sbw f", CACHE_WRITETHROUGH}, {"-Suw f", CACHE_DIRECTSYNC}, {"f", CACHE_BUFFERED},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(dspd(cases[i].flags), 0);
		assert_int_equal(job.cache, cases[i].cache);
	}
}

static void test_diskspd_errors(void **state)
{
	static const struct {
		const char *line, *needle;
	} cases[] = {
		{"-q7 f", "-q7: not supported by iorate (supported: -b -B"},
		{"-x f", "-x: not supported by iorate: completion routines"},
		{"-b8k -Xp.xml f", "-b8k: not supported by iorate beside -X"},
		{"-Xa.xml -Xb.xml f", "-Xb.xml: one profile at a time"},
		{"-X f", "-X: needs the profile's path attached"},
		{"-t2 -F2 f", "-t2 and -F2: give one"},
		{"-b64q f", "-b64q"},
		{"-b0 f", "-b0"},
		{"-w101 f", "-w101"},
		{"-d0 f", "-d0"},
		{"-d f", "-d: needs its value attached"},
		{"-o0 f", "-o0"},
		{"-ckk f", "-ckk"},
		{"f:\\testfile.dat", "Windows path"},
		{"C:", "Windows path"},
		{"f -d10", "-d10: comes after a target"},
		{"-d10", "no target"},
		{"-s8k f", "-s8k: a stride below the block size (I/Os that overlap) is not supported"},
		{"-c8.5b f", "-c8.5b: a count of blocks is a decimal whole number"},
		{"-b8b f", "-b8b: the block size is not counted in blocks"},
		{"-f0 f", "-f0: the target size (0B) must be above"},
		{"-g1x f", "-g1x: -g takes bytes per millisecond"},
		{"-Sm f", "-Sm"},
		{"-Sh -Su f", "conflicts"},
		{"-Rxml f", "--json"},
		{"-B2M -f1M f", "-f"},
		{"#9", "no disk #9"},
		{"#x", "#x"},
		{"-Z1M,/etc/passwd f", "-Z1M,/etc/passwd"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = dspd(cases[i].line);
		if (r != -EINVAL || !strstr(err, cases[i].needle))
			fail_msg("'%s' gave %d '%s', expected -EINVAL and '%s'", cases[i].line, r,
				 err, cases[i].needle);
	}
}

static void test_disk_numbers(void **state)
{
	char name[64], list[256];

	assert_int_equal(compat_disk_by_number(NULL, 0, name, sizeof(name), list, sizeof(list)), 0);
	assert_string_equal(name, "nvme0n1");
	assert_string_equal(list, "#0 nvme0n1, #1 nvme2n1, #2 nvme10n1, #3 sda, #4 sdb");
	assert_int_equal(compat_disk_by_number(NULL, 2, name, sizeof(name), NULL, 0), 0);
	assert_string_equal(name, "nvme10n1");
	assert_int_equal(compat_disk_by_number(NULL, 5, name, sizeof(name), NULL, 0), -ENOENT);
	assert_int_equal(compat_disk_by_number("/nonexistent", 0, name, sizeof(name), NULL, 0),
			 -ENOENT);
}

static void test_windows_paths(void **state)
{
	assert_true(compat_is_windows_path("f:\\testfile.dat"));
	assert_true(compat_is_windows_path("C:"));
	assert_true(compat_is_windows_path("\\\\server\\share\\x"));
	assert_true(compat_is_windows_path(".\\x.dat"));
	assert_false(compat_is_windows_path("/mnt/f/testfile.dat"));
	assert_false(compat_is_windows_path("testfile.dat"));
	assert_false(compat_is_windows_path("/dev/disk/by-path/pci-0000:00:04.0"));
}

static void test_run_equivalent(void **state)
{
	char buf[1024];

	assert_int_equal(dspd("-b64k -d30 -t8 -o8 -r -w30 -Sh -c1G /mnt/x"), 0);
	compat_run_equivalent(&job, buf, sizeof(buf));
	assert_string_equal(buf, "iorate run --bs 64KiB --time 30s --warmup 5s --threads 8 --depth "
				 "8 "
				 "--write 30 --random --size 1GiB --no-invalidate --cache directsync "
				 "--seed 0 --keep /mnt/x");
}

/* ---- DiskSpd XML profiles ---- */

/* Writes text as tmpdir/name and translates "-X<that path> rest". */
static int profile(const char *name, const char *text, const char *rest)
{
	char path[300], line[700];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	write_file(path, text);
	snprintf(line, sizeof(line), "-X%s %s", path, rest);
	return dspd(line);
}

/* Two TimeSpans; in the first, targets 1 and 3 agree and 2 differs. */
static const char two_spans[] =
	"<?xml version=\"1.0\"?>\n"
	"<Profile>\n"
	"  <TimeSpans>\n"
	"    <TimeSpan>\n"
	"      <Duration>20</Duration><Warmup>0</Warmup>\n"
	"      <Targets>\n"
	"        <Target><Path>*1</Path><BlockSize>8192</BlockSize><Random>8192</Random>\n"
	"          <RequestCount>4</RequestCount><WriteRatio>30</WriteRatio></Target>\n"
	"        <Target><Path>*2</Path><BlockSize>65536</BlockSize>\n"
	"          <StrideSize>65536</StrideSize><ThreadsPerFile>2</ThreadsPerFile></Target>\n"
	"        <Target><Path>c.dat</Path><WriteRatio>30</WriteRatio><RequestCount>4</RequestCount>\n"
	"          <Random>8192</Random><BlockSize>8192</BlockSize></Target>\n"
	"      </Targets>\n"
	"    </TimeSpan>\n"
	"    <TimeSpan>\n"
	"      <Targets><Target><Path>*1</Path><BlockSize>4096</BlockSize>\n"
	"        <Throughput unit=\"IOPS\">100</Throughput><Random>4096</Random>\n"
	"        <RandomRatio>30</RandomRatio>\n"
	"        <Distribution><Percent><Range IO=\"80\">10</Range></Percent></Distribution>\n"
	"        <FileSize>1048576</FileSize>\n"
	"      </Target></Targets>\n"
	"    </TimeSpan>\n"
	"  </TimeSpans>\n"
	"</Profile>\n";

static void test_profile_jobs(void **state)
{
	struct job *j = jobs.jobs;

	assert_int_equal(profile("p.xml", two_spans, "a.dat b.dat"), 0);
	assert_int_equal(jobs.n, 3);
	j = jobs.jobs;
	assert_string_equal(j[0].name, "ts1.t1+t3");
	assert_int_equal(j[0].group, 0);
	assert_int_equal(j[0].ntargets, 2);
	assert_string_equal(j[0].targets[0], "a.dat");
	assert_string_equal(j[0].targets[1], "c.dat");
	assert_int_equal(j[0].bs, 8192);
	assert_int_equal(j[0].depth, 4);
	assert_int_equal(j[0].write_pct, 30);
	assert_int_equal(j[0].pattern, PATTERN_RANDOM);
	assert_int_equal(j[0].time_ns, 20 * SEC);
	assert_int_equal(j[0].warmup_ns, 0);
	assert_string_equal(j[0].origin, "diskspd");
	assert_string_equal(j[1].name, "ts1.t2");
	assert_int_equal(j[1].group, 0);
	assert_string_equal(j[1].targets[0], "b.dat");
	assert_int_equal(j[1].bs, 65536);
	assert_int_equal(j[1].threads, 2);
	assert_int_equal(j[1].depth, 2);                 /* DiskSpd's default */
	assert_int_equal(j[1].pattern, PATTERN_SEQUENTIAL);
	assert_true(j[1].seq_per_thread);                /* no <InterlockedSequential> */
	assert_string_equal(j[2].name, "ts2.t1");
	assert_int_equal(j[2].group, 1);                 /* after TimeSpan 1 */
	assert_int_equal(j[2].time_ns, 10 * SEC);        /* DiskSpd's defaults */
	assert_int_equal(j[2].warmup_ns, 5 * SEC);
	assert_true(j[2].cap.iops == 100);
	assert_int_equal(j[2].random_pct, 30);
	assert_int_equal(j[2].dist, DIST_ZONED);
	assert_int_equal(j[2].nzones, 2);
	assert_true(j[2].zones[1].access_pct == 20 && j[2].zones[1].size_pct == 90);
	assert_int_equal(j[2].size, 1 << 20);
	assert_true(j[2].keep && j[2].grow);
	for (unsigned i = 0; i < jobs.n; i++) {
		assert_false(j[i].invalidate);
		assert_non_null(strstr(j[i].command_line, "-X"));
	}
	/* Every element is explained, under its job. */
	assert_non_null(strstr(explained, "TimeSpan 1, job ts1.t1+t3 (group 0, 2 targets"));
	assert_non_null(strstr(explained, "  <RequestCount>4  --depth 4: "));
	assert_non_null(strstr(explained, "  <Throughput unit=IOPS>100 --cap-iops 100: "));
	assert_non_null(strstr(explained, "target 3: the settings of this job"));
	/* -d, -W, -C and -z beside -X apply to every TimeSpan. */
	assert_int_equal(profile("p.xml", two_spans, "-d3 -W1 -z9 a.dat b.dat"), 0);
	for (unsigned i = 0; i < jobs.n; i++)
		assert_true(jobs.jobs[i].time_ns == 3 * SEC && jobs.jobs[i].warmup_ns == SEC &&
			    jobs.jobs[i].seed == 9);
}
/* Everything iorate cannot run is refused at once, each with its line and path. */
static void test_profile_refusals(void **state)
{
	static const char many[] =
		"<Profile>\n"                                                     /* 1 */
		"  <ResultFormat>xml</ResultFormat>\n"                              /* 2 */
		"  <ETW><Process>true</Process></ETW>\n"                            /* 3 */
		"  <TimeSpans><TimeSpan><Targets>\n"                                /* 4 */
		"    <Target><Path>a</Path><UseLargePages>true</UseLargePages>\n"   /* 5 */
		"      <Foo>1</Foo><WriteRatio>101</WriteRatio>\n"                  /* 6 */
		"      <Throughput unit=\"bytes\">5</Throughput></Target>\n"        /* 7 */
		"    <Target><BlockSize>4096</BlockSize></Target>\n"                /* 8 */
		"  </Targets></TimeSpan></TimeSpans>\n"
		"</Profile>\n";
	static const char *const parts[] = {
		"7 elements iorate cannot run: ",
		"line 2: /Profile/ResultFormat: 'xml': not supported by iorate: XML output",
		"line 3: /Profile/ETW: not supported by iorate: ETW tracing is Windows-only",
		"line 5: /Profile/TimeSpans/TimeSpan/Targets/Target[1]/UseLargePages: 'true': not "
		"supported by iorate: large-page buffers",
		"line 6: /Profile/TimeSpans/TimeSpan/Targets/Target[1]/Foo: not an element iorate "
		"knows in <Target>",
		"line 6: /Profile/TimeSpans/TimeSpan/Targets/Target[1]/WriteRatio: '101' is a percent",
		"line 7: /Profile/TimeSpans/TimeSpan/Targets/Target[1]/Throughput: unit=\"bytes\" is "
		"IOPS or BPMS",
		"line 8: /Profile/TimeSpans/TimeSpan/Targets/Target[2]: needs <Path>",
		"/Target[1]/Foo: not an element iorate knows in <Target>; line 6: ",
	};

	assert_int_equal(profile("many.xml", many, ""), -EINVAL);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!strstr(err, parts[i]))
			fail_msg("no '%s' in '%s'", parts[i], err);
	/* Each value is still judged by the option table of 'iorate run', under its element. */
	assert_int_equal(profile("bs.xml", "<Profile><TimeSpans><TimeSpan><Targets><Target>"
				 "<Path>a</Path><BlockSize>0</BlockSize></Target></Targets>"
				 "</TimeSpan></TimeSpans></Profile>", ""), -EINVAL);
	assert_non_null(strstr(err, "bs.xml: TimeSpan 1, target 1: <BlockSize>0: '0' is below"));
}

static void test_profile_errors(void **state)
{
	static const char *const head = "<Profile><TimeSpans><TimeSpan>";
	static const char *const tail = "</TimeSpan></TimeSpans></Profile>";
	static const struct {
		const char *body, *rest, *needle;
	} cases[] = {
		{"<ThreadCount>2</ThreadCount><Targets><Target><Path>a</Path></Target><Target>"
		 "<Path>b</Path><BlockSize>4096</BlockSize></Target></Targets>", "",
		 "TimeSpan 1, target 2: TimeSpan 1: <ThreadCount>2 shares its threads among targets "
		 "whose settings differ"},
		{"<ThreadCount>2</ThreadCount><Targets><Target><Path>a</Path><ThreadsPerFile>2"
		 "</ThreadsPerFile></Target></Targets>", "", "<ThreadsPerFile>2 and <ThreadCount>2: "
		 "give one"},
		{"<Targets><Target><Path>*2</Path></Target></Targets>", "x",
		 "<Path>*2: names target 2 of those after -X, but 1 is given"},
		{"<Targets><Target><Path>*x</Path></Target></Targets>", "",
		 "<Path>*x: a template target is * and a number"},
		{"<Targets><Target><Path>*1</Path></Target></Targets>", "x y",
		 "y: no *2 of "},
		{"<Targets><Target><Path>C:\\t.dat</Path></Target></Targets>", "",
		 "<Path>C:\\t.dat: a Windows path; name a Linux file"},
		{"<Targets><Target><Path>a</Path><Random>4096</Random><StrideSize>4096</StrideSize>"
		 "</Target></Targets>", "", "<StrideSize> and <Random>: give one"},
		{"<Targets><Target><Path>a</Path><Distribution><Absolute><Range IO=\"50\">65536"
		 "</Range></Absolute></Distribution></Target></Targets>", "",
		 "a distribution places random I/Os"},
		{"<RequestCount>8</RequestCount><Targets><Target><Path>a</Path></Target></Targets>", "",
		 "not supported by iorate: per-thread request counts"},
		{"<Targets><Target><Path>a</Path><Distribution></Distribution></Target></Targets>",
		 "", "holds one of <Percent> or <Absolute>"},
		{"<Targets><Target><Path>a</Path><Path>b</Path></Target></Targets>", "",
		 "/Path[2]: given twice"},
		{"<Targets>text<Target><Path>a</Path></Target></Targets>", "",
		 "holds text; <Targets> holds elements"},
	};
	char text[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "%s%s%s", head, cases[i].body, tail);
		int r = profile("e.xml", text, cases[i].rest);
		if (r != -EINVAL || !strstr(err, cases[i].needle))
			fail_msg("'%s' gave %d '%s', expected -EINVAL and '%s'", cases[i].body, r,
				 err, cases[i].needle);
	}
}

/* A profile makes iorate read no other file: no DTD, no entity, no XInclude, no network. */
static void test_profile_reads_nothing_else(void **state)
{
	char secret[300], text[1024];

	snprintf(secret, sizeof(secret), "%s/secret.txt", tmpdir);
	write_file(secret, "<Path>leaked</Path>");
	snprintf(text, sizeof(text), "<?xml version=\"1.0\"?>\n<!DOCTYPE Profile [\n"
		 "<!ENTITY x SYSTEM \"file://%s\">]>\n<Profile><TimeSpans><TimeSpan><Targets>"
		 "<Target>&x;</Target></Targets></TimeSpan></TimeSpans></Profile>\n", secret);
	assert_int_equal(profile("dtd.xml", text, ""), -EINVAL);
	assert_non_null(strstr(err, "dtd.xml: a DOCTYPE is not read"));
	assert_null(strstr(err, "leaked"));
	snprintf(text, sizeof(text), "<?xml version=\"1.0\"?>\n<!DOCTYPE Profile SYSTEM "
		 "\"file://%s\">\n<Profile/>\n", secret);
	assert_int_equal(profile("ext.xml", text, ""), -EINVAL);
	assert_non_null(strstr(err, "a DOCTYPE is not read"));
	/* Without a DTD an entity is not even defined. */
	assert_int_equal(profile("ent.xml", "<Profile>&x;</Profile>", ""), -EINVAL);
	assert_non_null(strstr(err, "ent.xml:1: Entity 'x' not defined"));
	assert_int_equal(profile("xi.xml", "<Profile xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
				 "<xi:include href=\"secret.txt\"/></Profile>", ""), -EINVAL);
	assert_non_null(strstr(err, "/Profile/xi:include: not an element iorate knows"));
	assert_int_equal(profile("bad.xml", "<Profile>\n<TimeSpans>\n</Profile>", ""), -EINVAL);
	assert_non_null(strstr(err, "bad.xml:3: "));
	assert_int_equal(profile("root.xml", "<Results/>", ""), -EINVAL);
	assert_non_null(strstr(err, "its root is <Results>, not <Profile>"));
}

/* -F in a profile, <PrecreateFiles>, and a profile as DiskSpd writes one out (-Rpxml). */
static void test_profile_forms(void **state)
{
	static const char shared[] =
		"<Profile><TimeSpans><TimeSpan><ThreadCount>4</ThreadCount><Targets>"
		"<Target><Path>a</Path><RequestCount>8</RequestCount></Target>"
		"<Target><Path>b</Path><RequestCount>8</RequestCount></Target>"
		"</Targets></TimeSpan></TimeSpans></Profile>";
	static const char maxsize[] =
		"<Profile><PrecreateFiles>UseMaxSize</PrecreateFiles><TimeSpans>"
		"<TimeSpan><Targets><Target><Path>*1</Path><FileSize>1048576</FileSize></Target>"
		"</Targets></TimeSpan><TimeSpan><Targets><Target><Path>*1</Path>"
		"<FileSize>4194304</FileSize></Target></Targets></TimeSpan></TimeSpans></Profile>";
	/* Every element DiskSpd writes for -b8K -d30 -o4 -t2 -r -w25 -c1G -Sh, "off" ones too. */
	static const char written[] =
		"<Profile><Progress>0</Progress><ResultFormat>text</ResultFormat>"
		"<Verbose>false</Verbose><TimeSpans><TimeSpan>"
		"<CompletionRoutines>false</CompletionRoutines><MeasureLatency>false</MeasureLatency>"
		"<CalculateIopsStdDev>false</CalculateIopsStdDev>"
		"<DisableAffinity>false</DisableAffinity><Duration>30</Duration><Warmup>5</Warmup>"
		"<Cooldown>0</Cooldown><ThreadCount>0</ThreadCount><RequestCount>0</RequestCount>"
		"<IoBucketDuration>1000</IoBucketDuration><RandSeed>0</RandSeed><Targets><Target>"
		"<Path>f.dat</Path><BlockSize>8192</BlockSize><BaseFileOffset>0</BaseFileOffset>"
		"<SequentialScan>false</SequentialScan><RandomAccess>false</RandomAccess>"
		"<TemporaryFile>false</TemporaryFile><UseLargePages>false</UseLargePages>"
		"<DisableOSCache>true</DisableOSCache><WriteThrough>true</WriteThrough>"
		"<WriteBufferContent><Pattern>sequential</Pattern></WriteBufferContent>"
		"<ParallelAsyncIO>false</ParallelAsyncIO><FileSize>1073741824</FileSize>"
		"<Random>8192</Random><ThreadStride>0</ThreadStride><MaxFileSize>0</MaxFileSize>"
		"<RequestCount>4</RequestCount><WriteRatio>25</WriteRatio><Throughput>0</Throughput>"
		"<ThreadsPerFile>2</ThreadsPerFile><IOPriority>3</IOPriority><Weight>1</Weight>"
		"</Target></Targets></TimeSpan></TimeSpans></Profile>";

	assert_int_equal(profile("shared.xml", shared, ""), 0);
	assert_int_equal(jobs.n, 1);
	assert_string_equal(job.name, "ts1.t1+t2");
	assert_true(job.shared_threads);
	assert_int_equal(job.threads, 4);
	assert_int_equal(job.depth, 16);                 /* 8 on each of the 2 targets */
	assert_int_equal(profile("max.xml", maxsize, "f.dat"), 0);
	assert_int_equal(jobs.n, 2);
	assert_int_equal(jobs.jobs[0].size, 4 << 20);    /* the largest of the profile */
	assert_int_equal(jobs.jobs[1].size, 4 << 20);
	assert_int_equal(profile("written.xml", written, ""), 0);
	assert_int_equal(jobs.n, 1);
	assert_int_equal(job.bs, 8192);
	assert_int_equal(job.time_ns, 30 * SEC);
	assert_int_equal(job.threads, 2);
	assert_false(job.shared_threads);
	assert_int_equal(job.depth, 4);
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(job.write_pct, 25);
	assert_int_equal(job.cache, CACHE_DIRECTSYNC);
	assert_int_equal(job.size, GiB);
	assert_int_equal(job.offset, 0);
	assert_int_equal(job.range, 0);
	assert_true(job.cap.mbps == 0 && job.cap.iops == 0);
	assert_non_null(strstr(explained, "  <IOPriority>3    (no effect) normal priority\n"));
	assert_non_null(strstr(explained, "  <Throughput>0    (default) no throttle\n"));
}

/* ---- SQLIO ---- */

static void test_sqlio_ds14_post(void **state)
{
	/* the 2015 DS14 SQLIO post as typed: the Windows path is refused, saying how to name a Linux target. */
	assert_int_equal(sqlio("SQLIO -kRW -s60 -o8 -b8 f:\\testfile.dat"), -EINVAL);
	assert_err_has("'f:\\testfile.dat' is a Windows path");
	assert_err_has("/mnt/data/testfile.dat");

	assert_int_equal(sqlio("SQLIO -kRW -s60 -o8 -b8 /mnt/data/testfile.dat"), 0);
	assert_int_equal(job.write_pct, 0);             /* -kRW: SQLIO reads the first letter */
	assert_int_equal(job.time_ns, 60 * SEC);
	assert_int_equal(job.depth, 8);
	assert_int_equal(job.bs, 8192);
	assert_int_equal(job.threads, 1);
	assert_int_equal(job.pattern, PATTERN_RANDOM);  /* default -f64 */
	assert_int_equal(job.cache, CACHE_DIRECTSYNC);      /* default -BN */
	assert_int_equal(job.warmup_ns, 0);
	assert_string_equal(job.origin, "sqlio");
	assert_string_equal(job.targets[0], "/mnt/data/testfile.dat");
}

static void test_sqlio_flags(void **state)
{
	assert_int_equal(sqlio("f"), 0);
	assert_int_equal(job.bs, 2048);
	assert_int_equal(job.time_ns, 30 * SEC);
	assert_int_equal(job.depth, 1);
	assert_int_equal(sqlio("-kW f"), 0);
	assert_int_equal(job.write_pct, 100);
	assert_int_equal(sqlio("-kWR f"), 0);
	assert_int_equal(job.write_pct, 100);
	assert_int_equal(sqlio("-kr f"), 0);
	assert_int_equal(job.write_pct, 0);
	assert_int_equal(sqlio("-t4 f"), 0);
	assert_int_equal(job.threads, 4);
	assert_int_equal(sqlio("-t1024 f"), 0);            /* iorate's limit, not SQLIO's 256 */
	assert_int_equal(job.threads, 1024);
	assert_int_equal(sqlio("-frandom f"), 0);
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(sqlio("-fsequential f"), 0);
	assert_int_equal(job.pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(sqlio("-f1 f"), 0);
	assert_int_equal(job.pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(sqlio("-f64 f"), 0);
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(sqlio("-LS -LP -LSi -i64 -p0 -a0x3 f"), 0);
	assert_int_equal(sqlio("-BN f"), 0);
	assert_int_equal(job.cache, CACHE_DIRECTSYNC);
	assert_int_equal(sqlio("-BH f"), 0);
	assert_int_equal(job.cache, CACHE_DIRECT);
	assert_int_equal(sqlio("-BS f"), 0);
	assert_int_equal(job.cache, CACHE_WRITETHROUGH);
	assert_int_equal(sqlio("-BY f"), 0);
	assert_int_equal(job.cache, CACHE_BUFFERED);
	assert_int_equal(sqlio("-b8 -S10 f"), 0);
	assert_int_equal(job.offset, 81920);
	assert_int_equal(sqlio("-kR a b"), 0);
	assert_int_equal(job.ntargets, 2);
	/* SQLIO's default file, under a name nobody can guess: two runs, two names. */
	assert_int_equal(sqlio("-kR"), 0);
	char first[64];
	snprintf(first, sizeof(first), "%s", job.targets[0]);
	assert_int_equal(strlen(first), strlen("testfile.") + 12 + strlen(".dat"));
	assert_memory_equal(first, "testfile.", 9);
	assert_string_equal(first + strlen(first) - 4, ".dat");
	assert_int_equal(sqlio("-kR"), 0);
	assert_string_not_equal(job.targets[0], first);
}

static void test_sqlio_paramfile(void **state)
{
	char path[300], line[400];

	snprintf(path, sizeof(path), "%s/param.txt", tmpdir);
	write_file(path, "# SQLIO parameters\n/mnt/a/testfile.dat 2 0x0 100\n\n"
			 "/mnt/b/testfile.dat 2 0x0 100 # second disk\n");
	snprintf(line, sizeof(line), "-kW -t8 -F%s -t16", path);
	assert_int_equal(sqlio(line), 0);
	assert_int_equal(job.ntargets, 2);
	assert_string_equal(job.targets[1], "/mnt/b/testfile.dat");
	assert_int_equal(job.threads, 2);               /* the file's threads win */
	assert_int_equal(job.size, 100ull << 20);
	assert_true(job.keep);

	write_file(path, "/mnt/a/t 2 0x0 100\n/mnt/b/t 4 0x0 100\n");
	snprintf(line, sizeof(line), "-F%s", path);
	assert_int_equal(sqlio(line), -EINVAL);
	assert_err_has("param.txt:2:");
	write_file(path, "c:\\testfile.dat 2 0x0 100\n");
	assert_int_equal(sqlio(line), -EINVAL);
	assert_err_has("param.txt:1: 'c:\\testfile.dat' is a Windows path");
	write_file(path, "/mnt/a/t two\n");
	assert_int_equal(sqlio(line), -EINVAL);
	assert_err_has("param.txt:1:");
	write_file(path, "# nothing\n");
	assert_int_equal(sqlio(line), -EINVAL);
	assert_err_has("names no target");
	assert_int_equal(sqlio("-F/nonexistent/param.txt"), -EINVAL);
	assert_err_has("cannot open");
}

static void test_sqlio_errors(void **state)
{
	static const struct {
		const char *line, *needle;
	} cases[] = {
		{"-q f", "-q: not supported by iorate (supported: -k -t"},
		{"-dE f", "-dE: not supported by iorate: drive letters"},
		{"-R0 f", "-R0: not supported by iorate: raw drive"},
		{"-kX f", "-kX"},
		{"-k f", "-k: needs its value attached"},
		{"-b8k f", "-b8k: -b takes the block size in KB"},
		{"-BZ f", "-BZ"},
		{"-LX f", "-LX"},
		{"-t0 f", "-t0"},
		{"-t1025 f", "-t1025: '1025' is out of range (1 to 1024)"},
		{"-o0 f", "-o0: '0' is out of range (1 to 4096)"},
		{"-fzigzag f", "-fzigzag"},
		{"E:\\Tes2.dat", "Windows path"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = sqlio(cases[i].line);
		if (r != -EINVAL || !strstr(err, cases[i].needle))
			fail_msg("'%s' gave %d '%s', expected -EINVAL and '%s'", cases[i].line, r,
				 err, cases[i].needle);
	}
}

/* ---- settings: the option table judges, the explanation shows each ---- */

/* The reason 'iorate run' gives for --name VALUE: its option table's words. */
static const char *run_says(const char *name, const char *value)
{
	static char why[512];
	struct output_opts out;
	struct job j;
	struct opt_ctx c = {.cmd = &cmd_run, .job = &j, .out = &out};

	job_init(&j);
	output_opts_init(&out);
	assert_int_not_equal(options_set(&c, name, value), 0);
	snprintf(why, sizeof(why), "%s", c.why);
	job_release(&j);
	return why;
}

static void test_refusals_are_the_tables(void **state)
{
	static const struct {
		bool sqlio;
		const char *line, *flag, *name, *value;
	} cases[] = {
		{false, "-o0 f", "-o0", "depth", "0"},
		{false, "-t0 f", "-t0", "threads", "0"},
		{false, "-F2000 f", "-F2000", "threads", "2000"},
		{false, "-b0 f", "-b0", "bs", "0"},
		{false, "-b2G f", "-b2G", "bs", "2G"},
		{false, "-d0 f", "-d0", "time", "0"},
		{false, "-w101 f", "-w101", "write", "101"},
		{false, "-c0 f", "-c0", "size", "0"},
		{false, "-z0x10 f", "-z0x10", "seed", "0x10"},
		{false, "-o+4 f", "-o+4", "depth", "+4"},
		{false, "-g0 f", "-g0", "cap-mbps", "0"},
		{false, "-B1q f", "-B1q", "offset", "1q"},
		{false, "-r4q f", "-r4q", "align", "4q"},
		{true, "-o0 f", "-o0", "depth", "0"},
		{true, "-t0 f", "-t0", "threads", "0"},
		{true, "-b0 f", "-b0", "bs", "0KiB"},
		{true, "-s0 f", "-s0", "time", "0"},
		{true, "-t0x10 f", "-t0x10", "threads", "0x10"},
	};
	char want[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = cases[i].sqlio ? sqlio(cases[i].line) : dspd(cases[i].line);
		snprintf(want, sizeof(want), "%s: %s", cases[i].flag,
			 run_says(cases[i].name, cases[i].value));
		if (r != -EINVAL || strcmp(err, want))
			fail_msg("'%s' gave %d '%s', expected -EINVAL and '%s'", cases[i].line, r,
				 err, want);
	}
	/* As the commands print them after "iorate: diskspd: ". */
	assert_int_equal(dspd("-o0 f"), -EINVAL);
	assert_string_equal(err, "-o0: '0' is out of range (1 to 4096)");
	assert_int_equal(dspd("-t0 f"), -EINVAL);
	assert_string_equal(err, "-t0: '0' is out of range (1 to 1024)");
	assert_int_equal(dspd("-b0 f"), -EINVAL);
	assert_string_equal(err, "-b0: '0' is below 1B");
	assert_int_equal(sqlio("-o0 f"), -EINVAL);
	assert_string_equal(err, "-o0: '0' is out of range (1 to 4096)");
}

/* What a recording sink was handed. */
static struct rec {
	char flag[256], name[32], value[64];
	bool is_default, has_value;
} recs[64];
static unsigned nrecs;

static int record(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	struct rec *r = &recs[nrecs];

	assert_true(nrecs < sizeof(recs) / sizeof(recs[0]));
	snprintf(r->flag, sizeof(r->flag), "%s", s->flag);
	snprintf(r->name, sizeof(r->name), "%s", s->name);
	snprintf(r->value, sizeof(r->value), "%s", s->value ? s->value : "");
	r->has_value = s->value != NULL;
	r->is_default = s->is_default;
	nrecs++;
	return 0;
}

static int recorded(compat_translator fn, const char *tool, const char *line)
{
	const struct compat_sink sink = {.set = record};
	char *copy = strdup(line), *argv[64];
	int argc = split(copy, tool, argv), r;
	size_t len = 0;
	FILE *ex;

	free(explained);
	explained = NULL;
	ex = open_memstream(&explained, &len);
	assert_non_null(ex);
	nrecs = 0;
	job_release(&job);
	job_init(&job);
	r = fn(argc, argv, &sink, &job, ex, err, sizeof(err));
	fclose(ex);
	free(copy);
	return r;
}

/* Whether a line of the explanation is "  [default ]FLAG   --name[ value][: note]". */
static bool explained_has(const struct rec *r)
{
	char head[300], opt[128];
	size_t hn, on;

	hn = (size_t)snprintf(head, sizeof(head), "  %s%s ", r->is_default ? "default " : "",
			      r->flag);
	on = (size_t)snprintf(opt, sizeof(opt), "--%s%s%s", r->name, r->has_value ? " " : "",
			      r->value);
	for (const char *l = explained; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		const char *p = l + hn;
		if (strncmp(l, head, hn))
			continue;
		p += strspn(p, " ");
		if (!strncmp(p, opt, on) && (p[on] == ':' || p[on] == '\n'))
			return true;
	}
	return false;
}

/* A default names what the foreign tool does when no flag sets it: never after such a flag. */
static bool same_field(const char *a, const char *b)
{
	bool pa = !strcmp(a, "random") || !strcmp(a, "sequential");
	bool pb = !strcmp(b, "random") || !strcmp(b, "sequential");

	return pa && pb ? true : !strcmp(a, b);
}

static void check_recorded(const char *tool, const char *line)
{
	for (unsigned i = 0; i < nrecs; i++) {
		if (!explained_has(&recs[i]))
			fail_msg("%s %s: %s --%s %s is not in the explanation:\n%s", tool, line,
				 recs[i].flag, recs[i].name, recs[i].value, explained);
		for (unsigned k = 0; recs[i].is_default && k < nrecs; k++)
			if (!recs[k].is_default && same_field(recs[k].name, recs[i].name) &&
			    strcmp(recs[i].name, "threads"))
				fail_msg("%s %s: the default %s overrides %s", tool, line,
					 recs[i].flag, recs[k].flag);
	}
}

static void test_every_setting_explained(void **state)
{
	static const char *dspd_lines[] = {
		"f", "-b8k -d30 -W2 -C1 -t4 -o8 -r4k -w30 -Sh -c1G -B1M -f3M -g1000 -z7 -Z f",
		"-F2 -si -Su -w -z -Zr -L -D -v a b", "-b4K -F8 -T1b -s8b -o32 -c100b f",
		"-Sb -Sw -r -s -Z1M -w10 #1",
	};
	static const char *sqlio_lines[] = {
		"f", "-kW -t4 -s60 -o8 -b64 -fsequential -BH -S10 -LS f", "-kRW -f64 -BY -i64 a b",
		"-kR -f1 -BS",
	};
	char param[300], line[400];

	for (size_t i = 0; i < sizeof(dspd_lines) / sizeof(dspd_lines[0]); i++) {
		assert_int_equal(recorded(compat_diskspd_parse, "diskspd", dspd_lines[i]), 0);
		check_recorded("diskspd", dspd_lines[i]);
	}
	for (size_t i = 0; i < sizeof(sqlio_lines) / sizeof(sqlio_lines[0]); i++) {
		assert_int_equal(recorded(compat_sqlio_parse, "sqlio", sqlio_lines[i]), 0);
		check_recorded("sqlio", sqlio_lines[i]);
	}
	/* The check itself: a value other than the one applied is not found. */
	assert_int_equal(recorded(compat_diskspd_parse, "diskspd", dspd_lines[3]), 0);
	struct rec applied = {.flag = "-o32", .name = "depth", .value = "32", .has_value = true};
	assert_true(explained_has(&applied));
	snprintf(applied.value, sizeof(applied.value), "33");
	assert_false(explained_has(&applied));
	snprintf(param, sizeof(param), "%s/param.txt", tmpdir);
	write_file(param, "/mnt/a/t 2 0x0 100\n");
	snprintf(line, sizeof(line), "-t8 -F%s -kW", param);
	assert_int_equal(recorded(compat_sqlio_parse, "sqlio", line), 0);
	check_recorded("sqlio", line);
}

/* Exactly the foreign tool's defaults, each marked so, when no flag is given. */
static void test_defaults_marked(void **state)
{
	static const char *const dspd_defaults[] = {
		"-t1 threads 1", "-o2 depth 2", "-s sequential ", "-Sb cache buffered",
		"-b64K bs 64KiB", "-d10 time 10s", "-W5 warmup 5s", "-w0 write 0", "-z0 seed 0",
		"(cache kept) no-invalidate ",
	};
	static const char *const sqlio_defaults[] = {
		"-kR write 0", "-t1 threads 1", "-s30 time 30s", "(no -o) depth 1", "-b2 bs 2KiB",
		"-f64 random ", "-BN cache directsync", "(no warm-up) warmup 0",
	};
	char got[400];

	assert_int_equal(recorded(compat_diskspd_parse, "diskspd", "f"), 0);
	assert_int_equal(nrecs, sizeof(dspd_defaults) / sizeof(dspd_defaults[0]));
	for (unsigned i = 0; i < nrecs; i++) {
		assert_true(recs[i].is_default);
		snprintf(got, sizeof(got), "%.255s %.31s %.63s", recs[i].flag, recs[i].name,
			 recs[i].value);
		assert_string_equal(got, dspd_defaults[i]);
	}
	assert_non_null(strstr(explained, "  default -o2      --depth 2\n"));
	assert_int_equal(recorded(compat_sqlio_parse, "sqlio", "f"), 0);
	assert_int_equal(nrecs, sizeof(sqlio_defaults) / sizeof(sqlio_defaults[0]));
	for (unsigned i = 0; i < nrecs; i++) {
		assert_true(recs[i].is_default);
		snprintf(got, sizeof(got), "%.255s %.31s %.63s", recs[i].flag, recs[i].name,
			 recs[i].value);
		assert_string_equal(got, sqlio_defaults[i]);
	}
	/* A flag given is no default: -o8 is the only depth, and not marked. */
	assert_int_equal(recorded(compat_diskspd_parse, "diskspd", "-o8 -z f"), 0);
	for (unsigned i = 0; i < nrecs; i++) {
		assert_false(!strcmp(recs[i].name, "depth") && recs[i].is_default);
		assert_string_not_equal(recs[i].name, "seed");   /* -z: no seed at all */
	}
	assert_non_null(strstr(explained, "  -o8              --depth 8: "));
	/* Writing or creating brings DiskSpd's buffers in: iorate's random fill, said so. */
	assert_int_equal(recorded(compat_diskspd_parse, "diskspd", "-w10 f"), 0);
	assert_non_null(strstr(explained, "  default (no -Z)  --fill random: "));
}

/* A setting the sink refuses stops the translation, named by its flag. */
static int refuse_depth(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	if (strcmp(s->name, "depth"))
		return 0;
	snprintf(why, len, "'%s' is not liked", s->value);
	return -EINVAL;
}

static void test_sink_refusal(void **state)
{
	const struct compat_sink sink = {.set = refuse_depth};
	char *argv[] = {"diskspd", "-o8", "-t2", "f", NULL};

	job_release(&job);
	job_init(&job);
	assert_int_equal(compat_diskspd_parse(4, argv, &sink, &job, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "-o8: '8' is not liked");
	argv[1] = "-b8k";
	job_release(&job);
	job_init(&job);
	assert_int_equal(compat_diskspd_parse(4, argv, &sink, &job, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "default -o2: '2' is not liked");
}

/* ---- diskspd -c grows a smaller file, as DiskSpd does; iorate run does not ---- */

static uint64_t file_size_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_size;
}

static void test_diskspd_c_grows(void **state)
{
	char path[300], link[300], line[700], terr[512], head[4096], back[4096];
	struct target t;
	int fd;

	snprintf(path, sizeof(path), "%s/small.dat", tmpdir);
	snprintf(link, sizeof(link), "%s/link.dat", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	memset(head, 'a', sizeof(head));
	for (int i = 0; i < 256; i++)
		assert_int_equal(write(fd, head, sizeof(head)), sizeof(head));
	close(fd);
	assert_int_equal(symlink(path, link), 0);

	snprintf(line, sizeof(line), "-c4M -d1 %s", link);
	assert_int_equal(dspd(line), 0);
	assert_true(job.grow);
	assert_int_equal(target_open(&t, link, &job, NULL, NULL, NULL, NULL, terr, sizeof(terr)),
			 -EPERM);                   /* never through a link */
	assert_non_null(strstr(terr, "refusing to grow a file through it"));
	target_close(&t, true);
	assert_int_equal(file_size_of(path), 1 << 20);

	snprintf(line, sizeof(line), "-c4M -d1 %s", path);
	assert_int_equal(dspd(line), 0);
	assert_int_equal(target_open(&t, path, &job, NULL, NULL, NULL, NULL, terr, sizeof(terr)),
			 0);
	assert_false(t.created);
	assert_int_equal(t.size, 4 << 20);
	target_close(&t, false);                   /* not created, so never removed */
	assert_int_equal(file_size_of(path), 4 << 20);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, back, sizeof(back), (1 << 20) - sizeof(back)), sizeof(back));
	assert_memory_equal(back, head, sizeof(head));  /* what was there is untouched */
	close(fd);

	job.grow = false;                           /* 'iorate run -c 8M' refuses instead */
	job.size = 8 << 20;
	assert_int_equal(target_open(&t, path, &job, NULL, NULL, NULL, NULL, terr, sizeof(terr)),
			 -EDOM);
	target_close(&t, false);
	assert_int_equal(file_size_of(path), 4 << 20);
}

/* DiskSpd and SQLIO numbers are decimal (fio's are in test_fio.c). */
static void test_numbers(void **state)
{
	assert_int_equal(dspd("-t010 -o08 -w030 -d010 f"), 0);
	assert_int_equal(job.threads, 10);
	assert_int_equal(job.depth, 8);
	assert_int_equal(job.write_pct, 30);
	assert_int_equal(job.time_ns, 10 * SEC);
	static const char *dspd_bad[] = {"-t0x10 f", "-o+4 f", "-w0x32 f", "-z0x10 f", "-b0x10 f",
					 "#0x1"};
	for (size_t i = 0; i < sizeof(dspd_bad) / sizeof(dspd_bad[0]); i++)
		if (dspd(dspd_bad[i]) != -EINVAL)
			fail_msg("diskspd '%s' was accepted", dspd_bad[i]);
	assert_int_equal(sqlio("-t010 -o016 f"), 0);
	assert_int_equal(job.threads, 10);
	assert_int_equal(job.depth, 16);
	assert_int_equal(sqlio("-t0x10 f"), -EINVAL);
	assert_err_has("decimal");

}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_diskspd_a4_post),
		cmocka_unit_test(test_diskspd_defaults),
		cmocka_unit_test(test_diskspd_flags),
		cmocka_unit_test(test_diskspd_21_flags),
		cmocka_unit_test(test_diskspd_21_errors),
		cmocka_unit_test(test_diskspd_cache),
		cmocka_unit_test(test_diskspd_errors),
		cmocka_unit_test(test_profile_jobs),
		cmocka_unit_test(test_profile_refusals),
		cmocka_unit_test(test_profile_errors),
		cmocka_unit_test(test_profile_reads_nothing_else),
		cmocka_unit_test(test_profile_forms),
		cmocka_unit_test(test_disk_numbers),
		cmocka_unit_test(test_windows_paths),
		cmocka_unit_test(test_run_equivalent),
		cmocka_unit_test(test_sqlio_ds14_post),
		cmocka_unit_test(test_sqlio_flags),
		cmocka_unit_test(test_sqlio_paramfile),
		cmocka_unit_test(test_sqlio_errors),
		cmocka_unit_test(test_refusals_are_the_tables),
		cmocka_unit_test(test_every_setting_explained),
		cmocka_unit_test(test_defaults_marked),
		cmocka_unit_test(test_sink_refusal),
		cmocka_unit_test(test_diskspd_c_grows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
