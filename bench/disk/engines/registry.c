/* The disk backends, by --ioengine's name: a new backend is its file in engines/ and a
 * line here.  The order is fio's --ioengine list as assay has always shown it. */
#include "disk/ioengine.h"

#include <stddef.h>

extern const struct ioengine_ops ioengine_io_uring, ioengine_psync, ioengine_libaio, ioengine_sync,
	ioengine_pvsync, ioengine_pvsync2, ioengine_null, ioengine_posixaio, ioengine_mmap, ioengine_vsync;

const struct ioengine_ops *const ioengines[] = {
	&ioengine_io_uring,
	&ioengine_psync,
	&ioengine_libaio,
	&ioengine_sync,
	&ioengine_pvsync,
	&ioengine_pvsync2,
	&ioengine_null,
	&ioengine_posixaio,
	&ioengine_mmap,
	&ioengine_vsync,
	NULL,
};
