#ifndef IORATE_COMPAT_DISKSPD_XML_H
#define IORATE_COMPAT_DISKSPD_XML_H
/*
 * Private to diskspd_xml.c (reading a profile's document with libxml2) and diskspd_profile.c
 * (what its elements become).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libxml/tree.h>

#include "compat/compat.h"

/*
 * The document at path: read as a regular file by iorate, parsed from memory with the network
 * off, no DTD and no external entity loaded. 0, or -errno with "PATH[:LINE]: why" in err.
 */
int dspd_xml_read(const char *path, xmlDocPtr *doc, char *err, size_t errlen);
void dspd_xml_free(xmlDocPtr doc);

/* An element's text without surrounding white space, its attribute (NULL when absent), its
 * path in the document ("/Profile/TimeSpans/TimeSpan[2]"): malloc'd, NULL when out of memory. */
char *dspd_xml_text(const xmlNode *n);
char *dspd_xml_attr(const xmlNode *n, const char *name);
char *dspd_xml_path(const xmlNode *n);
/* n is an element called name. */
bool dspd_xml_is(const xmlNode *n, const char *name);

/* Everything a translation of a checked profile uses (diskspd_profile.c checks it). */
/* A target's path and the largest <FileSize> the profile gives it. */
struct dspd_size {
	const char *path;
	uint64_t max;
};

struct prof {
	const char *path;           /* the profile */
	char **over, **subst;       /* the flags beside -X; the targets replacing *1, *2, ... */
	int nover, nsubst;
	bool *used;                 /* subst[i] was named */
	bool use_max;               /* PrecreateFiles UseMaxSize: each file at its largest size */
	struct dspd_size *sizes;    /* then the largest <FileSize> of each path, sorted by path */
	size_t nsizes;
	xmlDocPtr doc;
	const struct compat_jobs *out;
	FILE *ex;
	char *err;
	size_t errlen;
};

/* The checked profile's TimeSpans into jobs (diskspd_timespan.c). 0, or -errno with err. */
int dspd_profile_jobs(struct prof *P);

#endif
