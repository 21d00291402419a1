#!/bin/sh
# usage: mk/kmod.sh DIR
# libkmod has no static musl build in Debian: build it from Debian's kmod source package
# with musl-gcc, static, no compression or crypto (Debian 12's modules are uncompressed).
# Result: DIR/lib/libkmod.a and DIR/include/libkmod.h.  The source is cached in DIR/src.
set -eu
dir=$(realpath -m "$1")
log="$dir/build.log"
fail() { echo "kmod: $1 (log: $log)" >&2; exit 1; }
work=$("$(dirname "$0")/debsrc.sh" kmod "$dir") || exit 1
cd "$work"

# kmod 30: autoreconf wants gtk-doc.make, and configure.ac refuses --enable-static.
[ -f libkmod/docs/gtk-doc.make ] || echo 'EXTRA_DIST =' > libkmod/docs/gtk-doc.make
sed -i '/--enable-static is not supported/d' configure.ac
{
	autoreconf -fi &&
	CC=musl-gcc ./configure --enable-static --disable-shared --without-xz --without-zstd \
		--without-zlib --without-openssl --disable-manpages --disable-test-modules \
		--disable-tools --disable-logging &&
	make -j"$(nproc)" libkmod/libkmod.la
} >>"$log" 2>&1 || fail "building libkmod failed"

mkdir -p "$dir/lib" "$dir/include"
cp libkmod/.libs/libkmod.a "$dir/lib/libkmod.a"
cp libkmod/libkmod.h "$dir/include/libkmod.h"
cd "$dir" && rm -rf work
