/*
 * The write gate: side outputs written beside the old file and renamed, refusals of what is not a
 * regular file, created files removed only while their name leads to them, unguessable names,
 * and held paths reopened as the very inode judged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/gate.h"

#define RANDOM_SET "abcdefghijklmnopqrstuvwxyz0123456789"

/* Each test works in a fresh temporary directory, removed with what is left in it. */
struct fx {
	char dir[64];
	char path[160];              /* dir/out.txt */
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/iorate-test-gate.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/out.txt", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	/* A failed assertion skips a test's own clean-up: no state leaks into the next test. */
	gate_uses_clear();
	gate_watch_stop(NULL);
	struct fx *fx = *state;
	DIR *d = opendir(fx->dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The whole content of path, or "(missing)". */
static const char *get(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return "(missing)";
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Entries of dir whose names start with prefix. */
static int count_named(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

/* A temporary output beside out.txt: ".out.txt.iorate-" and 12 characters of [a-z0-9]. */
static void assert_one_temp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		const char *p = ".out.txt.iorate-";
		if (strncmp(de->d_name, p, strlen(p)))
			continue;
		n++;
		assert_int_equal(strlen(de->d_name), strlen(p) + 12);
		assert_int_equal(strspn(de->d_name + strlen(p), RANDOM_SET), 12);
	}
	closedir(d);
	assert_int_equal(n, 1);
}

static void out_new_file(void **state)
{
	struct fx *fx = *state;
	struct gate_out o;
	char err[256] = "";

	assert_int_equal(gate_check_output("-o", fx->path, err, sizeof(err)), 0);
	assert_int_equal(gate_out_open(&o, "-o", fx->path, err, sizeof(err)), 0);
	assert_false(o.replace);
	assert_false(o.is_stdout);
	fputs("hello\n", o.f);
	/* Until the commit the name is not there; the temporary file is. */
	assert_string_equal(get(fx->path), "(missing)");
	assert_one_temp(fx->dir);
	assert_int_equal(gate_out_commit(&o, err, sizeof(err)), 0);
	assert_string_equal(get(fx->path), "hello\n");
	assert_int_equal(count_named(fx->dir, ".out.txt."), 0);
	assert_null(o.f);
}

static void out_replace_keeps_old_until_commit(void **state)
{
	struct fx *fx = *state;
	struct gate_out o;
	struct stat st;
	char err[256] = "";

	put(fx->path, "old\n");
	assert_int_equal(chmod(fx->path, 0640), 0);
	assert_int_equal(gate_out_open(&o, "--trace", fx->path, err, sizeof(err)), 0);
	assert_true(o.replace);
	fputs("new\n", o.f);
	fflush(o.f);
	assert_string_equal(get(fx->path), "old\n");
	assert_int_equal(gate_out_commit(&o, err, sizeof(err)), 0);
	assert_string_equal(get(fx->path), "new\n");
	assert_int_equal(stat(fx->path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(count_named(fx->dir, ".out.txt."), 0);
}

static void out_abort_leaves_old(void **state)
{
	struct fx *fx = *state;
	struct gate_out o;
	char err[256] = "";

	put(fx->path, "old\n");
	assert_int_equal(gate_out_open(&o, "-o", fx->path, err, sizeof(err)), 0);
	fputs("half of a page", o.f);
	fflush(o.f);
	assert_one_temp(fx->dir);
	gate_out_abort(&o);
	assert_string_equal(get(fx->path), "old\n");
	assert_int_equal(count_named(fx->dir, ".out.txt."), 0);
	/* Aborting twice, or an output whose open failed, is harmless. */
	gate_out_abort(&o);
	assert_int_equal(o.dirfd, -1);
}

/* open and check refuse path with -EINVAL and a message holding word; nothing is left behind. */
static void assert_refused(struct fx *fx, const char *path, const char *word)
{
	struct gate_out o;
	char err[512] = "";

	assert_int_equal(gate_check_output("--trace", path, err, sizeof(err)), -EINVAL);
	if (!strstr(err, word) || !strstr(err, "--trace"))
		fail_msg("check %s: \"%s\" lacks \"%s\"", path, err, word);
	err[0] = '\0';
	assert_int_equal(gate_out_open(&o, "--trace", path, err, sizeof(err)), -EINVAL);
	if (!strstr(err, word))
		fail_msg("open %s: \"%s\" lacks \"%s\"", path, err, word);
	assert_null(o.f);
	assert_int_equal(o.dirfd, -1);
	assert_int_equal(count_named(fx->dir, "."), 2); /* "." and ".." only */
}

static void out_refuses_what_is_not_a_file(void **state)
{
	struct fx *fx = *state;
	char p[200];
	struct stat st;

	assert_refused(fx, "/dev/null", "character device");
	/* A FIFO is judged without being opened: no reader is needed and nothing blocks. */
	snprintf(p, sizeof(p), "%s/fifo", fx->dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_refused(fx, p, "FIFO");
	unlink(p);
	/* A link is refused whatever it leads to, and what it leads to is left as it was. */
	put(fx->path, "target\n");
	snprintf(p, sizeof(p), "%s/link", fx->dir);
	assert_int_equal(symlink(fx->path, p), 0);
	{
		struct gate_out o;
		char err[512] = "";
		assert_int_equal(gate_out_open(&o, "-o", p, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "symbolic link"));
	}
	assert_string_equal(get(fx->path), "target\n");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(p);
	unlink(fx->path);
	snprintf(p, sizeof(p), "%s/sub", fx->dir);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_refused(fx, p, "directory");
	rmdir(p);
	snprintf(p, sizeof(p), "%s/missing/out.txt", fx->dir);
	assert_refused(fx, p, "does not exist");
	/* A block device node, made here and never opened (needs CAP_MKNOD). */
	snprintf(p, sizeof(p), "%s/blk", fx->dir);
	if (mknod(p, S_IFBLK | 0600, makedev(7, 1048575)) == 0) {
		assert_refused(fx, p, "block device");
		unlink(p);
	} else {
		print_message("no block device node here (%s): that case is not checked\n",
			      strerror(errno));
	}
}

/* Something swapped in at the name while the output was written is not replaced through. */
static void out_commit_judges_the_name_again(void **state)
{
	struct fx *fx = *state;
	struct gate_out o;
	char err[512] = "", victim[200];

	snprintf(victim, sizeof(victim), "%s/victim", fx->dir);
	put(victim, "precious\n");
	assert_int_equal(gate_out_open(&o, "-o", fx->path, err, sizeof(err)), 0);
	fputs("report\n", o.f);
	assert_int_equal(symlink(victim, fx->path), 0);
	assert_int_equal(gate_out_commit(&o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "symbolic link"));
	assert_string_equal(get(victim), "precious\n");
	assert_int_equal(count_named(fx->dir, ".out.txt."), 0);
}

/*
 * A write that fails (here: over RLIMIT_FSIZE) fails the commit with its own errno; the old
 * file stays and the temporary file goes.
 */
static void out_write_error_is_named(void **state)
{
	struct fx *fx = *state;
	struct rlimit old, lim;
	struct gate_out o;
	char err[512] = "", line[100];

	put(fx->path, "old\n");
	assert_int_equal(gate_out_open(&o, "-o", fx->path, err, sizeof(err)), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = (struct rlimit){.rlim_cur = 4096, .rlim_max = old.rlim_max};
	void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	for (int i = 0; i < 1000; i++)
		fprintf(o.f, "%s\n", line);
	/* The writer sees no error of its own: the commit names the first one. */
	assert_false(ferror(o.f));
	int r = gate_out_commit(&o, err, sizeof(err));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, prev);
	assert_int_equal(r, -EFBIG);
	assert_non_null(strstr(err, strerror(EFBIG)));
	assert_non_null(strstr(err, fx->path));
	assert_string_equal(get(fx->path), "old\n");
	assert_int_equal(count_named(fx->dir, ".out.txt."), 0);
}

static void out_stdout(void **state)
{
	struct gate_out o;
	char err[64] = "";

	assert_int_equal(gate_check_output("-o", "-", err, sizeof(err)), 0);
	assert_int_equal(gate_out_open(&o, "-o", "-", err, sizeof(err)), 0);
	assert_true(o.is_stdout);
	assert_non_null(o.f);
	assert_int_equal(gate_out_commit(&o, err, sizeof(err)), 0);
	assert_null(o.f);
}

/* Standard output on a full device: the close names ENOSPC, not EIO; fd 1 stays open. */
static void stdout_keeps_errno(void **state)
{
	int saved = dup(STDOUT_FILENO), full = open("/dev/full", O_WRONLY);
	struct gate_out o;
	char err[128] = "";
	FILE *f;

	(void)state;
	if (full < 0) {
		close(saved);
		skip();
	}
	assert_true(saved >= 0);
	assert_int_equal(dup2(full, STDOUT_FILENO), STDOUT_FILENO);
	close(full);
	assert_non_null(f = gate_stdout_open());
	fputs("a report\n", f);
	assert_int_equal(gate_stdout_close(f), -ENOSPC);
	assert_int_equal(gate_out_open(&o, "--output", "-", err, sizeof(err)), 0);
	fputs("a page\n", o.f);
	assert_int_equal(gate_out_commit(&o, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, strerror(ENOSPC)));
	assert_int_equal(fcntl(STDOUT_FILENO, F_GETFD), 0);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
}

/*
 * A file the command uses (a target, its history, an input) is never an output's: refused by
 * name before it exists, by inode under another name; the option that writes it is let through.
 */
static void out_refuses_a_file_in_use(void **state)
{
	struct fx *fx = *state;
	struct gate_out o;
	char other[200], db[200], err[512] = "";

	snprintf(other, sizeof(other), "%s/other.txt", fx->dir);
	snprintf(db, sizeof(db), "%s/h.db", fx->dir);
	assert_int_equal(gate_use(fx->path, "a target", NULL), 0);
	assert_int_equal(gate_use(db, "the --db history", "--db"), 0);
	/* out.txt does not exist yet: its name is enough. */
	assert_int_equal(gate_check_output("--trace", fx->path, err, sizeof(err)), -EINVAL);
	assert_true(strstr(err, "is also a target") && strstr(err, fx->path));
	put(fx->path, "data\n");
	assert_int_equal(link(fx->path, other), 0);
	err[0] = '\0';
	assert_int_equal(gate_out_open(&o, "--trace", other, err, sizeof(err)), -EINVAL);
	assert_true(strstr(err, "is also a target (") && strstr(err, other));
	assert_int_equal(count_named(fx->dir, ".other.txt."), 0);
	assert_int_equal(gate_check_output("--output", db, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is also the --db history"));
	assert_int_equal(gate_check_output("--db", db, err, sizeof(err)), 0);
	assert_string_equal(get(fx->path), "data\n");
	gate_uses_clear();
	assert_int_equal(gate_check_output("--trace", other, err, sizeof(err)), 0);
}

/* A signal that asked to stop: the commit drops the output and leaves the old file. */
static void out_commit_stopped(void **state)
{
	struct fx *fx = *state;
	static volatile sig_atomic_t stop;

	stop = 0;
	struct gate_out o;
	char err[256] = "";

	put(fx->path, "old\n");
	gate_watch_stop(&stop);
	assert_int_equal(gate_out_open(&o, "--output", fx->path, err, sizeof(err)), 0);
	fputs("half of a page", o.f);
	stop = SIGINT;
	assert_int_equal(gate_out_commit(&o, err, sizeof(err)), -EINTR);
	assert_non_null(strstr(err, "interrupted"));
	assert_string_equal(get(fx->path), "old\n");
	assert_int_equal(count_named(fx->dir, ".out.txt."), 0);
	/* A run's trace is the record of what was issued: kept all the same. */
	assert_int_equal(gate_out_open(&o, "--trace", fx->path, err, sizeof(err)), 0);
	o.partial = true;
	fputs("issued\n", o.f);
	assert_int_equal(gate_out_commit(&o, err, sizeof(err)), 0);
	assert_string_equal(get(fx->path), "issued\n");
	gate_watch_stop(NULL);
}

static void create_and_unlink_created(void **state)
{
	struct fx *fx = *state;
	struct gate_id id, id2;
	char p[200], victim[200], other[200], *base;
	int dirfd, fd;

	assert_int_equal(gate_open_parent(fx->path, &dirfd, &base), 0);
	assert_string_equal(base, "out.txt");
	fd = gate_create_at(dirfd, "out.txt", O_RDWR, 0600, &id);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "made\n", 5), 5);
	close(fd);
	/* O_EXCL: an existing name is never reused... */
	assert_int_equal(gate_create_at(dirfd, "out.txt", O_RDWR, 0600, &id2), -EEXIST);
	/* ...nor a planted link followed, not even a dangling one. */
	snprintf(victim, sizeof(victim), "%s/victim", fx->dir);
	snprintf(p, sizeof(p), "%s/planted", fx->dir);
	assert_int_equal(symlink(victim, p), 0);
	assert_int_equal(gate_create_at(dirfd, "planted", O_RDWR, 0600, &id2), -EEXIST);
	assert_string_equal(get(victim), "(missing)");

	/* Another file renamed over the created one is left alone... */
	snprintf(other, sizeof(other), "%s/other", fx->dir);
	put(other, "theirs\n");
	assert_int_equal(rename(other, fx->path), 0);
	assert_int_equal(gate_unlink_created(fx->path, &id), -ESTALE);
	assert_string_equal(get(fx->path), "theirs\n");
	unlink(fx->path);
	/* ...and the created one, while its name leads to it, is removed, once. */
	fd = gate_create_at(dirfd, "out.txt", O_RDWR, 0600, &id);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(gate_unlinkat_created(dirfd, "out.txt", &id), 0);
	assert_int_equal(access(fx->path, F_OK), -1);
	assert_int_equal(gate_unlink_created(fx->path, &id), -ENOENT);
	/* A link now at the name, even to the created file's inode, is not unlinked through. */
	fd = gate_create_at(dirfd, "out.txt", O_RDWR, 0600, &id);
	assert_true(fd >= 0);
	close(fd);
	unlink(p);
	assert_int_equal(rename(fx->path, victim), 0);
	assert_int_equal(symlink(victim, fx->path), 0);
	assert_int_equal(gate_unlink_created(fx->path, &id), -ESTALE);
	assert_int_equal(access(victim, F_OK), 0);
	close(dirfd);
	free(base);
}

static void unique_names(void **state)
{
	static char names[1000][64];
	const char *set = RANDOM_SET;
	char p[64];

	assert_int_equal(gate_unique_name("/mnt/data", "iorate-mark.", ".dat", p, sizeof(p)), 0);
	assert_int_equal(strlen(p), strlen("/mnt/data/iorate-mark.") + 12 + strlen(".dat"));
	assert_int_equal(strncmp(p, "/mnt/data/iorate-mark.", 22), 0);
	assert_int_equal(strspn(p + 22, set), 12);
	assert_string_equal(p + 34, ".dat");
	assert_int_equal(gate_unique_name(NULL, "testfile.", ".dat", p, sizeof(p)), 0);
	assert_int_equal(strncmp(p, "testfile.", 9), 0);
	assert_int_equal(strspn(p + 9, set), 12);
	assert_string_equal(p + 21, ".dat");
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(gate_unique_name(NULL, "x.", "", names[i], sizeof(names[i])), 0);
		for (int k = 0; k < i; k++)
			if (!strcmp(names[i], names[k]))
				fail_msg("name %d repeats name %d: %s", i, k, names[i]);
	}
	assert_int_equal(gate_unique_name("/a/long/directory", "iorate-mark.", ".dat", p, 40),
			 -ENAMETOOLONG);
}

/* A held path is reopened as the inode judged, whatever the name was changed to meanwhile. */
static void hold_and_reopen_same_inode(void **state)
{
	struct fx *fx = *state;
	struct stat held, now;
	char other[200], buf[32];
	ssize_t n;

	put(fx->path, "judged\n");
	int h = gate_hold(fx->path, false, &held);
	assert_true(h >= 0);
	assert_true(S_ISREG(held.st_mode));
	/* The name now leads to another file. */
	snprintf(other, sizeof(other), "%s/other", fx->dir);
	put(other, "swapped in\n");
	assert_int_equal(rename(other, fx->path), 0);
	now = held;
	int fd = gate_reopen(h, O_RDONLY, &now);
	assert_true(fd >= 0);
	assert_int_equal(now.st_ino, held.st_ino);
	assert_int_equal(now.st_dev, held.st_dev);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	assert_string_equal(buf, "judged\n");
	close(fd);
	/* The name now a link to yet another file: still the inode judged. */
	unlink(fx->path);
	put(other, "behind a link\n");
	assert_int_equal(symlink(other, fx->path), 0);
	now = held;
	fd = gate_reopen(h, O_RDONLY, &now);
	assert_true(fd >= 0);
	assert_int_equal(now.st_ino, held.st_ino);
	close(fd);
	/* A stat that is not of the held file: refused. */
	now = held;
	now.st_ino++;
	assert_int_equal(gate_reopen(h, O_RDONLY, &now), -ESTALE);
	close(h);

	/* follow = false holds the link itself; true, what it leads to. */
	h = gate_hold(fx->path, false, &now);
	assert_true(h >= 0);
	assert_true(S_ISLNK(now.st_mode));
	close(h);
	h = gate_hold(fx->path, true, &now);
	assert_true(h >= 0);
	assert_true(S_ISREG(now.st_mode));
	close(h);
	/* A FIFO is held without blocking for a peer. */
	unlink(other);
	assert_int_equal(mkfifo(other, 0600), 0);
	h = gate_hold(other, false, &now);
	assert_true(h >= 0);
	assert_true(S_ISFIFO(now.st_mode));
	close(h);
	assert_int_equal(gate_hold("/nonexistent/iorate", false, &now), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(out_new_file, setup, teardown),
		cmocka_unit_test_setup_teardown(out_replace_keeps_old_until_commit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(out_abort_leaves_old, setup, teardown),
		cmocka_unit_test_setup_teardown(out_refuses_what_is_not_a_file, setup, teardown),
		cmocka_unit_test_setup_teardown(out_commit_judges_the_name_again, setup, teardown),
		cmocka_unit_test_setup_teardown(out_write_error_is_named, setup, teardown),
		cmocka_unit_test_setup_teardown(out_stdout, setup, teardown),
		cmocka_unit_test(stdout_keeps_errno),
		cmocka_unit_test_setup_teardown(out_refuses_a_file_in_use, setup, teardown),
		cmocka_unit_test_setup_teardown(out_commit_stopped, setup, teardown),
		cmocka_unit_test_setup_teardown(create_and_unlink_created, setup, teardown),
		cmocka_unit_test_setup_teardown(unique_names, setup, teardown),
		cmocka_unit_test_setup_teardown(hold_and_reopen_same_inode, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
