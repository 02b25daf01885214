/*
 * Signals that end a session (Ctrl-C, kill, a dropped SSH session, a closed pipe, timers) all
 * stop the work the same way: workers stop, what ran is printed or saved, created files are
 * removed, and the exit status is 128 + the signal, as a shell reports a process it killed.
 */
#include <signal.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/gate.h"
#include "util/stop.h"

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
}

static const int stop_signals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
				   SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE};

void cmd_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	gate_watch_stop(&stop_sig); /* an output a signal interrupts is dropped, not committed */
	stop_watch(&stop_sig);      /* long parses and downloads below the commands end too */
}

volatile sig_atomic_t *cmd_stop_flag(void)
{
	return &stop_sig;
}

int cmd_exit_code(int code)
{
	return stop_sig ? 128 + stop_sig : code;
}
