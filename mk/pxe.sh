#!/bin/sh
# usage: mk/pxe.sh DIR KERNEL INITRD
# A network boot folder: an iPXE script with the kernel and the initramfs beside it.
# Serve DIR by TFTP or HTTP and point DHCP's boot file at assay.ipxe (QEMU: user-mode
# network tftp=DIR,bootfile=assay.ipxe).  PXE_APPEND adds kernel command line words.
set -eu
dir=$1 kernel=$2 initrd=$3
mkdir -p "$dir"
cp "$kernel" "$dir/vmlinuz"
cp "$initrd" "$dir/initramfs"
cat > "$dir/assay.ipxe" <<IPXE
#!ipxe
echo assay: booting the benchmark image over the network
kernel vmlinuz console=tty0 console=ttyS0,115200 panic=-1 assay.boot=pxe${PXE_APPEND:+ $PXE_APPEND}
initrd initramfs
boot
IPXE
echo "pxe: $dir/{assay.ipxe,vmlinuz,initramfs}"
