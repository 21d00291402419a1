#!/bin/sh
# usage: mk/bearssl.sh DIR
# BearSSL (TLS for --push=https://...) has no musl build in Debian: build it from Debian's
# bearssl source package with musl-gcc, static, -Os.
# Result: DIR/lib/libbearssl.a and DIR/include/bearssl*.h.  The source is cached in DIR/src.
set -eu
dir=$(realpath -m "$1")
log="$dir/build.log"
mkdir -p "$dir/src"
fail() { echo "bearssl: $1 (log: $log)" >&2; exit 1; }

cd "$dir/src"
if ! ls -d bearssl-*/ >/dev/null 2>&1; then
	apt-get -o APT::Sandbox::User=root source bearssl >"$log" 2>&1 ||
		fail "'apt-get source bearssl' failed: is there a deb-src entry? (make deps adds one)"
fi
src=$(ls -d bearssl-*/ | head -n 1)
rm -rf "$dir/work" && cp -a "$src" "$dir/work" && cd "$dir/work"
make -j"$(nproc)" CC=musl-gcc CFLAGS="-W -Wall -Os" lib >>"$log" 2>&1 || fail "building libbearssl failed"
mkdir -p "$dir/lib" "$dir/include"
cp build/libbearssl.a "$dir/lib/libbearssl.a"
cp inc/*.h "$dir/include/"
cd "$dir" && rm -rf work
