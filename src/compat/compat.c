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

#include "compat/compat.h"
#include "util/escape.h"
#include "util/parse.h"

/* The flag and its values were typed by the user and go to a terminal: both escaped. */
void compat_explain(FILE *explain, const char *flag, const char *fmt, ...)
{
	char *what = NULL, *f;
	va_list ap;
	int n;

	if (!explain)
		return;
	f = escape_dup(flag);
	fprintf(explain, "  %-16s ", f ? f : "?");
	free(f);
	va_start(ap, fmt);
	n = vasprintf(&what, fmt, ap);
	va_end(ap);
	escape_fputs(n < 0 ? "(out of memory)" : what, explain);
	free(what);
	fputc('\n', explain);
}

/* "  -o8              --depth 8: note", or "  default -o2      --depth 2". */
static void explain_setting(FILE *explain, const struct compat_setting *s)
{
	char *flag = NULL;

	if (!explain)
		return;
	if (asprintf(&flag, "%s%s", s->is_default ? "default " : "", s->flag) < 0)
		flag = NULL;
	compat_explain(explain, flag ? flag : s->flag, "--%s%s%s%s%s", s->name,
		       s->value ? " " : "", s->value ? s->value : "", s->note ? ": " : "",
		       s->note ? s->note : "");
	free(flag);
}

int compat_set(const struct compat_to *t, const char *flag, bool is_default, const char *name,
	       const char *value, const char *note, ...)
{
	struct compat_setting s = {
		.name = name, .value = value, .flag = flag, .is_default = is_default, .job = t->j};
	char why[512] = "", *text = NULL;
	va_list ap;
	int r;

	if (note) {
		va_start(ap, note);
		r = vasprintf(&text, note, ap);
		va_end(ap);
		if (r < 0) {
			err_set(t->err, t->errlen, -EINVAL, "out of memory");
			return -ENOMEM;
		}
		s.note = *text ? text : NULL;
	}
	if ((r = t->sink->set(t->sink->arg, &s, why, sizeof(why))))
		(void)err_set(t->err, t->errlen, r, "%s%s: %s", is_default ? "default " : "", flag,
			      why[0] ? why : strerror(-r));
	else
		explain_setting(t->ex, &s);
	if (!r && !is_default)
		compat_spell_record(name, flag);
	free(text);
	return r == -ENOMEM ? r : r ? -EINVAL : 0;
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

/* The job's --distribution as 'iorate run' reads it ("zoned:90/10:10/90"). */
static size_t put_dist(const struct job *j, char *buf, size_t len, size_t n)
{
	static const char *const names[] = {"uniform", "zipf", "pareto", "normal", "zoned",
					     "zoned_abs", "sequence"};

	if (j->dist == DIST_UNIFORM || (unsigned)j->dist >= sizeof(names) / sizeof(names[0]))
		return n;
	n = put(buf, len, n, " --distribution %s", names[j->dist]);
	if (j->dist == DIST_SEQUENCE) {
		for (unsigned i = 0; i < j->nseq; i++)
			n = put(buf, len, n, "%c%u", i ? ',' : ':', j->seq[i]);
		return j->seq_stride ? put(buf, len, n, " --sequence-stride") : n;
	}
	if (j->dist < DIST_ZONED)
		return put(buf, len, n, ":%g", j->dist_param);
	for (unsigned i = 0; i < j->nzones; i++)
		n = j->dist == DIST_ZONED_ABS
			    ? put(buf, len, n, ":%g/%llu", j->zones[i].access_pct,
				  (unsigned long long)j->zones[i].size_bytes)
			    : put(buf, len, n, ":%g/%g", j->zones[i].access_pct,
				  j->zones[i].size_pct);
	return n;
}

/* The shapes beyond one block size and a uniform pattern, and the page cache kept. */
static size_t put_shape(const struct job *j, char *buf, size_t len, size_t n)
{
	char a[32];

	if (j->random_pct)
		n = put(buf, len, n, " --random-pct %u", j->random_pct);
	n = put_dist(j, buf, len, n);
	if (j->seq_per_thread)
		n = put(buf, len, n, " --seq-threads each");
	if (j->thread_stride)
		n = put(buf, len, n, " --thread-stride %s", fmt_size(j->thread_stride, a, sizeof(a)));
	if (j->skip)
		n = put(buf, len, n, " --gap %s", fmt_size(j->skip, a, sizeof(a)));
	if (!j->invalidate)
		n = put(buf, len, n, " --no-invalidate");
	return n;
}

/* Priorities, flow control and the latency search, where the job has them. */
static size_t put_more(const struct job *j, char *buf, size_t len, size_t n)
{
	static const char *const prio_opt[3] = {"cmdprio", "cmdprio-class", "cmdprio-split"};
	char a[3 * 24 * JOB_MAX_BS];

	if (j->ioprio_class)
		n = put(buf, len, n, " --ioprio %s", job_ioprio_name(j, a, sizeof(a)));
	for (int i = 0; i < 3; i++)
		if (job_cmdprio_str(j, i, a, sizeof(a))[0])
			n = put(buf, len, n, " --%s %s", prio_opt[i], a);
	if (j->sqpoll)
		n = put(buf, len, n, " --sqpoll");
	if (j->atomic)
		n = put(buf, len, n, " --atomic");
	if (j->hipri)
		n = put(buf, len, n, " --hipri");
	if (j->nowait)
		n = put(buf, len, n, " --nowait");
	if (j->dontcache)
		n = put(buf, len, n, " --dontcache");
	if (j->thinktime_ns)
		n = put(buf, len, n, " --thinktime %s --thinktime-blocks %u",
			duration_str(j->thinktime_ns, a, sizeof(a)), j->thinktime_blocks);
	if (j->flow)
		n = put(buf, len, n, " --flow %u --flow-id %u", j->flow, j->flow_id);
	if (j->flow_sleep_ns)
		n = put(buf, len, n, " --flow-sleep %s", duration_str(j->flow_sleep_ns, a, sizeof(a)));
	if (j->lat_target_ns) {
		n = put(buf, len, n, " --latency-target %s", duration_str(j->lat_target_ns, a, sizeof(a)));
		n = put(buf, len, n, " --latency-window %s", duration_str(j->lat_window_ns, a, sizeof(a)));
		n = put(buf, len, n, " --latency-percentile %g%s", j->lat_pct > 0 ? j->lat_pct : 100,
			j->lat_run ? " --latency-run" : "");
	}
	return n;
}

char *compat_run_equivalent(const struct job *j, char *buf, size_t len)
{
	char a[32], b[32];
	size_t n = 0;

	n = put(buf, len, n, "iorate run --bs %s --time %s", fmt_size(j->bs, a, sizeof(a)),
		j->time_ns ? duration_str(j->time_ns, b, sizeof(b)) : "none");
	if (j->warmup_ns)
		n = put(buf, len, n, " --warmup %s", duration_str(j->warmup_ns, a, sizeof(a)));
	if (j->cooldown_ns)
		n = put(buf, len, n, " --cooldown %s", duration_str(j->cooldown_ns, a, sizeof(a)));
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
	n = put_shape(j, buf, len, n);
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
	n = put_more(j, buf, len, n);
	if (j->allow_write_device)
		n = put(buf, len, n, " --allow-write-device");
	if (j->force)
		n = put(buf, len, n, " --force");
	for (unsigned i = 0; i < j->ntargets; i++)
		n = put(buf, len, n, " %s", j->targets[i]);
	return buf;
}
