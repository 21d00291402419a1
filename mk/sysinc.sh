#!/bin/sh
# usage: mk/sysinc.sh DIR
# musl-gcc searches only musl's headers.  The kernel UAPI headers (linux-libc-dev) and
# liburing's are libc-neutral: link just those into DIR, apart from glibc's /usr/include.
set -eu
dir=$1
rm -rf "$dir" && mkdir -p "$dir"
for h in linux asm-generic mtd liburing liburing.h; do
	[ -e "/usr/include/$h" ] || { echo "sysinc: /usr/include/$h missing (install linux-libc-dev, liburing-dev)" >&2; exit 1; }
	ln -s "/usr/include/$h" "$dir/$h"
done
ln -s /usr/include/x86_64-linux-gnu/asm "$dir/asm"
