# SUMMARY: assay boot-once where kexec cannot: on a real BIOS GRUB on an ext4 disk image,
# the entry is booted once (grub-reboot), the image runs and writes its inbox, the next boot
# is the system's own default again, which shows the results; the default left as it was
# KERNELS: debian custom
# NEEDS: custom (the installed system runs our kernel: ext4 built in)
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
[ "$(id -u)" = 0 ] || skip "needs root (losetup, mount)"
[ -f "$BUILD/custom/vmlinuz" ] || skip "our kernel is not built (the installed system's)"
for t in grub-mkimage grub-reboot grub-editenv sfdisk mkfs.ext4 e2fsck; do
	command -v $t >/dev/null || skip "$t missing (apt-get install grub-pc-bin grub2-common e2fsprogs fdisk)"
done
[ -d /usr/lib/grub/i386-pc ] || skip "grub-pc-bin missing"
set -- $(image_files)

# --- the installed system: our kernel, an initramfs that shows what came home ---
mkdir -p "$T/root/bin" "$T/root/mnt" "$T/root/proc" "$T/root/sys" "$T/root/dev"
cp /bin/busybox "$T/root/bin/busybox" && cp "$A" "$T/root/bin/assay" || fail "setup: copies"
cat > "$T/root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for i in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda1 ] && break; sleep 0.5; done
echo "installed: up"
mount -t ext4 /dev/vda1 /mnt && /bin/assay show /mnt/var/lib/assay
echo "installed: show exit $?"
umount /mnt
poweroff -f
EOF
chmod +x "$T/root/init"
(cd "$T/root" && find . | cpio -o -H newc --quiet | gzip) > "$T/installed.cpio.gz" || fail "setup: cpio"

# --- its disk: MBR, one ext4 partition, GRUB installed, a grub.cfg with Debian's
# next_entry logic (00_header) and custom.cfg (41_custom) ---
truncate -s 128M "$T/disk.img"
echo 'start=2048, type=83, bootable' | sfdisk -q "$T/disk.img" || fail "setup: sfdisk"
# attach DISK: its loop device in $l, the first partition's node in $p1 (made from sysfs
# where no udev makes it)
attach() {
	local dev
	l=$(losetup -P -f --show "$1") || fail "setup: losetup"
	p1=${l}p1
	for i in 1 2 3 4 5 6 7 8 9 10; do [ -b "$p1" ] && return; [ -e "/sys/class/block/${l#/dev/}p1" ] && break; sleep 0.2; done
	[ -e "/sys/class/block/${l#/dev/}p1" ] || partx -a "$l" 2>/dev/null
	dev=$(cat "/sys/class/block/${l#/dev/}p1/dev" 2>/dev/null) || fail "setup: no partition on $l"
	[ -b "$p1" ] || { mknod "$p1" b "${dev%:*}" "${dev#*:}" && made="$made $p1"; }
}
made=
trap 'umount "$T/mnt" 2>/dev/null; losetup -d "$l" 2>/dev/null; rm -f $made; rm -rf "$T"' EXIT
attach "$T/disk.img"
mkfs.ext4 -q -F "$p1" && mkdir -p "$T/mnt" && mount "$p1" "$T/mnt" || fail "setup: mkfs, mount"
mkdir -p "$T/mnt/boot/grub" "$T/mnt/var/lib/assay"
cp "$BUILD/custom/vmlinuz" "$T/mnt/boot/vmlinuz-installed" && cp "$T/installed.cpio.gz" "$T/mnt/boot/initrd-installed"
# GRUB for BIOS, as grub-install lays it out: boot.img in the MBR, core.img (with the
# partition and ext4 drivers, its prefix the partition's /boot/grub) in the gap before the
# partition, the modules in /boot/grub/i386-pc (grub-install itself cannot map a loop
# device's partition to a BIOS drive without udev)
G=/usr/lib/grub/i386-pc
mkdir -p "$T/mnt/boot/grub/i386-pc" && cp "$G"/*.mod "$G"/*.lst "$T/mnt/boot/grub/i386-pc/" &&
	grub-mkimage -O i386-pc -o "$T/core.img" -p '(hd0,msdos1)/boot/grub' biosdisk part_msdos ext2 ||
	fail "setup: grub-mkimage"
[ "$(stat -c %s "$T/core.img")" -lt $((2047 * 512)) ] || fail "setup: core.img does not fit before the partition"
dd if="$G/boot.img" of="$l" bs=440 count=1 conv=notrunc status=none &&
	dd if="$T/core.img" of="$l" bs=512 seek=1 conv=notrunc status=none || fail "setup: GRUB into the MBR"
cat > "$T/mnt/boot/grub/grub.cfg" <<'EOF'
serial --unit=0 --speed=115200
terminal_input serial console
terminal_output serial console
if [ -s $prefix/grubenv ]; then
  load_env
fi
if [ "${next_entry}" ] ; then
   set default="${next_entry}"
   set next_entry=
   save_env next_entry
   set boot_once=true
else
   set default="installed"
fi
set timeout=0
menuentry "installed" --id installed {
	search --no-floppy --file --set=root /boot/vmlinuz-installed
	linux /boot/vmlinuz-installed console=ttyS0,115200 panic=-1
	initrd /boot/initrd-installed
}
if [ -f ${config_directory}/custom.cfg ]; then
  source ${config_directory}/custom.cfg
elif [ -z "${config_directory}" -a -f $prefix/custom.cfg ]; then
  source $prefix/custom.cfg
fi
EOF
grub-editenv "$T/mnt/boot/grub/grubenv" create
head -c 1000000 /dev/urandom > "$T/mnt/canary.bin"
cp "$T/mnt/canary.bin" "$T/canary.bin"

# --- what a user types on the installed system (here on its disk, mounted) ---
"$A" boot-once --kernel "$1" --initrd "$2" --boot="$T/mnt/boot" --results-to="$T/mnt/var/lib/assay" --allow-loop \
	--console ttyS0,115200 --yes -- --tests=cpu --cpu-time=0.5 --pause=0 > "$T/once.out" 2>&1 ||
	fail "boot-once: exit $? ($(cat "$T/once.out"))"
cat "$T/once.out"
grub-editenv "$T/mnt/boot/grub/grubenv" list | grep -qx 'next_entry=assay-once' || fail "grub-reboot did not set next_entry"
grep -q 'menuentry "assay (once)" --id assay-once' "$T/mnt/boot/grub/custom.cfg" || fail "no entry in custom.cfg"
ls "$T/mnt/boot/assay"/vmlinuz-* "$T/mnt/boot/assay"/initramfs-* >/dev/null || fail "the image's files are not in /boot/assay"
# a second boot-once replaces the entry (one block, not two)
"$A" boot-once --kernel "$1" --initrd "$2" --boot="$T/mnt/boot" --results-to="$T/mnt/var/lib/assay" --allow-loop \
	--console ttyS0,115200 --yes -- --tests=cpu --cpu-time=0.5 --pause=0 > "$T/once.out" 2>&1 || fail "boot-once again"
[ "$(grep -c '^### BEGIN assay boot-once' "$T/mnt/boot/grub/custom.cfg")" = 1 ] || fail "two entries in custom.cfg"
[ "$(ls "$T/mnt/boot/assay" | wc -l)" = 2 ] || fail "old files left in /boot/assay: $(ls "$T/mnt/boot/assay")"
umount "$T/mnt" && losetup -d "$l" || fail "umount"

# --- the trip: GRUB -> assay (once) -> GRUB -> the installed system ---
boot_only --boot-disk --disk "$T/disk.img" --reboot
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has '^init: assay .* image, booted by boot-once, '
has "^assay: results written to $T/mnt/var/lib/assay/assay-inbox on "
has '^init: rebooting$'
has '^installed: up$'
has '^installed: show exit 0$'
has "^results +/mnt/var/lib/assay/[0-9]{8}-[0-9]{6}-[0-9a-f]+\\.json$"
[ "$(grep -c '^installed: up$' "$console")" = 1 ] || fail "the installed system booted more than once"
[ "$(grep -c 'booted by boot-once' "$console")" = 1 ] || fail "the image was booted more than once"

# --- afterwards: the default as it was, the filesystem clean, the results home ---
attach "$T/disk.img"
e2fsck -fn "$p1" > "$T/fsck" 2>&1 || fail "e2fsck after the trip: $(tail -5 "$T/fsck")"
mount "$p1" "$T/mnt" || fail "mount after"
grub-editenv "$T/mnt/boot/grub/grubenv" list | grep -q '^next_entry=.' && fail "next_entry still set: the default changed"
cmp -s "$T/canary.bin" "$T/mnt/canary.bin" || fail "a file besides the results changed"
ls "$T/mnt/var/lib/assay"/*.json >/dev/null 2>&1 || fail "no result file home"
# and the entry taken out again
"$A" boot-once --boot="$T/mnt/boot" --remove > /dev/null || fail "boot-once --remove: exit $?"
! grep -q 'assay boot-once' "$T/mnt/boot/grub/custom.cfg" 2>/dev/null && [ ! -e "$T/mnt/boot/assay" ] || fail "--remove left the entry or files"
echo ok
