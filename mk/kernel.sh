#!/bin/sh
# usage: mk/kernel.sh DIR
# Fetches Debian's packaged kernel (the image linux-image-amd64 depends on, or $KERNEL_PKG)
# with apt-get download and unpacks it with dpkg -x under DIR -- never into the host's /boot.
# Result: DIR/vmlinuz, DIR/kver, DIR/root/lib/modules/KVER (with modules.dep from depmod).
set -eu
dir=$(realpath -m "$1")
pkg=${KERNEL_PKG:-}
if [ -z "$pkg" ]; then
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
	[ -n "$pkg" ] || { echo "kernel: cannot resolve linux-image-amd64 (apt-get update?)" >&2; exit 1; }
fi
rm -rf "$dir" && mkdir -p "$dir/deb"
cd "$dir/deb"
apt-get -o APT::Sandbox::User=root download "$pkg" >/dev/null 2>"$dir/download.log" ||
	{ echo "kernel: 'apt-get download $pkg' failed: $(tail -n 1 "$dir/download.log")" >&2; exit 1; }
dpkg -x ./*.deb "$dir/root"
kver=$(ls "$dir/root/lib/modules" | head -n 1)
[ -f "$dir/root/boot/vmlinuz-$kver" ] || { echo "kernel: $pkg holds no vmlinuz-$kver" >&2; exit 1; }
echo "$kver" > "$dir/kver"
echo "$pkg $(ls ./*.deb)" > "$dir/package"
ln -sf "root/boot/vmlinuz-$kver" "$dir/vmlinuz"
depmod -b "$dir/root" "$kver"
rm -f ./*.deb
