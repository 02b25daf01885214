/*
 * The headline of the text report: the line a person reads first (and the only one --brief
 * prints), e.g. "read 20,178 IOPS, 78.8 MiB/s, p99 81.7 us on 1 target, direct, 4 KiB random
 * QD1". It says what was measured and under which workload, caps and open loop, so a figure
 * copied from it into a ticket carries what it means.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/summary.h"
#include "report/text.h"
#include "util/escape.h"
#include "util/parse.h"

/* A count with a comma every three digits: "20,178". */
static const char *thousands(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, o = 0;

	if (!isfinite(v) || v < 0)
		v = 0;
	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		buf[o++] = digits[i];
		if ((n - i - 1) % 3 == 0 && i + 1 < n)
			buf[o++] = ',';
	}
	buf[o] = 0;
	return buf;
}

/* A rate to three digits or more, whole from `whole` up: "0.176", "45", "78.8", "20,178". */
static const char *rate(double v, double whole, char *buf, size_t len)
{
	if (v >= whole)
		return thousands(v, buf, len);
	snprintf(buf, len, v >= 100 ? "%.1f" : "%.3g", v);
	return buf;
}

/* With trims: "trim", or the shares of the directions done, "50/50 write/trim". */
static void direction_trims(FILE *f, const struct dir_summary *s, uint64_t t)
{
	const uint64_t n[3] = {s[REPORT_READ].ios, s[REPORT_WRITE].ios, t};
	const char *const names[3] = {"read", "write", "trim"};
	uint64_t all = n[0] + n[1] + n[2];
	unsigned k = 0;

	if (n[2] == all) {
		fputs("trim", f);
		return;
	}
	for (unsigned d = 0; d < 3; d++)
		if (n[d])
			fprintf(f, "%s%.0f", k++ ? "/" : "", 100.0 * (double)n[d] / (double)all);
	k = 0;
	for (unsigned d = 0; d < 3; d++)
		if (n[d])
			fprintf(f, "%s%s", k++ ? "/" : " ", names[d]);
}

/* "read", "write", or "70/30 read/write": the I/Os done (what the job asked when none). */
static void direction(FILE *f, const struct dir_summary *s, const struct job *j, uint64_t t)
{
	uint64_t r = s[REPORT_READ].ios, w = s[REPORT_WRITE].ios;
	unsigned wpct;

	if (t) {
		direction_trims(f, s, t);
		return;
	}
	/* Nothing completed: what the job asked for. */
	if (!r && !w && j) {
		r = j->write_pct < 100;
		w = j->write_pct > 0;
	}
	if (r && !w) {
		fputs("read", f);
		return;
	}
	if (w && !r) {
		fputs("write", f);
		return;
	}
	if (!r && !w) {
		fputs("no I/O:", f);
		return;
	}
	wpct = s[REPORT_READ].ios || s[REPORT_WRITE].ios
		       ? (unsigned)llround(100.0 * (double)w / (double)(r + w))
		       : j->write_pct;
	fprintf(f, "%u/%u read/write", 100 - wpct, wpct);
}

/* ", direct, 4 KiB random QD1": the cache, the block size or mix, the pattern, the queue. */
static void workload(FILE *f, const struct job *j)
{
	char a[32], b[32];

	fprintf(f, ", %s, ", job_cache_name(j->cache));
	if (j->nbs_read || j->nbs_write)
		fprintf(f, "%s-%s mix", fmt_size_human(job_min_bs(j), a, sizeof(a)),
			fmt_size_human(job_max_bs(j), b, sizeof(b)));
	else
		fputs(fmt_size_human(j->bs, a, sizeof(a)), f);
	if (j->random_pct)
		fprintf(f, " %u%% random", j->random_pct);
	else
		fprintf(f, " %s", job_pattern_name(j->pattern));
	if (j->threads == 1)
		fprintf(f, " QD%u", j->depth);
	else
		fprintf(f, " %u threads x QD%u", j->threads, j->depth);
}

/* Caps and rates asked for are printed as given (%g: "500", "104.858"), not as measured. */
static void one_cap(FILE *f, const char *name, const struct job_caps *c, bool si)
{
	if (c->iops <= 0 && c->mbps <= 0)
		return;
	fprintf(f, "; %s cap", name);
	if (c->iops > 0)
		fprintf(f, " %g IOPS", c->iops);
	if (c->mbps > 0)
		fprintf(f, " %g %s", text_cap_rate(c->mbps, si), si ? "MB/s" : "MiB/s");
	if (c->burst_iops > 0 || c->burst_mbps > 0)
		fputs(" with bursts", f);
}

/* What held the run back on purpose: an emulated profile or caps, an open loop. */
static void limits(FILE *f, const struct job *j, bool si)
{
	if (j->emulate) {
		fputs("; emulating ", f);
		escape_fputs(j->emulate, f);
	} else {
		one_cap(f, "disk", &j->cap, si);
		one_cap(f, "VM", &j->vm_cap, si);
	}
	if (j->rate_iops > 0)
		fprintf(f, "; open loop %g IOPS per target", j->rate_iops);
}

int text_headline(FILE *f, const struct text_headline *h, const struct report_opts *o)
{
	struct dir_summary s[REPORT_NDIR];
	const struct dir_summary *t = &s[REPORT_TOTAL];
	bool si = o && o->units == UNITS_SI;
	char a[32], b[32];
	int ret = report_summarize(h->read, h->write, h->trim, h->seconds, s);

	if (ret < 0)
		return ret;
	fputs(h->label ? h->label : "", f);
	if (!h->started) {
		fputs("did not run\n", f);
		return 0;
	}
	direction(f, s, h->job, h->trim ? h->trim->ios : 0);
	fprintf(f, " %s IOPS, %s %s", rate(t->iops, 100, a, sizeof(a)),
		rate(si ? t->mbps : t->mibps, 1000, b, sizeof(b)), si ? "MB/s" : "MiB/s");
	if (t->has_lat)
		fprintf(f, ", p99 %s us", report_fmt_us(t->p99, a, sizeof(a)));
	fprintf(f, " on %u target%s", h->ntargets, h->ntargets == 1 ? "" : "s");
	if (h->job) {
		workload(f, h->job);
		limits(f, h->job, si);
	}
	if (h->failed)
		fputs("; FAILED", f);
	else if (h->interrupted)
		fprintf(f, "; INTERRUPTED after %.3f s", h->seconds);
	fputc('\n', f);
	return 0;
}

static bool same_caps(const struct job_caps *x, const struct job_caps *y)
{
	return x->iops == y->iops && x->mbps == y->mbps && x->burst_iops == y->burst_iops &&
	       x->burst_mbps == y->burst_mbps && x->burst_seconds == y->burst_seconds;
}

static bool same_mix(const struct job_bs *x, unsigned nx, const struct job_bs *y, unsigned ny)
{
	if (nx != ny)
		return false;
	for (unsigned i = 0; i < nx; i++)
		if (x[i].bs != y[i].bs || x[i].pct != y[i].pct)
			return false;
	return true;
}

bool text_same_workload(const struct job *a, const struct job *b)
{
	return a->bs == b->bs && same_mix(a->bs_read, a->nbs_read, b->bs_read, b->nbs_read) &&
	       same_mix(a->bs_write, a->nbs_write, b->bs_write, b->nbs_write) &&
	       a->pattern == b->pattern && a->random_pct == b->random_pct &&
	       a->cache == b->cache && a->threads == b->threads && a->depth == b->depth &&
	       a->write_pct == b->write_pct && same_caps(&a->cap, &b->cap) &&
	       same_caps(&a->vm_cap, &b->vm_cap) && a->rate_iops == b->rate_iops &&
	       !strcmp(a->emulate ? a->emulate : "", b->emulate ? b->emulate : "");
}
