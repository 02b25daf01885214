/*
 * A checked DiskSpd profile (diskspd_profile.c) into jobs. Each target of a TimeSpan is read as
 * the flags its elements and its TimeSpan's stand for, with the flags given beside -X after
 * them, into a job of its own; a target whose settings are those of an earlier job of the
 * TimeSpan joins that job instead. Each TimeSpan is a group: its jobs run together, after the
 * TimeSpan before.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/compat.h"
#include "compat/diskspd.h"
#include "compat/diskspd_xml.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/stop.h"

#define FAIL(P, ...) err_set((P)->err, (P)->errlen, -EINVAL, __VA_ARGS__)

/* The settings a job was given, "name=value", the last of each name: targets compare them. */
struct rec {
	struct compat_sink sink;
	const struct compat_sink *inner;
	char **kv;
	unsigned n;
};

static int rec_set(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	struct rec *r = arg;
	size_t nl = strlen(s->name);
	char *kv = NULL, **g;
	int rc = r->inner->set(r->inner->arg, s, why, len);

	if (rc)
		return rc;
	if (asprintf(&kv, "%s=%s", s->name, s->value ? s->value : "") < 0)
		return -ENOMEM;
	for (unsigned i = 0; i < r->n; i++)
		if (!strncmp(r->kv[i], s->name, nl) && r->kv[i][nl] == '=') {
			free(r->kv[i]);
			r->kv[i] = kv;
			return 0;
		}
	if (!(g = realloc(r->kv, (r->n + 1) * sizeof(*g)))) {
		free(kv);
		return -ENOMEM;
	}
	r->kv = g;
	r->kv[r->n++] = kv;
	return 0;
}

static void rec_release(struct rec *r)
{
	for (unsigned i = 0; r && i < r->n; i++)
		free(r->kv[i]);
	if (r)
		free(r->kv);
}

/* Both were given the same settings (in any order) and the same job flags. */
static bool rec_same(const struct rec *a, const struct job *ja, const struct rec *b,
		     const struct job *jb)
{
	if (a->n != b->n || ja->grow != jb->grow || ja->shared_threads != jb->shared_threads)
		return false;
	for (unsigned i = 0; i < a->n; i++) {
		unsigned k = 0;
		while (k < b->n && strcmp(a->kv[i], b->kv[k]))
			k++;
		if (k == b->n)
			return false;
	}
	return true;
}

/* The labels of one target's elements ("<BlockSize>8192"), freed once it is translated. */
struct labels {
	char *v[128];
	unsigned n;
};

static const char *label(struct labels *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *label(struct labels *L, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int k;

	va_start(ap, fmt);
	k = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (k < 0 || L->n == sizeof(L->v) / sizeof(L->v[0])) {
		free(s);
		return "(out of memory)";
	}
	return L->v[L->n++] = s;
}

static void labels_release(struct labels *L)
{
	for (unsigned i = 0; i < L->n; i++)
		free(L->v[i]);
	L->n = 0;
}

static const xmlNode *child(const xmlNode *n, const char *name)
{
	for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (dspd_xml_is(c, name))
			return c;
	return NULL;
}

/* One TimeSpan being translated; it may have this many targets. */
#define MAX_KEPT 256
struct tspan {
	struct prof *P;
	const xmlNode *ts;
	unsigned its, ntg;          /* its number (from 1), its targets */
	const char *F;              /* <ThreadCount> above 0, as text; NULL: threads per target */
	unsigned first;             /* its first job in the list */
	struct kept {
		struct rec rec;
		char *ex;           /* what its elements became, for the explanation */
		unsigned ntargets;
	} kept[MAX_KEPT];
	unsigned nkept;
};

/* "*N" is the Nth target after -X; anything else is the path itself. NULL after refusing. */
static const char *subst_path(struct prof *P, const char *t)
{
	unsigned n;

	if (t[0] != '*')
		return t;
	if (parse_uint(t + 1, 1, 1u << 20, &n)) {
		FAIL(P, "<Path>%s: a template target is * and a number from 1, as in *1", t);
		return NULL;
	}
	if ((int)n > P->nsubst) {
		FAIL(P, "<Path>%s: names target %u of those after -X, but %d %s given", t, n,
		     P->nsubst, P->nsubst == 1 ? "is" : "are");
		return NULL;
	}
	P->used[n - 1] = true;
	return P->subst[n - 1];
}

/* An element of the TimeSpan, read for one of its targets. */
static int ts_elem(struct dspd *d, struct labels *L, const xmlNode *c, const char *t)
{
	static const char *const letters[][2] = {
		{"Duration", "d"}, {"Warmup", "W"}, {"Cooldown", "C"}, {"RandSeed", "z"},
	};
	const char *n = (const char *)c->name, *lb = label(L, "<%s>%s", n, t);

	/* The flags keep their values until resolved: the values live as long as the labels. */
	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (!strcmp(n, letters[i][0]))
			return dspd_flag_as(d, letters[i][1][0], lb, label(L, "%s", t));
	if (!strcmp(n, "RandomWriteData") && (!strcmp(t, "true") || !strcmp(t, "1")))
		return dspd_flag_as(d, 'Z', lb, "r");
	if (!strcmp(n, "ThreadCount") && strcmp(t, "0"))
		return dspd_flag_as(d, 'F', lb, label(L, "%s", t));
	if (!strcmp(n, "MeasureLatency"))
		compat_explain(d->to.ex, lb, "(always) iorate measures latency of every I/O");
	else if (!strcmp(n, "IoBucketDuration"))
		return dspd_flag_as(d, 'D', lb, t);
	else if (!strcmp(n, "CalculateIopsStdDev"))
		compat_explain(d->to.ex, lb, "(always) iorate records a series of every job");
	else if (strstr(n, "Affinity"))
		compat_explain(d->to.ex, lb, "(no effect) CPU affinity: iorate leaves thread "
			       "placement to the scheduler");
	else if (strcmp(n, "Targets"))
		compat_explain(d->to.ex, lb, "(default) nothing to set");
	return 0;
}

/* <DisableOSCache>, <WriteThrough>, <DisableAllCache>: DiskSpd's -Su, -Sw, -Sh together. */
static void cache_elem(struct dspd *d, const char *lb, const char *n, bool on)
{
	size_t k = strlen(d->cache_flags);

	if (!on) {
		compat_explain(d->to.ex, lb, "(default) nothing to set");
		return;
	}
	snprintf(d->cache_flags + k, sizeof(d->cache_flags) - k, "%s%s", k ? " " : "", lb);
	d->unbuffered |= strcmp(n, "WriteThrough") != 0;
	d->writethrough |= strcmp(n, "DisableOSCache") != 0;
}

/* <WriteBufferContent>: DiskSpd's -Z forms. */
static int wbc_elem(struct dspd *d, struct labels *L, const xmlNode *c)
{
	char *p = dspd_xml_text(child(c, "Pattern"));
	const char *lb = label(L, "<WriteBufferContent>%s", p ? p : "");
	int r = 0;

	if (!p)
		return err_set(d->to.err, d->to.errlen, -ENOMEM, "out of memory");
	if (!strcmp(p, "zero"))
		r = dspd_flag_as(d, 'Z', lb, "");
	else if (!strcmp(p, "random"))
		r = dspd_flag_as(d, 'Z', lb, "r");
	else
		compat_explain(d->to.ex, lb, "(default) DiskSpd's repeating pattern: see (no -Z)");
	free(p);
	return r;
}

/* <Distribution>: its ranges as -rdpct or -rdabs would state them. */
static int dist_elem(struct dspd *d, struct labels *L, const xmlNode *c)
{
	const xmlNode *box = child(c, "Percent") ? child(c, "Percent") : child(c, "Absolute");
	bool pct = dspd_xml_is(box, "Percent");
	char spec[1024];
	size_t n = (size_t)snprintf(spec, sizeof(spec), "d%s", pct ? "pct" : "abs");

	for (const xmlNode *r = box ? box->children : NULL; r; r = r->next) {
		char *io = dspd_xml_attr(r, "IO"), *t = dspd_xml_text(r);
		if (dspd_xml_is(r, "Range") && io && t && n < sizeof(spec))
			n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%s%s/%s",
					      n > 4 ? ":" : "", io, t);
		free(io);
		free(t);
	}
	if (n >= sizeof(spec))
		return err_set(d->to.err, d->to.errlen, -EINVAL, "<Distribution>: too many ranges");
	return dspd_flag_as(d, 'r', label(L, "<Distribution %s>%s", pct ? "Percent" : "Absolute",
					  spec + 4), label(L, "%s", spec));
}

/* Elements that stand for a flag: the letter, the value's prefix, what "0" means. */
static const struct {
	const char *name, *prefix;
	char letter;
	const char *zero;           /* "0" sets nothing, and means this; NULL: "0" is a value */
} tg_flags[] = {
	{.name = "BaseFileOffset", .prefix = "", .letter = 'B',
	 .zero = "the region starts at the target's start"},
	{.name = "MaxFileSize", .prefix = "", .letter = 'f',
	 .zero = "the region runs to the target's end"},
	{.name = "FileSize", .prefix = "", .letter = 'c', .zero = NULL},
	{.name = "RequestCount", .prefix = "", .letter = 'o', .zero = NULL},
	{.name = "ThreadsPerFile", .prefix = "", .letter = 't', .zero = NULL},
	{.name = "WriteRatio", .prefix = "", .letter = 'w', .zero = NULL},
	{.name = "Random", .prefix = "", .letter = 'r', .zero = NULL},
	{.name = "RandomRatio", .prefix = "s", .letter = 'r', .zero = NULL},
	{.name = "StrideSize", .prefix = "", .letter = 's', .zero = NULL},
	{.name = "ThreadStride", .prefix = "", .letter = 'T',
	 .zero = "threads start at the region's start"},
	{.name = "Throughput", .prefix = "", .letter = 'g', .zero = "no throttle"},
};

/* An element of the target (<Path> and <BlockSize> are read before the others). */
static int tg_elem(struct tspan *T, struct dspd *d, struct labels *L, const xmlNode *c,
		   const char *t)
{
	const char *n = (const char *)c->name, *lb;
	bool on = !strcmp(t, "true") || !strcmp(t, "1");

	if (!strcmp(n, "Path") || !strcmp(n, "BlockSize"))
		return 0;
	if (!strcmp(n, "WriteBufferContent"))
		return wbc_elem(d, L, c);
	if (!strcmp(n, "Distribution"))
		return dist_elem(d, L, c);
	if (!strcmp(n, "Throughput")) {
		char *u = dspd_xml_attr(c, "unit");
		bool iops = u && !strcmp(u, "IOPS");
		free(u);
		lb = label(L, "<Throughput%s>%s", iops ? " unit=IOPS" : "", t);
		if (!strcmp(t, "0"))
			compat_explain(d->to.ex, lb, "(default) no throttle");
		return strcmp(t, "0") ? dspd_flag_as(d, 'g', lb, label(L, "%s%s", t, iops ? "i" : ""))
				      : 0;
	}
	lb = label(L, "<%s>%s", n, t);
	if (!strcmp(n, "ThreadsPerFile") && T->F && strcmp(t, "1"))
		return err_set(d->to.err, d->to.errlen, -EINVAL, "%s and <ThreadCount>%s: give "
			       "one, threads per target or threads that each work on every target",
			       lb, T->F);
	if (!strcmp(n, "ThreadsPerFile") && T->F) {
		compat_explain(d->to.ex, lb, "(default) <ThreadCount> says the threads");
		return 0;
	}
	for (size_t i = 0; i < sizeof(tg_flags) / sizeof(tg_flags[0]); i++) {
		if (strcmp(n, tg_flags[i].name))
			continue;
		if (tg_flags[i].zero && !strcmp(t, "0")) {
			compat_explain(d->to.ex, lb, "(default) %s", tg_flags[i].zero);
			return 0;
		}
		return dspd_flag_as(d, tg_flags[i].letter, lb,
				    label(L, "%s%s", tg_flags[i].prefix, t));
	}
	if (!strcmp(n, "InterlockedSequential") && on)
		return dspd_flag_as(d, 's', lb, "i");
	if (!strcmp(n, "DisableOSCache") || !strcmp(n, "WriteThrough") ||
	    !strcmp(n, "DisableAllCache"))
		cache_elem(d, lb, n, on);
	else if (!strcmp(n, "SequentialScan") || !strcmp(n, "RandomAccess") ||
		 !strcmp(n, "TemporaryFile"))
		compat_explain(d->to.ex, lb, "(no effect) a Windows access hint");
	else if (!strcmp(n, "Weight"))
		compat_explain(d->to.ex, lb, "(no effect) weights matter only with a TimeSpan's "
			       "<RequestCount>");
	else if (!strcmp(n, "IOPriority"))
		compat_explain(d->to.ex, lb, "(no effect) normal priority");
	else
		compat_explain(d->to.ex, lb, "(default) nothing to set");
	return 0;
}

/* A target's path in the profile, with *N replaced; NULL after refusing it. */
static const char *target_path(struct prof *P, const xmlNode *tg, char **text)
{
	const char *p;

	if (!(*text = dspd_xml_text(child(tg, "Path")))) {
		err_set(P->err, P->errlen, -ENOMEM, "out of memory");
		return NULL;
	}
	if ((p = subst_path(P, *text)) && p == *text && compat_is_windows_path(p)) {
		FAIL(P, "<Path>%s: a Windows path; name a Linux file (/mnt/data/test.dat), a "
		     "device or a disk number (#1), or write *1 and give the path after -X", p);
		return NULL;
	}
	return p;
}

static int size_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dspd_size *)a)->path, ((const struct dspd_size *)b)->path);
}

/*
 * PrecreateFiles UseMaxSize: every target's path (*N replaced) and its <FileSize>, gathered
 * once, sorted, and each path's largest kept, so each target's lookup is a search, not a walk
 * of the whole profile. The paths are the profile's text or P->subst: P->texts keeps the former.
 */
static int gather_sizes(struct prof *P, char ***texts, size_t *ntexts)
{
	const xmlNode *spans = child(xmlDocGetRootElement(P->doc), "TimeSpans");
	size_t n = 0, cap = 0, w = 0;
	uint64_t v;

	for (const xmlNode *ts = spans->children; ts; ts = ts->next)
		for (const xmlNode *tg = child(child(ts, "Targets"), "Target"); tg; tg = tg->next) {
			char *p, *f;
			if (!dspd_xml_is(tg, "Target") ||
			    !(f = dspd_xml_text(child(tg, "FileSize"))))
				continue;
			int bad = parse_u64(f, 0, UINT64_MAX, &v);
			free(f);
			if (bad || !(p = dspd_xml_text(child(tg, "Path"))))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				struct dspd_size *g = realloc(P->sizes, cap * sizeof(*g));
				char **t = realloc(*texts, cap * sizeof(*t));
				if (g)
					P->sizes = g;
				if (t)
					*texts = t;
				if (!g || !t) {
					free(p);
					return -ENOMEM;
				}
			}
			(*texts)[(*ntexts)++] = p;
			P->sizes[n++] = (struct dspd_size){
				.path = p[0] == '*' && atoi(p + 1) >= 1 && atoi(p + 1) <= P->nsubst
						? P->subst[atoi(p + 1) - 1] : p,
				.max = v};
		}
	if (n)
		qsort(P->sizes, n, sizeof(*P->sizes), size_cmp);
	for (size_t i = 0; i < n; i++) {
		if (w && !strcmp(P->sizes[w - 1].path, P->sizes[i].path)) {
			if (P->sizes[i].max > P->sizes[w - 1].max)
				P->sizes[w - 1].max = P->sizes[i].max;
		} else {
			P->sizes[w++] = P->sizes[i];
		}
	}
	P->nsizes = w;
	return 0;
}

/* PrecreateFiles UseMaxSize: the largest <FileSize> any target of the profile gives path. */
static uint64_t largest_size(const struct prof *P, const char *path)
{
	const struct dspd_size key = {.path = path}, *hit = P->nsizes ?
		bsearch(&key, P->sizes, P->nsizes, sizeof(*P->sizes), size_cmp) : NULL;

	return hit ? hit->max : 0;
}

/* The elements of tg's TimeSpan, the flags beside -X, then tg's own, then its path. */
static int xlate_elems(struct tspan *T, struct dspd *d, struct labels *L, const xmlNode *tg,
		       const char *path)
{
	struct prof *P = T->P;
	char size[24];
	int r = 0;

	for (const xmlNode *c = T->ts->children; !r && c; c = c->next) {
		char *t = c->type == XML_ELEMENT_NODE ? dspd_xml_text(c) : NULL;
		if (t)
			r = ts_elem(d, L, c, t);
		free(t);
	}
	for (int i = 0; !r && i < P->nover; i++)
		r = dspd_flag(d, P->over[i]);
	for (const xmlNode *c = tg->children; !r && c; c = c->next) {
		char *t = c->type == XML_ELEMENT_NODE ? dspd_xml_text(c) : NULL;
		if (t && P->use_max && dspd_xml_is(c, "FileSize")) {
			snprintf(size, sizeof(size), "%llu",
				 (unsigned long long)largest_size(P, path));
			free(t);
			t = strdup(size);
		}
		if (t)
			r = tg_elem(T, d, L, c, t);
		free(t);
	}
	return r ? r : dspd_target(d, path);
}

/* One target into j, its settings recorded in rec, explained to ex. */
static int xlate_target(struct tspan *T, const xmlNode *tg, struct job *j, struct rec *rec,
			FILE *ex)
{
	struct prof *P = T->P;
	struct labels L = {0};
	const xmlNode *bs = child(tg, "BlockSize");
	char *t = NULL, *text = NULL;
	const char *path = target_path(P, tg, &text);
	struct dspd d;
	int r = path ? 0 : -EINVAL;

	dspd_init(&d, &rec->sink, j, ex, P->err, P->errlen);
	d.xml = true;
	d.share = T->F ? T->ntg : 1;
	if (!r && bs && (t = dspd_xml_text(bs)))
		r = dspd_set_bs(&d, label(&L, "<BlockSize>%s", t), t);
	if (!r && (child(tg, "Random") || child(tg, "RandomRatio")) && child(tg, "StrideSize"))
		r = FAIL(P, "<StrideSize> and <%s>: give one, sequential or random", child(tg,
			 "Random") ? "Random" : "RandomRatio");
	if (!r)
		r = xlate_elems(T, &d, &L, tg, path);
	if (!r && !(r = dspd_resolve(&d)))
		r = dspd_defaults(&d);
	free(t);
	free(text);
	labels_release(&L);
	return r;
}

/* "p.xml: TimeSpan 1, target 2: " before what err says. */
static void where(struct prof *P, unsigned its, unsigned itg)
{
	char *old = strdup(P->err);

	/* Only the text changes: the code is the caller's, already decided (0 is a placeholder). */
	if (old)
		(void)err_set(P->err, P->errlen, 0, "%s: TimeSpan %u, target %u: %s", P->path, its,
			      itg, old);
	free(old);
}

/* One kept job of the TimeSpan: its settings, and its explanation being written. */
struct kept_ex {
	FILE *f;
	char *buf;
	size_t len;
};

/*
 * j (target itg, alone) joins the TimeSpan's job whose settings it has, else becomes a job of
 * its own: "ts1.t1", joined targets "+t3". j, rec and mine (its explanation, in the slot of the
 * next kept job) are taken over either way.
 */
static int place_target(struct tspan *T, struct kept_ex *kx, struct job *j, struct rec *rec,
			struct kept_ex *mine, unsigned itg)
{
	struct job_list *list = T->P->out->list;
	struct job *nj;
	char *name = NULL;

	for (unsigned k = 0; k < T->nkept; k++) {
		struct job *kj = &list->jobs[T->first + k];
		if (!rec_same(&T->kept[k].rec, kj, rec, j))
			continue;
		if (job_add_target(kj, j->targets[0]) || asprintf(&name, "%s+t%u", kj->name, itg) < 0)
			return err_set(T->P->err, T->P->errlen, -ENOMEM, "out of memory");
		free(kj->name);
		kj->name = name;
		compat_explain(kx[k].f, j->targets[0], "target %u: the settings of this job, so it "
			       "runs in it", itg);
		T->kept[k].ntargets++;
		job_release(j);
		rec_release(rec);
		fclose(mine->f);
		free(mine->buf);
		*mine = (struct kept_ex){0};
		return 0;
	}
	if (T->F && T->nkept)
		return FAIL(T->P, "TimeSpan %u: <ThreadCount>%s shares its threads among targets "
			    "whose settings differ (target %u and the first): not supported by "
			    "iorate, whose jobs each have one set of settings", T->its, T->F, itg);
	if (!(nj = job_list_add(list)) ||
	    asprintf(&name, "ts%u.t%u", T->its, itg) < 0)
		return err_set(T->P->err, T->P->errlen, -ENOMEM, "out of memory");
	*nj = *j;
	nj->name = name;
	nj->group = T->its - 1;
	T->kept[T->nkept++] = (struct kept){.rec = *rec, .ntargets = 1};
	return 0;
}

/* The TimeSpan's jobs, each with what its elements became. */
static void explain_jobs(struct tspan *T, struct kept_ex *kx)
{
	const struct job_list *list = T->P->out->list;

	for (unsigned k = 0; k < T->nkept; k++) {
		const struct job *j = &list->jobs[T->first + k];
		fflush(kx[k].f);
		if (!T->P->ex)
			continue;
		fprintf(T->P->ex, "TimeSpan %u, job %s (group %u, %u target%s%s):\n", T->its,
			j->name, j->group, T->kept[k].ntargets, T->kept[k].ntargets > 1 ? "s" : "",
			T->nkept > 1 ? ", run with the TimeSpan's other jobs" : "");
		fwrite(kx[k].buf, 1, kx[k].len, T->P->ex);
	}
}

/* One TimeSpan (its = its number, from 1) into jobs of group its - 1. */
static int xlate_timespan(struct tspan *T, struct kept_ex *kx)
{
	struct prof *P = T->P;
	const xmlNode *tgs = child(T->ts, "Targets");
	unsigned itg = 0;
	int r = 0;

	for (const xmlNode *tg = tgs->children; tg && !r; tg = tg->next) {
		/* The stream writes its buffer's address where it was opened: in its slot. */
		struct kept_ex *mine = &kx[T->nkept];
		struct rec rec = {0};
		struct job j;

		if (!dspd_xml_is(tg, "Target"))
			continue;
		if (++itg > MAX_KEPT)
			return FAIL(P, "TimeSpan %u: more than %u targets", T->its, MAX_KEPT);
		job_init(&j);
		rec.inner = P->out->bind(P->out->arg, &j);
		rec.sink = (struct compat_sink){.set = rec_set, .arg = &rec};
		if (!(mine->f = open_memstream(&mine->buf, &mine->len))) {
			job_release(&j);
			return err_set(P->err, P->errlen, -ENOMEM, "out of memory");
		}
		if (!(r = xlate_target(T, tg, &j, &rec, mine->f)))
			r = place_target(T, kx, &j, &rec, mine, itg);
		if (r) {
			where(P, T->its, itg);
			job_release(&j);
			rec_release(&rec);
			fclose(mine->f);
			free(mine->buf);
			*mine = (struct kept_ex){0};
		}
	}
	return r;
}

static int timespan(struct prof *P, const xmlNode *ts, unsigned its)
{
	struct tspan *T = calloc(1, sizeof(*T));
	struct kept_ex *kx = calloc(sizeof(T->kept) / sizeof(T->kept[0]), sizeof(*kx));
	char *F = dspd_xml_text(child(ts, "ThreadCount"));
	int r;

	if (!T || !kx) {
		free(T);
		free(kx);
		free(F);
		return err_set(P->err, P->errlen, -ENOMEM, "out of memory");
	}
	*T = (struct tspan){.P = P, .ts = ts, .its = its, .first = P->out->list->n,
			    .F = F && strcmp(F, "0") ? F : NULL};
	for (const xmlNode *tg = child(ts, "Targets")->children; tg; tg = tg->next)
		T->ntg += dspd_xml_is(tg, "Target");
	if (!(r = xlate_timespan(T, kx)))
		explain_jobs(T, kx);
	for (unsigned k = 0; k < T->nkept; k++) {
		rec_release(&T->kept[k].rec);
		fclose(kx[k].f);
		free(kx[k].buf);
	}
	free(F);
	free(kx);
	free(T);
	return r;
}

/* What the profile's own elements (beside <TimeSpans>) become. */
static void explain_profile(struct prof *P, const xmlNode *root)
{
	for (const xmlNode *c = root->children; c; c = c->next) {
		char *t = c->type == XML_ELEMENT_NODE && !dspd_xml_is(c, "TimeSpans")
				  ? dspd_xml_text(c)
				  : NULL;
		char lb[128];

		if (!t)
			continue;
		snprintf(lb, sizeof(lb), "<%s>%s", (const char *)c->name, t);
		if (dspd_xml_is(c, "ResultFormat"))
			compat_explain(P->ex, lb, "(default) text report");
		else if (dspd_xml_is(c, "PrecreateFiles") && P->use_max)
			compat_explain(P->ex, lb, "each file is created at the largest <FileSize> "
				       "the profile gives it");
		else if (dspd_xml_is(c, "PrecreateFiles"))
			compat_explain(P->ex, lb, "(no effect) iorate creates a file when the first "
				       "TimeSpan that names it starts");
		else
			compat_explain(P->ex, lb, "(no effect) %s", dspd_xml_is(c, "Progress")
					       ? "iorate shows a progress line on a terminal"
					       : "iorate prints this translation");
		free(t);
	}
}

int dspd_profile_jobs(struct prof *P)
{
	const xmlNode *root = xmlDocGetRootElement(P->doc), *spans = child(root, "TimeSpans");
	char *pre = dspd_xml_text(child(root, "PrecreateFiles")), flag[300];
	unsigned n = 0, its = 0;
	int r = 0;

	P->use_max = pre && !strcmp(pre, "UseMaxSize");
	free(pre);
	char **texts = NULL;
	size_t ntexts = 0;
	if (P->use_max && gather_sizes(P, &texts, &ntexts))
		r = err_set(P->err, P->errlen, -ENOMEM, "out of memory");
	for (const xmlNode *ts = spans->children; ts; ts = ts->next)
		n += dspd_xml_is(ts, "TimeSpan");
	snprintf(flag, sizeof(flag), "-X%s", P->path);
	compat_explain(P->ex, flag, "profile: %u TimeSpan%s, one after another (a group each); "
		       "in each, its targets together, one job per set of settings", n,
		       n > 1 ? "s" : "");
	explain_profile(P, root);
	for (const xmlNode *ts = spans->children; ts && !r; ts = ts->next)
		if (dspd_xml_is(ts, "TimeSpan"))
			r = stop_requested() ? err_set(P->err, P->errlen, -EINTR, "%s: interrupted "
						       "while reading it", P->path)
					     : timespan(P, ts, ++its);
	for (int i = 0; !r && i < P->nsubst; i++)
		if (!P->used[i])
			r = FAIL(P, "%s: no *%d of %s names it; give one target after -X for each "
				 "*N the profile uses", P->subst[i], i + 1, P->path);
	for (size_t i = 0; i < ntexts; i++)
		free(texts[i]);
	free(texts);
	free(P->sizes);
	P->sizes = NULL;
	P->nsizes = 0;
	return r;
}
