/*
 * The written forms of a job's shapes: block-size mixes and access distributions, as fio writes
 * them (bssplit=4k/50:64k/50, random_distribution=zipf:1.2), which is how --bssplit and
 * --distribution read them too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job.h"
#include "util/jsonout.h"
#include "util/parse.h"

/* Splits s at every sep (in place); at most max parts. Returns the count, or max + 1. */
static unsigned split(char *s, char sep, char **parts, unsigned max)
{
	unsigned n = 0;

	for (;;) {
		if (n == max)
			return max + 1;
		parts[n++] = s;
		char *p = strchr(s, sep);
		if (!p)
			return n;
		*p = '\0';
		s = p + 1;
	}
}

/*
 * One direction's mix, "4k/50:8k/:64k/" (an empty share takes an equal part of what the others
 * leave). Empty text: no mix (the job's bs).
 */
static int parse_mix(char *s, struct job_bs *mix, unsigned *n, const char **why)
{
	char *parts[JOB_MAX_BS];
	unsigned k, sum = 0, blanks = 0;

	*n = 0;
	if (!*s)
		return 0;
	k = split(s, ':', parts, JOB_MAX_BS);
	if (k > JOB_MAX_BS) {
		*why = "has more than 16 sizes in one direction";
		return -EINVAL;
	}
	for (unsigned i = 0; i < k; i++) {
		char *slash = strchr(parts[i], '/');
		if (slash)
			*slash = '\0';
		if (parse_size(parts[i], &mix[i].bs) || !mix[i].bs) {
			*why = "is not SIZE/PERCENT[:SIZE/PERCENT...] (example: 4k/50:64k/50)";
			return -EINVAL;
		}
		mix[i].pct = UINT32_MAX;
		if (!slash || !slash[1]) {
			blanks++;
			continue;
		}
		if (parse_uint(slash + 1, 0, 100, &mix[i].pct)) {
			*why = "has a share that is not a whole percent from 0 to 100";
			return -EINVAL;
		}
		sum += mix[i].pct;
	}
	if (sum > 100) {
		*why = "has shares that add up to more than 100%";
		return -EINVAL;
	}
	/* The sizes without a share split what is left; the last of them takes the remainder. */
	for (unsigned i = 0, seen = 0; i < k; i++)
		if (mix[i].pct == UINT32_MAX) {
			seen++;
			mix[i].pct = (100 - sum) / blanks + (seen == blanks ? (100 - sum) % blanks : 0);
		}
	*n = k;
	return 0;
}

int job_parse_bssplit(struct job *j, const char *spec, const char **why)
{
	char *s = strdup(spec), *comma;
	unsigned nr, nw;
	int r;

	if (!s) {
		*why = "cannot be held (out of memory)";
		return -ENOMEM;
	}
	/* "READS,WRITES"; one mix alone serves both directions. */
	comma = strchr(s, ',');
	if (comma)
		*comma = '\0';
	if (comma && strchr(comma + 1, ',')) {
		*why = "has more than two parts (READS,WRITES)";
		r = -EINVAL;
	} else if (!(r = parse_mix(s, j->bs_read, &nr, why)) &&
		   !(r = comma ? parse_mix(comma + 1, j->bs_write, &nw, why) : 0)) {
		if (!comma) {
			memcpy(j->bs_write, j->bs_read, sizeof(j->bs_write));
			nw = nr;
		}
		if (!nr && !nw) {
			*why = "names no block size";
			r = -EINVAL;
		} else {
			j->nbs_read = nr;
			j->nbs_write = nw;
		}
	}
	free(s);
	return r;
}

static const struct {
	const char *name;
	enum job_dist dist;
	double def;     /* the parameter when none is given (fio's defaults) */
} dists[] = {
	{.name = "random", .dist = DIST_UNIFORM, .def = 0},
	{.name = "uniform", .dist = DIST_UNIFORM, .def = 0},
	{.name = "zipf", .dist = DIST_ZIPF, .def = 1.2},
	{.name = "pareto", .dist = DIST_PARETO, .def = 0.2},
	{.name = "normal", .dist = DIST_NORMAL, .def = 10},
	{.name = "gauss", .dist = DIST_NORMAL, .def = 10},
	{.name = "zoned", .dist = DIST_ZONED, .def = 0},
	{.name = "zoned_abs", .dist = DIST_ZONED_ABS, .def = 0},
	{.name = "sequence", .dist = DIST_SEQUENCE, .def = 0},
};

const char *job_dist_name(enum job_dist d)
{
	/* The first name of each is fio's alias ("random") where it has one; iorate's is after. */
	const char *name = NULL;

	for (size_t i = 0; i < sizeof(dists) / sizeof(dists[0]); i++)
		if (dists[i].dist == d && (!name || !strcmp(name, "random")))
			name = dists[i].name;
	return name ? name : "?";
}

/* "2,0,1": block indices, at most JOB_MAX_SEQ. */
static int parse_sequence(char *s, struct job *j, const char **why)
{
	char *parts[JOB_MAX_SEQ + 1];
	unsigned k = split(s, ',', parts, JOB_MAX_SEQ + 1);

	for (unsigned i = 0; i < k && i < JOB_MAX_SEQ; i++) {
		uint64_t v;
		if (parse_u64(parts[i], 0, UINT32_MAX, &v)) {
			*why = "is not sequence:INDEX,INDEX,... (block indices from 0, example: "
			       "sequence:2,0,1)";
			return -EINVAL;
		}
		j->seq[i] = (uint32_t)v;
	}
	if (k > JOB_MAX_SEQ) {
		*why = "has more than 64 block indices";
		return -EINVAL;
	}
	j->nseq = k;
	return 0;
}

/*
 * "60/10:30/20:10/70": access percent / size percent of each zone, from the region's start;
 * zoned_abs: "60/1g:40/0", access percent / bytes (a last 0: to the region's end).
 */
static int parse_zones(char *s, struct job *j, bool abs, const char **why)
{
	char *parts[JOB_MAX_ZONES];
	unsigned k = split(s, ':', parts, JOB_MAX_ZONES);

	if (k > JOB_MAX_ZONES) {
		*why = "has more than 16 zones";
		return -EINVAL;
	}
	for (unsigned i = 0; i < k; i++) {
		struct job_zone *z = &j->zones[i];
		char *slash = strchr(parts[i], '/');
		if (slash)
			*slash = '\0';
		*z = (struct job_zone){0};
		if (!slash || parse_double(parts[i], 0, 100, &z->access_pct) ||
		    (abs ? parse_size(slash + 1, &z->size_bytes)
			 : parse_double(slash + 1, 0, 100, &z->size_pct))) {
			*why = abs ? "is not zoned_abs:ACCESS%/SIZE[:...] (example: "
				     "zoned_abs:60/1g:40/0)"
				   : "is not zoned:ACCESS%/SIZE%[:...] (example: "
				     "zoned:60/10:30/20:10/70)";
			return -EINVAL;
		}
	}
	j->nzones = k;
	return 0;
}

int job_parse_dist(struct job *j, const char *spec, const char **why)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	char *rest;
	int r = 0;

	for (unsigned i = 0; i < sizeof(dists) / sizeof(dists[0]); i++) {
		if (strlen(dists[i].name) != len || strncmp(spec, dists[i].name, len))
			continue;
		j->dist = dists[i].dist;
		j->dist_param = dists[i].def;
		j->nzones = 0;
		j->nseq = 0;
		if (!colon && j->dist == DIST_SEQUENCE)
			return *why = "needs its block indices (sequence:2,0,1)", -EINVAL;
		if (!colon)
			return j->dist >= DIST_ZONED ? (*why = "needs its zones (zoned:60/10:40/90)",
							-EINVAL)
						     : 0;
		if (j->dist == DIST_UNIFORM) {
			*why = "takes no parameter when uniform";
			return -EINVAL;
		}
		if (!(rest = strdup(colon + 1))) {
			*why = "cannot be held (out of memory)";
			return -ENOMEM;
		}
		if (j->dist == DIST_SEQUENCE)
			r = parse_sequence(rest, j, why);
		else if (j->dist >= DIST_ZONED)
			r = parse_zones(rest, j, j->dist == DIST_ZONED_ABS, why);
		else if (parse_double(rest, 0, 1e6, &j->dist_param)) {
			*why = "has a parameter that is not a number (zipf:1.2, pareto:0.2, normal:10)";
			r = -EINVAL;
		}
		free(rest);
		return r;
	}
	*why = "is not a distribution (uniform, zipf[:THETA], pareto[:H], normal[:PERCENT], "
	       "zoned:ACCESS%/SIZE%:..., zoned_abs:ACCESS%/SIZE:..., sequence:INDEX,...)";
	return -EINVAL;
}

/* ---- failures a job goes on after (fio's continue_on_error and ignore_error) ---- */

int job_errno_parse(const char *name)
{
	unsigned v;

	if (!parse_uint(name, 1, 4095, &v))
		return (int)v;
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n && !strcmp(n, name))
			return e;
	}
	return 0;
}

int job_parse_continue(struct job *j, const char *spec, const char **why)
{
	static const struct {
		const char *name;
		unsigned bits;
	} kinds[] = {
		{.name = "none", .bits = 0}, {.name = "0", .bits = 0},
		{.name = "read", .bits = JOB_CONT_READ}, {.name = "write", .bits = JOB_CONT_WRITE},
		{.name = "io", .bits = JOB_CONT_READ | JOB_CONT_WRITE},
		{.name = "verify", .bits = JOB_CONT_VERIFY},
		{.name = "all", .bits = JOB_CONT_READ | JOB_CONT_WRITE | JOB_CONT_VERIFY},
		{.name = "1", .bits = JOB_CONT_READ | JOB_CONT_WRITE | JOB_CONT_VERIFY},
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(spec, kinds[i].name)) {
			j->continue_on = kinds[i].bits;
			return 0;
		}
	*why = "is not none, read, write, io, verify or all";
	return -EINVAL;
}

/* One direction's list, "EIO:ENOSPC:122" (empty: the defaults). */
static int parse_errnos(char *s, int *out, unsigned *n, const char **why)
{
	char *parts[JOB_MAX_IGNORE];
	unsigned k;

	*n = 0;
	if (!*s)
		return 0;
	if ((k = split(s, ':', parts, JOB_MAX_IGNORE)) > JOB_MAX_IGNORE) {
		*why = "lists more than 8 errors for one kind of I/O";
		return -EINVAL;
	}
	for (unsigned i = 0; i < k; i++)
		if (!(out[i] = job_errno_parse(parts[i]))) {
			*why = "is not a list of errors by name or number (example: EIO:ENOSPC,122)";
			return -EINVAL;
		}
	*n = k;
	return 0;
}

int job_parse_ignore_error(struct job *j, const char *spec, const char **why)
{
	char buf[512], *parts[3];
	int tmp[JOB_MAX_IGNORE];
	unsigned k, n = 0;

	if (strlen(spec) >= sizeof(buf)) {
		*why = "is too long";
		return -EINVAL;
	}
	strcpy(buf, spec);
	if ((k = split(buf, ',', parts, 3)) > 3) {
		*why = "has more than three lists (READS,WRITES,VERIFY)";
		return -EINVAL;
	}
	for (unsigned d = 0; d < k; d++) {
		/* The third list names errors of verification, which never stops a job. */
		int *out = d < 2 ? j->ignore_errno[d] : tmp;
		unsigned *cnt = d < 2 ? &j->nignore[d] : &n;
		if (parse_errnos(parts[d], out, cnt, why))
			return -EINVAL;
	}
	return 0;
}

/* ---- the I/O priority of the job's threads ---- */

const char *const job_ioprio_classes[4] = {"", "rt", "be", "idle"};

int job_parse_ioprio(struct job *j, const char *spec, const char **why)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	unsigned level = 4;

	for (unsigned c = JOB_IOPRIO_RT; c <= JOB_IOPRIO_IDLE; c++) {
		if (strlen(job_ioprio_classes[c]) != n || strncmp(spec, job_ioprio_classes[c], n))
			continue;
		if (colon && parse_uint(colon + 1, 0, 7, &level)) {
			*why = "has a level that is not 0 to 7";
			return -EINVAL;
		}
		j->ioprio_class = c;
		j->ioprio_level = level;
		return 0;
	}
	*why = "is not rt, be or idle, with :LEVEL (0 to 7)";
	return -EINVAL;
}

const char *job_ioprio_name(const struct job *j, char *buf, size_t len)
{
	if (j->ioprio_class < JOB_IOPRIO_RT || j->ioprio_class > JOB_IOPRIO_IDLE)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s:%u", job_ioprio_classes[j->ioprio_class], j->ioprio_level);
	return buf;
}

/* ---- the pattern of --pattern (fio's buffer_pattern) ---- */

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* 0xHEX at *s: its bytes, an odd first digit a byte of its own; stops before another "0x". */
static int pattern_hex(const char **s, unsigned char *out, unsigned *n)
{
	const char *p = *s + 2, *e = p;

	while (hexval(*e) >= 0 && !(e[0] == '0' && (e[1] == 'x' || e[1] == 'X')))
		e++;
	if (e == p || (size_t)(e - p + 1) / 2 > JOB_MAX_PATTERN - *n)
		return -EINVAL;
	if ((e - p) & 1)
		out[(*n)++] = (unsigned char)hexval(*p++);
	for (; p < e; p += 2)
		out[(*n)++] = (unsigned char)(hexval(p[0]) << 4 | hexval(p[1]));
	*s = e;
	return 0;
}

/* A decimal integer: its 32 bits, least significant byte first, as few bytes as hold it. Its
 * digits end where a "0x" begins ("-100xab" is -10, then 0xab, as fio reads it). */
static int pattern_dec(const char **s, unsigned char *out, unsigned *n)
{
	const char *p = *s + (**s == '-' || **s == '+'), *e = p;
	char num[16];
	long long v;

	while (isdigit((unsigned char)*e) && !(e[0] == '0' && (e[1] == 'x' || e[1] == 'X')))
		e++;
	if (e == p || (size_t)(e - *s) >= sizeof(num))
		return -EINVAL;
	memcpy(num, *s, (size_t)(e - *s));
	num[e - *s] = 0;
	v = strtoll(num, NULL, 10);
	if (v < INT32_MIN || v > INT32_MAX)
		return -EINVAL;
	uint32_t u = (uint32_t)v;
	do {
		if (*n >= JOB_MAX_PATTERN)
			return -EINVAL;
		out[(*n)++] = (unsigned char)u;
		u >>= 8;
	} while (u);
	*s = e;
	return 0;
}

int job_parse_pattern(struct job *j, const char *spec, const char **why)
{
	unsigned char out[JOB_MAX_PATTERN];
	unsigned n = 0;
	const char *s = spec;

	*why = "is not a pattern: 0xHEX, a decimal integer or \"TEXT\", in any order";
	while (*s) {
		int r;
		if (*s == '"') {
			const char *e = strchr(s + 1, '"');
			if (!e || e == s + 1 || (size_t)(e - s - 1) > JOB_MAX_PATTERN - n)
				return -EINVAL;
			memcpy(out + n, s + 1, (size_t)(e - s - 1));
			n += (unsigned)(e - s - 1);
			s = e + 1;
			continue;
		}
		if (*s == '\'') {
			*why = "names a file ('FILE'): iorate takes the pattern's bytes only";
			return -EINVAL;
		}
		r = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? pattern_hex(&s, out, &n)
								 : pattern_dec(&s, out, &n);
		if (r)
			return r;
	}
	if (!n)
		return -EINVAL;
	memcpy(j->data_pattern, out, n);
	j->data_len = n;
	return 0;
}

const char *job_pattern_hex(const struct job *j, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = 0;
	if (j->data_len && len > 2)
		k = (size_t)snprintf(buf, len, "0x");
	for (unsigned i = 0; i < j->data_len && k + 2 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%02x", j->data_pattern[i]);
	return buf;
}

/* ---- steady state (fio's steadystate) ---- */

static const char *const steady_names[] = {"", "iops", "iops_slope", "bw", "bw_slope", "lat",
					   "lat_slope"};

int job_parse_steady(struct job *j, const char *spec, const char **why)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : 0;
	char num[32], *end;
	double v;

	*why = "is not iops, iops_slope, bw, bw_slope, lat or lat_slope with :LIMIT (a number, a "
	       "duration for lat, or a percent)";
	for (unsigned c = STEADY_IOPS; colon && c <= STEADY_LAT_SLOPE; c++) {
		if (strlen(steady_names[c]) != n || strncmp(spec, steady_names[c], n))
			continue;
		size_t len = strlen(colon + 1);
		bool pct = len && colon[len] == '%';
		if (len - pct == 0 || len - pct >= sizeof(num))
			return -EINVAL;
		memcpy(num, colon + 1, len - pct);
		num[len - pct] = 0;
		v = strtod(num, &end);
		/* lat's limit is a time, in ns here: "50us", "2ms", or microseconds, as fio reads it. */
		if (c >= STEADY_LAT && !pct && *end) {
			uint64_t ns;
			if (parse_duration(num, &ns))
				return -EINVAL;
			v = (double)ns;
		} else if (c >= STEADY_LAT && !pct) {
			v *= 1000;
		} else if (*end) {
			return -EINVAL;
		}
		if (!(v >= 0) || v > 1e15)
			return -EINVAL;
		j->steady = (enum job_steady)c;
		j->steady_limit = v;
		j->steady_pct = pct;
		return 0;
	}
	return -EINVAL;
}

const char *job_steady_name(const struct job *j, char *buf, size_t len)
{
	if (j->steady <= STEADY_NONE || j->steady > STEADY_LAT_SLOPE)
		snprintf(buf, len, "%s", "");
	else {
		char v[32];
		/* Shortest exact: "50", "0.1". */
		if (j->steady_limit == (double)(uint64_t)j->steady_limit)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)j->steady_limit);
		else
			jsonout_real(j->steady_limit, v, sizeof(v));
		snprintf(buf, len, "%s:%s%s", steady_names[j->steady], v, j->steady_pct ? "%" :
			 j->steady >= STEADY_LAT ? "ns" : "");
	}
	return buf;
}
