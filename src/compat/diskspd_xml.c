/*
 * A DiskSpd XML profile's document, read with libxml2. The file is read here (a regular file,
 * at most DSPD_XML_MAX bytes) and handed to libxml2 as memory, with the network off and no
 * loader for anything else: no DTD, no external entity, no XInclude, so a profile can never
 * make iorate read another file or reach a host. libxml2 prints nothing; its complaint comes
 * back as the refusal.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "compat/diskspd_xml.h"
#include "util/err.h"

/* What a profile can reasonably be: DiskSpd's own output of a large fleet stays far below. */
#define DSPD_XML_MAX (16u << 20)

/* Reads the whole regular file at path: 0, or -errno with why in err. */
static int slurp(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	size_t n = 0;
	char *b;

	if (fd < 0)
		return err_set(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > DSPD_XML_MAX) {
		close(fd);
		return err_set(err, errlen, -EINVAL, "%s: a profile is a regular file of at most "
			       "%u MiB", path, DSPD_XML_MAX >> 20);
	}
	if (!(b = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return err_set(err, errlen, -ENOMEM, "out of memory");
	}
	while (n < (size_t)st.st_size) {
		ssize_t r = read(fd, b + n, (size_t)st.st_size - n);
		if (r <= 0) {
			int e = r < 0 ? errno : EIO;
			free(b);
			close(fd);
			return err_set(err, errlen, -e, "%s: %s", path, strerror(e));
		}
		n += (size_t)r;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

/* The loader of everything a document might point at (DTDs, entities): nothing, ever. */
static xmlParserInputPtr no_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	return NULL;
}

/* libxml2's complaint as one line: "p.xml:3: Opening and ending tag mismatch: a and b". */
static int parse_error(xmlParserCtxtPtr ctxt, const char *path, char *err, size_t errlen)
{
	const xmlError *e = xmlCtxtGetLastError(ctxt);
	char msg[256] = "not well-formed XML";

	if (e && e->message) {
		snprintf(msg, sizeof(msg), "%s", e->message);
		msg[strcspn(msg, "\n")] = '\0';
	}
	return err_set(err, errlen, -EINVAL, "%s:%d: %s", path, e ? e->line : 0, msg);
}

int dspd_xml_read(const char *path, xmlDocPtr *out, char *err, size_t errlen)
{
	xmlExternalEntityLoader loader = xmlGetExternalEntityLoader();
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc = NULL;
	char *buf = NULL;
	size_t len = 0;
	int r;

	*out = NULL;
	if ((r = slurp(path, &buf, &len, err, errlen)))
		return r;
	if (len > INT32_MAX || !(ctxt = xmlNewParserCtxt())) {
		free(buf);
		return err_set(err, errlen, -ENOMEM, "out of memory");
	}
	xmlSetExternalEntityLoader(no_loader);
	/* No DTDLOAD, NOENT, XINCLUDE or HUGE: nothing is fetched, substituted or unbounded. */
	doc = xmlCtxtReadMemory(ctxt, buf, (int)len, NULL, NULL,
				XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	xmlSetExternalEntityLoader(loader);
	free(buf);
	if (!doc)
		r = parse_error(ctxt, path, err, errlen);
	else if (doc->intSubset || doc->extSubset)
		r = err_set(err, errlen, -EINVAL, "%s: a DOCTYPE is not read (a profile names no "
			    "other file); remove it", path);
	xmlFreeParserCtxt(ctxt);
	if (r)
		xmlFreeDoc(doc);
	else
		*out = doc;
	return r;
}

void dspd_xml_free(xmlDocPtr doc)
{
	if (doc)
		xmlFreeDoc(doc);
}

char *dspd_xml_text(const xmlNode *n)
{
	char *t = (char *)xmlNodeGetContent(n), *s, *e, *copy;

	if (!t)
		return NULL;
	for (s = t; *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'; s++)
		;
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
					 e[-1] == '\r');
	     e--)
		;
	copy = strndup(s, (size_t)(e - s));
	xmlFree(t);
	return copy;
}

char *dspd_xml_attr(const xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
	char *copy = v ? strdup((char *)v) : NULL;

	xmlFree(v);
	return copy;
}

char *dspd_xml_path(const xmlNode *n)
{
	xmlChar *p = xmlGetNodePath(n);
	char *copy = p ? strdup((char *)p) : NULL;

	xmlFree(p);
	return copy;
}

bool dspd_xml_is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}
