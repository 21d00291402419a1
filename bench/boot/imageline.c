/* The image's kernel command line (imageline.h). */
#include "imageline.h"
#include "report/inbox.h"
#include "msg.h"

#include <stdio.h>
#include <string.h>

void imageline_start(char *line, size_t n, const char *consoles, const char *how, const char *append)
{
	char cons[256], *save = NULL;
	size_t l = 0;
	snprintf(cons, sizeof cons, "%s", consoles);
	line[0] = 0;
	/* console=tty0 console=ttyS0,115200: the last one is init's console */
	for (char *w = strtok_r(cons, " ", &save); w && l < n; w = strtok_r(NULL, " ", &save))
		l += (size_t)snprintf(line + l, n - l, "%sconsole=%s", l ? " " : "", w);
	if (l < n)
		snprintf(line + l, n - l, " panic=-1 assay.boot=%s%s%s", how, append && *append ? " " : "",
			 append ? append : "");
}

int imageline_results(char *line, size_t n, const char *what, const char *dir, int dry_run, char *mp, size_t mpn)
{
	struct inbox_map m;
	char spec[1024], err[800];
	size_t l = strlen(line);
	if (inbox_prepare(dir, dry_run, &m, err, sizeof err)) {
		errmsg("%s: %s", what, err);
		return -1;
	}
	inbox_spec(&m, spec, sizeof spec);
	snprintf(mp, mpn, "%s", m.mountpoint);
	if (snprintf(line + l, n - l, " assay.results=%s assay.after=reboot", spec) >= (int)(n - l)) {
		errmsg("%s: the command line is too long with the inbox's map", what);
		return -1;
	}
	printf("results: %s/%s (%s on %s, %d extent%s); the image writes them there, then reboots into this "
	       "system: 'assay show %s'\n", dir, INBOX_NAME, m.fstype, m.disk, m.n, m.n == 1 ? "" : "s", dir);
	return 0;
}

int imageline_run_opts(char *line, size_t n, const char *what, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *o = argv[i];
		size_t l = strlen(line);
		if (strncmp(o, "--", 2) || !o[2] || strchr(o, ' ') ||
		    snprintf(line + l, n - l, " assay.%s%s", o + 2, strchr(o, '=') ? "" : "=1") >= (int)(n - l)) {
			line[l] = 0;
			errmsg("%s: '%s' after --: expected --KEY=VALUE (an assay run option)", what, o);
			return -1;
		}
	}
	return 0;
}
