#include "config.h"
#include "util/interrupt.h"

#include <string.h>

_Atomic int interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
	/* the next one is not caught: a stuck gpumc still dies on ^C ^C */
	signal(sig, SIG_DFL);
}

void interrupt_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

const char *interrupt_name(void)
{
	return interrupted == SIGTERM ? "SIGTERM" : "SIGINT";
}
