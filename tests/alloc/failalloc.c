// Allocation failure injection, linked into build/iorate-san-failalloc (tests/alloc/).
// IORATE_FAIL_ALLOC=N makes the Nth allocation after start-up return NULL (ENOMEM), once, as
// SQLite's test harness does; 0 fails none and only counts. Every allocation in the process goes
// through here: iorate's own, libc's (getline, vasprintf, fopen) and jansson's, SQLite's and
// libxml2's, since the executable's malloc is the one every library binds to. At exit
// "COUNT FIRED" is written to the file IORATE_FAIL_ALLOC_OUT names, so a test knows whether the
// failure point was reached.
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void *(*real_reallocarray)(void *, size_t, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static char *(*real_strdup)(const char *);
static char *(*real_strndup)(const char *, size_t);

// dlsym() may allocate while the real functions are looked up: those few requests are served
// from here and never freed.
static _Alignas(16) char boot[4096];
static size_t boot_used;
static int resolving;

static atomic_long fail_at;  // 0: count only
static atomic_long calls;
static atomic_int fired;
static atomic_int armed;

static void resolve(void)
{
	if (real_malloc || resolving)
		return;
	resolving = 1;
	real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	real_reallocarray = (void *(*)(void *, size_t, size_t))dlsym(RTLD_NEXT, "reallocarray");
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
	real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
	real_strdup = (char *(*)(const char *))dlsym(RTLD_NEXT, "strdup");
	real_strndup = (char *(*)(const char *, size_t))dlsym(RTLD_NEXT, "strndup");
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	resolving = 0;
}

static void *boot_alloc(size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (boot_used + n > sizeof(boot))
		return NULL;
	void *p = boot + boot_used;
	boot_used += n;
	return p;
}

static int is_boot(const void *p)
{
	return (const char *)p >= boot && (const char *)p < boot + sizeof(boot);
}

// Above 0 while this thread is in a call whose allocations are AddressSanitizer's own.
static __thread int exempt;

// True when this allocation is the one to fail.
static int fail_now(void)
{
	if (!atomic_load_explicit(&armed, memory_order_relaxed) || exempt)
		return 0;
	long n = atomic_fetch_add(&calls, 1) + 1;
	long at = atomic_load_explicit(&fail_at, memory_order_relaxed);
	if (at > 0 && n == at) {
		atomic_store(&fired, 1);
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

static void report(void)
{
	const char *path = getenv("IORATE_FAIL_ALLOC_OUT");

	// What is counted ends here: the destructors after it (gcov's writing its counts, under
	// make coverage) allocate with no check of their own.
	atomic_store(&armed, 0);
	if (!path)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[64];
	int len = snprintf(line, sizeof(line), "%ld %d\n", atomic_load(&calls),
			   atomic_load(&fired));
	if (write(fd, line, (size_t)len) < 0) {
		// nothing to do: the test then sees no count
	}
	close(fd);
}

// Armed once the libraries' own start-up is done (the executable's constructors run last), so
// N counts from iorate's start, the same in every run of one command line.
__attribute__((constructor)) static void arm(void)
{
	const char *s = getenv("IORATE_FAIL_ALLOC");
	resolve();
	if (!s)
		return;
	atomic_store(&fail_at, strtol(s, NULL, 10));
	atexit(report);
	atomic_store(&armed, 1);
}

void *malloc(size_t n)
{
	resolve();
	if (!real_malloc)
		return boot_alloc(n);
	if (fail_now())
		return NULL;
	return real_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	resolve();
	if (!real_calloc) {
		void *p = n && size > SIZE_MAX / n ? NULL : boot_alloc(n * size);
		return p;  // boot is zeroed and never reused
	}
	if (fail_now())
		return NULL;
	return real_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (is_boot(p)) {
		void *q = malloc(n);
		if (q)
			memcpy(q, p, n < sizeof(boot) - (size_t)((char *)p - boot) ?
				n : sizeof(boot) - (size_t)((char *)p - boot));
		return q;
	}
	if (fail_now())
		return NULL;
	return real_realloc(p, n);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	resolve();
	if (is_boot(p))
		return n && size > SIZE_MAX / n ? NULL : realloc(p, n * size);
	if (fail_now())
		return NULL;
	return real_reallocarray(p, n, size);
}

void free(void *p)
{
	if (!p || is_boot(p))
		return;
	resolve();
	real_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	resolve();
	if (fail_now())
		return ENOMEM;
	return real_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	resolve();
	if (fail_now())
		return NULL;
	return real_aligned_alloc(align, n);
}

void *memalign(size_t align, size_t n)
{
	resolve();
	if (fail_now())
		return NULL;
	return real_memalign(align, n);
}

// AddressSanitizer's strdup and strndup allocate without calling malloc: counted here too.
char *strdup(const char *s)
{
	resolve();
	if (fail_now())
		return NULL;
	return real_strdup(s);
}

char *strndup(const char *s, size_t n)
{
	resolve();
	if (fail_now())
		return NULL;
	return real_strndup(s, n);
}

// AddressSanitizer asks each new thread for its stack with this, which allocates; it aborts
// when that fails, before the thread runs any of iorate's code: not counted.
int pthread_getattr_np(pthread_t t, pthread_attr_t *attr)
{
	static int (*real)(pthread_t, pthread_attr_t *);
	if (!real)
		real = (int (*)(pthread_t, pthread_attr_t *))dlsym(RTLD_NEXT, "pthread_getattr_np");
	exempt++;
	int r = real(t, attr);
	exempt--;
	return r;
}
