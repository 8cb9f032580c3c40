/* gpumc print: specs as the parser read them (the printer: spec/print.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "machines/registry.h"
#include "spec/print.h"

int cmd_print(int argc, char **argv)
{
	struct run_opts o;
	run_opts_default(&o);
	const char **files;
	int nfiles = cli_parse_specs(&o, argc, argv, "D", "print", &files), rc = EXIT_HOLDS;
	if (nfiles < 0)
		return EXIT_INPUT;
	for (int f = 0; f < nfiles; f++) {
		struct diag d;
		diag_init(&d);
		struct spec *s = spec_load(files[f], &d);
		for (int i = 0; s && i < o.ndefines; i++)
			if (spec_define(s, o.defines[i], &d)) {
				spec_free(s);
				s = NULL;
			}
		if (s)
			registry_resolve_machine(s);
		struct strbuf out, why;
		sb_init(&out);
		sb_init(&why);
		if (!s) {
			fputs(sb_str(&d.msg), stderr);
			rc = exit_combine(rc, EXIT_INPUT);
		} else if (spec_print_checked(s, &out, &why)) {
			/* never text that means something else: say so instead */
			fprintf(stderr, "gpumc print: %s: %s\n", files[f], sb_str(&why));
			rc = exit_combine(rc, EXIT_INPUT);
		} else {
			if (nfiles > 1)
				printf("%s# %s\n", f ? "\n" : "", files[f]);
			fputs(sb_str(&out), stdout);
		}
		sb_free(&out);
		sb_free(&why);
		spec_free(s);
		diag_free(&d);
	}
	free(files);
	free(o.defines);
	return rc;
}
