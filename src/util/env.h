/* Switches read from the environment: the GPUMC_CHECK_* checks, and the
** tests' GPUMC_TEST_FAULT plants. */
#ifndef GPUMC_ENV_H
#define GPUMC_ENV_H

#include <stdlib.h>
#include <string.h>

/* Is variable `name` set to something other than "" and "0"? */
static inline int env_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

/* For the tests only: does GPUMC_TEST_FAULT (a comma-separated list) name
** plant `name`?  A plant breaks, on purpose, what a check must catch, so
** that a test sees the check bite where its switch is on, and stay quiet
** where it is off (t/check-switches.sh): a switch that no longer turns its
** check on would otherwise pass every test. */
static inline int env_fault(const char *name)
{
	const char *v = getenv("GPUMC_TEST_FAULT");
	size_t n = strlen(name);
	for (; v && *v; v += strcspn(v, ","), v += *v == ',')
		if (strncmp(v, name, n) == 0 && (v[n] == ',' || v[n] == '\0'))
			return 1;
	return 0;
}

#endif
