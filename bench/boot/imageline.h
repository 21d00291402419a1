/* The image's kernel command line as assay kexec and assay boot-once make it (imageline.c):
 * its consoles, how it was booted, the results' way home, the run's options. */
#ifndef ASSAY_IMAGELINE_H
#define ASSAY_IMAGELINE_H

#include <stddef.h>

/* "console=tty0 console=ttyS0,115200 panic=-1 assay.boot=HOW[ APPEND]" into line */
void imageline_start(char *line, size_t n, const char *consoles, const char *how, const char *append);
/* --results-to DIR: the inbox made (report/inbox.c) and " assay.results=inbox:...
 * assay.after=reboot" added; its filesystem's mount point into mp.  what names the command
 * for messages.  0, or -1 after the reason. */
int imageline_results(char *line, size_t n, const char *what, const char *dir, int dry_run, char *mp, size_t mpn);
/* the words after -- (--KEY=VALUE) as assay.KEY=VALUE; 0, or -1 after the reason */
int imageline_run_opts(char *line, size_t n, const char *what, int argc, char **argv);

#endif
