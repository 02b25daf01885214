#ifndef IORATE_MODEL_URL_H
#define IORATE_MODEL_URL_H
#include <stdbool.h>
#include <stddef.h>

/*
 * The URLs 'catalog prices' requests: the user's endpoint, the links and index entries the
 * price lists give, and the redirects servers answer with. Each is checked before it is
 * requested: https only (plain http only from 127.0.0.1, the tests' servers), and a page link
 * only to the server the download started on. The parse is strict (no user name, no
 * backslash, space or byte outside printable ASCII), so libcurl cannot read another host out of
 * a URL than this reads.
 */
struct url_origin {
	char scheme[8];             /* "https" or "http", lower case */
	char host[256];             /* lower case */
	unsigned port;              /* given, or the scheme's own */
};

/* The origin of url. 0, or -EINVAL with err naming the URL and what is wrong with it. */
int url_origin(const char *url, struct url_origin *o, char *err, size_t errlen);
/* url may be requested: https, or http to 127.0.0.1. 0 or -EPERM/-EINVAL, err naming the URL. */
int url_allowed(const char *url, struct url_origin *o, char *err, size_t errlen);
bool url_same_origin(const struct url_origin *a, const struct url_origin *b);
/* "https://host:port", as messages show an origin. */
const char *url_origin_str(const struct url_origin *o, char *buf, size_t len);

#endif
