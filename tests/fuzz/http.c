/* libFuzzer target: an HTTP server's response, as the download test reads it from its
 * socket (headers up to 16 KiB, status, Content-Length, the body counted), then judged. */
#include "net/netio.h"
#include "clock.h"

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int sv[2], buf = 1 << 20;
	struct http_got g;
	char err[256];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 0;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
	if (write(sv[0], data, size) != (ssize_t)size) {
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	shutdown(sv[0], SHUT_WR);     /* the server closes after it */
	net_http_receive(sv[1], now_s(), now_s() + 5, &g, err, sizeof err);
	net_http_verdict(&g, err, sizeof err);
	/* what it counted is what came after the headers */
	if (g.header_done && !err[0] && g.body > size)
		__builtin_trap();
	close(sv[0]);
	close(sv[1]);
	return 0;
}
