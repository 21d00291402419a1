/* The registry: every command of the assay CLI (assay --help's order), the engines assay
 * run plans with, and the figures of a run's whole document.  Each row is defined in its
 * own file; adding a command, an engine or a source of figures is that file and a line
 * here.  This is the one place that names every room's rows; nothing includes it. */
#include "cli/command.h"
#include "engine/engine.h"

#include <stddef.h>

extern const struct command run_command, compare_command, report_command, certify_command, baseline_command,
	extract_command,
	bootonce_command, show_command, health_command, export_command, mkresults_command, fetch_command,
	serve_command, kexec_command;
extern const struct engine engine_cpu, engine_mem, engine_memtest, engine_disk, engine_net, engine_dns;
extern const struct doc_figures health_doc_figures, burnin_doc_figures;

const struct command *const commands[] = {
	&run_command,
	&compare_command,
	&report_command,
	&certify_command,
	&baseline_command,
	&extract_command,
	&bootonce_command,
	&show_command,
	&health_command,
	&export_command,
	&mkresults_command,
	&fetch_command,
	&serve_command,
	&kexec_command,
	&engine_cpu.cmd,
	&engine_mem.cmd,
	&engine_memtest.cmd,
	&engine_disk.cmd,
	&engine_net.cmd,
	&engine_dns.cmd,
	NULL,
};

/* in the order their tests run and their headings show */
const struct engine *const engines[] = {
	&engine_cpu,
	&engine_mem,
	&engine_memtest,
	&engine_disk,
	&engine_net,
	&engine_dns,
	NULL,
};

/* in the order their figures follow the tests' in doc.summary */
const struct doc_figures *const doc_figures[] = {
	&health_doc_figures,
	&burnin_doc_figures,
	NULL,
};
