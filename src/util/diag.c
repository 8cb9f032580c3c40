#include "config.h"
#include "util/diag.h"

#include <stdarg.h>

void diag_init(struct diag *d)
{
	sb_init(&d->msg);
	d->nerr = 0;
}

void diag_free(struct diag *d)
{
	sb_free(&d->msg);
}

void diag_at(struct diag *d, const char *file, int line, int col, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (line > 0)
		sb_printf(&d->msg, "%s:%d:%d: error: %s\n", file, line, col, buf);
	else
		sb_printf(&d->msg, "%s: error: %s\n", file, buf);
	d->nerr++;
}
