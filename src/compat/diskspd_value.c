/*
 * The bottom of the DiskSpd front end (diskspd.h): a flag's value as DiskSpd writes it, its
 * sizes in bytes or blocks, and the example a refusal ends with.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compat/compat.h"
#include "compat/diskspd.h"
#include "util/err.h"
#include "util/parse.h"

#define FAIL(d, ...) err_set((d)->to.err, (d)->to.errlen, -EINVAL, __VA_ARGS__)

/* ", as in -c8b": an example of the flag being read; a profile's elements have none. */
const char *dspd_example(const struct dspd *d, const char *tail, char buf[64])
{
	if (d->xml)
		return "";
	snprintf(buf, 64, ", as in -%c%s", d->letter, tail);
	return buf;
}

/* "8b": a count of blocks of the -b size (DiskSpd's b), not iorate's bytes. */
bool dspd_is_blocks(const char *val)
{
	size_t n = strlen(val);

	return n >= 2 && (val[n - 1] == 'b' || val[n - 1] == 'B') &&
	       (isdigit((unsigned char)val[n - 2]) || val[n - 2] == '.');
}

/*
 * A DiskSpd size as 'iorate run' reads it: a count of blocks becomes bytes (into buf); anything
 * else is passed on as typed, since DiskSpd's K, M and G are iorate's (powers of 1024), for the
 * option table to judge. NULL after the refusal, in err.
 */
const char *dspd_value(struct dspd *d, const char *flag, const char *val, char buf[32])
{
	char digits[32], ex[64];
	size_t n = strlen(val);
	uint64_t blocks, bytes;

	if (!dspd_is_blocks(val))
		return val;
	if (n <= sizeof(digits)) {
		memcpy(digits, val, n - 1);
		digits[n - 1] = '\0';
	}
	if (n > sizeof(digits) || parse_u64(digits, 0, UINT64_MAX, &blocks)) {
		FAIL(d, "%s: a count of blocks is a decimal whole number%s", flag,
		     dspd_example(d, "8b", ex));
		return NULL;
	}
	if (__builtin_mul_overflow(blocks, d->bs, &bytes)) {
		FAIL(d, "%s: the size does not fit in 64 bits", flag);
		return NULL;
	}
	snprintf(buf, 32, "%llu", (unsigned long long)bytes);
	return buf;
}

/* A size for a flag no option of 'iorate run' takes as typed (-s, -T, -f, -Z): judged here. */
int dspd_bytes(struct dspd *d, const char *flag, const char *val, uint64_t *out)
{
	char buf[32], ex[64];
	const char *v = dspd_value(d, flag, val, buf);
	int r;

	if (!v)
		return -EINVAL;
	if ((r = parse_size(v, out)) == -ERANGE)
		return FAIL(d, "%s: the size does not fit in 64 bits", flag);
	if (r)
		return FAIL(d, "%s: takes a size such as 64K, 1G or 8b (8 blocks)%s", flag,
			    dspd_example(d, "64K", ex));
	return 0;
}
