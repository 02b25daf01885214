#ifndef IORATE_UTIL_STOP_H
#define IORATE_UTIL_STOP_H
#include <signal.h>
#include <stdbool.h>

/*
 * The stop signal as the layers below the commands see it: a long parse, import or download
 * polls stop_requested() and ends with -EINTR, so Ctrl-C is obeyed within a second whatever the
 * command is doing. The commands hand over their flag once, when the signals are installed;
 * until then (unit tests, fuzz targets) nothing is ever requested.
 */
void stop_watch(volatile sig_atomic_t *flag);
bool stop_requested(void);

#endif
