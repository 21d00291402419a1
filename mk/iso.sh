#!/bin/sh
# usage: mk/iso.sh OUT.iso KERNEL INITRD
# A hybrid ISO, bootable by BIOS (grub-pc) and UEFI (grub-efi), from CD or USB stick:
# grub-mkrescue with a menu (default suite, quick suite, rescue shell), output on the VGA
# console (a provider's web console) and the serial console, default entry after 5 s.
# ISO_APPEND adds kernel command line words to every entry.
set -eu
out=$1 kernel=$2 initrd=$3
for t in grub-mkrescue xorriso mformat; do
	command -v $t >/dev/null || { echo "iso: $t missing: apt-get install grub-pc-bin grub-efi-amd64-bin xorriso mtools (make deps-iso)" >&2; exit 1; }
done
[ -d /usr/lib/grub/i386-pc ] || { echo "iso: grub-pc-bin missing (BIOS boot)" >&2; exit 1; }
[ -d /usr/lib/grub/x86_64-efi ] || { echo "iso: grub-efi-amd64-bin missing (UEFI boot)" >&2; exit 1; }
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/boot/grub"
cp "$kernel" "$tree/boot/vmlinuz"
cp "$initrd" "$tree/boot/initramfs"
# the last console= gets init's output; init copies it to the other consoles too
common="console=tty0 console=ttyS0,115200 panic=-1 assay.boot=iso${ISO_APPEND:+ $ISO_APPEND}"
cat > "$tree/boot/grub/grub.cfg" <<CFG
serial --unit=0 --speed=115200
terminal_input serial console
terminal_output serial console
set timeout=5
set default=0
menuentry "assay: standard suite (read-only)" {
	linux /boot/vmlinuz $common assay.suite=standard
	initrd /boot/initramfs
}
menuentry "assay: quick suite (read-only)" {
	linux /boot/vmlinuz $common assay.suite=quick
	initrd /boot/initramfs
}
menuentry "assay: rescue shell" {
	linux /boot/vmlinuz $common assay.run=0 assay.after=shell
	initrd /boot/initramfs
}
CFG
# reproducible: fixed timestamps on the tree and in the ISO
find "$tree" -exec touch -h -d "@${SOURCE_DATE_EPOCH:-0}" {} +
grub-mkrescue -o "$out.tmp" "$tree" -- -volid ASSAY_BOOT >"$tree.log" 2>&1 ||
	{ cat "$tree.log" >&2; rm -f "$tree.log"; exit 1; }
rm -f "$tree.log"
mv "$out.tmp" "$out"
echo "iso: $out, $(stat -c %s "$out") bytes"
