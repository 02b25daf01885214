/*
 * `iorate diskspd -X<profile>`: a DiskSpd XML profile into jobs, and compat_diskspd_jobs(), the
 * entry of every DiskSpd command line. The whole document is checked first against the
 * elements below, so everything iorate does not know or cannot do is refused at once, each with
 * its line. Then each target of each TimeSpan is read as the DiskSpd flags its elements stand
 * for (<BlockSize> is -b, <RequestCount> -o, <ThreadCount> -F, ...), through the functions and
 * the option table a command line goes through (diskspd_timespan.c); the targets of a TimeSpan
 * whose settings agree share one job, and each TimeSpan is a group, run after the one before.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/compat.h"
#include "compat/diskspd.h"
#include "compat/diskspd_xml.h"
#include "util/parse.h"

/* What an element holds: other elements, a number, a boolean, text; XK_ANY is not looked in. */
enum xk { XK_BOX, XK_UINT, XK_U64, XK_BOOL, XK_TEXT, XK_ANY };
/* When iorate refuses it: never, when true or above 0, whenever present, as refusal() says. */
enum xr { XR_NONE, XR_TRUE, XR_PRESENT, XR_CODE };

struct xel {
	const char *name;
	enum xk kind;
	bool many, required;
	enum xr refuse;
	const char *why;            /* XR_TRUE, XR_PRESENT: what iorate does not do */
	const struct xel *kids;     /* XK_BOX: what it may hold */
};

static const struct xel x_rds[] = {
	{.name = "SizeInBytes", .kind = XK_U64, .required = true},
	{.name = "FilePath", .kind = XK_TEXT, .refuse = XR_PRESENT,
	 .why = "write data from a file (a profile makes iorate read no other file)"},
	{0}};
static const struct xel x_wbc[] = {
	{.name = "Pattern", .kind = XK_TEXT, .required = true, .refuse = XR_CODE},
	{.name = "RandomDataSource", .kind = XK_BOX, .kids = x_rds},
	{0}};
static const struct xel x_pct[] = {
	{.name = "Range", .kind = XK_UINT, .many = true, .required = true}, {0}};
static const struct xel x_abs[] = {
	{.name = "Range", .kind = XK_U64, .many = true, .required = true}, {0}};
static const struct xel x_dist[] = {
	{.name = "Percent", .kind = XK_BOX, .kids = x_pct},
	{.name = "Absolute", .kind = XK_BOX, .kids = x_abs}, {0}};
static const struct xel x_target[] = {
	{.name = "Path", .kind = XK_TEXT, .required = true},
	{.name = "BlockSize", .kind = XK_UINT},
	{.name = "StrideSize", .kind = XK_U64},
	{.name = "InterlockedSequential", .kind = XK_BOOL},
	{.name = "BaseFileOffset", .kind = XK_U64},
	{.name = "SequentialScan", .kind = XK_BOOL},
	{.name = "RandomAccess", .kind = XK_BOOL},
	{.name = "TemporaryFile", .kind = XK_BOOL},
	{.name = "UseLargePages", .kind = XK_BOOL, .refuse = XR_TRUE, .why = "large-page buffers"},
	{.name = "RequestCount", .kind = XK_UINT},
	{.name = "Random", .kind = XK_U64},
	{.name = "DisableAllCache", .kind = XK_BOOL},
	{.name = "DisableLocalCache", .kind = XK_BOOL, .refuse = XR_TRUE,
	 .why = "remote caching has no Linux equivalent"},
	{.name = "DisableOSCache", .kind = XK_BOOL}, {.name = "WriteThrough", .kind = XK_BOOL},
	{.name = "MemoryMappedIo", .kind = XK_BOOL, .refuse = XR_TRUE, .why = "memory-mapped I/O"},
	{.name = "FlushType", .kind = XK_TEXT, .refuse = XR_PRESENT,
	 .why = "memory-mapped I/O flushes"},
	{.name = "WriteBufferContent", .kind = XK_BOX, .kids = x_wbc},
	{.name = "BurstSize", .kind = XK_UINT, .refuse = XR_PRESENT,
	 .why = "bursts with think time"},
	{.name = "ThinkTime", .kind = XK_UINT, .refuse = XR_PRESENT,
	 .why = "bursts with think time"},
	{.name = "Throughput", .kind = XK_UINT}, {.name = "ThreadsPerFile", .kind = XK_UINT},
	{.name = "FileSize", .kind = XK_U64}, {.name = "MaxFileSize", .kind = XK_U64},
	{.name = "WriteRatio", .kind = XK_UINT, .refuse = XR_CODE},
	{.name = "RandomRatio", .kind = XK_UINT, .refuse = XR_CODE},
	{.name = "ParallelAsyncIO", .kind = XK_BOOL, .refuse = XR_TRUE,
	 .why = "parallel sequential I/O from one offset"},
	{.name = "ThreadStride", .kind = XK_U64},
	{.name = "IOPriority", .kind = XK_UINT, .refuse = XR_CODE},
	{.name = "Weight", .kind = XK_UINT},
	{.name = "ThreadTargets", .kind = XK_ANY, .refuse = XR_PRESENT,
	 .why = "threads given to targets by weight"},
	{.name = "Distribution", .kind = XK_BOX, .kids = x_dist},
	{0}};
static const struct xel x_targets[] = {
	{.name = "Target", .kind = XK_BOX, .many = true, .required = true, .kids = x_target}, {0}};
static const struct xel x_affinity[] = {
	{.name = "AffinityAssignment", .kind = XK_UINT, .many = true},
	{.name = "AffinityGroupAssignment", .kind = XK_ANY, .many = true},
	{0}};
static const struct xel x_timespan[] = {
	{.name = "Targets", .kind = XK_BOX, .required = true, .kids = x_targets},
	{.name = "Duration", .kind = XK_UINT},
	{.name = "Warmup", .kind = XK_UINT},
	{.name = "Cooldown", .kind = XK_UINT},
	{.name = "RandSeed", .kind = XK_UINT},
	{.name = "RandomWriteData", .kind = XK_BOOL},
	{.name = "ThreadCount", .kind = XK_UINT},
	{.name = "RequestCount", .kind = XK_UINT, .refuse = XR_TRUE,
	 .why = "per-thread request counts shared by the targets by weight (-O)"},
	{.name = "GroupAffinity", .kind = XK_BOOL},
	{.name = "Affinity", .kind = XK_BOX, .kids = x_affinity},
	{.name = "DisableAffinity", .kind = XK_BOOL},
	{.name = "CompletionRoutines", .kind = XK_BOOL, .refuse = XR_TRUE,
	 .why = "completion routines are a Windows API"},
	{.name = "MeasureLatency", .kind = XK_BOOL},
	{.name = "CalculateIopsStdDev", .kind = XK_BOOL},
	{.name = "IoBucketDuration", .kind = XK_UINT},
	{0}};
static const struct xel x_timespans[] = {
	{.name = "TimeSpan", .kind = XK_BOX, .many = true, .required = true, .kids = x_timespan},
	{0}};
static const struct xel x_profile[] = {
	{.name = "TimeSpans", .kind = XK_BOX, .required = true, .kids = x_timespans},
	{.name = "Verbose", .kind = XK_BOOL},
	{.name = "VerboseStats", .kind = XK_BOOL},
	{.name = "Progress", .kind = XK_UINT},
	{.name = "ExperimentFlags", .kind = XK_UINT},
	{.name = "ResultFormat", .kind = XK_TEXT, .refuse = XR_CODE},
	{.name = "ETW", .kind = XK_ANY, .refuse = XR_PRESENT, .why = "ETW tracing is Windows-only"},
	{.name = "PrecreateFiles", .kind = XK_TEXT, .refuse = XR_CODE},
	{0}};
static const struct xel x_root = {.name = "Profile", .kind = XK_BOX, .kids = x_profile};

/* The problems of a document, joined: "line 5: /Profile/Foo: why; line 9: ...". */
struct probs {
	char *buf;
	size_t len;
	unsigned n;
	bool nomem;
};

static void prob(struct probs *p, const xmlNode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Past what a message can show, problems are counted, not joined: joining stays linear. */
#define PROBS_TEXT_MAX 4096

static void prob(struct probs *p, const xmlNode *n, const char *fmt, ...)
{
	char *why = NULL, *path, *s = NULL;
	va_list ap;
	int k;

	if (p->len >= PROBS_TEXT_MAX) {
		p->n++;
		return;
	}
	path = dspd_xml_path(n);
	va_start(ap, fmt);
	k = vasprintf(&why, fmt, ap);
	va_end(ap);
	if (k < 0 || !path || asprintf(&s, "%sline %ld: %s: %s", p->n ? "; " : "",
				       xmlGetLineNo(n), path, why) < 0) {
		p->nomem = true;
	} else {
		char *b = realloc(p->buf, p->len + strlen(s) + 1);
		if (!b) {
			p->nomem = true;
		} else {
			memcpy(b + p->len, s, strlen(s) + 1);
			p->buf = b;
			p->len += strlen(s);
		}
	}
	p->n++;
	free(why);
	free(path);
	free(s);
}

static const struct xel *find(const struct xel *kids, const xmlNode *n)
{
	for (; kids && kids->name; kids++)
		if (!strcmp(kids->name, (const char *)n->name))
			return kids;
	return NULL;
}

static bool is_bool(const char *t, bool *v)
{
	*v = !strcmp(t, "true") || !strcmp(t, "1");
	return *v || !strcmp(t, "false") || !strcmp(t, "0");
}

/* A leaf's value: of its kind, and not something iorate refuses. NULL when fine. */
static const char *leaf_why(const struct xel *e, const char *t, char *buf, size_t len)
{
	uint64_t v = 0;
	bool b = false;

	if ((e->kind == XK_UINT && parse_u64(t, 0, UINT32_MAX, &v)) ||
	    (e->kind == XK_U64 && parse_u64(t, 0, UINT64_MAX, &v)))
		return "is not a decimal whole number in range";
	if (e->kind == XK_BOOL && !is_bool(t, &b))
		return "is not true or false";
	if (e->refuse == XR_TRUE && (b || v)) {
		snprintf(buf, len, "not supported by iorate: %s", e->why);
		return buf;
	}
	if (e->refuse != XR_CODE)
		return NULL;
	if (!strcmp(e->name, "WriteRatio") && v > 100)
		return "is a percent from 0 to 100";
	if (!strcmp(e->name, "RandomRatio") && (v < 1 || v > 99))
		return "is a percent from 1 to 99 (<Random> alone is 100)";
	if (!strcmp(e->name, "IOPriority"))
		return v == 3 ? NULL : v == 1 || v == 2 ? "not supported by iorate: I/O priority "
							  "hints" : "is 1, 2 or 3";
	if (!strcmp(e->name, "Pattern") && strcmp(t, "sequential") && strcmp(t, "zero") &&
	    strcmp(t, "random"))
		return "is sequential, zero or random";
	if (!strcmp(e->name, "ResultFormat"))
		return !strcmp(t, "text") ? NULL
		       : !strcmp(t, "xml") ? "not supported by iorate: XML output; give iorate's "
					     "--json or --csv"
					   : "is text or xml";
	if (!strcmp(e->name, "PrecreateFiles") && strcmp(t, "UseMaxSize") &&
	    strcmp(t, "CreateOnlyFilesWithConstantSizes") &&
	    strcmp(t, "CreateOnlyFilesWithConstantOrZeroSizes"))
		return "is UseMaxSize, CreateOnlyFilesWithConstantSizes or "
		       "CreateOnlyFilesWithConstantOrZeroSizes";
	return NULL;
}

/* The attributes an element may carry, and their values. */
static void check_attrs(const xmlNode *n, struct probs *p)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		const char *an = (const char *)a->name, *en = (const char *)n->name;
		char *v = dspd_xml_attr(n, an);
		unsigned io;

		if (!strcmp(en, "Throughput") && !strcmp(an, "unit")) {
			if (!v || (strcmp(v, "IOPS") && strcmp(v, "BPMS")))
				prob(p, n, "unit=\"%s\" is IOPS or BPMS", v ? v : "");
		} else if (!strcmp(en, "Range") && !strcmp(an, "IO")) {
			if (!v || parse_uint(v, 0, 100, &io))
				prob(p, n, "IO=\"%s\" is a percent from 0 to 100", v ? v : "");
		} else {
			prob(p, n, "attribute %s: not one iorate knows on <%s>", an, en);
		}
		free(v);
	}
	if (dspd_xml_is(n, "Range") && !xmlHasProp(n, (const xmlChar *)"IO"))
		prob(p, n, "needs its share of I/O, as in <Range IO=\"90\">");
}

static void check(const xmlNode *n, const struct xel *e, struct probs *p);

/* The elements a box holds: each known here, once unless it may repeat, none missing. */
static void check_box(const xmlNode *n, const struct xel *e, struct probs *p)
{
	unsigned count[64] = {0}, nk = 0;

	for (const xmlNode *c = n->children; c; c = c->next) {
		const struct xel *k = c->type == XML_ELEMENT_NODE ? find(e->kids, c) : NULL;

		if (c->type == XML_ELEMENT_NODE && !k)
			prob(p, c, "not an element iorate knows in <%s>", e->name);
		else if (k && count[k - e->kids]++ && !k->many)
			prob(p, c, "given twice");
		else if (k)
			check(c, k, p);
		else if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) &&
			 c->content[strspn((const char *)c->content, " \t\r\n")])
			prob(p, n, "holds text; <%s> holds elements", e->name);
		else if (c->type == XML_ENTITY_REF_NODE)
			prob(p, n, "holds an entity reference, which iorate does not read");
	}
	for (const struct xel *k = e->kids; k->name; k++) {
		nk += count[k - e->kids] > 0;
		if (k->required && !count[k - e->kids])
			prob(p, n, "needs <%s>", k->name);
	}
	if (!strcmp(e->name, "Distribution") && nk != 1)
		prob(p, n, "holds one of <Percent> or <Absolute>");
}

static void check(const xmlNode *n, const struct xel *e, struct probs *p)
{
	char buf[160], *t;
	const char *why;

	check_attrs(n, p);
	if (e->refuse == XR_PRESENT) {
		prob(p, n, "not supported by iorate: %s", e->why);
		return;
	}
	if (e->kind == XK_ANY)
		return;
	if (e->kind == XK_BOX) {
		check_box(n, e, p);
		return;
	}
	for (const xmlNode *c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			prob(p, c, "not an element iorate knows in <%s>", e->name);
	if (!(t = dspd_xml_text(n))) {
		p->nomem = true;
		return;
	}
	if (e->kind == XK_TEXT && !*t && e->required)
		prob(p, n, "is empty");
	else if ((why = leaf_why(e, t, buf, sizeof(buf))))
		prob(p, n, "'%s'%s %s", t, strncmp(why, "not", 3) ? "" : ":", why);
	free(t);
}

/* The document's problems, all at once: 0, or -EINVAL with them in err. */
static int check_doc(const char *path, xmlDocPtr doc, char *err, size_t errlen)
{
	const xmlNode *root = xmlDocGetRootElement(doc);
	struct probs p = {0};
	int r = 0;

	if (!dspd_xml_is(root, "Profile"))
		return err_set(err, errlen, -EINVAL, "%s: not a DiskSpd profile: its root is <%s>, "
			       "not <Profile>", path, root ? (const char *)root->name : "");
	check(root, &x_root, &p);
	if (p.nomem)
		r = err_set(err, errlen, -ENOMEM, "out of memory");
	else if (p.n)
		r = err_set(err, errlen, -EINVAL, "%s: %u element%s iorate cannot run: %s", path,
			    p.n, p.n > 1 ? "s" : "", p.buf);
	free(p.buf);
	return r;
}

int dspd_profile(const char *path, char **over, int nover, char **subst, int nsubst,
		 const struct compat_jobs *out, FILE *ex, char *err, size_t errlen)
{
	struct prof P = {.path = path, .over = over, .nover = nover, .subst = subst,
			 .nsubst = nsubst, .out = out, .ex = ex, .err = err, .errlen = errlen};
	int r;

	if ((r = dspd_xml_read(path, &P.doc, err, errlen)))
		return r;
	if (!(r = check_doc(path, P.doc, err, errlen))) {
		if (!(P.used = calloc((size_t)nsubst + 1, sizeof(*P.used))))
			r = err_set(err, errlen, -ENOMEM, "out of memory");
		else
			r = dspd_profile_jobs(&P);
	}
	free(P.used);
	dspd_xml_free(P.doc);
	return r;
}

/* The flags DiskSpd lets stand beside -X: durations and the seed apply to every TimeSpan. */
static bool beside_profile(char c)
{
	return c && strchr("dWCzvR", c) != NULL;
}

/* -X<profile>: the flags beside it, the targets replacing *1, *2, ..., then the profile. */
static int dspd_with_profile(int argc, char **argv, int i, const struct compat_jobs *out,
			     FILE *ex, char *err, size_t errlen)
{
	const char *path = NULL;
	int first = i, nover = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		char c = argv[i][1];

		if (c == 'X' && path)
			return err_set(err, errlen, -EINVAL, "%s: one profile at a time", argv[i]);
		if (c == 'X' && !argv[i][2])
			return err_set(err, errlen, -EINVAL, "%s: needs the profile's path attached, "
				       "as in -Xprofile.xml", argv[i]);
		if (c == 'X')
			path = argv[i] + 2;
		else if (!beside_profile(c))
			return err_set(err, errlen, -EINVAL, "%s: not supported by iorate beside -X: "
				       "the profile sets each target's parameters (beside -X: -d "
				       "-W -C -z -v -R)", argv[i]);
	}
	/* The flags beside -X, in order, are the words from first to i less -X itself. */
	char **over = calloc((size_t)(i - first) + 1, sizeof(*over));
	int r;

	if (!over)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	for (int k = first; k < i; k++)
		if (argv[k][1] != 'X')
			over[nover++] = argv[k];
	for (int k = i; k < argc; k++)
		if (argv[k][0] == '-') {
			free(over);
			return err_set(err, errlen, -EINVAL, "%s: comes after a target; DiskSpd "
				       "reads flags only before the targets, so put it before them",
				       argv[k]);
		}
	r = dspd_profile(path, over, nover, argv + i, argc - i, out, ex, err, errlen);
	free(over);
	for (unsigned k = 0; !r && k < out->list->n; k++)
		if (job_set_command_line(&out->list->jobs[k], NULL, argc, argv))
			r = err_set(err, errlen, -ENOMEM, "out of memory");
	return r;
}

int compat_diskspd_jobs(int argc, char **argv, const struct compat_jobs *out, FILE *explain,
			char *err, size_t errlen)
{
	int i = dspd_first_flag(argc, argv);
	struct job *j;

	err[0] = '\0';
	for (int k = i; k < argc && argv[k][0] == '-'; k++)
		if (argv[k][1] == 'X')
			return dspd_with_profile(argc, argv, i, out, explain, err, errlen);
	if (!(j = job_list_add(out->list)))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	return compat_diskspd_parse(argc, argv, out->bind(out->arg, j), j, explain, err, errlen);
}
