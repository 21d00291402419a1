#!/bin/sh
# usage: rootfs/build.sh OUT.cpio.xz [nomodules]   (from the top of the tree; BUILD set by make)
# nomodules: for a kernel with everything built in (kernel-config/), no module tree.
# Builds the initramfs: resolves rootfs/modules.list (+ $MODULES_EXTRA) with dependencies
# against the unpacked Debian kernel, runs depmod on that subset, writes the complete
# sorted entry list to $BUILD/rootfs/files.list and archives it with mkcpio + xz.
# Same inputs, byte-identical output: fixed timestamps, sorted entries, root ownership.
set -eu
out=$1
withmods=1
[ "${2:-}" = nomodules ] && withmods=0
: "${BUILD:=build}"
stage="$BUILD/rootfs"
[ $withmods = 0 ] && stage="$BUILD/rootfs-nomodules"
mods="$stage/modules"
list="$stage/files.list"

rm -rf "$stage" && mkdir -p "$mods"
strip -o "$stage/init" "$BUILD/init"
strip -o "$stage/assay" "$BUILD/assay"
if [ $withmods = 1 ]; then
kver=$(cat "$BUILD/kernel/kver")
kroot=$(realpath "$BUILD/kernel/root")
mkdir -p "$mods/lib/modules/$kver"

# --- modules: names -> files with dependencies (modprobe --show-depends) ---
names=$(sed 's/#.*//' rootfs/modules.list; for m in ${MODULES_EXTRA:-}; do echo "$m"; done)
for m in $names; do
	if ! deps=$(modprobe -d "$kroot" -S "$kver" --show-depends "$m" 2>&1); then
		echo "rootfs: module $m: not in kernel $kver ($deps)" >&2
		exit 1
	fi
	echo "$deps" | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r path; do
	rel=${path#"$kroot"/lib/modules/"$kver"/}
	mkdir -p "$mods/lib/modules/$kver/$(dirname "$rel")"
	cp "$path" "$mods/lib/modules/$kver/$rel"
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	cp "$kroot/lib/modules/$kver/$f" "$mods/lib/modules/$kver/$f"
done
depmod -b "$mods" "$kver"
fi

# --- the entry list ---
{
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|@STAGE@|$stage|g" rootfs/files.list
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' rootfs/applets.list |
		while read -r a; do echo "slink /bin/$a busybox 0777 0 0"; done
	if [ $withmods = 1 ]; then
		(cd "$mods" && find lib/modules -mindepth 1 -type d) |
			while read -r d; do echo "dir /$d 0755 0 0"; done
		(cd "$mods" && find lib/modules -type f) |
			while read -r f; do echo "file /$f $mods/$f 0644 0 0"; done
	fi
} | LC_ALL=C sort -k2,2 -u > "$list"

# every entry's parent directory must come first; sort by name guarantees the order,
# this checks that the parent exists at all
awk '{ n[$2] = 1 } END {
	for (p in n) { d = p; sub(/\/[^\/]*$/, "", d); if (d != "" && !(d in n)) { print "rootfs: no dir entry for " d " (needed by " p ")" > "/dev/stderr"; bad = 1 } }
	exit bad }' "$list"

"$BUILD/mkcpio" "$list" > "$stage/initramfs.cpio"
# without modules the archive is mostly x86 code (init, assay, busybox): xz's x86 BCJ
# filter, which the kernel's unpacker has (XZ_DEC_X86, on in kernel-config's build), packs
# it ~4% smaller; Debian's modules pack worse with it
xzf=-9
[ $withmods = 0 ] && xzf="--x86 --lzma2=preset=9"
# shellcheck disable=SC2086
xz -T1 $xzf --check=crc32 -c "$stage/initramfs.cpio" > "$out.tmp"
mv "$out.tmp" "$out"
echo "rootfs: $(wc -l < "$list") entries, $(stat -c %s "$stage/initramfs.cpio") bytes, $(stat -c %s "$out") compressed -> $out"
