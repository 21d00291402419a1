#!/bin/sh
# usage: mk/bearssl.sh DIR
# BearSSL (TLS for --push=https://...) has no musl build in Debian: build it from Debian's
# bearssl source package with musl-gcc, static, -Os.
# Result: DIR/lib/libbearssl.a and DIR/include/bearssl*.h.  The source is cached in DIR/src.
set -eu
dir=$(realpath -m "$1")
log="$dir/build.log"
fail() { echo "bearssl: $1 (log: $log)" >&2; exit 1; }
work=$("$(dirname "$0")/debsrc.sh" bearssl "$dir") || exit 1
cd "$work"
make -j"$(nproc)" CC=musl-gcc CFLAGS="-W -Wall -Os" lib >>"$log" 2>&1 || fail "building libbearssl failed"
mkdir -p "$dir/lib" "$dir/include"
cp build/libbearssl.a "$dir/lib/libbearssl.a"
cp inc/*.h "$dir/include/"
cd "$dir" && rm -rf work
