/* assay run's options (also assay.KEY=VALUE on the kernel command line, through
 * --cmdline's file), and their checks across options (run.h). */
#include "run_int.h"

#include "bootopts.h"
#include "disk/disk.h"
#include "fileio.h"
#include "json.h"
#include "msg.h"
#include "report/inbox.h"

#include <stdlib.h>
#include <string.h>

const struct opt run_opts[] = {
	{ "output-format", 0, OPT_ENUM, offsetof(struct run_cfg, common.format), "normal", 0, 0,
	  "normal|json|openmetrics", "output format (openmetrics: the figures for Prometheus' tools, "
	  "after the progress lines on stderr)", 0 },
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "output-format=json", "same as --output-format=json", OPT_NOARG },
	{ "textfile", 0, OPT_STR, offsetof(struct run_cfg, textfile), NULL, 0, 0, "PATH.prom",
	  "also write the figures as OpenMetrics text to PATH for node_exporter's textfile collector "
	  "(atomically)", 0 },
	{ "suite", 0, OPT_ENUM, offsetof(struct run_cfg, suite), "quick", 0, 0,
	  "quick|standard|full|burnin", "how long and how thorough (burnin: rounds of stress and checks "
	  "for --burnin)", 0 },
	{ "repeat", 0, OPT_INT, offsetof(struct run_cfg, repeat), "1", 1, 100, NULL,
	  "run every test this many times, round after round: each figure then has its samples, the "
	  "median its value (what the noise model and certify's gate use; docs/results.md)", 0 },
	{ "burnin", 0, OPT_TIME, offsetof(struct run_cfg, burnin), "1h", 1, 30 * 86400, NULL,
	  "the burn-in suite's length: rounds run until it is spent (8h, 30m)", 0 },
	{ "tests", 0, OPT_STR, offsetof(struct run_cfg, tests), "all", 0, 0,
	  "a comma list of engines (cpu) or all", "which engines run", 0 },
	{ "cpu-time", 0, OPT_TIME, offsetof(struct run_cfg, cpu_time), "0", 0, 86400, NULL,
	  "seconds per CPU test (0: the suite's default)", 0 },
	{ "test-timeout", 0, OPT_TIME, offsetof(struct run_cfg, test_timeout), "1800", 1, 86400, NULL,
	  "watchdog per test: a test still running is killed and marked failed", 0 },
	{ "fault", 0, OPT_STR, offsetof(struct run_cfg, fault), NULL, 0, 0, "TEST:segv|hang,...",
	  "testing aid: the named test's child crashes or hangs at its start (docs/reliability.md)", OPT_HIDDEN },
	{ "disks", 0, OPT_STR, offsetof(struct run_cfg, disks), "all", 0, 0,
	  "all, none, or a comma list of disk names (vda,nvme0n1)", "which disks the disk tests use", 0 },
	{ "mode", 0, OPT_ENUM, offsetof(struct run_cfg, mode), "readonly", 0, 0, MODE_CHOICES,
	  "readonly: no writes; rewrite: writes back what it read; destroy: random data, only on "
	  "disks named in --destroy", 0 },
	{ "destroy", 0, OPT_STR, offsetof(struct run_cfg, destroy), NULL, 0, 0,
	  "NAME:serial=S or NAME:size=BYTES (':force' to allow a partition table/filesystem), comma separated",
	  "the disks --mode=destroy may write, each with its serial or exact size", 0 },
	{ "disk-time", 0, OPT_TIME, offsetof(struct run_cfg, disk_time), "0", 0, 86400, NULL,
	  "seconds per time-based disk job (0: the suite's default)", 0 },
	{ "disk-repeat", 0, OPT_INT, offsetof(struct run_cfg, disk_repeat), "suite", 1, 100, "auto=0,suite=-1",
	  "each disk test's passes: N, or auto (again until each job's IOPS has its 95% CI within +-3%, "
	  "3 to 5 passes); suite: the suite's (standard: auto)", 0 },
	{ "disk-profile", 0, OPT_STR, offsetof(struct run_cfg, disk_profile), NULL, 0, 0,
	  "a comma list of assay disk profiles", "disk profiles (default: the suite's)", 0 },
	{ "disk-ioscheduler", 0, OPT_STR, offsetof(struct run_cfg, disk_sched), NULL, 0, 0,
	  "none, mq-deadline, bfq or kyber", "each disk's I/O scheduler for its tests, put back after "
	  "(disk --ioscheduler; default: as it is)", 0 },
	{ "iperf", 0, OPT_STR, offsetof(struct run_cfg, iperf), NULL, 0, 0, "HOST[:PORT][:udp[:RATE]]",
	  "an iperf3 server for the TCP throughput tests; with udp also a UDP test at RATE bits/s "
	  "(default 100M): loss and jitter", 0 },
	{ "ping", 0, OPT_STR, offsetof(struct run_cfg, ping), NULL, 0, 0, "HOST[:TCPPORT]",
	  "a host for latency: ICMP echo, and TCP connect time when a port is given", 0 },
	{ "http", 0, OPT_STR, offsetof(struct run_cfg, http), NULL, 0, 0, "http://host[:port]/path",
	  "a file to download for HTTP throughput", 0 },
	{ "dns", 0, OPT_STR, offsetof(struct run_cfg, dns), NULL, 0, 0, "SERVER[:PORT], or dhcp",
	  "a DNS server for the query rate test (dhcp: the resolver DHCP gave)", 0 },
	{ "dns-file", 0, OPT_STR, offsetof(struct run_cfg, dns_file), NULL, 0, 0, "a file of 'name type' lines",
	  "the DNS queries (default: a built-in list of common names)", 0 },
	{ "net-time", 0, OPT_TIME, offsetof(struct run_cfg, net_time), "0", 0, 86400, NULL,
	  "seconds per network test (0: the suite's default)", 0 },
	{ "memtest-size", 0, OPT_STR, offsetof(struct run_cfg, memtest_size), "auto", 0, 0, "auto or a size (4g)",
	  "memory the memory test locks and tests (memtest --size; it runs in the full suite or when "
	  "--tests names memtest)", 0 },
	{ "memtest-time", 0, OPT_TIME, offsetof(struct run_cfg, memtest_time), "0", 0, 30 * 86400, NULL,
	  "the memory test stops at this time, mid-pattern if need be (0: one whole pass of every pattern, "
	  "which a memtest rule of certify needs)", 0 },
	{ "results", 0, OPT_STR, offsetof(struct run_cfg, results), "none", 0, 0,
	  "none, auto (the FAT partition labelled ASSAY), a directory, or inbox:... (set by assay kexec "
	  "--results-to)",
	  "where the result files (.json, .txt, .html) go besides the console", 0 },
	{ "push", 0, OPT_STR, offsetof(struct run_cfg, push), NULL, 0, 0, "URL[,URL...]",
	  "send the results: a Pushgateway URL (http://HOST:9091/metrics/job/NAME) gets the figures as "
	  "Prometheus text, grouped by machine; any other http(s):// URL the JSON document (POST); "
	  "5 tries with backoff", 0 },
	{ "push-ca", 0, OPT_STR, offsetof(struct run_cfg, push_ca), NULL, 0, 0, "PEM file",
	  "https pushes: the CAs the server's certificate must chain to (in the image: file:NAME on the ASSAY "
	  "partition; on a host the system's bundle by default)", 0 },
	{ "push-pin", 0, OPT_STR, offsetof(struct run_cfg, push_pin), NULL, 0, 0, "sha256:HEX",
	  "https pushes: accept only the server certificate with this SHA-256 fingerprint (openssl x509 "
	  "-noout -fingerprint -sha256), instead of a CA", 0 },
	{ "push-insecure", 0, OPT_BOOL, offsetof(struct run_cfg, push_insecure), NULL, 0, 0, NULL,
	  "https pushes: do not verify the server at all (said on every push)", 0 },
	{ "push-timeout", 0, OPT_TIME, offsetof(struct run_cfg, push_timeout), "10", 0.1, 600, "seconds",
	  "how long one push attempt may take, connect to answer (a slow collector)", 0 },
	{ "certify", 0, OPT_STR, offsetof(struct run_cfg, certify), NULL, 0, 0,
	  "vps-tasting, hw-certify, surface, ci, or a profile file", "check the figures against threshold "
	  "rules; the exit status is the verdict", 0 },
	{ "steal-limit", 0, OPT_FLOAT, offsetof(struct run_cfg, steal_limit), "5", 0, 100, "percent",
	  "steal time above which the run's figures are flagged as suspect (noisy neighbours)", 0 },
	{ "cmdline", 0, OPT_STR, offsetof(struct run_cfg, cmdline), NULL, 0, 0, "a file path",
	  "also read assay.KEY=VALUE options from FILE (/proc/cmdline in the image); "
	  "bad ones are reported and ignored", 0 },
	OPT_END,
};

/* the tests list names engines */
static int check_tests_list(const char *list, char *err, size_t n)
{
	if (!strcmp(list, "all"))
		return 0;
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t pl = comma ? (size_t)(comma - p) : strlen(p);
		char name[32];
		snprintf(name, sizeof name, "%.*s", (int)pl, p);
		if (pl >= sizeof name || !engine_find(name)) {
			size_t l = (size_t)snprintf(err, n, "tests=%s: unknown engine '%.*s'; accepted: all or a "
						      "comma list of", list, (int)pl, p);
			for (int i = 0; engines[i] && l < n; i++)
				l += (size_t)snprintf(err + l, n - l, " %s", engines[i]->cmd.name);
			return -1;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

/* ---- the kernel command line ---- */
/* ---- the kernel command line ---- */

struct cmdline_ctx {
	const struct opt *tab;
	void *cfg;
	struct json *errors;
	struct boot_cfg *boot;
};

static void cmdline_key(const char *key, const char *val, void *arg)
{
	struct cmdline_ctx *cx = arg;
	char err[1024];
	if (opt_find(boot_opts, key)) {
		opt_set(boot_opts, cx->boot, key, val, err, sizeof err);   /* init's: it says what is wrong */
		return;
	}
	if (opt_set(cx->tab, cx->cfg, key, val, err, sizeof err)) {
		char line[1200];
		snprintf(line, sizeof line, "kernel command line: assay.%s; %s", err,
			 opt_find(cx->tab, key) ? "using the default" : "ignored");
		warn("%s", line);
		json_push(cx->errors, json_str(line));
	}
}


/* an option found wrong after its reading: on a host the run stops (-1 after the line);
 * from the kernel command line it goes on with fallback, said (why) and kept in errors */
static int wrong(const struct run_cfg *c, struct json *errors, const char *err, const char *why)
{
	if (!c->cmdline) {
		errmsg("--%s", err);
		return -1;
	}
	warn("kernel command line: assay.%s; %s", err, why);
	json_push(errors, json_str(err));
	return 0;
}

int run_settle_options(struct run_cfg *c, struct json *errors, char **cmdtext, char **cmdcopy)
{
	char err[512];
	struct boot_cfg boot;
	struct inbox_map m;
	opt_defaults(boot_opts, &boot);
	if (c->cmdline) {
		struct cmdline_ctx cx = { run_opts, c, errors, &boot };
		*cmdtext = read_file(c->cmdline, 65536, NULL);
		if (!*cmdtext) {
			warn("--cmdline=%s: cannot read:", c->cmdline);
		} else {
			/* the options point into this copy: it lives as long as the run */
			*cmdcopy = strdup(*cmdtext);
			(*cmdtext)[strcspn(*cmdtext, "\n")] = 0;
			if (*cmdcopy)
				opt_cmdline_each(*cmdcopy, "assay.", cmdline_key, &cx);
		}
	}
	c->after = boot.after;
	c->pause = boot.pause;
	if (disk_check_list(c->disks, err, sizeof err)) {
		if (wrong(c, errors, err, "measuring the disks found"))
			return -1;
		c->disks = "all";
	}
	if (!strncmp(c->results, "inbox:", 6) && inbox_parse(c->results, &m, err, sizeof err)) {
		if (wrong(c, errors, err, "the results stay on the console"))
			return -1;
		c->results = "none";
	}
	if (check_tests_list(c->tests, err, sizeof err)) {
		if (wrong(c, errors, err, "using all"))
			return -1;
		c->tests = "all";
	}
	return 0;
}

