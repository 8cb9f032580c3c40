/* On/off switches read from the environment (the GPUMC_CHECK_* checks). */
#ifndef GPUMC_ENV_H
#define GPUMC_ENV_H

#include <stdlib.h>

/* Is variable `name` set to something that does not start with '0'? */
static inline int env_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && *v != '0';
}

#endif
