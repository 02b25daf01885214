/* The URLs 'catalog prices' may request (url.h): strict parse, scheme and host checks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/url.h"
#include "util/err.h"

#define LOOPBACK "127.0.0.1"

int url_origin(const char *url, struct url_origin *o, char *err, size_t errlen)
{
	const char *p, *host, *end;
	size_t n;
	unsigned long port = 0;

	memset(o, 0, sizeof(*o));
	if (!url || !*url)
		return err_set(err, errlen, -EINVAL, "an empty URL");
	/* No byte another parser could read differently: controls, spaces, backslashes, UTF-8. */
	for (p = url; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '\\')
			return err_set(err, errlen, -EINVAL, "'%.200s': a URL with a space, a "
				       "backslash or a byte that is not printable ASCII", url);
	if (!(p = strstr(url, "://")) || (size_t)(p - url) >= sizeof(o->scheme) || p == url)
		return err_set(err, errlen, -EINVAL, "'%.200s': not a scheme://host URL", url);
	for (n = 0; url + n < p; n++)
		o->scheme[n] = (char)(url[n] >= 'A' && url[n] <= 'Z' ? url[n] + 32 : url[n]);
	host = p + 3;
	end = host + strcspn(host, "/?#");
	if (memchr(host, '@', (size_t)(end - host)))
		return err_set(err, errlen, -EINVAL, "'%.200s': a URL with a user name", url);
	for (p = host; p < end && *p != ':'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
			return err_set(err, errlen, -EINVAL, "'%.200s': the host is not a name "
				       "or an IPv4 address", url);
	n = (size_t)(p - host);
	if (!n || n >= sizeof(o->host))
		return err_set(err, errlen, -EINVAL, "'%.200s': no host", url);
	for (size_t i = 0; i < n; i++)
		o->host[i] = (char)(host[i] >= 'A' && host[i] <= 'Z' ? host[i] + 32 : host[i]);
	if (p < end) {
		const char *d = ++p;

		for (; p < end && *p >= '0' && *p <= '9' && port <= 65535; p++)
			port = port * 10 + (unsigned long)(*p - '0');
		if (p == d || p != end || !port || port > 65535)
			return err_set(err, errlen, -EINVAL, "'%.200s': the port is not a number "
				       "from 1 to 65535", url);
	}
	o->port = port ? (unsigned)port : !strcmp(o->scheme, "https") ? 443 :
		  !strcmp(o->scheme, "http") ? 80 : 0;
	return 0;
}

int url_allowed(const char *url, struct url_origin *o, char *err, size_t errlen)
{
	struct url_origin tmp;
	int ret;

	if (!o)
		o = &tmp;
	ret = url_origin(url, o, err, errlen);
	/* The scheme is what most often is wrong (file://, ftp://): said before the rest. */
	if (ret && o->scheme[0] && (!strcmp(o->scheme, "https") || !strcmp(o->scheme, "http")))
		return ret;
	if (!ret && !strcmp(o->scheme, "https"))
		return 0;
	if (!ret && !strcmp(o->scheme, "http") && !strcmp(o->host, LOOPBACK))
		return 0;
	return err_set(err, errlen, -EPERM, "'%.200s': only https is read (plain http only from "
		       LOOPBACK ")", url);
}

bool url_same_origin(const struct url_origin *a, const struct url_origin *b)
{
	return !strcmp(a->scheme, b->scheme) && !strcmp(a->host, b->host) && a->port == b->port;
}

const char *url_origin_str(const struct url_origin *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s://%s:%u", o->scheme, o->host, o->port);
	return buf;
}
