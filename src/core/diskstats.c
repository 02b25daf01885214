#include "core/diskstats.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int diskstats_read(const char *name, struct kernel_counts *out)
{
	char line[512], dev[64];
	unsigned long long rd, rsec, wr, wsec;
	FILE *f = fopen("/proc/diskstats", "r");
	int r = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* major minor name reads merged sectors ms writes merged sectors ... */
		if (sscanf(line, "%*u %*u %63s %llu %*u %llu %*u %llu %*u %llu", dev, &rd, &rsec, &wr,
			   &wsec) != 5 ||
		    strcmp(dev, name))
			continue;
		memset(out, 0, sizeof(*out));
		out->valid = true;
		snprintf(out->name, sizeof(out->name), "%s", name);
		out->read_ios = rd;
		out->write_ios = wr;
		out->read_bytes = rsec * 512;
		out->write_bytes = wsec * 512;
		r = 0;
		break;
	}
	fclose(f);
	return r;
}

void diskstats_delta(const struct kernel_counts *before, const struct kernel_counts *after,
		     struct kernel_counts *out)
{
	struct kernel_counts b = *before; /* out may be before */

	*out = *after;
	out->valid = b.valid && after->valid;
	out->read_ios -= b.read_ios;
	out->write_ios -= b.write_ios;
	out->read_bytes -= b.read_bytes;
	out->write_bytes -= b.write_bytes;
}
