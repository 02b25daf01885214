/*
 * What the foreign-workload translators share: explain lines, Windows path and disk-number
 * targets, the equivalent `iorate run` line, and iorate's own --options around a foreign
 * command line (parsed here, applied and run in compat_cli_run()).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/compat.h"
#include "engine/engine.h"
#include "util/parse.h"

int compat_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void compat_explain(FILE *explain, const char *flag, const char *fmt, ...)
{
	va_list ap;

	if (!explain)
		return;
	fprintf(explain, "  %-16s ", flag);
	va_start(ap, fmt);
	vfprintf(explain, fmt, ap);
	va_end(ap);
	fputc('\n', explain);
}


bool compat_is_windows_path(const char *s)
{
	if (isalpha((unsigned char)s[0]) && s[1] == ':')
		return true;
	return strchr(s, '\\') != NULL;
}

/* Natural order: runs of digits compare as numbers, so sdb < sdc and nvme2n1 < nvme10n1. */
static int disk_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int compat_disk_by_number(const char *sysblock, unsigned n, char *name, size_t namelen,
			  char *list, size_t listlen)
{
	char **names = NULL, path[512];
	size_t cnt = 0, cap = 0, used = 0;
	struct dirent *e;
	struct stat st;
	int ret = 0;
	DIR *dir;

	if (!sysblock)
		sysblock =
			getenv("IORATE_SYSFS_BLOCK") ? getenv("IORATE_SYSFS_BLOCK") : "/sys/block";
	if (!(dir = opendir(sysblock)))
		return -errno;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || !strncmp(e->d_name, "sr", 2))
			continue;
		snprintf(path, sizeof(path), "%s/%s/device", sysblock, e->d_name);
		if (stat(path, &st))
			continue;
		if (cnt == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*nn));
			if (!nn) {
				ret = -ENOMEM;
				goto out;
			}
			names = nn;
		}
		if (!(names[cnt] = strdup(e->d_name))) {
			ret = -ENOMEM;
			goto out;
		}
		cnt++;
	}
	qsort(names, cnt, sizeof(*names), disk_cmp);
	if (list && listlen) {
		list[0] = '\0';
		for (size_t i = 0; i < cnt && used < listlen; i++)
			used += snprintf(list + used, listlen - used, "%s#%zu %s", i ? ", " : "", i,
					 names[i]);
		if (!cnt)
			snprintf(list, listlen, "no whole disks");
	}
	if (n >= cnt) {
		ret = -ENOENT;
		goto out;
	}
	snprintf(name, namelen, "%s", names[n]);
out:
	for (size_t i = 0; i < cnt; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return ret;
}


static size_t put(char *buf, size_t len, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;

	if (used >= len)
		return used;
	va_start(ap, fmt);
	used += vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return used;
}

static const char *fmt_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns % 1000000000ull == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000ull));
	else
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000ull));
	return buf;
}

char *compat_run_equivalent(const struct job *j, char *buf, size_t len)
{
	char a[32], b[32];
	size_t n = 0;

	n = put(buf, len, n, "iorate run --bs %s --time %s", fmt_size(j->bs, a, sizeof(a)),
		fmt_ns(j->time_ns, b, sizeof(b)));
	if (j->warmup_ns)
		n = put(buf, len, n, " --warmup %s", fmt_ns(j->warmup_ns, a, sizeof(a)));
	if (j->cooldown_ns)
		n = put(buf, len, n, " --cooldown %s", fmt_ns(j->cooldown_ns, a, sizeof(a)));
	n = put(buf, len, n, " --threads %u --depth %u --write %u --%s", j->threads, j->depth,
		j->write_pct, job_pattern_name(j->pattern));
	if (j->align)
		n = put(buf, len, n, " --align %s", fmt_size(j->align, a, sizeof(a)));
	if (j->size)
		n = put(buf, len, n, " --size %s", fmt_size(j->size, a, sizeof(a)));
	if (j->offset)
		n = put(buf, len, n, " --offset %s", fmt_size(j->offset, a, sizeof(a)));
	if (j->range)
		n = put(buf, len, n, " --range %s", fmt_size(j->range, a, sizeof(a)));
	n = put(buf, len, n, " --cache %s", job_cache_name(j->cache));
	if (j->fsync_every)
		n = put(buf, len, n, " --fsync %u", j->fsync_every);
	if (j->seed_set)
		n = put(buf, len, n, " --seed %llu", (unsigned long long)j->seed);
	if (j->engine[0])
		n = put(buf, len, n, " --engine %s", j->engine);
	if (j->fill == FILL_ZERO)
		n = put(buf, len, n, " --fill zero");
	if (j->keep)
		n = put(buf, len, n, " --keep");
	if (j->rate_iops > 0)
		n = put(buf, len, n, " --rate-iops %g", j->rate_iops);
	if (j->cap.iops > 0)
		n = put(buf, len, n, " --cap-iops %g", j->cap.iops);
	if (j->cap.mbps > 0)
		n = put(buf, len, n, " --cap-mbps %g", j->cap.mbps);
	if (j->allow_write_device)
		n = put(buf, len, n, " --allow-write-device");
	if (j->force)
		n = put(buf, len, n, " --force");
	for (unsigned i = 0; i < j->ntargets; i++)
		n = put(buf, len, n, " %s", j->targets[i]);
	return buf;
}


int compat_cli_parse(struct compat_cli *c, int argc, char **argv, const char *tool)
{
	memset(c, 0, sizeof(*c));
	output_opts_init(&c->out);
	if (!(c->fargv = calloc((size_t)argc + 1, sizeof(*c->fargv))))
		return usage_error("%s: out of memory", tool);
	c->fargv[c->fargc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strncmp(a, "--", 2)) {
			c->fargv[c->fargc++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--json") || !strcmp(a, "--csv")) {
			c->out.fmt = report_find(a + 2);
		} else if (!strcmp(a, "--quiet")) {
			c->out.quiet = true;
		} else if (!strcmp(a, "--dry-run")) {
			c->dry_run = true;
		} else if (!strcmp(a, "--help")) {
			c->help = true;
		} else if (!strcmp(a, "--allow-write-device")) {
			c->allow_write_device = true;
		} else if (!strcmp(a, "--force")) {
			c->force = true;
		} else if (!strcmp(a, "--engine") || !strcmp(a, "--size") ||
			   !strcmp(a, "--units")) {
			if (!val) {
				compat_cli_release(c);
				return usage_error("%s: %s needs a value", tool, a);
			}
			i++;
			if (!strcmp(a, "--engine"))
				c->engine = val;
			else if (!strcmp(a, "--size"))
				c->size = val;
			else if (!strcmp(val, "si") || !strcmp(val, "iec"))
				c->out.ropts.units = !strcmp(val, "si") ? UNITS_SI : UNITS_IEC;
			else {
				compat_cli_release(c);
				return usage_error("--units: '%s' is not a unit system (si or iec)",
						   val);
			}
		} else {
			compat_cli_release(c);
			return usage_error("%s: %s: not an iorate option here (supported: --json "
					   "--csv "
					   "--units --quiet --engine --size --allow-write-device "
					   "--force "
					   "--dry-run --help)",
					   tool, a);
		}
	}
	return 0;
}

void compat_cli_release(struct compat_cli *c)
{
	free(c->fargv);
	c->fargv = NULL;
}

static bool is_blockdev(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode);
}

int compat_cli_run(struct compat_cli *c, struct job *j, int argc, char **argv, const char *tool,
		   const char *explained)
{
	char line[2048];

	if (c->engine) {
		if (!engine_find(c->engine) || strlen(c->engine) >= sizeof(j->engine))
			return usage_error("--engine: '%s' is not an engine of this build (%s)",
					   c->engine, engine_names());
		strcpy(j->engine, c->engine);
	}
	if (c->size) {
		uint64_t v;

		if (parse_size(c->size, &v) || !v)
			return usage_error("--size: '%s' is not a size (examples: %s)", c->size,
					   PARSE_SIZE_EXAMPLES);
		j->size = v;
		j->keep = true;     /* as the foreign tools leave the files they create */
	}
	j->allow_write_device |= c->allow_write_device;
	j->force |= c->force;
	/* The record keeps what the user typed, iorate's options included. */
	if (job_set_command_line(j, "iorate", argc, argv))
		return run_error("%s: out of memory", tool);
	fprintf(stderr, "iorate: %s: what each flag became in: %s\n", tool, j->command_line);
	if (explained)
		fputs(explained, stderr);
	fprintf(stderr, "  = %s\n", compat_run_equivalent(j, line, sizeof(line)));
	for (unsigned i = 0; i < j->ntargets; i++) {
		const char *t = j->targets[i];
		struct stat st;

		if (j->write_pct && !j->allow_write_device && is_blockdev(t))
			return usage_error("%s: %s: writing to a block device destroys its data; "
					   "add "
					   "--allow-write-device to confirm",
					   tool, t);
		if (!j->size && !c->dry_run && stat(t, &st))
			return usage_error("%s: '%s' does not exist; %s", tool, t,
					   !strcmp(tool, "diskspd")
						   ? "DiskSpd creates a file only with -c<size>, "
						     "e.g. -c1G"
						   : "give its size with --size 1G or in a -F "
						     "parameter file");
	}
	if (c->dry_run)
		return 0;
	return cmd_run_job(j, &c->out);
}

int compat_cli_main(int argc, char **argv, const char *tool,
		    int (*parse)(int, char **, struct job *, FILE *, char *, size_t),
		    void (*usage)(FILE *f))
{
	struct compat_cli c;
	char err[1024], *ex = NULL;
	size_t exlen = 0;
	struct job j;
	FILE *mem;
	int r;

	if ((r = compat_cli_parse(&c, argc, argv, tool)))
		return r;
	if (c.help) {
		usage(stdout);
		compat_cli_release(&c);
		return 0;
	}
	job_init(&j);
	mem = open_memstream(&ex, &exlen);
	r = parse(c.fargc, c.fargv, &j, mem, err, sizeof(err));
	if (mem)
		fclose(mem);
	if (r)
		r = usage_error("%s: %s", tool, err);
	else
		r = compat_cli_run(&c, &j, argc, argv, tool, ex);
	free(ex);
	job_release(&j);
	compat_cli_release(&c);
	return r;
}
