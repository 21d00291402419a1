/* The registry of assay's commands (engines are in engines.c): what assay --help lists,
 * what --help and --cmdhelp of each show, what docs/options.md is made from. */
#include "commands.h"

#include <string.h>

const struct command commands[] = {
	{ "run", cmd_run, "run a suite of tests and print the results", "[options]", run_opts,
	  "Run a suite of tests and print the results (text, then the JSON document between marker "
	  "lines)." },
	{ "compare", cmd_compare, "side-by-side table of several results", "[options] RESULT...", compare_opts,
	  "Side by side: one row per figure, one column per run (a JSON result, a console log, or an "
	  "engine's -J output; NAME=FILE labels it); '*' marks a value clearly best, beyond the noise." },
	{ "report", cmd_report, "one HTML page with charts of one result, or several compared", "[-o FILE] RESULT...",
	  report_opts,
	  "Write one self-contained HTML page (no script, no font, no request; charts are inline SVG\n"
	  "with their numbers beneath).  One result: verdict, machine, figures, and charts of disk\n"
	  "latency, IOPS per second, CPU, memory, network and temperatures.  Several ([NAME=]FILE):\n"
	  "compare's table with the clear best marked and a bar chart per headline figure." },
	{ "certify", cmd_certify, "check a result against threshold rules (exit 0: all pass)",
	  "--profile NAME|FILE | --baseline OLD [--max-regression N%] [-J] RESULT...", certify_opts,
	  "Check a result (JSON or console log) against threshold rules, one per line:\n"
	  "  FIGURE OP VALUE[UNIT]     e.g.  disk.seq.write.bw >= 600MB/s\n"
	  "Built-in profiles: vps-tasting, hw-certify, surface, ci.  Exit 0 when every rule passes." },
	{ "extract", cmd_extract, "the result document from a console log", "CONSOLE.LOG", NULL,
	  "Print the last result document found in a console log (checked against its length and "
	  "CRC-32)." },
	{ "boot-once", cmd_bootonce, "boot the assay image once through GRUB (where kexec cannot)",
	  "[--kernel F] [--initrd F] [--boot DIR] [--results-to DIR] [--yes] [--dry-run] [--remove] "
	  "[-- ASSAY-RUN-OPTIONS...]", bootonce_opts,
	  "Copy the image to BOOT/assay/, add a GRUB entry to BOOT/grub/custom.cfg and make it the next\n"
	  "boot only (grub-reboot); the boot after that is this system's default, untouched.  Reboot\n"
	  "yourself.  Options after -- become assay.* keys, as with kexec." },
	{ "show", cmd_show, "the last run's screen: unpacks what the image wrote (kexec --results-to)",
	  "[DIR|FILE]", NULL,
	  "Print the last run's verdict and headline figures.  DIR (default /var/lib/assay): the\n"
	  "results the image left in DIR/assay-inbox are unpacked into DIR/<date>-<machine>.json\n"
	  "and .txt first, then the newest .json is shown.  FILE: a result or console log.\n"
	  "Exit 1 when the run's certify verdict is FAIL." },
	{ "health", cmd_health, "the hardware's own health now: disks' SMART, ECC, throttling, temperatures",
	  "[-J]", health_opts,
	  "Print what the hardware says of itself: NVMe SMART/health and error logs, ATA SMART\n"
	  "attributes and logs, EDAC error counts per DIMM, thermal throttling, machine checks and\n"
	  "hwmon temperatures.  assay run reads the same before and after its tests (docs/health.md)." },
	{ "export", cmd_export, "a result in OpenMetrics text (Prometheus) or JSON",
	  "[--format openmetrics|json] [--textfile PATH.prom] RESULT", export_opts,
	  "Print a result's figures as OpenMetrics text: a gauge (or counter) per figure in base\n"
	  "units, labelled with the machine, the run and what the figure is about (docs/results.md).\n"
	  "--textfile also writes it where node_exporter's textfile collector reads." },
	{ "mkresults", cmd_mkresults, "make a results disk image (FAT, label ASSAY)", "FILE [SIZE]", NULL, NULL },
	{ "fetch", cmd_fetch, "copy the results from a results disk image", "FILE DIR", NULL, NULL },
	{ "serve", cmd_serve, "serve iperf3 tests to stock iperf3 clients", "[-B ADDR] [-p PORT] [--forever] "
	  "[--wait SECS]", serve_opts, "Serve iperf3 TCP tests (stock iperf3 clients: iperf3 -c ADDR)." },
	{ "kexec", cmd_kexec, "boot the assay image from a running Linux (no kexec-tools)",
	  "[--kernel F] [--initrd F] [--results-to DIR] [--yes] [--dry-run] [-- ASSAY-RUN-OPTIONS...]",
	  kexec_opts,
	  "Boot the assay image from this running Linux (kexec_file_load + reboot; no kexec-tools).\n"
	  "Options after -- become assay.* keys: -- --suite=standard --mode=rewrite gives\n"
	  "assay.suite=standard assay.mode=rewrite." },
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}
