#!/bin/sh
# usage: mk/debsrc.sh PACKAGE DIR
# Debian's source of PACKAGE, fetched once into DIR/src (apt-get source, which needs a
# deb-src entry: make deps adds one) and copied fresh to DIR/work; prints DIR/work.
set -eu
pkg=$1 dir=$(realpath -m "$2")
log="$dir/build.log"
mkdir -p "$dir/src"
cd "$dir/src"
if ! ls -d "$pkg"-*/ >/dev/null 2>&1; then
	apt-get -o APT::Sandbox::User=root source "$pkg" >"$log" 2>&1 || {
		echo "$pkg: 'apt-get source $pkg' failed: is there a deb-src entry? (make deps adds one) (log: $log)" >&2
		exit 1
	}
fi
src=$(ls -d "$pkg"-*/ | head -n 1)
rm -rf "$dir/work" && cp -a "$src" "$dir/work"
echo "$dir/work"
