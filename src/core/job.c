#include "core/job.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/parse.h"

void job_init(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->bs = JOB_DEFAULT_BS;
	j->time_ns = JOB_DEFAULT_TIME_NS;
	j->threads = 1;
	j->depth = 1;
	j->batch = 1;
	j->pattern = PATTERN_RANDOM;
	j->cache = CACHE_DIRECT;
	j->fill = FILL_RANDOM;
	j->arrival = ARRIVAL_CLOSED;
	strcpy(j->origin, "run");
}

void job_release(struct job *j)
{
	if (!j)
		return;
	for (unsigned i = 0; i < j->ntargets; i++)
		free(j->targets[i]);
	free(j->targets);
	free(j->command_line);
	free(j->trace_path);
	j->targets = NULL;
	j->ntargets = 0;
	j->command_line = NULL;
	j->trace_path = NULL;
}

int job_add_target(struct job *j, const char *path)
{
	char **t = realloc(j->targets, (j->ntargets + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	j->targets = t;
	if (!(t[j->ntargets] = strdup(path)))
		return -ENOMEM;
	j->ntargets++;
	return 0;
}

int job_copy(struct job *dst, const struct job *src)
{
	*dst = *src;
	dst->targets = NULL;
	dst->ntargets = 0;
	dst->command_line = NULL;
	dst->trace_path = NULL;
	for (unsigned i = 0; i < src->ntargets; i++)
		if (job_add_target(dst, src->targets[i]))
			goto nomem;
	if (src->command_line && !(dst->command_line = strdup(src->command_line)))
		goto nomem;
	if (src->trace_path && !(dst->trace_path = strdup(src->trace_path)))
		goto nomem;
	return 0;
nomem:
	job_release(dst);
	return -ENOMEM;
}

/* Quotes an argument for a POSIX shell when it holds anything a shell would interpret. */
static size_t quote_arg(char *out, const char *a)
{
	size_t n = 0;
	bool plain = *a != '\0' && *a != '#'; /* a leading # would start a shell comment */

	for (const char *p = a; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "-_./=:,+@%^#", *p))
			plain = false;
	if (plain) {
		if (out)
			memcpy(out, a, strlen(a));
		return strlen(a);
	}
	if (out)
		out[n] = '\'';
	n++;
	for (const char *p = a; *p; p++) {
		if (*p == '\'') {
			if (out)
				memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			if (out)
				out[n] = *p;
			n++;
		}
	}
	if (out)
		out[n] = '\'';
	return n + 1;
}

int job_set_command_line(struct job *j, const char *prog, int argc, char *const argv[])
{
	size_t len = 1 + (prog ? quote_arg(NULL, prog) + 1 : 0);
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += quote_arg(NULL, argv[i]) + 1;
	if (!(s = malloc(len)))
		return -ENOMEM;
	p = s;
	if (prog)
		p += quote_arg(p, prog);
	for (int i = 0; i < argc; i++) {
		if (i || prog)
			*p++ = ' ';
		p += quote_arg(p, argv[i]);
	}
	*p = '\0';
	free(j->command_line);
	j->command_line = s;
	return 0;
}

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

int job_validate(const struct job *j, char *err, size_t errlen)
{
	char b1[32];

	if (j->bs == 0)
		FAIL("--bs: the block size must be at least 1 byte");
	if (j->bs > (1ull << 30))
		FAIL("--bs: '%s' is larger than the 1GiB limit", fmt_size(j->bs, b1, sizeof(b1)));
	if (j->time_ns == 0)
		FAIL("--time: the duration must be above 0");
	if (j->threads == 0 || j->threads > JOB_MAX_THREADS)
		FAIL("--threads: must be from 1 to %u", JOB_MAX_THREADS);
	if (j->depth == 0 || j->depth > JOB_MAX_DEPTH)
		FAIL("--depth: must be from 1 to %u", JOB_MAX_DEPTH);
	if (j->write_pct > 100)
		FAIL("--write: must be from 0 to 100 percent");
	bool direct = job_direct(j);

	if (j->align && direct && j->align % 512)
		FAIL("--align: direct I/O needs offsets aligned to 512 bytes at least");
	if (direct && j->bs % 512)
		FAIL("--bs: direct I/O needs a multiple of 512 bytes (use --cache buffered for %llu)",
		     (unsigned long long)j->bs);
	if (j->ntargets == 0)
		FAIL("no target: name at least one file or block device");
	/* A synchronous engine that moves bytes holds one I/O per thread (null moves none). */
	const struct engine_ops *e = j->engine[0] ? engine_find(j->engine) : NULL;
	if (e && (e->flags & ENGINE_SYNC) && !(e->flags & ENGINE_NO_IO) && j->depth > 1)
		FAIL("--depth: the %s engine keeps one I/O outstanding per thread; use --engine "
		     "uring (or aio) for --depth %u, or raise --threads",
		     e->name, j->depth);
	if (j->cap_io_unit && j->cap_io_unit % 512)
		FAIL("--cap-io-unit: must be a multiple of 512 bytes");
	return 0;
}

const char *job_pattern_name(enum job_pattern p)
{
	return p == PATTERN_SEQUENTIAL ? "sequential" : "random";
}

const char *job_cache_name(enum job_cache c)
{
	switch (c) {
	case CACHE_BUFFERED:
		return "buffered";
	case CACHE_WRITETHROUGH:
		return "writethrough";
	case CACHE_DIRECTSYNC:
		return "directsync";
	default:
		return "direct";
	}
}

int job_cache_parse(const char *s, enum job_cache *c)
{
	if (!strcmp(s, "direct") || !strcmp(s, "none") || !strcmp(s, "unbuffered"))
		*c = CACHE_DIRECT;
	else if (!strcmp(s, "buffered") || !strcmp(s, "cached"))
		*c = CACHE_BUFFERED;
	else if (!strcmp(s, "writethrough") || !strcmp(s, "dsync"))
		*c = CACHE_WRITETHROUGH;
	else if (!strcmp(s, "directsync") || !strcmp(s, "direct+writethrough"))
		*c = CACHE_DIRECTSYNC;
	else
		return -EINVAL;
	return 0;
}
