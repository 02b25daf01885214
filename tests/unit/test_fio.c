/*
 * The fio translator (src/compat/fio*.c): job files and command lines read as fio reads them,
 * every option checked in the jobs it becomes, through the option table of 'iorate run' as the
 * commands apply it. Files, the environment and file sizes come from tables here, not from the
 * machine.
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

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "compat/compat.h"

#define SEC 1000000000ull
#define MiB (1ull << 20)

/* ---- a machine of tables ---- */

static struct {
	const char *path, *text;
} files[16];
static struct {
	const char *path;
	uint64_t size;
	bool regular;
} sizes[16];
static struct {
	const char *name, *value;
} vars[8];

static const char *t_getenv(void *arg, const char *name)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]) && vars[i].name; i++)
		if (!strcmp(vars[i].name, name))
			return vars[i].value;
	return NULL;
}

static int t_read(void *arg, const char *path, char **text)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && files[i].path; i++)
		if (!strcmp(files[i].path, path))
			return (*text = strdup(files[i].text)) ? 0 : -ENOMEM;
	return -ENOENT;
}

static int t_stat(void *arg, const char *path, uint64_t *size, bool *regular)
{
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && sizes[i].path; i++)
		if (!strcmp(sizes[i].path, path)) {
			*size = sizes[i].size;
			*regular = sizes[i].regular;
			return 0;
		}
	/* Files a table does not hold may still be read: they exist, as regular files. */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && files[i].path; i++)
		if (!strcmp(files[i].path, path)) {
			*size = strlen(files[i].text);
			*regular = true;
			return 0;
		}
	return -ENOENT;
}

static const struct compat_fio_env env = {
	.getenv = t_getenv, .read = t_read, .stat = t_stat,
	.pagesize = 4096, .mb_memory = 1000, .ncpus = 3,
};

/* ---- translations, through the option table of 'iorate run' ---- */

static struct compat_fio fio;
static struct job_list jobs;
static char err[1024];
static char *argcopy;            /* what a command line's words point into, as long as fio */

struct sink_state {
	struct job *cur;
	struct opt_ctx ctx;
	struct output_opts out;
};

static int sink_set(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	struct sink_state *st = arg;
	int r;

	if (s->job != st->cur) {
		st->cur = s->job;
		st->ctx = (struct opt_ctx){.cmd = &cmd_run, .job = s->job, .out = &st->out};
	}
	if ((r = options_set(&st->ctx, s->name, s->value)))
		snprintf(why, len, "%s", st->ctx.why);
	return r;
}

static void reset(void)
{
	free(argcopy);
	argcopy = NULL;
	compat_fio_release(&fio);
	job_list_release(&jobs);
	compat_fio_init(&fio, &env);
	err[0] = '\0';
}

static int translate(void)
{
	struct sink_state st = {0};
	struct compat_sink sink = {.set = sink_set, .arg = &st};

	output_opts_init(&st.out);
	return compat_fio_translate(&fio, &sink, &jobs, err, sizeof(err));
}

/* The job file text as job.fio (and the files[] it includes), translated. */
static int file(const char *text)
{
	int r;

	reset();
	files[0].path = "job.fio";
	files[0].text = text;
	if ((r = compat_fio_read_file(&fio, "job.fio", err, sizeof(err))))
		return r;
	return translate();
}

/* A fio command line, split on spaces, translated. */
static int cli(const char *line)
{
	char *copy, *argv[64], *save = NULL;
	int argc = 0, r;

	reset();
	copy = argcopy = strdup(line);
	argv[argc++] = "fio";
	for (char *p = strtok_r(copy, " ", &save); p && argc < 63; p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	r = compat_fio_read_argv(&fio, argc, argv, err, sizeof(err));
	if (!r)
		r = translate();
	return r;
}

static struct job *J(unsigned i)
{
	assert_true(i < jobs.n);
	return &jobs.jobs[i];
}

/* Whether a refusal line holds needle. */
static bool refused(const char *needle)
{
	for (unsigned i = 0; i < fio.nrefused; i++)
		if (strstr(fio.refused[i], needle))
			return true;
	return false;
}

/* The item of job i for the option typed so; NULL when there is none. */
static const struct compat_fio_item *item(unsigned i, const char *option)
{
	assert_true(i < fio.njobs);
	for (unsigned k = 0; k < fio.jobs[i].nitems; k++)
		if (!strcmp(fio.jobs[i].items[k].option, option))
			return &fio.jobs[i].items[k];
	return NULL;
}

/* Whether an item of job i for that option has needle in its note. */
static bool note_has(unsigned i, const char *option, const char *needle)
{
	for (unsigned k = 0; k < fio.jobs[i].nitems; k++) {
		const struct compat_fio_item *it = &fio.jobs[i].items[k];
		if (!strcmp(it->option, option) && it->note && strstr(it->note, needle))
			return true;
	}
	return false;
}

#define assert_refused(s) do { if (!refused(s)) fail_msg("no refusal holds '%s'", (s)); } while (0)
#define assert_err_has(s) do { if (!strstr(err, (s))) fail_msg("'%s' lacks '%s'", err, (s)); } \
	while (0)

/* ---- sections, [global]s, comments, include ---- */

static void test_sections_and_globals(void **state)
{
	/* A [global] sets the jobs after it only; a job overrides it; "global-x" is a global. */
	assert_int_equal(file("; comment\n# another\n[global]\nbs=8k ; trailing\nsize=1m\n"
			      "[a]\nfilename=fa # trailing\n[global-more]\nbs=16k\n[b]\n"
			      "filename=fb\n[c]\nfilename=fc\nbs=32k\n"), 0);
	assert_int_equal(jobs.n, 3);
	assert_string_equal(J(0)->name, "a");
	assert_int_equal(J(0)->bs, 8192);
	assert_string_equal(J(0)->targets[0], "fa");
	assert_int_equal(J(1)->bs, 16384);
	assert_int_equal(J(2)->bs, 32768);
	assert_string_equal(J(2)->origin, "fio");
	/* All run together, as fio runs a file without stonewall. */
	assert_int_equal(J(0)->group, 0);
	assert_int_equal(J(2)->group, 0);

	/* name= names the job; its files keep the section's name, as fio's do. */
	assert_int_equal(file("[sec]\nname=shown\nsize=1m\n"), 0);
	assert_string_equal(J(0)->name, "shown");
	assert_string_equal(J(0)->targets[0], "sec.0.0");
}

static void test_include(void **state)
{
	files[1].path = "inc.fio";
	files[1].text = "iodepth=4\nioengine=libaio ; comment\ninclude deeper.fio\n";
	files[2].path = "deeper.fio";
	files[2].text = "bs=64k\n";
	assert_int_equal(file("[global]\ninclude inc.fio\nsize=1m\n[j]\nfilename=f\n"), 0);
	assert_int_equal(J(0)->depth, 4);
	assert_string_equal(J(0)->engine, "aio");
	assert_int_equal(J(0)->bs, 65536);

	/* Beside the including file when not found as given. */
	files[3].path = "dir/inc2.fio";
	files[3].text = "bs=128k\n";
	files[4].path = "dir/main.fio";
	files[4].text = "[j]\nsize=1m\ninclude inc2.fio\n";
	reset();
	assert_int_equal(compat_fio_read_file(&fio, "dir/main.fio", err, sizeof(err)), 0);
	assert_int_equal(translate(), 0);
	assert_int_equal(J(0)->bs, 131072);

	/* An included file cannot start a section; a file that includes itself is stopped. */
	files[1].text = "[x]\n";
	assert_int_equal(file("[j]\ninclude inc.fio\n"), -EINVAL);
	assert_err_has("inc.fio:1: [x]: an included file cannot start sections");
	files[1].text = "include inc.fio\n";
	assert_int_equal(file("[j]\ninclude inc.fio\n"), -EINVAL);
	assert_err_has("includes nest deeper");
	assert_int_equal(file("[j]\ninclude missing.fio\n"), -ENOENT);
	assert_err_has("missing.fio");
	memset(&files[1], 0, sizeof(files) - sizeof(files[0]));
}

static void test_layout_errors(void **state)
{
	assert_int_equal(file("bs=4k\n[j]\n"), -EINVAL);
	assert_err_has("job.fio:1: 'bs=4k' comes before any section");
	assert_int_equal(file("[j\nbs=4k\n"), -EINVAL);
	assert_err_has("job.fio:1: '[j' is not a section header");
	assert_int_equal(file("[global]\nbs=4k\n"), -EINVAL);
	assert_err_has("no job");
	/* fio runs at most 4096 jobs; iorate opens at most 65536 files in a run. */
	assert_int_equal(file("[a]\nsize=1m\nnumjobs=4000\n[b]\nsize=1m\nnumjobs=97\n"), -EINVAL);
	assert_err_has("4097 jobs with their numjobs: fio runs at most 4096");
	assert_int_equal(file("[a]\nsize=1m\nnumjobs=3\nnrfiles=30000\n"), -EINVAL);
	assert_err_has("90000 files in all");
	assert_int_equal(jobs.n, 0);
}

/* ---- ${VAR}, $keywords, numbers ---- */

static void test_expansion(void **state)
{
	vars[0].name = "BS";
	vars[0].value = "16k";
	/* ${VAR} from the environment; $ncpus (3 here); arithmetic where a keyword is. */
	assert_int_equal(file("[j]\nbs=${BS}\nsize=1m\nnumjobs=$ncpus\niodepth=$ncpus*2\n"
			      "ioengine=libaio\nfilename=${UNSET}f\n"), 0);
	assert_int_equal(jobs.n, 3);
	assert_int_equal(J(0)->bs, 16384);
	assert_int_equal(J(0)->depth, 6);
	assert_string_equal(J(0)->targets[0], "f");     /* an unset variable is empty */
	/* An unset variable that leaves an option empty is refused by the option. */
	assert_int_equal(file("[j]\nbs=${UNSET}\nsize=1m\n"), -EINVAL);
	assert_refused("job.fio:2: bs=${UNSET}: UNSET is not set");
	vars[0].name = NULL;
}

static void test_numbers(void **state)
{
	/* fio's units: k in powers of kb_base; "ki" the same; "kib" the other base (4KiB is 4000
	 * bytes in fio by default); hex; times in seconds, thinktime in microseconds. */
	assert_int_equal(file("[j]\nfilename=f\nsize=0x100000\nbs=4KiB\nruntime=1m\n"
			      "time_based\nthinktime=250\nramp_time=0x2\n"), 0);
	assert_int_equal(J(0)->bs, 4000);
	assert_int_equal(J(0)->range, MiB);
	assert_int_equal(J(0)->time_ns, 60 * SEC);
	assert_int_equal(J(0)->warmup_ns, 2 * SEC);
	assert_int_equal(J(0)->thinktime_ns, 250000);
	assert_int_equal(file("[j]\nfilename=f\nkb_base=1000\nsize=2m\nbs=4ki\n"), 0);
	assert_int_equal(J(0)->bs, 4000);
	assert_int_equal(J(0)->range, 2000000);
	assert_int_equal(file("[j]\nfilename=f\nsize=1m\nbs=1kib\nkb_base=1000\n"), 0);
	assert_int_equal(J(0)->bs, 1024);               /* kb_base is read first */
	assert_int_equal(file("[j]\nfilename=f\nsize=(1024*1024)\nruntime=(2000000)\n"
			      "time_based\n"), 0);
	assert_int_equal(J(0)->range, MiB);
	assert_int_equal(J(0)->time_ns, 2 * SEC);       /* microseconds in arithmetic */

	/* What fio would read otherwise than written is refused, saying what fio makes of it. */
	assert_int_equal(file("[j]\nfilename=f\nsize=1m\nbs=1.5k\nruntime=10sec\n"
			      "iodepth=0x10k\nnumjobs=-1\n"), -EINVAL);
	assert_refused("job.fio:4: bs=1.5k: has a fraction, which fio drops");
	assert_refused("job.fio:5: runtime=10sec: is read by fio 3.33 as microseconds");
	assert_refused("job.fio:6: iodepth=0x10k: has a unit after a hexadecimal number");
	assert_refused("job.fio:7: numjobs=-1: is below 0");
	assert_int_equal(fio.nrefused, 4);
}

/* ---- fio's defaults, where iorate's differ ---- */

static void test_defaults(void **state)
{
	assert_int_equal(file("[j]\nsize=4m\n"), 0);
	assert_int_equal(jobs.n, 1);
	assert_int_equal(J(0)->bs, 4096);
	assert_int_equal(J(0)->pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(J(0)->write_pct, 0);
	assert_string_equal(J(0)->engine, "sync");      /* psync */
	assert_int_equal(J(0)->depth, 1);
	assert_int_equal(J(0)->cache, CACHE_BUFFERED);   /* fio is buffered unless direct=1 */
	assert_true(J(0)->seed_set);                     /* randrepeat=1, randseed=0x89 */
	assert_int_equal(J(0)->seed, 0x89);
	assert_true(J(0)->keep);                         /* unlink=0 */
	assert_true(J(0)->grow);                         /* fio extends a smaller file */
	assert_true(J(0)->invalidate);
	/* Without time_based the job ends once it has done its size; no time bound. */
	assert_int_equal(J(0)->io_bytes, 4 * MiB);
	assert_int_equal(J(0)->time_ns, 0); /* 0: no time limit */
	assert_int_equal(J(0)->range, 4 * MiB);
	assert_int_equal(J(0)->size, 4 * MiB);
	assert_string_equal(J(0)->targets[0], "j.0.0");
	assert_int_equal(J(0)->threads, 1);
	assert_false(J(0)->shared_threads);

	/* Each default that differs from iorate's is an item marked default. */
	const struct compat_fio_item *it = item(0, "direct=0");
	assert_non_null(it);
	assert_string_equal(it->where, "default");
	assert_string_equal(it->became, "--cache buffered");
	assert_non_null((it = item(0, "ioengine=psync")));
	assert_string_equal(it->became, "--engine sync");
	assert_non_null(strstr(fio.jobs[0].equivalent, "--io-size 4MiB"));
	assert_non_null(strstr(fio.jobs[0].equivalent, " j.0.0"));

	/* Sync engines run one I/O at a time whatever iodepth says; async ones honour it. */
	assert_int_equal(file("[j]\nsize=1m\nioengine=psync\niodepth=32\n"), 0);
	assert_int_equal(J(0)->depth, 1);
	assert_non_null(strstr(item(0, "iodepth=32")->note, "whatever iodepth says"));
	assert_int_equal(file("[j]\nsize=1m\nioengine=psync\niodepth=2\n"), 0);
	assert_int_equal(J(0)->depth, 1);
	assert_int_equal(file("[j]\nsize=1m\nioengine=io_uring\niodepth=32\niodepth_batch=8\n"),
			 0);
	assert_string_equal(J(0)->engine, "uring");
	assert_int_equal(J(0)->depth, 32);
	assert_int_equal(J(0)->batch, 8);
	/* Each engine runs as the one that makes its system calls; where iorate has none, the
	 * job says which ran in its place. */
	assert_int_equal(file("[j]\nsize=1m\nioengine=pvsync2\n"), 0);
	assert_string_equal(J(0)->engine, "pvsync2");
	assert_string_equal(J(0)->engine_for, "");
	assert_int_equal(file("[j]\nsize=1m\nioengine=pvsync\n"), 0);
	assert_string_equal(J(0)->engine, "pvsync");
	assert_int_equal(file("[j]\nsize=1m\nioengine=posixaio\niodepth=8\n"), 0);
	assert_string_equal(J(0)->engine, "posixaio");
	assert_int_equal(J(0)->depth, 8);
	assert_string_equal(J(0)->engine_for, "");
	assert_int_equal(file("[j]\nsize=1m\nioengine=vsync\n"), 0);
	assert_string_equal(J(0)->engine, "sync");
	assert_string_equal(J(0)->engine_for, "fio's vsync");
	assert_non_null(strstr(J(0)->engine_differs, "readv/writev"));
	assert_non_null(strstr(item(0, "ioengine=vsync")->note, "runs as iorate's sync"));
	assert_int_equal(file("[j]\nsize=1m\nioengine=psync\n"), 0);
	assert_string_equal(J(0)->engine_for, "");
	/* pvsync2's flags, for that engine only; uncached only where the page cache is used. */
	assert_int_equal(file("[j]\nsize=1m\nioengine=pvsync2\nhipri\nnowait=1\nuncached=1\n"), 0);
	assert_true(J(0)->hipri && J(0)->nowait && J(0)->dontcache);
	assert_int_equal(file("[j]\nsize=1m\ndirect=1\nioengine=pvsync2\nuncached=1\n"), 0);
	assert_false(J(0)->dontcache);
	assert_int_equal(file("[j]\nsize=1m\nioengine=psync\nhipri\n"), -EINVAL);
	assert_err_has("ioengine=pvsync2 only");
	assert_int_equal(file("[j]\nsize=1m\nioengine=pvsync2\nhipri\nhipri_percentage=50\n"),
			 -EINVAL);
	assert_int_equal(file("[j]\nsize=1m\nioengine=null\niodepth=16\n"), 0);
	assert_string_equal(J(0)->engine, "null");
	assert_int_equal(J(0)->depth, 16);

	/* time_based with runtime: the time, no size bound. */
	assert_int_equal(file("[j]\nsize=1m\ntime_based\ntimeout=30\nramp_time=5\n"), 0);
	assert_int_equal(J(0)->time_ns, 30 * SEC);
	assert_int_equal(J(0)->warmup_ns, 5 * SEC);
	assert_int_equal(J(0)->io_bytes, 0);
	/* A runtime without time_based bounds a job that still ends at its size. */
	assert_int_equal(file("[j]\nsize=1m\nruntime=30\n"), 0);
	assert_int_equal(J(0)->time_ns, 30 * SEC);
	assert_int_equal(J(0)->io_bytes, MiB);
}

/* ---- numjobs, files, regions ---- */

static void test_numjobs_and_files(void **state)
{
	/* Without filename each clone has its own file, under its directory of a ':' list. */
	assert_int_equal(file("[global]\ndirectory=/d1:/d2\n[seq]\nsize=8m\nnumjobs=3\n"), 0);
	assert_int_equal(jobs.n, 3);
	assert_string_equal(J(0)->targets[0], "/d1/seq.0.0");
	assert_string_equal(J(1)->targets[0], "/d2/seq.1.0");
	assert_string_equal(J(2)->targets[0], "/d1/seq.2.0");
	assert_string_equal(J(2)->name, "seq");
	assert_int_equal(J(2)->threads, 1);
	assert_int_equal(J(2)->io_bytes, 8 * MiB);
	/* Clones have seeds of their own, as fio seeds each job apart. */
	assert_true(J(0)->seed != J(1)->seed);
	assert_int_equal(fio.jobs[1].clone, 1);
	assert_int_equal(fio.jobs[1].clones, 3);

	/* With filename the clones share the file(s); "\:" is a colon in a name. */
	assert_int_equal(file("[j]\nfilename=/dev/a:/x/b\\:1\nnumjobs=2\nsize=2m\n"), 0);
	assert_int_equal(jobs.n, 2);
	assert_int_equal(J(1)->ntargets, 2);
	assert_string_equal(J(1)->targets[0], "/dev/a");
	assert_string_equal(J(1)->targets[1], "/x/b:1");
	/* Two files: one thread serves both, each file size / nrfiles. */
	assert_true(J(1)->shared_threads);
	assert_int_equal(J(1)->threads, 1);
	assert_int_equal(J(1)->file_service, FILES_ROUNDROBIN);
	assert_int_equal(J(1)->range, MiB);
	assert_int_equal(J(1)->io_bytes, 2 * MiB);

	assert_int_equal(file("[j]\nnrfiles=4\nsize=8m\nfile_service_type=random:2\n"
			      "filename_format=f.$jobnum.$FILENUM\n"), 0);
	assert_int_equal(J(0)->ntargets, 4);
	assert_string_equal(J(0)->targets[3], "f.0.3");
	assert_int_equal(J(0)->file_service, FILES_RANDOM);
	assert_int_equal(J(0)->file_service_n, 2);
	assert_int_equal(J(0)->range, 2 * MiB);
	/* A job whose name holds "$jobname" gets it once, not expanded again and again. */
	assert_int_equal(file("[$jobnamec]\nsize=1m\n"), 0);
	assert_string_equal(J(0)->targets[0], "$jobnamec.0.0");

	/* offset, offset_increment per clone, filesize, loops, io_size, number_ios. */
	assert_int_equal(file("[j]\nfilename=f\nsize=1m\noffset=1m\noffset_increment=2m\n"
			      "numjobs=2\nloops=3\nnumber_ios=100\n"), 0);
	assert_int_equal(J(0)->offset, MiB);
	assert_int_equal(J(1)->offset, 3 * MiB);
	assert_int_equal(J(1)->range, MiB);
	assert_int_equal(J(1)->size, 4 * MiB);           /* fio lays out offset + size */
	assert_int_equal(J(1)->io_bytes, 3 * MiB);
	assert_int_equal(J(1)->ios_per_thread, 300);
	assert_int_equal(file("[j]\nfilename=f\nfilesize=4m\nio_size=10m\nunlink=1\n"), 0);
	assert_int_equal(J(0)->range, 4 * MiB);
	assert_int_equal(J(0)->io_bytes, 10 * MiB);
	assert_false(J(0)->keep);

	/* Without size, an existing file's own size; percentages of it. */
	sizes[0].path = "/dev/sdz";
	sizes[0].size = 100 * MiB;
	assert_int_equal(file("[j]\nfilename=/dev/sdz\n"), 0);
	assert_int_equal(J(0)->range, 100 * MiB);
	assert_int_equal(J(0)->io_bytes, 100 * MiB);
	assert_int_equal(file("[j]\nfilename=/dev/sdz\nsize=10%\noffset=50%\n"), 0);
	assert_int_equal(J(0)->offset, 50 * MiB);
	assert_int_equal(J(0)->range, 10 * MiB);
	/* A job named after something that is not a regular file uses it (fio does). */
	assert_int_equal(file("[/dev/sdz]\nrw=randread\n"), 0);
	assert_string_equal(J(0)->targets[0], "/dev/sdz");
	sizes[0].path = NULL;
	/* No size, no file: fio would say "you need to specify size=". */
	assert_int_equal(file("[j]\nfilename=nothing\n"), -EINVAL);
	assert_err_has("job.fio:2: filename=nothing: 'nothing' does not exist");
	assert_err_has("you need to specify size=");
}

/* ---- pattern, mix, block sizes, distributions ---- */

static void test_pattern_and_mix(void **state)
{
	assert_int_equal(file("[j]\nsize=1m\nreadwrite=randrw\nrwmixread=10\nrwmixwrite=40\n"), 0);
	assert_int_equal(J(0)->pattern, PATTERN_RANDOM);
	assert_int_equal(J(0)->write_pct, 40);          /* the later of the two wins */
	assert_non_null(strstr(item(0, "rwmixread=10")->became, "overridden by job.fio:5"));
	assert_int_equal(file("[j]\nsize=1m\nrw=rw\n"), 0);
	assert_int_equal(J(0)->write_pct, 50);
	assert_int_equal(J(0)->pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(file("[j]\nsize=1m\nrw=read\nrwmixwrite=40\n"), 0);
	assert_int_equal(J(0)->write_pct, 0);
	assert_string_equal(item(0, "rwmixwrite=40")->became, "(no effect)");
	assert_int_equal(file("[j]\nsize=1m\nrw=randwrite\n"), 0);
	assert_int_equal(J(0)->write_pct, 100);

	/* rw=...:N: a gap after each sequential I/O; random, an offset every N I/Os. */
	assert_int_equal(file("[j]\nsize=1m\nrw=write:60k\n"), 0);
	assert_int_equal(J(0)->skip, 60 * 1024);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread:4\n"), 0);
	assert_int_equal(J(0)->random_pct, 25);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\npercentage_random=30\n"), 0);
	assert_int_equal(J(0)->random_pct, 30);
	/* rw=...:1 is a new offset every I/O, as without it: percentage_random= still holds. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread:1\npercentage_random=30\n"), 0);
	assert_int_equal(J(0)->random_pct, 30);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\npercentage_random=0\n"), 0);
	assert_int_equal(J(0)->pattern, PATTERN_SEQUENTIAL);

	/* norandommap and randrepeat/randseed. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nnorandommap\nrandseed=42\n"), 0);
	assert_int_equal(J(0)->seed, 42);
	assert_string_equal(item(0, "norandommap")->became, "(always)");
	assert_int_equal(file("[j]\nsize=1m\nrandrepeat=0\n"), 0);
	assert_false(J(0)->seed_set);

	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nrandom_distribution=zipf:1.1\n"), 0);
	assert_int_equal(J(0)->dist, DIST_ZIPF);
	assert_true(J(0)->dist_param == 1.1);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nrandom_distribution=pareto\n"), 0);
	assert_true(J(0)->dist_param == 0.2);
	/* fio's bell: 12 draws averaged, so a sigma of 1/12 of the region without a deviation. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nrandom_distribution=normal\n"), 0);
	assert_int_equal(J(0)->dist, DIST_NORMAL);
	assert_true(J(0)->dist_param > 8.33 && J(0)->dist_param < 8.34);
	/* zoned: an empty size takes what the others leave, as in fio. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\n"
			      "random_distribution=zoned:50/5:30/15:20/\n"), 0);
	assert_int_equal(J(0)->dist, DIST_ZONED);
	assert_int_equal(J(0)->nzones, 3);
	assert_true(J(0)->zones[2].size_pct == 80);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\n"
			      "random_distribution=zoned_abs:60/1k:40/0\n"), 0);
	assert_int_equal(J(0)->zones[0].size_bytes, 1024);
	/* Sequential jobs draw no random offsets. */
	assert_int_equal(file("[j]\nsize=1m\nrandom_distribution=zipf\n"), 0);
	assert_int_equal(J(0)->dist, DIST_UNIFORM);
	assert_string_equal(item(0, "random_distribution=zipf")->became, "(no effect)");
	/* A newer fio's sequence is iorate's own syntax; a word one letter off is no sequence. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nrandom_distribution=sequence:2,0,1\n"),
			 0);
	assert_int_equal(J(0)->dist, DIST_SEQUENCE);
	assert_int_not_equal(file("[j]\nsize=1m\nrw=randread\n"
				  "random_distribution=sequencx:2,0,1\n"), 0);
	assert_refused("job.fio:4: random_distribution=sequencx:2,0,1: is not a distribution of fio");
}

static void test_block_sizes(void **state)
{
	/* bs=READS,WRITES: a mix of one size each way, for a job that does both. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randrw\nbs=4k,16k\n"), 0);
	assert_int_equal(J(0)->bs, 4096);
	assert_int_equal(J(0)->nbs_read, 1);
	assert_int_equal(J(0)->bs_read[0].bs, 4096);
	assert_int_equal(J(0)->bs_write[0].bs, 16384);
	assert_int_equal(file("[j]\nsize=1m\nrw=write\nbs=4k,16k\n"), 0);
	assert_int_equal(J(0)->bs, 16384);              /* a write job: the write size */
	assert_int_equal(J(0)->nbs_read, 0);
	assert_int_equal(file("[j]\nsize=1m\nrw=write\nbs=,8k\n"), 0);
	assert_int_equal(J(0)->bs, 8192);
	/* fio reads ':' and '-' as ',' in bs: refused with how to write it. */
	assert_int_equal(file("[j]\nsize=1m\nbs=4k-8k\n"), -EINVAL);
	assert_refused("job.fio:3: bs=4k-8k: separates values with ':' or '-'");

	/* bssplit in fio's sizes; READS,WRITES. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randrw\nbssplit=4k/50:64k/50,8k/100\n"), 0);
	assert_int_equal(J(0)->nbs_read, 2);
	assert_int_equal(J(0)->bs_read[1].bs, 65536);
	assert_int_equal(J(0)->bs_read[1].pct, 50);
	assert_int_equal(J(0)->nbs_write, 1);
	assert_int_equal(J(0)->bs_write[0].bs, 8192);
	assert_int_equal(J(0)->bs, 4096);               /* the smallest aligns the offsets */
	/* bs= with a trim size too: the mix is of the read and write sizes only. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randrw\nbs=4k,8k,16k\n"), 0);
	assert_int_equal(J(0)->nbs_read, 1);
	assert_int_equal(J(0)->bs_read[0].bs, 4096);
	assert_int_equal(J(0)->nbs_write, 1);
	assert_int_equal(J(0)->bs_write[0].bs, 8192);

	/* bsrange: each multiple of the low end below the high one has low/high of the I/Os
	 * (fio draws low + high x U and rounds down), the high end the rest. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nbsrange=4k-16k\n"), 0);
	assert_int_equal(J(0)->nbs_read, 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(J(0)->bs_read[i].bs, 4096 * (i + 1));
		assert_int_equal(J(0)->bs_read[i].pct, 25);
	}
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nbsrange=8k-8k\n"), 0);
	assert_int_equal(J(0)->bs, 8192);               /* a range of one size is that size */
	assert_int_equal(J(0)->nbs_read, 0);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nbsrange=10k:4k\n"), 0);
	assert_int_equal(J(0)->nbs_read, 3);             /* 4k 40%, 8k 40%, 10k 20% */
	assert_int_equal(J(0)->bs_read[2].bs, 10240);
	assert_int_equal(J(0)->bs_read[0].pct, 40);
	assert_int_equal(J(0)->bs_read[2].pct, 20);
	/* Wider than 16 sizes: 16 of them, evenly spread. */
	assert_int_equal(file("[j]\nsize=4m\nrw=randread\nbsrange=512-1m\n"), 0);
	assert_int_equal(J(0)->nbs_read, 16);
	assert_int_equal(J(0)->bs_read[0].bs, 512);
	assert_int_equal(J(0)->bs_read[15].bs, 1024 * 1024);
	assert_true(note_has(0, "bsrange=512-1m", "approximated by 16 sizes"));
	/* in equal shares, whole percents that add up: 100 x (i + 1) / 16 rounded down, less the
	 * shares before; the last takes the rest (93 before it: 7) */
	unsigned sum = 0;
	for (unsigned i = 0; i < 16; i++) {
		assert_int_equal(J(0)->bs_read[i].pct, (i + 1) * 100 / 16 - sum);
		sum += J(0)->bs_read[i].pct;
	}
	assert_int_equal(J(0)->bs_read[15].pct, 7);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nblockalign=8k\n"), 0);
	assert_int_equal(J(0)->align, 8192);
}

/* ---- rates, syncs, pauses, groups ---- */

static void test_rates_and_syncs(void **state)
{
	/* fio's rate binds a job, whose one file it caps; bytes/s become MB/s (10^6). */
	assert_int_equal(file("[j]\nsize=1m\nrw=read\nrate=1m\nrate_iops=200\n"), 0);
	assert_true(J(0)->cap.mbps == 1.048576);
	assert_true(J(0)->cap.iops == 200);
	/* A mixed job: where the first direction binds (reads at 1m are 75% of the I/Os). */
	assert_int_equal(file("[j]\nsize=1m\nrw=randrw\nrwmixread=75\nrate=750000\n"), 0);
	assert_true(J(0)->cap.mbps == 1);
	/* Several files: a cap over them together. */
	assert_int_equal(file("[j]\nsize=1m\nnrfiles=2\nrate_iops=100\n"), 0);
	assert_true(J(0)->vm_cap.iops == 100);
	assert_true(J(0)->cap.iops == 0);
	/* rate_process=poisson: the open loop. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\nrate_iops=50\n"
			      "rate_process=poisson\n"), 0);
	assert_true(J(0)->rate_iops == 50);
	assert_int_equal(J(0)->arrival, ARRIVAL_POISSON);
	assert_true(J(0)->cap.iops == 0);

	assert_int_equal(file("[j]\nsize=1m\nrw=write\nfsync=8\nfdatasync=4\nend_fsync=1\n"
			      "thinktime=2ms\nthinktime_blocks=16\ninvalidate=0\nzero_buffers\n"
			      "startdelay=3\nsync=1\ndirect=1\n"), 0);
	assert_int_equal(J(0)->fsync_every, 8);
	assert_int_equal(J(0)->fdatasync_every, 4);
	assert_true(J(0)->end_fsync);
	assert_int_equal(J(0)->thinktime_ns, 2000000);
	assert_int_equal(J(0)->thinktime_blocks, 16);
	assert_false(J(0)->invalidate);
	assert_int_equal(J(0)->fill, FILL_ZERO);
	assert_int_equal(J(0)->startdelay_ns, 3 * SEC);
	assert_int_equal(J(0)->cache, CACHE_DIRECTSYNC);
	assert_int_equal(file("[j]\nsize=1m\nsync=dsync\n"), 0);
	assert_int_equal(J(0)->cache, CACHE_WRITETHROUGH);

	/* verify=: iorate's checksums; fio's others onto the nearest; a fixed pattern refused. */
	assert_int_equal(file("[j]\nsize=1m\nrw=write\nverify=md5\nverify_interval=8k\nbs=8k\n"
			      "do_verify=1\n"), 0);
	assert_int_equal(J(0)->verify, VERIFY_MD5);
	assert_int_equal(J(0)->verify_block, 8192);
	assert_int_equal(file("[j]\nsize=1m\nverify=crc64\n"), 0);
	assert_int_equal(J(0)->verify, VERIFY_CRC32C);
	assert_int_equal(file("[j]\nsize=1m\nverify=sha512\n"), 0);
	assert_int_equal(J(0)->verify, VERIFY_SHA256);
	assert_int_equal(file("[j]\nsize=1m\nverify=0\n"), 0);
	assert_int_equal(J(0)->verify, VERIFY_NONE);
	assert_int_equal(file("[j]\nsize=1m\nverify=pattern\n"), -EINVAL);
	assert_refused("verify=pattern: iorate has no verification against a fixed pattern");
	assert_int_equal(file("[j]\nsize=1m\nverify=crc99\n"), -EINVAL);
}

/* rw's trims: trims in place of reads, or writes that trim their blocks first. */
static void test_trims(void **state)
{
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\n"), 0);
	assert_int_equal(J(0)->trim_pct, 100);
	assert_int_equal(J(0)->write_pct, 0);
	assert_false(J(0)->trim_write);
	assert_int_equal(J(0)->pattern, PATTERN_RANDOM);
	assert_int_equal(file("[j]\nsize=1m\nrw=trim\n"), 0);
	assert_int_equal(J(0)->trim_pct, 100);
	assert_int_equal(J(0)->pattern, PATTERN_SEQUENTIAL);
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrimwrite\n"), 0);
	assert_int_equal(J(0)->trim_pct, 0);
	assert_int_equal(J(0)->write_pct, 100);
	assert_true(J(0)->trim_write);
	assert_int_equal(J(0)->pattern, PATTERN_RANDOM);
	assert_int_equal(file("[j]\nsize=1m\nrw=trimwrite\n"), 0);
	assert_true(J(0)->trim_write);
	assert_int_equal(J(0)->pattern, PATTERN_SEQUENTIAL);
}

/*
 * The values per direction of a trimming job are its trims': fio's third value, else the last
 * one given (fio's parser sets the directions after the last part to it): bs=8k,32k trims
 * 32k; a part left empty leaves its direction at fio's default. A trim carries no data.
 */
static void test_trim_sizes(void **state)
{
	assert_int_equal(file("[j]\nsize=1m\nrw=trim\nbs=8k,32k\n"), 0);
	assert_int_equal(J(0)->bs, 32768);
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\nbs=8k,32k,16k\n"), 0);
	assert_int_equal(J(0)->bs, 16384);
	assert_int_equal(file("[j]\nsize=1m\nrw=trim\nbs=8k\n"), 0);
	assert_int_equal(J(0)->bs, 8192);
	assert_int_equal(file("[j]\nsize=1m\nrw=trim\nbs=8k,32k,\n"), 0);
	assert_int_equal(J(0)->bs, 4096);
	/* "8k," is reads' alone: writes stay at 4k; ",8k" writes and trims. */
	assert_int_equal(file("[j]\nsize=1m\nrw=write\nbs=8k,\n"), 0);
	assert_int_equal(J(0)->bs, 4096);
	assert_int_equal(file("[j]\nsize=1m\nrw=read\nbs=8k,\n"), 0);
	assert_int_equal(J(0)->bs, 8192);
	assert_int_equal(file("[j]\nsize=1m\nrw=trim\nbs=,8k\n"), 0);
	assert_int_equal(J(0)->bs, 8192);
	/* ba, rate_iops and bsrange alike. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\nba=4k,8k\n"), 0);
	assert_int_equal(J(0)->align, 8192);
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\nrate_iops=100,200,300\n"), 0);
	assert_true(J(0)->cap.iops == 300);
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\nrate_iops=100,200\n"), 0);
	assert_true(J(0)->cap.iops == 200);
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\nbsrange=4k-4k,8k-8k\n"), 0);
	assert_int_equal(J(0)->bs, 8192);
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\nbsrange=4k-4k,8k-8k,2k-2k\n"), 0);
	assert_int_equal(J(0)->bs, 2048);
	assert_int_equal(file("[j]\nsize=1m\nrw=randtrim\nbsrange=4k-8k,8k-8k,2k-4k\n"), 0);
	assert_int_equal(J(0)->bs, 2048);
	assert_int_equal(J(0)->nbs_read, 2);            /* 2k and 4k, the trims' range */
	assert_int_equal(J(0)->bs_read[1].bs, 4096);
	/* Trims carry no data: what writes would carry is of no effect, as for reads (the files
	 * are still laid out with zeros). */
	assert_int_equal(file("[j]\nsize=1m\nrw=trim\nzero_buffers=1\n"), 0);
	assert_int_equal(J(0)->fill, FILL_ZERO);
	assert_int_equal(J(0)->data_len, 0);
	assert_int_equal(file("[j]\nsize=1m\nrw=write\nzero_buffers=1\n"), 0);
	assert_int_equal(J(0)->data_len, 1);
}

static void test_groups(void **state)
{
	/* stonewall starts a run group after every job before; its clones share it. */
	assert_int_equal(file("[global]\nsize=1m\n[a]\n[b]\nstonewall\nnumjobs=2\n[c]\n"
			      "[d]\nwait_for_previous\n[e]\nnew_group\n"), 0);
	assert_int_equal(jobs.n, 6);
	assert_int_equal(J(0)->group, 0);
	assert_int_equal(J(1)->group, 1);
	assert_int_equal(J(2)->group, 1);
	assert_int_equal(J(3)->group, 1);               /* c runs beside b */
	assert_int_equal(J(4)->group, 2);
	assert_int_equal(J(5)->group, 2);               /* new_group: a reporting group only */
	/* stonewall in [global]: every job waits for the one before. */
	assert_int_equal(file("[global]\nsize=1m\nstonewall\n[a]\n[b]\n[c]\n"), 0);
	assert_int_equal(J(2)->group, 2);
	/* wait_for: after the run group of the job named. */
	assert_int_equal(file("[global]\nsize=1m\n[w]\n[r]\nwait_for=w\n[x]\n"), 0);
	assert_int_equal(J(1)->group, 1);
	assert_int_equal(J(2)->group, 0);
	assert_int_equal(file("[global]\nsize=1m\n[r]\nwait_for=nobody\n"), -EINVAL);
	assert_refused("wait_for=nobody: no job named 'nobody' comes before it");
}

/* ---- refusals: every line at once, each with its file and line ---- */

static void test_refusals(void **state)
{
	assert_int_equal(file("[global]\npre_read=1\nblocksizze=4k\n[a]\nsize=1m\n"
			      "ioengine=net\nread_iolog=x\n[b]\nsize=1m\nrw=trimread\nlockmem=1m\n"
			      "direct\n"), -EINVAL);
	assert_err_has("7 options cannot run in iorate");
	assert_int_equal(fio.nrefused, 7);      /* the [global]'s lines once, not once per job */
	assert_refused("job.fio:2: pre_read=1: iorate has no reading of the files");
	assert_refused("job.fio:3: blocksizze=4k: not an option of fio 3.33");
	assert_refused("job.fio:6: ioengine=net: refused engine: network I/O");
	assert_refused("job.fio:7: read_iolog=x: iorate has no replay of a log of I/Os");
	assert_refused("job.fio:10: rw=trimread: is not a pattern of fio");
	assert_refused("job.fio:11: lockmem=1m: iorate has no locking of memory");
	assert_refused("job.fio:12: direct: needs a value, 0 or 1");
	assert_int_equal(fio.refused_engines, 1);
	assert_int_equal(jobs.n, 0);                    /* nothing was set up */

	/* Values that ask nothing are accepted, of no effect; so are reporting options. */
	assert_int_equal(file("[j]\nsize=1m\nverify=0\nzonemode=none\ncontinue_on_error=none\n"
			      "group_reporting\nthread\nwrite_lat_log=lat\ncpus_allowed=0-3\n"
			      "threads=1\n"), 0);
	assert_string_equal(item(0, "verify=0")->became, "(no verification: the default)");
	assert_string_equal(item(0, "group_reporting")->became, "merged in reporting group 0");
	assert_non_null(strstr(item(0, "thread")->note, "process model"));
	assert_non_null(strstr(item(0, "threads=1")->note, "tiobench"));

	/* Engines that are not block or file I/O are refused by name. */
	static const char *engines[] = {"netsplice", "http", "rdma", "sg", "rbd", "libcufile",
					"nfs", "mmap", "external:/x.so", "e4defrag"};
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		char text[128];
		snprintf(text, sizeof(text), "[j]\nsize=1m\nioengine=%s\n", engines[i]);
		assert_int_equal(file(text), -EINVAL);
		assert_int_equal(fio.refused_engines, 1);
		assert_refused("refused engine: ");
	}
}

/* Values fio's own words would not take, each refused on its line with why. */
static void test_word_refusals(void **state)
{
	(void)state;
	assert_int_equal(file("[j]\nsize=1m\nrwmixread=101\nrwmixwrite=x\n"
			      "rw_sequencer=identical\nrw_sequencer=random\nbsrange=4k\n"
			      "bsrange=0-4k\nbsrange=1k-2k,0-4k\nsync=maybe\nkb_base=1023\n"
			      "startdelay=1-2\nstartdelay=abc\nrandom_distribution=lognormal\n"
			      "filesize=1k-2k\nfilesize=0\nbssplit=4k/x\nbsrange=4k-8q\n"), -EINVAL);
	assert_refused("job.fio:3: rwmixread=101: is above 100 percent");
	assert_refused("job.fio:4: rwmixwrite=x: is not a number");
	assert_refused("job.fio:5: rw_sequencer=identical: iorate has no repeated offsets");
	assert_refused("job.fio:6: rw_sequencer=random: is not sequential or identical");
	assert_refused("job.fio:7: bsrange=4k: is not a range LOW-HIGH");
	assert_refused("job.fio:8: bsrange=0-4k: has a size of 0");
	assert_refused("job.fio:9: bsrange=1k-2k,0-4k: has a size of 0");
	assert_refused("job.fio:10: sync=maybe: is not 0, 1, none, sync or dsync");
	assert_refused("job.fio:11: kb_base=1023: is not 1024 or 1000");
	assert_refused("job.fio:12: startdelay=1-2: iorate has no random start delays");
	assert_refused("job.fio:13: startdelay=abc: is not a number");
	assert_refused("job.fio:14: random_distribution=lognormal: is not a distribution of fio");
	assert_refused("job.fio:15: filesize=1k-2k: iorate has no files of random sizes");
	assert_refused("job.fio:16: filesize=0: is 0");
	assert_refused("job.fio:17: bssplit=4k/x: has a share that is not a whole percent");
	assert_refused("job.fio:18: bsrange=4k-8q: has an unknown unit");
	assert_int_equal(fio.nrefused, 16);
	/* fio's skewed choices of a file are refused as such, with or without their parameter */
	assert_int_equal(file("[j]\nsize=1m\nfile_service_type=zipf:1.2\n"
			      "file_service_type=pareto:0.3\nfile_service_type=normal\n"
			      "file_service_type=gauss:5\nfile_service_type=zipfy\n"
			      "file_service_type=random:0\n"), -EINVAL);
	assert_refused("job.fio:3: file_service_type=zipf:1.2: iorate has no skewed choice");
	assert_refused("job.fio:4: file_service_type=pareto:0.3: iorate has no skewed choice");
	assert_refused("job.fio:5: file_service_type=normal: iorate has no skewed choice");
	assert_refused("job.fio:6: file_service_type=gauss:5: iorate has no skewed choice");
	assert_refused("job.fio:8: file_service_type=random:0: has a count of 0");
	assert_int_equal(fio.nrefused, 6);
	/* a pattern's modifier and values too long for a range or a split */
	char text[2600];
	int n = snprintf(text, sizeof(text), "[j]\nsize=1m\nrw=read:4q\nrw=randread:x\nbsrange=");
	for (int i = 0; i < 100; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "1");
	n += snprintf(text + n, sizeof(text) - (size_t)n, "\nbssplit=");
	for (int i = 0; i < 300; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "4k/0:");
	snprintf(text + n, sizeof(text) - (size_t)n, "\n");
	assert_int_equal(file(text), -EINVAL);
	assert_refused("job.fio:3: rw=read:4q: has an unknown unit");
	assert_refused("job.fio:4: rw=randread:x: is not a number");
	assert_refused(": is too long");
	assert_int_equal(fio.nrefused, 4);
	/* the later of rwmixread and rwmixwrite wins; a range's ends may come in either order */
	assert_int_equal(file("[j]\nsize=1m\nrw=randrw\nrwmixread=30\nrwmixwrite=40\n"
			      "bsrange=8k:4k\nsync=dsync\nkb_base=1000\nstartdelay=2\n"), 0);
	assert_int_equal(J(0)->write_pct, 40);
	assert_int_equal(file("[j]\nsize=1m\nrw=randrw\nrwmixwrite=40\nrwmixread=30\n"), 0);
	assert_int_equal(J(0)->write_pct, 70);
}

/* A value the option table of 'iorate run' refuses is refused under fio's option. */
static void test_values_judged_by_run(void **state)
{
	assert_int_equal(file("[j]\nsize=1m\nioengine=libaio\niodepth=5000\n"), -EINVAL);
	assert_err_has("job.fio:4: iodepth=5000: '5000' is out of range (1 to 4096)");
	assert_int_equal(file("[j]\nsize=1m\nbs=2g\n"), -EINVAL);
	assert_err_has("job.fio:3: bs=2g: '2GiB' is larger than the 1GiB limit");
	/* Shares short of 100 run as fio draws them: the rest goes to the largest share. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randrw\nbssplit=4k/50:8k/10\n"), 0);
	assert_int_equal(job_validate(J(0), err, sizeof(err)), 0);
	assert_int_equal(J(0)->bs_read[0].pct, 90);
	assert_int_equal(J(0)->bs_read[1].pct, 10);
}

/* ---- how jobs end: exitall, exit_what, continue_on_error, ignore_error ---- */

static void test_exits(void **state)
{
	/* exitall in one job makes every job's end end others, each by its own exit_what; fio's
	 * "group" is its reporting group (new_group starts one inside a run group). */
	assert_int_equal(file("[global]\nsize=1m\n[a]\nexitall\nexit_what=stonewall\n"
			      "[b]\nnew_group\nnumjobs=2\n[c]\nstonewall\nexit_what=all\n"
			      "[d]\n"), 0);
	assert_int_equal(jobs.n, 5);
	assert_int_equal(J(0)->exit_what, EXIT_GROUP);
	assert_int_equal(J(1)->exit_what, EXIT_REPORT_GROUP);
	assert_int_equal(J(2)->exit_what, EXIT_REPORT_GROUP);
	assert_int_equal(J(3)->exit_what, EXIT_ALL);
	assert_int_equal(J(4)->exit_what, EXIT_REPORT_GROUP);
	assert_int_equal(J(0)->report_group, 0);
	assert_int_equal(J(1)->report_group, 1);
	assert_int_equal(J(2)->report_group, 1);
	assert_int_equal(J(3)->report_group, 2);
	assert_int_equal(J(4)->report_group, 2);
	assert_int_equal(J(1)->group, 0);
	assert_int_equal(J(3)->group, 1);
	assert_non_null(strstr(fio.jobs[0].equivalent, "--exit-all group"));
	assert_non_null(strstr(fio.jobs[3].equivalent, "--exit-all all"));
	assert_non_null(item(1, "exitall (another job's: fio applies it to every job)"));
	/* Without exitall the reporting groups are still fio's groupid, which group_reporting
	 * merges by: a stonewall or new_group starts one. */
	assert_int_equal(file("[global]\nsize=1m\ngroup_reporting\n[a]\nnumjobs=2\n"
			      "[b]\nnew_group\ngroup_reporting=0\n[c]\nstonewall\n"), 0);
	assert_int_equal(jobs.n, 4);
	assert_true(J(0)->group_reporting && J(1)->group_reporting && J(3)->group_reporting);
	assert_false(J(2)->group_reporting);
	assert_int_equal(J(1)->report_group, 0);
	assert_int_equal(J(2)->report_group, 1);
	assert_int_equal(J(3)->report_group, 2);
	assert_int_equal(J(2)->group, 0);
	assert_string_equal(item(2, "new_group")->became, "reporting group 1");
	/* Without exitall, exit_what does nothing. */
	assert_int_equal(file("[a]\nsize=1m\nexit_what=all\n"), 0);
	assert_int_equal(J(0)->exit_what, EXIT_NONE);
	assert_string_equal(item(0, "exit_what=all")->became, "(no effect)");
	assert_int_equal(file("[a]\nsize=1m\nexitall\nexit_what=some\n"), -EINVAL);
	assert_refused("exit_what=some: is not group, stonewall or all");

	/* continue_on_error picks the kinds, ignore_error the errnos of reads and writes. */
	assert_int_equal(file("[a]\nsize=1m\ncontinue_on_error=write\n"
			      "ignore_error=EAGAIN,ENOSPC:122,EILSEQ\n"), 0);
	assert_int_equal(J(0)->continue_on, JOB_CONT_WRITE);
	assert_int_equal(J(0)->nignore[0], 1);
	assert_int_equal(J(0)->ignore_errno[0][0], EAGAIN);
	assert_int_equal(J(0)->nignore[1], 2);
	assert_int_equal(J(0)->ignore_errno[1][0], ENOSPC);
	assert_int_equal(J(0)->ignore_errno[1][1], 122);
	assert_int_equal(file("[a]\nsize=1m\ncontinue_on_error=1\n"), 0);
	assert_int_equal(J(0)->continue_on, JOB_CONT_READ | JOB_CONT_WRITE | JOB_CONT_VERIFY);
	/* ignore_error alone changes nothing, as in fio; bad values are refused under fio's name. */
	assert_int_equal(file("[a]\nsize=1m\nignore_error=EIO\n"), 0);
	assert_int_equal(J(0)->nignore[0], 0);
	assert_string_equal(item(0, "ignore_error=EIO")->became, "(no effect)");
	assert_int_equal(file("[a]\nsize=1m\ncontinue_on_error=sometimes\n"), -EINVAL);
	assert_err_has("continue_on_error=sometimes: 'sometimes' is not none, read, write");
	assert_int_equal(file("[a]\nsize=1m\ncontinue_on_error=io\nignore_error=ENOTANERR\n"),
			 -EINVAL);
	assert_err_has("ignore_error=ENOTANERR: 'ENOTANERR' is not a list of errors");
}

/* prio and prioclass: one --ioprio, fio's defaults for the one not given. */
static void test_prio(void **state)
{
	assert_int_equal(file("[a]\nsize=1m\nprioclass=3\nprio=2\n[b]\nsize=1m\nprio=6\n"
			      "[c]\nsize=1m\nprioclass=1\n[d]\nsize=1m\n"), 0);
	assert_true(J(0)->ioprio_class == JOB_IOPRIO_IDLE && J(0)->ioprio_level == 2);
	assert_true(J(1)->ioprio_class == JOB_IOPRIO_BE && J(1)->ioprio_level == 6);
	assert_true(J(2)->ioprio_class == JOB_IOPRIO_RT && J(2)->ioprio_level == 0);
	assert_int_equal(J(3)->ioprio_class, 0);
	assert_string_equal(item(0, "prio=2")->became, "(with prioclass)");
	assert_non_null(strstr(fio.jobs[1].equivalent, "--ioprio be:6"));
	assert_int_equal(file("[a]\nsize=1m\nprio=8\nprioclass=4\n"), -EINVAL);
	assert_refused("prio=8: is out of range (0 to 7)");
	assert_refused("prioclass=4: is out of range (0 to 3)");
	/* Priorities per I/O: fio's class numbers become names, its default level 0 is written. */
	assert_int_equal(file("[a]\nsize=1m\nioengine=libaio\ncmdprio_percentage=20\n"
			      "cmdprio_class=3,1\n"), 0);
	assert_true(J(0)->cmdprio.on && J(0)->cmdprio.pct[0] == 20 && J(0)->cmdprio.pct[1] == 20);
	assert_int_equal(J(0)->cmdprio.ioprio[0], JOB_IOPRIO(JOB_IOPRIO_IDLE, 0));
	assert_int_equal(J(0)->cmdprio.ioprio[1], JOB_IOPRIO(JOB_IOPRIO_RT, 0));
	assert_int_equal(file("[a]\nsize=1m\nioengine=libaio\nbs=4k\n"
			      "cmdprio_bssplit=4k/30/2/5:4k/70/3/1/9\n"), 0);
	assert_int_equal(J(0)->cmdprio.nsplit[0], 2);
	assert_int_equal(J(0)->cmdprio.split[0][1].ioprio, JOB_IOPRIO(JOB_IOPRIO_IDLE, 1));
	/* Without a share, a class is of no effect; a class out of 1..3 is refused. */
	assert_int_equal(file("[a]\nsize=1m\ncmdprio_class=1\n"), 0);
	assert_false(J(0)->cmdprio.on);
	assert_int_equal(file("[a]\nsize=1m\ncmdprio_percentage=5\ncmdprio_class=4\n"), -EINVAL);
}

/* What writes carry: compression, dedupe, patterns, refill and fio's default scrambling. */
static void test_buffers(void **state)
{
	assert_int_equal(file("[a]\nsize=1m\nrw=write\nbuffer_compress_percentage=60\n"
			      "buffer_compress_chunk=4k\ndedupe_percentage=20\n"
			      "[b]\nsize=1m\nrw=randwrite\ndedupe_percentage=50\ndedupe_mode=working_set\n"
			      "dedupe_global=1\nbuffer_pattern=\"ab\"0x01\n"
			      "[c]\nsize=1m\nrw=write\n[d]\nsize=1m\nrw=read\nrefill_buffers\n"
			      "[e]\nsize=1m\nrw=write\nscramble_buffers=0\nrefill_buffers=1\n"
			      "[f]\nsize=1m\nrw=write\nzero_buffers\n"), 0);
	assert_int_equal(J(0)->compress_pct, 60);
	assert_int_equal(J(0)->compress_chunk, 4096);
	assert_int_equal(J(0)->dedupe_pct, 20);
	assert_int_equal(J(0)->dedupe_set_pct, 0);   /* repeat: fio's default mode */
	assert_false(J(0)->scramble);                /* fio makes new contents instead */
	assert_true(J(1)->dedupe_pct == 50 && J(1)->dedupe_set_pct == 5 && J(1)->dedupe_global);
	assert_true(J(1)->data_len == 3 && !memcmp(J(1)->data_pattern, "ab\x01", 3));
	assert_non_null(strstr(fio.jobs[1].equivalent, "--data-pattern 0x616201"));
	/* fio scrambles what it does not refill, by default. */
	assert_true(J(2)->scramble && !J(2)->refill);
	assert_true(note_has(2, "scramble_buffers=1", "each 512 bytes"));
	assert_false(J(3)->refill);                  /* reads only */
	assert_string_equal(item(3, "refill_buffers")->became, "(no effect)");
	assert_true(J(4)->refill && !J(4)->scramble);
	assert_true(J(5)->data_len == 1 && J(5)->data_pattern[0] == 0 && !J(5)->scramble);
	/* Verified writes carry their own blocks; bad values are refused under fio's name. */
	assert_int_equal(file("[a]\nsize=1m\nrw=write\nverify=crc32c\n"
			      "buffer_compress_percentage=50\n"), 0);
	assert_int_equal(J(0)->compress_pct, 0);
	assert_int_equal(file("[a]\nsize=1m\nrw=write\nbuffer_pattern='f'\n"
			      "dedupe_mode=often\nbuffer_compress_percentage=101\n"), -EINVAL);
	assert_refused("dedupe_mode=often: is not repeat or working_set");
	assert_refused("buffer_compress_percentage=101: is out of range (0 to 100)");
	assert_int_equal(file("[a]\nsize=1m\nrw=write\nbuffer_pattern='f'\n"), -EINVAL);
	assert_err_has("buffer_pattern='f': names a file");
}

/* rw=read:-8k reads backwards; zonemode=strided with zonesize, zonerange and zoneskip. */
static void test_backwards_and_zones(void **state)
{
	assert_int_equal(file("[a]\nsize=1m\nrw=read:-8k\n[b]\nsize=1m\nrw=read\n"
			      "zonemode=strided\nzonesize=16k\nzonerange=64k\nzoneskip=1m\n"
			      "[c]\nsize=1m\nrw=randread\nzonemode=strided\nzonesize=8k\n"), 0);
	assert_true(J(0)->rewind == 8192 && J(0)->skip == 0);
	assert_non_null(strstr(fio.jobs[0].equivalent, "--gap -8KiB"));
	assert_true(J(1)->zone_size == 16384 && J(1)->zone_range == 65536 &&
		    J(1)->zone_skip == 1 << 20);
	assert_true(J(2)->zone_size == 8192 && J(2)->zone_range == 0 && J(2)->zone_skip == 0);
	assert_string_equal(item(1, "zonemode=strided")->became, "(with zonesize)");
	/* What fio itself refuses, and zoned block devices. */
	assert_int_equal(file("[a]\nsize=1m\nzonesize=16k\n"), -EINVAL);
	assert_err_has("zonesize=16k: fio refuses it without zonemode=strided");
	assert_int_equal(file("[a]\nsize=1m\nzonemode=strided\n"), -EINVAL);
	assert_err_has("zonemode=strided: fio needs zonesize with it");
	/* zonemode=zbd: emulated zones; sizes counted in zones ('z') are zonesize's. */
	assert_int_equal(file("[a]\nzonemode=zbd\nzonesize=16k\nsize=4z\noffset=2z\nrw=randwrite\n"
			      "max_open_zones=3\nzone_reset_threshold=0.7\nzone_reset_frequency=0.125\n"),
			 0);
	assert_true(J(0)->zbd && J(0)->zone_size == 16384 && J(0)->max_open_zones == 3);
	assert_true(J(0)->zone_reset_threshold == 0.7 && J(0)->zone_reset_frequency == 0.125);
	assert_non_null(strstr(fio.jobs[0].equivalent, "--range 64KiB"));
	assert_non_null(strstr(fio.jobs[0].equivalent, "--offset 32KiB"));
	assert_int_equal(file("[a]\nsize=1m\nzonemode=zbd\n"), -EINVAL);
	assert_err_has("zonemode=zbd: fio needs zonesize with it");
	assert_int_equal(file("[a]\nsize=4z\n"), -EINVAL);
	assert_err_has("size=4z: counts zones, which fio needs zonesize for");
	assert_int_equal(file("[a]\nsize=1m\nbs=4z\n"), -EINVAL);
	assert_refused("bs=4z: counts zones ('z'), which only size, io_size, offset and "
		       "offset_increment do");
}

/* fill_device: until the target is full; a size still bounds it, as fio's does. */
static void test_fill_device(void **state)
{
	assert_int_equal(file("[a]\nrw=write\nfill_device=1\nfilename=/tmp/new.dat\n"
			      "[b]\nrw=write\nfill_fs=1\nsize=3m\n[c]\nsize=1m\nfill_device=0\n"), 0);
	assert_true(J(0)->until_full && J(0)->range == 0 && J(0)->io_bytes == 0);
	assert_int_equal(J(0)->time_ns, 0);
	assert_true(J(1)->until_full && J(1)->range == 3 << 20 && J(1)->io_bytes == 3 << 20);
	assert_false(J(2)->until_full);
	assert_string_equal(item(2, "fill_device=0")->became, "(the default: the job's size)");
}

/* steadystate with ss_dur, ss_ramp and ss_interval; nothing without ss_dur, as in fio. */
static void test_steadystate(void **state)
{
	assert_int_equal(file("[a]\nsize=1m\nss=iops_slope:0.5%\nss_dur=1m\nss_ramp=10\n"
			      "ss_interval=5\n[b]\nsize=1m\nsteadystate=bw:2%\n"), 0);
	assert_true(J(0)->steady == STEADY_IOPS_SLOPE && J(0)->steady_pct &&
		    J(0)->steady_limit == 0.5);
	assert_true(J(0)->steady_dur_ns == 60000000000ull &&
		    J(0)->steady_ramp_ns == 10000000000ull &&
		    J(0)->steady_interval_ns == 5000000000ull);
	assert_non_null(strstr(fio.jobs[0].equivalent, "--steady iops_slope:0.5% --steady-time 60s "
			       "--steady-ramp 10s --steady-interval 5s"));
	assert_int_equal(J(1)->steady, STEADY_NONE);
	assert_string_equal(item(1, "steadystate=bw:2%")->became, "(no effect)");
}

/* ---- command lines ---- */

static void test_command_line(void **state)
{
	/* Options before the first --name are every job's; each --name starts one. */
	assert_int_equal(cli("--rw=randread --bs 8k --size=1m --name=a --iodepth=4 "
			     "--ioengine=libaio --name=b --bs=16k --direct=1 --group_reporting "
			     "--time_based --runtime=2"), 0);
	assert_int_equal(jobs.n, 2);
	assert_string_equal(J(0)->name, "a");
	assert_int_equal(J(0)->bs, 8192);
	assert_int_equal(J(0)->depth, 4);
	assert_int_equal(J(0)->pattern, PATTERN_RANDOM);
	assert_int_equal(J(1)->bs, 16384);
	assert_int_equal(J(1)->cache, CACHE_DIRECT);
	assert_int_equal(J(1)->time_ns, 2 * SEC);
	assert_string_equal(item(1, "--bs=16k")->where, "command line");

	/* Job files after the command line's jobs; a stonewall between job files. */
	files[1].path = "one.fio";
	files[1].text = "[x]\nsize=1m\n[y]\nsize=1m\n";
	files[2].path = "two.fio";
	files[2].text = "[global]\nsize=1m\n[z]\n";
	assert_int_equal(cli("--bs=8k --name=c --size=1m one.fio two.fio"), 0);
	assert_int_equal(jobs.n, 4);
	assert_string_equal(J(0)->name, "c");
	assert_int_equal(J(1)->group, 0);               /* the first file runs beside c */
	assert_int_equal(J(2)->group, 0);
	assert_string_equal(J(3)->name, "z");
	assert_int_equal(J(3)->group, 1);
	assert_int_equal(J(3)->bs, 8192);               /* the command line's defaults */

	/* --section, fio's own options, --name=global. */
	assert_int_equal(cli("--section=y --output=o.txt --output-format json --eta=never "
			     "one.fio"), 0);
	assert_int_equal(jobs.n, 1);
	assert_string_equal(J(0)->name, "y");
	assert_string_equal(fio.output, "o.txt");
	assert_string_equal(fio.output_format, "json");
	assert_string_equal(fio.eta, "never");
	assert_int_equal(cli("--name=global --size=2m --name=g"), 0);
	assert_int_equal(J(0)->range, 2 * MiB);

	/* --readonly refuses a job that writes; fio's options iorate has not are refused. */
	assert_int_equal(cli("--readonly --name=w --rw=write --size=1m"), -EINVAL);
	assert_refused("--rw=write: writes, and --readonly was given");
	/* Trims change the target: refused as writes are. */
	assert_int_equal(cli("--readonly --name=t --rw=randtrim --size=1m"), -EINVAL);
	assert_refused("--rw=randtrim: writes, and --readonly was given");
	assert_int_equal(cli("--client=host --name=a"), -EINVAL);
	assert_err_has("--client=host: iorate has no fio's client/server mode");
	assert_int_equal(cli("--name=a --size=1m --direct"), -EINVAL);
	assert_refused("command line: --direct: needs a value");
	memset(&files[1], 0, sizeof(files) - sizeof(files[0]));
}

/* An item of job 0 for option became this, with exactly this note (NULL: none). */
static void item_is(const char *option, const char *became, const char *note)
{
	for (unsigned k = 0; k < fio.jobs[0].nitems; k++) {
		const struct compat_fio_item *it = &fio.jobs[0].items[k];

		if (strcmp(it->option, option) || strcmp(it->became, became))
			continue;
		if (!note)
			assert_null(it->note);
		else if (!it->note || strcmp(it->note, note))
			fail_msg("%s's note is \"%s\", not \"%s\"", option,
				 it->note ? it->note : "(none)", note);
		return;
	}
	fail_msg("no item for %s became %s", option, became);
}

/* The notes of options that change no setting say exactly why: sync's flag, a zero ramp_time,
 * rw's random offset every N I/Os as a percent, a log tuning without a log. */
static void test_notes_exact(void **state)
{
	assert_int_equal(file("[j]\nsize=1m\nsync=1\n"), 0);
	item_is("sync=1", "--cache writethrough",
		"O_SYNC; iorate's is O_DSYNC (the data and what reading it back needs)");
	assert_int_equal(file("[j]\nsize=1m\ndirect=1\nsync=dsync\n"), 0);
	item_is("sync=dsync", "--cache directsync", "O_DSYNC");
	assert_int_equal(file("[j]\nsize=1m\nsync=none\n"), 0);
	item_is("sync=none", "--cache buffered", NULL);
	assert_int_equal(file("[j]\nsize=1m\nramp_time=0\n"), 0);
	item_is("ramp_time=0", "(no warm-up)", NULL);
	assert_int_equal(file("[j]\nsize=1m\nrw=randread:3\n"), 0);
	item_is("rw=randread:3", "--random-pct 33", "fio takes a new random offset every 3 I/Os "
		"and continues sequentially in between; iorate makes each I/O random with that "
		"chance (rounded to a whole percent)");
	/* 100 / 8 is 12.5: rounded half up. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randread:8\n"), 0);
	item_is("rw=randread:8", "--random-pct 13", "fio takes a new random offset every 8 I/Os "
		"and continues sequentially in between; iorate makes each I/O random with that "
		"chance (rounded to a whole percent)");
	const char *tuning[] = {"log_avg_msec=500", "log_hist_msec=100", "log_max_value=1",
				"log_offset=1", "log_prio=1", "per_job_logs=0"};
	for (unsigned i = 0; i < sizeof(tuning) / sizeof(tuning[0]); i++) {
		char job[96];

		snprintf(job, sizeof(job), "[j]\nsize=1m\n%s\n", tuning[i]);
		assert_int_equal(file(job), 0);
		item_is(tuning[i], "(no effect)", "no log is written");
	}
	/* percentage_random's share of the direction the job does: writes' for randwrite. */
	assert_int_equal(file("[j]\nsize=1m\nrw=randwrite\npercentage_random=10,30\n"), 0);
	assert_string_equal(item(0, "percentage_random=10,30")->became, "--random-pct 30");
	assert_int_equal(file("[j]\nsize=1m\nrw=randread\npercentage_random=10,30\n"), 0);
	assert_string_equal(item(0, "percentage_random=10,30")->became, "--random-pct 10");
	/* fsync=0 syncs never: no --fsync, only read with what it goes with. */
	assert_int_equal(file("[j]\nsize=1m\nfsync=0\n"), 0);
	assert_string_equal(item(0, "fsync=0")->became, "(read with the options it goes with)");
	for (unsigned k = 0; k < fio.jobs[0].nitems; k++)
		assert_int_not_equal(strncmp(fio.jobs[0].items[k].became, "--fsync", 7), 0);
	/* Each of fio's logs, the first of them too; bare, it is named after the job. */
	assert_int_equal(file("[j]\nsize=1m\nwrite_bw_log=bw\nwrite_iops_log\n"), 0);
	item_is("write_bw_log=bw", "--log-bw bw", NULL);
	item_is("write_iops_log", "--log-iops j", NULL);
}

/* Every option of a job file says what it became; none is left unexplained. */
static void test_every_line_explained(void **state)
{
	assert_int_equal(file("[global]\nioengine=libaio\ndirect=1\nbs=4k\nsize=8m\n"
			      "group_reporting\nnorandommap\nrandseed=7\n[a]\nrw=randrw\n"
			      "rwmixread=70\niodepth=16\nnumjobs=2\nruntime=5\ntime_based\n"
			      "ramp_time=1\nstartdelay=0\nfilename=f\nrate_iops=1000\n"
			      "thinktime=10\nthinktime_blocks=4\nfsync=2\nend_fsync=1\n"
			      "invalidate=1\nstonewall\nname=x\ndescription=d\nkb_base=1024\n"
			      "random_distribution=zipf:1.2\noffset=0\nloops=2\nunlink=0\n"), 0);
	for (unsigned i = 0; i < fio.njobs; i++)
		for (unsigned k = 0; k < fio.jobs[i].nitems; k++) {
			const struct compat_fio_item *it = &fio.jobs[i].items[k];
			if (strstr(it->became, "read with the options"))
				fail_msg("%s %s: %s", it->where, it->option, it->became);
		}
	assert_string_equal(item(0, "time_based")->became, "(with runtime)");
	assert_string_equal(item(0, "loops=2")->became, "(no effect)");
	assert_non_null(strstr(fio.jobs[0].equivalent, "--engine aio --depth 16 --random"));
	assert_int_equal(file("[j]\nsize=1m\nrw=randread:8\nrw_sequencer=sequential\n"), 0);
	assert_string_equal(item(0, "rw_sequencer=sequential")->became, "(the default)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_and_globals),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_layout_errors),
		cmocka_unit_test(test_expansion),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_numjobs_and_files),
		cmocka_unit_test(test_pattern_and_mix),
		cmocka_unit_test(test_block_sizes),
		cmocka_unit_test(test_rates_and_syncs),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_trims),
		cmocka_unit_test(test_trim_sizes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_word_refusals),
		cmocka_unit_test(test_exits),
		cmocka_unit_test(test_prio),
		cmocka_unit_test(test_buffers),
		cmocka_unit_test(test_backwards_and_zones),
		cmocka_unit_test(test_fill_device),
		cmocka_unit_test(test_steadystate),
		cmocka_unit_test(test_values_judged_by_run),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_every_line_explained),
		cmocka_unit_test(test_notes_exact),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	reset();
	job_list_release(&jobs);
	return r;
}
