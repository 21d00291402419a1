/* assay serve: a peer stock iperf3 clients can test against (iperf3 -c HOST). */
#include "cli/command.h"
#include "iperf.h"
#include "msg.h"
#include "netio.h"
#include "opt.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct serve_cfg {
	const char *bind;
	long long port;
	int forever;
	double wait;
};

static const struct opt serve_opts[] = {
	{ "bind", 'B', OPT_STR, offsetof(struct serve_cfg, bind), "0.0.0.0", 0, 0, "an address",
	  "listen on this address (127.0.0.1, ::, ...)", 0 },
	{ "port", 'p', OPT_INT, offsetof(struct serve_cfg, port), "5201", 1, 65535, NULL, "port", 0 },
	{ "forever", 0, OPT_BOOL, offsetof(struct serve_cfg, forever), "0", 0, 0, NULL,
	  "serve test after test (default: stop after one, like iperf3 -s -1)", OPT_NOARG },
	{ "wait", 0, OPT_TIME, offsetof(struct serve_cfg, wait), "0", 0, 86400, NULL,
	  "give up when no client comes for this long (0: wait forever)", 0 },
	OPT_END,
};

static int serve_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct serve_cfg c = *(const struct serve_cfg *)cfg;
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[512], addr[80];
	int lfd, one = 1, rc = EXIT_OK;
	struct serve_log lg = { 0 };
	if (net_resolve(c.bind, (int)c.port, AF_UNSPEC, SOCK_STREAM, &ss, &sl, err, sizeof err)) {
		errmsg("serve: -B %s", err);
		return EXIT_USAGE;
	}
	lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	net_addr_str(&ss, addr, sizeof addr);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&ss, sl) || listen(lfd, 16)) {
		errmsg("serve: cannot listen on %s:", addr);
		if (lfd >= 0)
			close(lfd);
		return EXIT_SYS;
	}
	info("serve: listening on %s (iperf3 protocol: TCP and UDP)", addr);
	lg.f = stdout;
	lg.wait_s = c.wait;
	do {
		if (iperf_serve_one(lfd, &lg, err, sizeof err)) {
			errmsg("serve: %s", err);
			rc = EXIT_FAIL;
			if (c.wait > 0 && !strncmp(err, "no client", 9))
				break;
		} else {
			rc = EXIT_OK;
		}
	} while (c.forever);
	close(lfd);
	return rc;
}

const struct command serve_command = {
	.name = "serve",
	.summary = "serve iperf3 tests to stock iperf3 clients",
	.usage = "[-B ADDR] [-p PORT] [--forever] "
		  "[--wait SECS]",
	.help = "Serve iperf3 TCP tests (stock iperf3 clients: iperf3 -c ADDR).",
	.opts = serve_opts,
	.cfg_size = sizeof(struct serve_cfg),
	.main = serve_main,
};
