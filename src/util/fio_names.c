/* fio's names for iorate's engines (util/fio_names.h). */
#include "util/fio_names.h"

#include <string.h>

const struct fio_engine_name fio_engine_names[] = {
	{.fio = "psync", .ours = "sync", .sync = true},
	{.fio = "sync", .ours = "sync", .sync = true,
	 .differs = "pread/pwrite, not read/write after lseek"},
	{.fio = "pvsync", .ours = "pvsync", .sync = true},
	{.fio = "pvsync2", .ours = "pvsync2", .sync = true},
	{.fio = "vsync", .ours = "sync", .sync = true,
	 .differs = "pread/pwrite, not readv/writev after lseek"},
	{.fio = "libaio", .ours = "aio"},
	{.fio = "io_uring", .ours = "uring"},
	{.fio = "null", .ours = "null"},
	{.fio = "posixaio", .ours = "posixaio"},
};
const size_t fio_nengine_names = sizeof(fio_engine_names) / sizeof(fio_engine_names[0]);

const struct fio_engine_name *fio_engine_lookup(const char *fio)
{
	for (size_t i = 0; i < fio_nengine_names; i++)
		if (!strcmp(fio, fio_engine_names[i].fio))
			return &fio_engine_names[i];
	return NULL;
}

const char *fio_engine_of(const char *ours)
{
	for (size_t i = 0; i < fio_nengine_names; i++)
		if (!fio_engine_names[i].differs && !strcmp(ours, fio_engine_names[i].ours))
			return fio_engine_names[i].fio;
	return ours;
}
