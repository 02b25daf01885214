/*
 * Translators of DiskSpd and SQLIO command lines and fio job files (src/cmd/compat*.c): every
 * flag is checked field by field in the struct job it becomes, and every refusal names the flag.
 */
#include <errno.h>
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

#include "cmd/compat.h"

#define GiB (1ull << 30)
#define SEC 1000000000ull

static char tmpdir[256];
static char err[1024];
static struct job job;

/* Splits a command line on spaces (no quoting needed in these tests) and runs a translator. */
static int translate(int (*fn)(int, char **, struct job *, FILE *, char *, size_t),
		     const char *tool, const char *line)
{
	char *copy = strdup(line), *argv[64], *save = NULL;
	int argc = 0, r;

	argv[argc++] = (char *)tool;
	for (char *p = strtok_r(copy, " ", &save); p; p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	job_release(&job);
	job_init(&job);
	r = fn(argc, argv, &job, NULL, err, sizeof(err));
	free(copy);
	return r;
}

static int dspd(const char *line)
{
	return translate(compat_diskspd_parse, "diskspd", line);
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

static int fio(const char *text)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/job.fio", tmpdir);
	write_file(path, text);
	job_release(&job);
	job_init(&job);
	return compat_fio_load(path, &job, err, sizeof(err));
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
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- DiskSpd ---- */

static void test_diskspd_seed_000(void **state)
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

	/* The second form in seed 000, and PowerShell's escaped `#N. */
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
	assert_true(job.verbose);
	assert_int_equal(dspd("-F4 a b"), 0);            /* each of 4 threads works on both */
	assert_int_equal(job.threads, 4);
	assert_int_equal(job.ntargets, 2);
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
		{"-q7 f", "-q7: not a DiskSpd option"},
		{"-x f", "-x: DiskSpd option not supported"},
		{"-X/p.xml", "-X/p.xml: DiskSpd option not supported"},
		{"-t2 -F2 f", "-t and -F"},
		{"-b64q f", "-b64q"},
		{"-b0 f", "-b0"},
		{"-w101 f", "-w101"},
		{"-d0 f", "-d0"},
		{"-d f", "-d: DiskSpd's -d needs its value attached"},
		{"-o0 f", "-o0"},
		{"-ckk f", "-ckk"},
		{"f:\\testfile.dat", "Windows path"},
		{"C:", "Windows path"},
		{"f -d10", "-d10: comes after a target"},
		{"-d10", "no target"},
		{"-s8k f", "-s8KiB"},
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
				 "--write 30 --random --size 1GiB --cache directsync --seed 0 --keep "
				 "/mnt/x");
}

/* ---- SQLIO ---- */

static void test_sqlio_seed_001(void **state)
{
	/* Seed 001 as typed: the Windows path is refused, saying how to name a Linux target. */
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
	assert_int_equal(sqlio("-o0 f"), 0);
	assert_int_equal(job.depth, 1);
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
	assert_int_equal(sqlio("-kR"), 0);               /* SQLIO's default file */
	assert_string_equal(job.targets[0], "testfile.dat");
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
		{"-q f", "-q: not a SQLIO option"},
		{"-dE f", "-dE: SQLIO option not supported"},
		{"-R0 f", "-R0: SQLIO option not supported"},
		{"-kX f", "-kX"},
		{"-k f", "-k: SQLIO's -k needs its value attached"},
		{"-b8k f", "-b8k: SQLIO's -b takes the block size in KB"},
		{"-BZ f", "-BZ"},
		{"-LX f", "-LX"},
		{"-t0 f", "-t0"},
		{"-t257 f", "-t257"},
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

/* ---- fio ---- */

static void test_fio_full(void **state)
{
	assert_int_equal(fio("; a comment\n[global]\nbs=8k\nioengine=libaio\ndirect=1\n"
			     "runtime=60\ntime_based\nramp_time=5s\nsize=1G\ngroup_reporting\n\n"
			     "[db]\nrw=randrw\nrwmixread=70\niodepth=32\nnumjobs=4\n"
			     "filename=/mnt/data/db.dat\nrate_iops=100\nfsync=8\nrandseed=42\n"),
			 0);
	assert_int_equal(job.bs, 8192);
	assert_string_equal(job.engine, "aio");
	assert_int_equal(job.cache, CACHE_DIRECT);
	assert_int_equal(job.time_ns, 60 * SEC);
	assert_int_equal(job.warmup_ns, 5 * SEC);
	assert_int_equal(job.size, GiB);
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(job.write_pct, 30);
	assert_int_equal(job.depth, 32);
	assert_int_equal(job.threads, 4);
	assert_int_equal(job.ntargets, 1);
	assert_string_equal(job.targets[0], "/mnt/data/db.dat");
	assert_true(job.rate_iops == 400);              /* 100 per job, 4 jobs on the file */
	assert_int_equal(job.fsync_every, 8);
	assert_true(job.seed_set);
	assert_int_equal(job.seed, 42);
	assert_string_equal(job.origin, "fio");
}

static void test_fio_defaults_and_variants(void **state)
{
	assert_int_equal(fio("[j]\nfilename=f\n"), 0);
	assert_int_equal(job.bs, 4096);
	assert_int_equal(job.pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(job.write_pct, 0);
	assert_string_equal(job.engine, "sync");
	assert_int_equal(job.depth, 1);
	assert_int_equal(job.threads, 1);
	assert_int_equal(job.cache, CACHE_BUFFERED);
	assert_false(job.seed_set);
	assert_int_equal(job.time_ns, JOB_DEFAULT_TIME_NS);

	/* psync runs one I/O at a time whatever iodepth says, as fio does. */
	assert_int_equal(fio("[j]\nfilename=f\nioengine=psync\niodepth=32\n"), 0);
	assert_int_equal(job.depth, 1);
	assert_int_equal(fio("[j]\nfilename=f\nioengine=io_uring\niodepth=32\nrw=write\n"), 0);
	assert_string_equal(job.engine, "uring");
	assert_int_equal(job.depth, 32);
	assert_int_equal(job.write_pct, 100);
	assert_int_equal(fio("[j]\nfilename=f\nioengine=null\nrw=randwrite\nbuffered=0\n"), 0);
	assert_string_equal(job.engine, "null");
	assert_int_equal(job.pattern, PATTERN_RANDOM);
	assert_int_equal(job.cache, CACHE_DIRECT);
	assert_int_equal(fio("[j]\nfilename=f\nrw=rw\n"), 0);
	assert_int_equal(job.write_pct, 50);
	assert_int_equal(fio("[j]\nfilename=f\nrw=readwrite\nrwmixread=10\nrwmixwrite=40\n"), 0);
	assert_int_equal(job.write_pct, 40);            /* the later of the two wins */
	assert_int_equal(fio("[j]\nfilename=f\nrw=read\nrwmixwrite=40\n"), 0);
	assert_int_equal(job.write_pct, 0);
	assert_int_equal(fio("[global]\ndirect=1\n[j]\nfilename=f\ndirect=0\n"), 0);
	assert_int_equal(job.cache, CACHE_BUFFERED);    /* the job overrides [global] */

	/* Without filename= each job gets its own file, "<name>.<n>.0". */
	assert_int_equal(fio("[global]\ndirectory=/mnt/d\n[seq]\nsize=8M\nnumjobs=3\n"
			     "rate_iops=50\n"), 0);
	assert_int_equal(job.ntargets, 3);
	assert_string_equal(job.targets[0], "/mnt/d/seq.0.0");
	assert_string_equal(job.targets[2], "/mnt/d/seq.2.0");
	assert_int_equal(job.threads, 1);
	assert_true(job.rate_iops == 50);
	assert_true(job.keep);

	assert_int_equal(fio("[j]\nfilename=/dev/a:/dev/b\\:1\n"), 0);
	assert_int_equal(job.ntargets, 2);
	assert_string_equal(job.targets[0], "/dev/a");
	assert_string_equal(job.targets[1], "/dev/b:1");
	assert_int_equal(fio("[j]\n  bs = 16k  \nfilename = rel\ndirectory=/d\n"), 0);
	assert_int_equal(job.bs, 16384);
	assert_string_equal(job.targets[0], "/d/rel");
}

static void test_fio_errors(void **state)
{
	static const struct {
		const char *text, *needle;
	} cases[] = {
		{"[j]\nfilename=f\nverify=md5\n",
		 "job.fio:3: option 'verify' is not supported (supported: bs, rw,"},
		{"[j]\nrw=trim\n", "job.fio:2: rw=trim is not supported"},
		{"[a]\nfilename=f\n[b]\nfilename=g\n", "job.fio:3: [b] after job [a]"},
		{"[global]\nbs=4k\n", "no job section"},
		{"bs=4k\n[j]\n", "job.fio:1: 'bs=4k' comes before any section"},
		{"[j]\nbs=4q\n", "job.fio:2: bs=4q is not a size"},
		{"[j]\nbs=4k,8k\n", "bs=4k,8k"},
		{"[j]\nsize=50%\nfilename=f\n", "size=50%"},
		{"[j]\nnumjobs=0\n", "numjobs=0"},
		{"[j]\niodepth\n", "'iodepth' needs a value"},
		{"[j]\ndirect=yes\n", "direct=yes"},
		{"[j]\nioengine=posixaio\n", "ioengine=posixaio is not supported"},
		{"[j]\nruntime=soon\n", "runtime=soon"},
		{"[j]\nrate_iops=10,20\n", "rate_iops=10,20"},
		{"[j\n", "job.fio:1:"},
		{"[seq]\nnumjobs=2\n", "job.fio:1: [seq] has no filename="},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = fio(cases[i].text);
		if (r != -EINVAL || !strstr(err, cases[i].needle))
			fail_msg("'%s' gave %d '%s', expected -EINVAL and '%s'", cases[i].text, r,
				 err, cases[i].needle);
	}
	job_release(&job);
	job_init(&job);
	assert_int_equal(compat_fio_load("/nonexistent/x.fio", &job, err, sizeof(err)), -ENOENT);
	assert_err_has("/nonexistent/x.fio: ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diskspd_seed_000),
		cmocka_unit_test(test_diskspd_defaults),
		cmocka_unit_test(test_diskspd_flags),
		cmocka_unit_test(test_diskspd_cache),
		cmocka_unit_test(test_diskspd_errors),
		cmocka_unit_test(test_disk_numbers),
		cmocka_unit_test(test_windows_paths),
		cmocka_unit_test(test_run_equivalent),
		cmocka_unit_test(test_sqlio_seed_001),
		cmocka_unit_test(test_sqlio_flags),
		cmocka_unit_test(test_sqlio_paramfile),
		cmocka_unit_test(test_sqlio_errors),
		cmocka_unit_test(test_fio_full),
		cmocka_unit_test(test_fio_defaults_and_variants),
		cmocka_unit_test(test_fio_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
