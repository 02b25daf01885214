/*
 * Priorities per I/O: the three options that say which I/Os carry one (fio's
 * cmdprio_percentage, cmdprio_class with cmdprio, cmdprio_bssplit), parsed into the job and
 * written back the same way for the result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job.h"
#include "util/parse.h"

/* "CLASS" or "CLASS<sep>LEVEL" of [s, end): the ioprio value, or 0 when it is not one. */
static uint16_t parse_prio(const char *s, const char *end, char sep)
{
	const char *c = memchr(s, sep, (size_t)(end - s));
	size_t n = c ? (size_t)(c - s) : (size_t)(end - s);
	char level[8];
	unsigned lv = 0;

	if (c) {
		size_t ln = (size_t)(end - c - 1);
		if (ln == 0 || ln >= sizeof(level))
			return 0;
		memcpy(level, c + 1, ln);
		level[ln] = '\0';
		if (parse_uint(level, 0, 7, &lv))
			return 0;
	}
	for (unsigned k = JOB_IOPRIO_RT; k <= JOB_IOPRIO_IDLE; k++)
		if (strlen(job_ioprio_classes[k]) == n && !strncmp(s, job_ioprio_classes[k], n))
			return JOB_IOPRIO(k, lv);
	return 0;
}

static int prio_str(uint16_t p, char sep, char *buf, size_t len)
{
	return snprintf(buf, len, "%s%c%u", job_ioprio_classes[(p >> 13) & 3], sep, p & 7);
}

/* "R[,W]": one or two parts of spec split at its comma, into part[0], part[1]. */
static int halves(const char *spec, char part[2][256])
{
	const char *comma = strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : strlen(spec);

	if (n >= 256 || (comma && strlen(comma + 1) >= 256) || (comma && strchr(comma + 1, ',')))
		return -EINVAL;
	memcpy(part[0], spec, n);
	part[0][n] = '\0';
	snprintf(part[1], 256, "%s", comma ? comma + 1 : part[0]);
	return 0;
}

int job_parse_cmdprio(struct job *j, const char *spec, const char **why)
{
	char part[2][256];
	unsigned pct[2];

	if (halves(spec, part) || parse_uint(part[0], 0, 100, &pct[0]) ||
	    parse_uint(part[1], 0, 100, &pct[1])) {
		*why = "is not a percent of reads (0 to 100), with ,PERCENT of writes";
		return -EINVAL;
	}
	j->cmdprio.pct[0] = pct[0];
	j->cmdprio.pct[1] = pct[1];
	j->cmdprio.on = true;
	return 0;
}

int job_parse_cmdprio_class(struct job *j, const char *spec, const char **why)
{
	char part[2][256];
	uint16_t p[2];

	if (halves(spec, part) || !(p[0] = parse_prio(part[0], part[0] + strlen(part[0]), ':')) ||
	    !(p[1] = parse_prio(part[1], part[1] + strlen(part[1]), ':'))) {
		*why = "is not rt, be or idle with :LEVEL (0 to 7), with ,CLASS[:LEVEL] for writes";
		return -EINVAL;
	}
	j->cmdprio.ioprio[0] = p[0];
	j->cmdprio.ioprio[1] = p[1];
	j->cmdprio.class_set = true;
	return 0;
}

/* One direction's list: BS/PCT[/CLASS[/LEVEL]] entries separated by ':'. */
static int parse_split(const char *s, struct job_cmdprio_bs *out, unsigned *n)
{
	*n = 0;
	while (*s) {
		const char *end = strchr(s, ':'), *slash = strchr(s, '/'), *pe;
		char num[64];
		struct job_cmdprio_bs e;
		memset(&e, 0, sizeof(e));  /* padding too: the job is compared and copied whole */
		end = end ? end : s + strlen(s);
		if (*n >= JOB_MAX_BS || !slash || slash >= end || (size_t)(slash - s) >= sizeof(num))
			return -EINVAL;
		memcpy(num, s, (size_t)(slash - s));
		num[slash - s] = '\0';
		if (parse_size(num, &e.bs) || !e.bs)
			return -EINVAL;
		pe = memchr(slash + 1, '/', (size_t)(end - slash - 1));
		size_t pl = (size_t)((pe ? pe : end) - slash - 1);
		if (!pl || pl >= sizeof(num))
			return -EINVAL;
		memcpy(num, slash + 1, pl);
		num[pl] = '\0';
		if (parse_uint(num, 0, 100, &e.pct) || (pe && !(e.ioprio = parse_prio(pe + 1, end, '/'))))
			return -EINVAL;
		/* A size may have several entries (fio: 64k/25/rt/1:64k/75/idle/2): their
		 * shares add up, to at most 100. */
		unsigned sum = e.pct;
		for (unsigned i = 0; i < *n; i++)
			sum += out[i].bs == e.bs ? out[i].pct : 0;
		if (sum > 100)
			return -EINVAL;
		out[(*n)++] = e;
		s = *end ? end + 1 : end;
	}
	return *n ? 0 : -EINVAL;
}

int job_parse_cmdprio_split(struct job *j, const char *spec, const char **why)
{
	char part[2][256];
	struct job_cmdprio_bs split[2][JOB_MAX_BS];
	unsigned n[2];

	memset(split, 0, sizeof(split));
	if (halves(spec, part) || parse_split(part[0], split[0], &n[0]) ||
	    parse_split(part[1], split[1], &n[1])) {
		*why = "is not BS/PERCENT[/CLASS[/LEVEL]] entries (up to 16; the shares of one "
		       "size add up to at most 100) separated by ':', with ,ENTRIES for writes";
		return -EINVAL;
	}
	for (unsigned d = 0; d < 2; d++) {
		memcpy(j->cmdprio.split[d], split[d], sizeof(split[d]));
		j->cmdprio.nsplit[d] = n[d];
	}
	j->cmdprio.on = true;
	return 0;
}

static size_t split_str(const struct job_cmdprio_bs *e, unsigned n, char *buf, size_t len)
{
	size_t at = 0;

	for (unsigned i = 0; i < n && at < len; i++) {
		at += (size_t)snprintf(buf + at, len - at, "%s%llu/%u", i ? ":" : "",
				       (unsigned long long)e[i].bs, e[i].pct);
		if (e[i].ioprio && at + 1 < len) {
			buf[at++] = '/';
			at += (size_t)prio_str(e[i].ioprio, '/', buf + at, len - at);
		}
	}
	if (at >= len)
		at = len - 1;
	buf[at] = '\0';
	return at;
}

const char *job_cmdprio_str(const struct job *j, int which, char *buf, size_t len)
{
	const struct job_cmdprio *c = &j->cmdprio;
	size_t at;

	buf[0] = '\0';
	if (which == 0 && c->on && !c->nsplit[0])
		snprintf(buf, len, "%u,%u", c->pct[0], c->pct[1]);
	else if (which == 1 && c->class_set) {
		at = (size_t)prio_str(c->ioprio[0], ':', buf, len);
		if (at < len) {
			buf[at++] = ',';
			prio_str(c->ioprio[1], ':', buf + at, len - at);
		}
	} else if (which == 2 && c->nsplit[0]) {
		at = split_str(c->split[0], c->nsplit[0], buf, len);
		if (at + 1 < len) {
			buf[at++] = ',';
			buf[at] = '\0';
			split_str(c->split[1], c->nsplit[1], buf + at, len - at);
		}
	}
	return buf;
}
