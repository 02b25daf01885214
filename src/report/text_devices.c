/*
 * The text report's view of the block devices under the targets: what the kernel counted for
 * each over the measured window (/proc/diskstats), the figures derived from it, and what
 * iorate itself did through it, so that a reader can tell whether the run was device-bound.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/text.h"
#include "util/escape.h"

/* Whether name is one of the jobs' block targets (rather than a device under a file). */
static bool is_target(const char *name, const struct result *jobs, unsigned njobs)
{
	for (unsigned j = 0; j < njobs; j++)
		for (unsigned t = 0; t < jobs[j].ntargets; t++) {
			const struct target_result *tr = &jobs[j].targets[t];

			if (tr->is_blockdev && !strcmp(tr->device, name))
				return true;
		}
	return false;
}

/* "0.045 ms" or "-" when there was nothing to divide by. */
static const char *fig(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

static void direction(FILE *f, const char *what, uint64_t ios, uint64_t merges, uint64_t bytes,
		      double avg, double merged_pct, double await)
{
	char a[32], b[32], c[32];

	fprintf(f, "\t  %-11s%" PRIu64 " requests, %" PRIu64 " B", what, ios, bytes);
	if (ios)
		fprintf(f, " (%s B each), %" PRIu64 " merged (%s %%), await %s ms",
			fig(a, sizeof(a), "%.0f", avg), merges,
			fig(b, sizeof(b), "%.2f", merged_pct), fig(c, sizeof(c), "%.3f", await));
	fputc('\n', f);
}

static void device(FILE *f, const struct device_view *v, const struct result *jobs,
		   unsigned njobs)
{
	const struct disk_counts *d = &v->disk;
	char name[sizeof(v->name) * 4], of[sizeof(v->of) * 4], a[32], b[32], c[32];
	struct device_figures g;

	device_view_figures(v, &g);
	escape_buf(v->name, name, sizeof(name));
	escape_buf(v->of, of, sizeof(of));
	if (v->role == DEVICE_DISK)
		fprintf(f, "\t%s (the whole disk of %s)", name, of);
	else if (v->role == DEVICE_MEMBER)
		fprintf(f, "\t%s (a member of %s)", name, of);
	else
		fprintf(f, "\t%s (%s)", name, is_target(v->name, jobs, njobs) ? "a target"
						: "a target's filesystem is on it");
	fprintf(f, " over %.3f s:\n", v->seconds);
	direction(f, "read:", d->read_ios, d->read_merges, d->read_bytes, g.read_avg_bytes,
		  g.read_merged_pct, g.read_await_ms);
	direction(f, "written:", d->write_ios, d->write_merges, d->write_bytes, g.write_avg_bytes,
		  g.write_merged_pct, g.write_await_ms);
	if (d->has_discard)
		fprintf(f, "\t  %-11s%" PRIu64 " requests, %" PRIu64 " B\n", "discarded:",
			d->discard_ios, d->discard_bytes);
	if (d->has_flush)
		fprintf(f, "\t  %-11s%" PRIu64 " requests\n", "flushed:", d->flush_ios);
	fprintf(f, "\t  %-11s%s %% of the window, %" PRIu64 " requests in flight at the end\n",
		"busy:", fig(a, sizeof(a), "%.2f", g.util_pct), d->in_flight);
	fprintf(f, "\t  %-11s%s requests on average, %s ms each\n", "queue:",
		fig(b, sizeof(b), "%.2f", g.queue_depth), fig(c, sizeof(c), "%.3f", g.queue_ms));
	fprintf(f, "\t  %-11s%" PRIu64 " reads (%" PRIu64 " B), %" PRIu64 " writes (%" PRIu64
		" B)", "iorate:", v->read_ios, v->read_bytes, v->write_ios, v->write_bytes);
	if (v->trim_ios)
		fprintf(f, ", %" PRIu64 " trims (%" PRIu64 " B)", v->trim_ios, v->trim_bytes);
	fputs(" to the targets on it\n", f);
}

/* The devices of one run or group (title: "group 0"; NULL for a run), with their window. */
static void devices(FILE *f, const struct device_view *v, unsigned n, const struct result *jobs,
		    unsigned njobs, const char *title)
{
	if (!n)
		return;
	fprintf(f, "Devices under the targets%s%s, from /proc/diskstats over the measured window\n"
		"(the kernel counts every process's I/O to them, not only iorate's):\n",
		title ? ", " : "", title ? title : "");
	for (unsigned i = 0; i < n; i++)
		device(f, &v[i], jobs, njobs);
	fputc('\n', f);
}

void text_devices(FILE *f, const struct result *r)
{
	devices(f, r->devices, r->ndevices, r, 1, NULL);
}

void text_devices_set(FILE *f, const struct result_set *s)
{
	char title[32];

	for (unsigned g = 0; g < s->ngroups; g++) {
		snprintf(title, sizeof(title), "group %u", s->groups[g].group);
		devices(f, s->groups[g].views, s->groups[g].nviews, s->jobs, s->njobs, title);
	}
	if (s->ngroups > 1)
		devices(f, s->total.views, s->total.nviews, s->jobs, s->njobs, "the whole run");
}
