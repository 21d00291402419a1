/* qd1-bare: the 4k random-read QD1 loop with nothing else, for bench/compare-fio --bare.
 *
 * It issues exactly the system calls fio's io_uring engine issues at iodepth 1 (one
 * io_uring_enter submitting with IORING_ENTER_GETEVENTS and no wait, then one waiting for
 * a completion when none is there yet), on a ring set up with fio's flags
 * (COOP_TASKRUN | SINGLE_ISSUER | DEFER_TASKRUN, dropped one by one on EINVAL), with a
 * registered file and buffer, O_DIRECT.  No statistics beyond three clock reads per I/O
 * and two histogram counts (fio's buckets, bench/hist.c).
 * Measured next to fio and assay, it tells what part of a QD1 difference belongs to
 * an engine and what part to the machine (where the kernel runs the device's completion).
 *
 * usage: qd1-bare DEVICE SECONDS
 * prints a fio-shaped JSON object: jobs[0].read {iops, total_ios, clat_ns.percentile,
 * lat_ns.mean, lat_ns.percentile} with the 50th and 99th percentiles as fio reports them (lat: from
 * before the submit call to the completion seen; clat: from after the submit call
 * returned). */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "hist.h"
#include "prng.h"

#define BS 4096u

static void die(const char *what, int err)
{
	fprintf(stderr, "qd1-bare: %s%s%s\n", what, err ? ": " : "", err ? strerror(err) : "");
	exit(err ? 111 : 2);
}

int main(int argc, char **argv)
{
	static const unsigned flags[] = { IORING_SETUP_COOP_TASKRUN, IORING_SETUP_SINGLE_ISSUER,
					  IORING_SETUP_DEFER_TASKRUN };
	struct io_uring ring;
	struct io_uring_params p;
	struct iovec iov;
	struct prng rng;
	struct stat st;
	static struct hist lat, clat;
	uint64_t size, blocks, t_end, t_start, n = 0;
	char *end;
	double secs;
	void *buf;
	int fd, r = -EINVAL;

	if (argc != 3)
		die("usage: qd1-bare DEVICE SECONDS", 0);
	secs = strtod(argv[2], &end);
	if (*end || !(secs > 0 && secs <= 3600))
		die("SECONDS: a number of seconds, more than 0 and at most 3600", 0);
	fd = open(argv[1], O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		die(argv[1], errno);
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode)) {
		fprintf(stderr, "qd1-bare: %s: not a block device\n", argv[1]);
		return 2;
	}
	if (ioctl(fd, BLKGETSIZE64, &size))
		die("BLKGETSIZE64", errno);
	blocks = size / BS;
	if (!blocks)
		die("the device is smaller than 4 KiB", 0);
	for (int keep = 3; keep >= 0 && r == -EINVAL; keep--) {
		memset(&p, 0, sizeof p);
		for (int i = 0; i < keep; i++)
			p.flags |= flags[i];
		r = io_uring_queue_init_params(1, &ring, &p);
	}
	if (r < 0)
		die("io_uring_queue_init", -r);
	if (posix_memalign(&buf, BS, BS))
		die("buffer", ENOMEM);
	iov.iov_base = buf;
	iov.iov_len = BS;
	if ((r = io_uring_register_files(&ring, &fd, 1)) < 0 ||
	    (r = io_uring_register_buffers(&ring, &iov, 1)) < 0)
		die("io_uring_register", -r);
	hist_init(&lat);
	hist_init(&clat);
	prng_seed(&rng, 1);
	t_start = now_ns();
	t_end = t_start + (uint64_t)(secs * 1e9);
	for (uint64_t t0 = t_start; t0 < t_end; n++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		struct io_uring_cqe *cqe;
		uint64_t t1, t2;
		io_uring_prep_read_fixed(sqe, 0, buf, BS, prng_below(&rng, blocks) * BS, 0);
		sqe->flags |= IOSQE_FIXED_FILE;
		if ((r = io_uring_submit_and_get_events(&ring)) < 0)
			die("io_uring_enter (submit)", -r);
		t1 = now_ns();
		if (io_uring_peek_cqe(&ring, &cqe) && (r = io_uring_wait_cqe(&ring, &cqe)) < 0)
			die("io_uring_enter (wait)", -r);
		if (cqe->res != (int)BS)
			die("read", cqe->res < 0 ? -cqe->res : EIO);
		io_uring_cqe_seen(&ring, cqe);
		t2 = now_ns();
		hist_add(&lat, t2 - t0);
		hist_add(&clat, t2 - t1);
		t0 = t2;
	}
	{
		double run = (double)(now_ns() - t_start) / 1e9;
		printf("{\"jobs\": [{\"jobname\": \"qd1-bare\", \"read\": {\"iops\": %.3f, \"total_ios\": %llu, "
		       "\"clat_ns\": {\"percentile\": {\"50.000000\": %llu, \"99.000000\": %llu}}, "
		       "\"lat_ns\": {\"mean\": %.3f, \"percentile\": {\"50.000000\": %llu, \"99.000000\": %llu}}}}]}\n",
		       (double)n / run, (unsigned long long)n,
		       (unsigned long long)hist_percentile(&clat, 50), (unsigned long long)hist_percentile(&clat, 99),
		       lat.m.mean, (unsigned long long)hist_percentile(&lat, 50),
		       (unsigned long long)hist_percentile(&lat, 99));
	}
	return 0;
}
