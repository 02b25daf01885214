#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "report/summary.h"

static const char csv_header[] =
	"target,direction,ios,bytes,seconds,iops,mibps,mbps,lat_min_us,lat_mean_us,lat_stdev_us,"
	"lat_max_us,p50_us,p90_us,p99_us,p99_9_us,p99_99_us,p99_999_us";

/*
 * Fields are quoted as RFC 4180 says (report_csv_field), but rows end in a plain newline, as Unix
 * tools expect, rather than the RFC's CRLF. Latencies have nanosecond resolution, so three
 * decimals in microseconds lose nothing.
 */
static void csv_row(FILE *f, const char *target, const char *dir, const struct dir_summary *s,
		    double seconds)
{
	report_csv_field(f, target);
	fprintf(f, ",%s,%llu,%llu,%.6f,%.3f,%.6f,%.6f", dir, (unsigned long long)s->ios,
		(unsigned long long)s->bytes, seconds, s->iops, s->mibps, s->mbps);
	if (!s->has_lat) {
		fputs(",,,,,,,,,,\n", f);
		return;
	}
	fprintf(f, ",%.3f,%.3f,%.3f,%.3f", s->lat_min, s->lat_mean, s->lat_stdev, s->lat_max);
	for (unsigned i = 0; i < STATS_NPCT; i++)
		fprintf(f, ",%.3f", report_pct(s, i));
	fputs("\n", f);
}

static int csv_rows(FILE *f, const char *target, const struct dir_stats *rd,
		    const struct dir_stats *wr, double seconds)
{
	struct dir_summary s[REPORT_NDIR];
	int ret = report_summarize(rd, wr, seconds, s);

	if (ret < 0)
		return ret;
	for (unsigned d = 0; d < REPORT_NDIR; d++)
		csv_row(f, target, report_dir_names[d], &s[d], seconds);
	return 0;
}

/* One row per target and direction, then (iorate-mpi) per rank, then the whole run as "*". */
static int csv_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	int ret;

	fprintf(f, "%s\n", csv_header);
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		ret = csv_rows(f, t->path ? t->path : "", &t->read, &t->write, r->seconds);
		if (ret < 0)
			return ret;
	}
	/* iorate-mpi: each rank's own totals, as target "rank:K". */
	for (unsigned i = 0; i < r->nranks; i++) {
		char name[24];

		snprintf(name, sizeof(name), "rank:%u", r->ranks[i].rank);
		ret = csv_rows(f, name, &r->ranks[i].read, &r->ranks[i].write, r->ranks[i].seconds);
		if (ret < 0)
			return ret;
	}
	ret = csv_rows(f, "*", &r->read, &r->write, r->seconds);
	if (ret < 0)
		return ret;
	return ferror(f) ? -EIO : 0;
}

const struct report_ops report_csv = {
	.name = "csv",
	.write = csv_write,
};
