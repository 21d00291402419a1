/* assay: the benchmark engine and CLI.  One static binary, in the image and on hosts.
 * The commands are the registry's rows (commands.c), read by one parser (cli/cli.c). */
#include "cli/command.h"

#include <signal.h>

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	return cli_main(argc, argv);
}
