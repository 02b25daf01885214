#ifndef IORATE_UTIL_FIO_NAMES_H
#define IORATE_UTIL_FIO_NAMES_H
#include <stdbool.h>
#include <stddef.h>

/*
 * fio's names for iorate's engines: the one dictionary that reading fio (job files, command
 * lines, `--engine io_uring`) and writing it (fio JSON, terse) share, so a name is spelt once.
 */
struct fio_engine_name {
	const char *fio, *ours;
	bool sync;            /* fio runs it synchronously: iodepth has no effect */
	const char *differs;  /* ours makes other system calls: how; NULL when the same */
};

extern const struct fio_engine_name fio_engine_names[];
extern const size_t fio_nengine_names;

/* The row of fio's engine name, or NULL when iorate has no engine for it. */
const struct fio_engine_name *fio_engine_lookup(const char *fio);

/* fio's name of iorate's engine (the row that makes the same calls), else ours unchanged. */
const char *fio_engine_of(const char *ours);

#endif
