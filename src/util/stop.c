#include "util/stop.h"

static volatile sig_atomic_t *watched;

void stop_watch(volatile sig_atomic_t *flag)
{
	watched = flag;
}

bool stop_requested(void)
{
	return watched && *watched;
}
