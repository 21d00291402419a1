#!/bin/sh
# usage: mk/kernel-build.sh DIR FRAGMENT
# Builds assay's own kernel from Debian's linux-source package: tinyconfig + FRAGMENT
# merged with the kernel's scripts/kconfig/merge_config.sh, then a check that every
# symbol the fragment sets to y ended up =y.  Result: DIR/bzImage (cached: the source
# tree and the object tree stay under DIR; the compiler's objects in ccache, when
# installed, across clones: ASSAY_CCACHE=0 builds without it).
set -eu
dir=$(realpath -m "$1")
frag=$(realpath "$2")
tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$tarball" ] || { echo "kernel: no /usr/src/linux-source-*.tar.xz: apt-get install linux-source-6.1 (make deps-kernel)" >&2; exit 1; }
ver=$(basename "$tarball" .tar.xz)
src="$dir/$ver"
# the object tree inside the source tree: kbuild then names the sources relative ("..")
# in every command, so compiler caches hit across clones and the objects hold no
# clone's path
out="$src/out"
mkdir -p "$dir"
if [ ! -f "$src/.assay-unpacked" ]; then
	echo "kernel: unpacking $tarball"
	rm -rf "$src"
	tar -C "$dir" -xf "$tarball"
	touch "$src/.assay-unpacked"
fi
mkdir -p "$out"
rm -rf "$dir/out"   # where the object tree was before (2026-12-07)
# ccache (when installed) keeps the compiler's objects across clones and clean builds: a
# fresh clone's kernel is then mostly cache hits, and byte-identical to one built without
cc=gcc
if command -v ccache >/dev/null 2>&1 && [ "${ASSAY_CCACHE:-1}" != 0 ]; then
	export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/ccache}"
	# (a cache it cannot write would fail every compile: then none)
	if mkdir -p "$CCACHE_DIR" 2>/dev/null && [ -w "$CCACHE_DIR" ]; then
		cc="ccache gcc"
	else
		echo "kernel: $CCACHE_DIR: not writable, building without ccache" >&2
	fi
fi
log="$dir/build.log"
: > "$log"
make -C "$src" O="$out" CC="$cc" tinyconfig >>"$log" 2>&1
(cd "$src" && ./scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$frag") >>"$log" 2>&1
make -C "$src" O="$out" CC="$cc" olddefconfig >>"$log" 2>&1
missing=
for sym in $(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=y$/\1/p' "$frag"); do
	grep -qx "$sym=y" "$out/.config" || missing="$missing $sym"
done
if [ -n "$missing" ]; then
	echo "kernel: these symbols of $(basename "$frag") did not stick (unmet dependencies?):$missing" >&2
	exit 1
fi
echo "kernel: building $ver (log: $log)$([ "$cc" = gcc ] || echo ", with ccache in $CCACHE_DIR")"
KBUILD_BUILD_TIMESTAMP="@${SOURCE_DATE_EPOCH:-0}" KBUILD_BUILD_USER=assay KBUILD_BUILD_HOST=assay \
	make -C "$src" O="$out" CC="$cc" -j"$(nproc)" bzImage >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; echo "kernel: build failed (log: $log)" >&2; exit 1; }
cp "$out/arch/x86/boot/bzImage" "$dir/bzImage"
echo "kernel: $dir/bzImage, $(stat -c %s "$dir/bzImage") bytes"
