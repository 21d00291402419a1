/* fio's null engine: every I/O done at once, no data moved: what the loop itself costs. */
#include "sync.h"

static ssize_t null_xfer(struct io_ctx *x, int f, int write_, void *buf, size_t len, uint64_t off, int rwf)
{
	(void)x, (void)f, (void)write_, (void)buf, (void)off, (void)rwf;
	return (ssize_t)len;
}

static int null_init(struct io_ctx *x)
{
	return sync_ctx_init(x, null_xfer);
}

const struct ioengine_ops ioengine_null = {
	.name = "null",
	.flags = IOE_NODATA,
	.init = null_init,
	.prep = sync_prep,
	.submit = sync_submit,
	.reap = sync_reap,
	.cleanup = sync_ctx_cleanup,
};
