#include "core/gate.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/field.h"

#define SAY(...) ((void)err_set(err, errlen, 0, __VA_ARGS__))

const char *gate_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "not a regular file";
}

int gate_open_parent(const char *path, int *dirfd, char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int r = 0;

	*dirfd = -1;
	*base = NULL;
	if (!path[0])
		return -ENOENT;
	if (slash && !slash[1])
		return -EISDIR;
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	*base = strdup(slash ? slash + 1 : path);
	if (!dir || !*base) {
		r = -ENOMEM;
	} else if (!strcmp(*base, ".") || !strcmp(*base, "..")) {
		r = -EISDIR;
	} else if ((*dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		r = -errno;
	}
	free(dir);
	if (r) {
		free(*base);
		*base = NULL;
	}
	return r;
}

/* The parent's failure, said as the user meets it: the directory is missing or not one. */
static int parent_fail(int r, const char *what, const char *path, char *err, size_t errlen)
{
	if (r == -ENOENT)
		SAY("%s%s%s: its directory does not exist", what, what[0] ? " " : "", path);
	else if (r == -ENOTDIR)
		SAY("%s%s%s: a component of the path is not a directory", what, what[0] ? " " : "",
		    path);
	else if (r == -EISDIR)
		SAY("%s%s%s: is a directory; name a file", what, what[0] ? " " : "", path);
	else
		SAY("%s%s%s: %s", what, what[0] ? " " : "", path, strerror(-r));
	return r == -ENOMEM ? r : r == -EACCES ? r : -EINVAL;
}

int gate_mkdir(const char *what, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *base = NULL, *p = strdup(path ? path : "");
	size_t n = p ? strlen(p) : 0;
	int dirfd = -1, r;

	if (!p)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	if ((r = gate_open_parent(p, &dirfd, &base))) {
		r = parent_fail(r, what, path, err, errlen);
		goto out;
	}
	/* mkdirat() never follows a link at the name: one planted there is refused below. */
	if (!mkdirat(dirfd, base, 0755)) {
		r = 0;
		goto out;
	}
	r = -errno;
	if (r != -EEXIST) {
		SAY("%s %s: cannot create the directory: %s", what, path, strerror(-r));
		goto out;
	}
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW)) {
		r = -errno;
		SAY("%s %s: %s", what, path, strerror(-r));
	} else if (!S_ISDIR(st.st_mode)) {
		r = -EINVAL;
		SAY("%s %s: not a directory but %s", what, path, gate_kind(st.st_mode));
	} else {
		r = 0;
	}
out:
	if (dirfd >= 0)
		close(dirfd);
	free(base);
	free(p);
	return r;
}

/* A file the command uses (gate_use): no output may replace it. */
struct use {
	char *path, *base;
	const char *role, *self;
	struct gate_id dir, id;
	bool has_dir, has_id;
};
static struct use *uses;
static unsigned nuses;
static volatile sig_atomic_t *stop_flag;

int gate_use(const char *path, const char *role, const char *self)
{
	struct use u = {.role = role, .self = self};
	struct stat st;
	int dirfd;

	if (!path || !strcmp(path, "-"))
		return 0;
	for (unsigned i = 0; i < nuses; i++)
		if (!strcmp(uses[i].role, role) && !strcmp(uses[i].path, path))
			return 0; /* known (a sweep's rows name their targets again) */
	if (!(u.path = strdup(path)))
		return -ENOMEM;
	if (!stat(path, &st)) {
		u.id = (struct gate_id){.dev = st.st_dev, .ino = st.st_ino};
		u.has_id = true;
	}
	if (gate_open_parent(path, &dirfd, &u.base) == 0) {
		if (!fstat(dirfd, &st)) {
			u.dir = (struct gate_id){.dev = st.st_dev, .ino = st.st_ino};
			u.has_dir = true;
		}
		close(dirfd);
	}
	struct use *g = realloc(uses, (nuses + 1) * sizeof(*g));
	if (!g) {
		free(u.path);
		free(u.base);
		return -ENOMEM;
	}
	uses = g;
	uses[nuses++] = u;
	return 0;
}

void gate_uses_clear(void)
{
	for (unsigned i = 0; i < nuses; i++) {
		free(uses[i].path);
		free(uses[i].base);
	}
	free(uses);
	uses = NULL;
	nuses = 0;
}

void gate_watch_stop(volatile sig_atomic_t *stop)
{
	stop_flag = stop;
}

static bool same_id(const struct gate_id *id, const struct stat *st)
{
	return id->dev == st->st_dev && id->ino == st->st_ino;
}

/*
 * Refuses the output at base in dirfd (*existing when *exists) when it is a file the command
 * uses: the same inode, or the same name in the same directory (a file not made yet).
 */
static int check_uses(int dirfd, const char *base, const struct stat *existing, bool exists,
		      const char *what, const char *path, char *err, size_t errlen)
{
	struct stat dir;
	bool have_dir;

	if (!nuses)
		return 0;
	have_dir = fstat(dirfd, &dir) == 0;
	for (unsigned i = 0; i < nuses; i++) {
		struct use *u = &uses[i];
		struct stat now;

		if (u->self && !strcmp(u->self, what))
			continue;
		/* A file made since it was noted (a run's target) is known by its inode from now. */
		if (exists && !u->has_id && !stat(u->path, &now)) {
			u->id = (struct gate_id){.dev = now.st_dev, .ino = now.st_ino};
			u->has_id = true;
		}
		if (!(exists && u->has_id && same_id(&u->id, existing)) &&
		    !(have_dir && u->has_dir && same_id(&u->dir, &dir) && !strcmp(u->base, base)))
			continue;
		if (strcmp(u->path, path))
			SAY("%s %s is also %s (%s)", what, path, u->role, u->path);
		else
			SAY("%s %s is also %s", what, path, u->role);
		return -EINVAL;
	}
	return 0;
}

/*
 * Judges what is at base in dirfd for a side output: nothing (fine), a regular file (fine,
 * *existing filled in), anything else refused. whole: the output replaces the file (a report,
 * a trace), so it must be writable there, or it may go to standard output; else it is a
 * database changed in place by SQLite (which opens a read-only one for reading).
 */
static int judge_output(int dirfd, const char *base, const char *what, const char *path,
			bool whole, struct stat *existing, bool *exists, char *err, size_t errlen)
{
	int fd = openat(dirfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	*exists = false;
	if (fd < 0) {
		if (errno == ENOENT)
			return check_uses(dirfd, base, NULL, false, what, path, err, errlen);
		int r = -errno;
		SAY("%s %s: %s", what, path, strerror(errno));
		return r;
	}
	int r = fstat(fd, existing) ? -errno : 0;
	close(fd);
	if (r) {
		SAY("%s %s: %s", what, path, strerror(-r));
		return r;
	}
	if (S_ISREG(existing->st_mode)) {
		/* Replaced only where it could have been written: a read-only file stays one. */
		if (whole &&
		    faccessat(dirfd, base, W_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW)) {
			r = -errno;
			SAY("%s %s: %s", what, path, strerror(-r));
			return r;
		}
		*exists = true;
		return check_uses(dirfd, base, existing, true, what, path, err, errlen);
	}
	if (S_ISLNK(existing->st_mode))
		SAY("%s %s: is a symbolic link; name the file itself (iorate does not write "
		    "through links)",
		    what, path);
	else
		SAY("%s %s: is %s; give a regular file%s", what, path, gate_kind(existing->st_mode),
		    whole ? " (or - for standard output)" : "");
	return -EINVAL;
}

static int check_output(const char *what, const char *path, bool whole, char *err,
			size_t errlen)
{
	struct stat st;
	bool exists;
	char *base;
	int dirfd, r;

	if (!strcmp(path, "-"))
		return 0;
	if ((r = gate_open_parent(path, &dirfd, &base)))
		return parent_fail(r, what, path, err, errlen);
	r = judge_output(dirfd, base, what, path, whole, &st, &exists, err, errlen);
	close(dirfd);
	free(base);
	return r;
}

int gate_check_output(const char *what, const char *path, char *err, size_t errlen)
{
	return check_output(what, path, true, err, errlen);
}

int gate_check_db(const char *what, const char *path, char *err, size_t errlen)
{
	return check_output(what, path, false, err, errlen);
}

int gate_create_at(int dirfd, const char *name, int flags, mode_t mode, struct gate_id *id)
{
	struct stat st;
	int fd = openat(dirfd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int r = -errno;
		close(fd);
		unlinkat(dirfd, name, 0);
		return r;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return fd;
}

static int random_chars(char *out, size_t n)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[64];

	if (n > sizeof(rnd))
		return -EINVAL;
	if (getrandom(rnd, n, 0) != (ssize_t)n)
		return -errno ? -errno : -EIO;
	for (size_t i = 0; i < n; i++)
		out[i] = set[rnd[i] % (sizeof(set) - 1)];
	out[n] = '\0';
	return 0;
}

int gate_unique_name(const char *dir, const char *prefix, const char *suffix, char *out,
		     size_t len)
{
	char rnd[13];
	int r;

	if ((r = random_chars(rnd, 12)))
		return r;
	if ((size_t)snprintf(out, len, "%s%s%s%s%s", dir ? dir : "", dir ? "/" : "", prefix, rnd,
			     suffix) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int gate_unlinkat_created(int dirfd, const char *name, const struct gate_id *id)
{
	struct stat st;
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	int r = fstat(fd, &st) ? -errno : 0;
	close(fd);
	if (r)
		return r;
	if (st.st_dev != id->dev || st.st_ino != id->ino)
		return -ESTALE;
	return unlinkat(dirfd, name, 0) ? -errno : 0;
}

int gate_unlink_created(const char *path, const struct gate_id *id)
{
	char *base;
	int dirfd, r;

	if ((r = gate_open_parent(path, &dirfd, &base)))
		return r;
	r = gate_unlinkat_created(dirfd, base, id);
	close(dirfd);
	free(base);
	return r;
}

int gate_hold(const char *path, bool follow, struct stat *st)
{
	int opath = open(path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));

	if (opath < 0)
		return -errno;
	if (fstat(opath, st)) {
		int r = -errno;
		close(opath);
		return r;
	}
	return opath;
}

/*
 * The block devices this process writes, each claimed once with O_EXCL however many jobs write
 * it: the kernel refuses a second exclusive open from the same process too, which would take
 * iorate's own claim for somebody else's.
 */
static struct claim {
	dev_t dev;
	int fd;
	unsigned refs;
} claims[64];
static pthread_mutex_t claims_lock = PTHREAD_MUTEX_INITIALIZER;

static struct claim *claim_find(dev_t dev, bool any_free)
{
	for (size_t i = 0; i < sizeof(claims) / sizeof(claims[0]); i++)
		if (any_free ? !claims[i].refs : claims[i].refs && claims[i].dev == dev)
			return &claims[i];
	return NULL;
}

int gate_claim(int opath, const struct stat *st)
{
	struct stat now = *st;
	struct claim *c;
	int fd, r = 0;

	pthread_mutex_lock(&claims_lock);
	if ((c = claim_find(st->st_rdev, false))) {
		c->refs++;
	} else if (!(c = claim_find(0, true))) {
		r = -EMFILE;
	} else if ((fd = gate_reopen(opath, O_RDONLY | O_EXCL, &now)) < 0) {
		r = fd;
	} else {
		*c = (struct claim){.dev = st->st_rdev, .fd = fd, .refs = 1};
	}
	pthread_mutex_unlock(&claims_lock);
	return r;
}

void gate_unclaim(dev_t dev)
{
	struct claim *c;

	pthread_mutex_lock(&claims_lock);
	if ((c = claim_find(dev, false)) && !--c->refs)
		close(c->fd);
	pthread_mutex_unlock(&claims_lock);
}

int gate_reopen(int opath, int flags, struct stat *st)
{
	char proc[40];
	struct stat now;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", opath);
	/* The magic link leads to the inode judged, whatever the name points at by now. */
	int fd = open(proc, (flags & ~O_NOFOLLOW) | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT && access("/proc/self/fd", F_OK) ? -ENOSYS : -errno;
	if (fstat(fd, &now)) {
		int r = -errno;
		close(fd);
		return r;
	}
	if (now.st_dev != st->st_dev || now.st_ino != st->st_ino || now.st_rdev != st->st_rdev) {
		close(fd);
		return -ESTALE;
	}
	*st = now;
	return fd;
}

/*
 * The stream of a side output keeps the first write error, with its errno, and drops what is
 * written after it; fclose() syncs the file and returns that error, or the sync's. The writer
 * sees no error of its own, so nothing between the failed write and gate_out_commit() can turn it
 * into a vaguer one (a report writer's ferror() is only "Input/output error" where the disk was
 * full).
 */
struct out_stream {
	int fd;
	int err;      /* the first failed write's -errno, or 0 */
	bool borrow;  /* standard output: neither synced (a pipe cannot be) nor closed */
};

static ssize_t out_stream_write(void *cookie, const char *buf, size_t len)
{
	struct out_stream *s = cookie;
	size_t done = 0;

	while (!s->err && done < len) {
		ssize_t n = write(s->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			s->err = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	return (ssize_t)len;
}

static int out_stream_close(void *cookie)
{
	struct out_stream *s = cookie;
	int r = s->err;

	if (!s->borrow && !r && fsync(s->fd))
		r = -errno;
	if (!s->borrow && close(s->fd) && !r && errno != EINTR)
		r = -errno;
	free(s);
	errno = -r;
	return r ? -1 : 0;
}

static FILE *out_stream_open(int fd, bool borrow)
{
	static const cookie_io_functions_t io = {.write = out_stream_write,
						 .close = out_stream_close};
	struct out_stream *s = malloc(sizeof(*s));
	FILE *f;

	if (!s)
		return NULL;
	*s = (struct out_stream){.fd = fd, .borrow = borrow};
	if (!(f = fopencookie(s, "w", io)))
		free(s);
	return f;
}

FILE *gate_stdout_open(void)
{
	FILE *f;

	fflush(stdout);
	if ((f = out_stream_open(STDOUT_FILENO, true)) && isatty(STDOUT_FILENO))
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

/* The character devices that swallow or refuse what is written: /dev/null, /dev/zero, /dev/full. */
static bool harmless_chr(dev_t rdev)
{
	return major(rdev) == 1 && (minor(rdev) == 3 || minor(rdev) == 5 || minor(rdev) == 7);
}

int gate_stdout_check(bool force, char *err, size_t errlen)
{
	char path[PATH_MAX] = "?";
	struct stat st;
	ssize_t n;

	if (fstat(STDOUT_FILENO, &st))
		return 0; /* closed: nothing is written anywhere */
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		return 0;
	if (S_ISCHR(st.st_mode) && (isatty(STDOUT_FILENO) || harmless_chr(st.st_rdev)))
		return 0;
	if (force)
		return 0;
	if ((n = readlink("/proc/self/fd/1", path, sizeof(path) - 1)) > 0)
		path[n] = '\0';
	SAY("standard output is %s (%s); refusing to write a report to it (redirect it to a file, "
	    "or add " FIELD("force") " to mean it)", gate_kind(st.st_mode), path);
	return -EPERM;
}

int gate_stdout_close(FILE *f)
{
	int r = 0;

	if (!f)
		return 0;
	/* The stream hides every error until its close: that returns the first, errno kept. */
	errno = 0;
	if (fclose(f))
		r = errno ? -errno : -EIO;
	return r;
}

int gate_out_open(struct gate_out *o, const char *what, const char *path, char *err,
		  size_t errlen)
{
	struct stat old;
	int fd = -1, r;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	if (!strcmp(path, "-")) {
		o->is_stdout = true;
		if (!(o->f = gate_stdout_open())) {
			SAY("%s -: %s", what, strerror(ENOMEM));
			return -ENOMEM;
		}
		return 0;
	}
	o->what = what;
	if (!(o->path = strdup(path)))
		return -ENOMEM;
	if ((r = gate_open_parent(path, &o->dirfd, &o->base))) {
		r = parent_fail(r, what, path, err, errlen);
		goto fail;
	}
	if ((r = judge_output(o->dirfd, o->base, what, path, true, &old, &o->replace, err, errlen)))
		goto fail;
	for (int tries = 0; fd < 0 && tries < 8; tries++) {
		char rnd[13];
		free(o->tmpname);
		o->tmpname = NULL;
		if ((r = random_chars(rnd, 12)) ||
		    asprintf(&o->tmpname, ".%.200s.iorate-%s", o->base, rnd) < 0) {
			o->tmpname = NULL;
			r = r ? r : -ENOMEM;
			break;
		}
		if ((fd = gate_create_at(o->dirfd, o->tmpname, O_WRONLY, 0666, &o->tmp)) < 0) {
			r = fd;
			free(o->tmpname);
			o->tmpname = NULL;
			if (r != -EEXIST)
				break;
		}
	}
	if (fd < 0) {
		SAY("%s %s: cannot create a file beside it: %s", what, path, strerror(-r));
		goto fail;
	}
	/* A replaced file keeps its owner and permissions. */
	if (o->replace) {
		if (fchown(fd, old.st_uid, old.st_gid)) {
			/* not root: the new file is the user's own, as the old one was */
		}
		fchmod(fd, old.st_mode & 0777);
	}
	if (!(o->f = out_stream_open(fd, false))) {
		r = -ENOMEM;
		close(fd);
		SAY("%s %s: %s", what, path, strerror(-r));
		goto fail;
	}
	return 0;
fail:
	gate_out_abort(o);
	return r;
}

void gate_out_abort(struct gate_out *o)
{
	if (!o)
		return;
	if (o->f && o->is_stdout)
		gate_stdout_close(o->f);
	else if (o->f)
		fclose(o->f);
	if (o->tmpname && o->dirfd >= 0)
		gate_unlinkat_created(o->dirfd, o->tmpname, &o->tmp);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->path);
	free(o->base);
	free(o->tmpname);
	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
}

/* Flush, sync and close, keeping the first errno: ENOSPC shows as itself, not as EIO. */
static int finish_file(FILE *f)
{
	int r = 0;

	errno = 0;
	if (fflush(f) || ferror(f))
		r = errno ? -errno : -EIO;
	errno = 0;
	if (fclose(f) && !r)
		r = errno ? -errno : -EIO;
	return r;
}

int gate_out_commit(struct gate_out *o, char *err, size_t errlen)
{
	struct stat old;
	bool exists;
	int r;

	if (o->is_stdout) {
		r = gate_stdout_close(o->f);
		o->f = NULL;
		if (r)
			SAY("standard output: %s", strerror(-r));
		return r;
	}
	/* Stopped by a signal: what was written may be partial; the old file stays. */
	if (stop_flag && *stop_flag && !o->partial) {
		SAY("%s %s: interrupted; %s", o->what, o->path,
		    o->replace ? "the file was left as it was" : "nothing was written");
		r = -EINTR;
		goto fail;
	}
	r = finish_file(o->f);
	o->f = NULL;
	if (r) {
		SAY("%s %s: cannot write: %s", o->what, o->path, strerror(-r));
		goto fail;
	}
	/* Whatever appeared at the name meanwhile must still be something we may replace. */
	if ((r = judge_output(o->dirfd, o->base, o->what, o->path, true, &old, &exists, err, errlen)))
		goto fail;
	if (renameat(o->dirfd, o->tmpname, o->dirfd, o->base)) {
		r = -errno;
		SAY("%s %s: cannot rename the finished file into place: %s", o->what, o->path,
		    strerror(-r));
		goto fail;
	}
	free(o->tmpname);
	o->tmpname = NULL;
	/* The rename itself reaches the disk with the directory. */
	int dfd = openat(o->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	gate_out_abort(o);
	return 0;
fail:
	gate_out_abort(o);
	return r;
}
