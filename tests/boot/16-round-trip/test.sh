# SUMMARY: the taster's round trip: an installed system (our kernel, an ext4 disk) runs assay
# kexec --results-to; the image runs the suite in rewrite mode, writes the inbox and reboots
# into that system, which unpacks and shows the results; fsck clean, other files unchanged;
# then a second trip to a vfat disk (an EFI system partition)
# KERNELS: debian custom
# NEEDS: custom (the installed system runs our kernel: ext4 built in)
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
[ -f "$BUILD/custom/vmlinuz" ] || skip "our kernel is not built (the installed system needs its built-in ext4)"
command -v mkfs.ext4 >/dev/null && command -v debugfs >/dev/null || skip "e2fsprogs missing"
[ -x /bin/busybox ] || skip "busybox-static missing"
set -- $(image_files)

# --- the installed system: busybox, assay, the image's files; an ext4 disk ---
mkdir -p "$T/root/bin" "$T/root/image" "$T/root/mnt" "$T/root/proc" "$T/root/sys" "$T/root/dev"
cp /bin/busybox "$T/root/bin/busybox" && cp "$A" "$T/root/bin/assay" && cp "$1" "$T/root/image/vmlinuz" &&
	cp "$2" "$T/root/image/initramfs" || fail "setup: copies"
cat > "$T/root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for i in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda ] && [ -b /dev/vdb ] && break; sleep 0.5; done
mount -t ext4 /dev/vda /mnt || { echo "installed: cannot mount /dev/vda"; poweroff -f; }
trip() {   # DIR ASSAY-RUN-OPTIONS...: kexec into the image, the results home in DIR
	dir=$1
	shift
	/bin/assay kexec --kernel /image/vmlinuz --initrd /image/initramfs --console ttyS0,115200 \
		--results-to="$dir" --yes -- --pause=0 "$@"
	echo "installed: kexec failed: $?"
	poweroff -f
}
back() {   # DIR: what came home
	echo "installed: back from the trip"
	/bin/assay show "$1"
	echo "installed: show exit $?"
	ls "$1" | sed 's/^/installed: has /'
}
mkdir -p /efi
if [ -e /mnt/var/lib/assay/.sent2 ]; then
	mount -t vfat /dev/vdb /efi && back /efi/assay
	umount /efi /mnt
	poweroff -f
elif [ -e /mnt/var/lib/assay/.sent ]; then
	back /mnt/var/lib/assay
	touch /mnt/var/lib/assay/.sent2
	sync
	mount -t vfat /dev/vdb /efi || { echo "installed: cannot mount /dev/vdb"; poweroff -f; }
	echo "installed: sending to vfat"
	trip /efi/assay --tests=cpu --cpu-time=0.5
fi
echo "installed: sending"
touch /mnt/var/lib/assay/.sent
sync
trip /mnt/var/lib/assay --tests=cpu,disk --disks=vda --disk-profile=seq,qd1 --cpu-time=1 --disk-time=1 --mode=rewrite
EOF
chmod +x "$T/root/init"
(cd "$T/root" && find . | cpio -o -H newc --quiet | gzip) > "$T/installed.cpio.gz" || fail "setup: cpio"
mkdir -p "$T/fs/var/lib/assay"
head -c 2000000 /dev/urandom > "$T/fs/canary.bin"
mkfs.ext4 -q -F -d "$T/fs" "$T/sys.img" 64M || fail "setup: mkfs.ext4"
command -v mkfs.vfat >/dev/null && command -v mcopy >/dev/null || skip "dosfstools or mtools missing"
mkfs.vfat -C "$T/efi.img" 16384 >/dev/null && mmd -i "$T/efi.img" ::assay && head -c 100000 /dev/urandom > "$T/efi-canary" &&
	mcopy -i "$T/efi.img" "$T/efi-canary" ::canary.bin || fail "setup: the vfat disk"

# --- the trip: installed -> image (suite, inbox, reboot) -> installed (show, power off) ---
boot_only --kernel "$BUILD/custom/vmlinuz" --initrd "$T/installed.cpio.gz" --disk "$T/sys.img" --disk "$T/efi.img" --reboot
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0 (the image's suite status)"
has '^installed: sending$'
has '^results: /mnt/var/lib/assay/assay-inbox \(ext4 on vda, 1 extent\); the image writes them there'
has '^init: assay .* image, booted by kexec, '
has "^assay: results written to /mnt/var/lib/assay/assay-inbox on vda: assay show /mnt/var/lib/assay$"
has "^results +/mnt/var/lib/assay/assay-inbox on vda: assay show /mnt/var/lib/assay$"
has '^next +rebooting in 0 s$'
has '^init: rebooting$'
has '^installed: back from the trip$'
has '^assay: unpacked /mnt/var/lib/assay/[0-9]{8}-[0-9]{6}-[0-9a-f]+\.json, /mnt/var/lib/assay/[0-9]{8}-[0-9]{6}-[0-9a-f]+\.txt, /mnt/var/lib/assay/[0-9]{8}-[0-9]{6}-[0-9a-f]+\.html$'
has '^installed: show exit 0$'
has '^results +/mnt/var/lib/assay/[0-9]{8}-[0-9]{6}-[0-9a-f]+\.json$'
has '^disk vda +seq write [0-9.]+ MB/s, seq read [0-9.]+ MB/s'
hasnt '^installed: has assay-inbox$'
# the second trip: to vfat
has '^installed: sending to vfat$'
has '^results: /efi/assay/assay-inbox \(vfat on vdb, 1 extent\)'
[ "$(grep -c '^installed: show exit 0$' "$console")" = 2 ] || fail "want two trips shown"
fsck.vfat -n "$T/efi.img" > "$T/fsck.vfat" 2>&1 || fail "fsck.vfat after the trip: $(tail -5 "$T/fsck.vfat")"
mcopy -i "$T/efi.img" ::canary.bin "$T/efi-canary.out" && cmp -s "$T/efi-canary" "$T/efi-canary.out" ||
	fail "vfat: a file besides the results changed"
[ "$(mdir -b -i "$T/efi.img" ::assay | grep -cE '[0-9]{8}-[0-9]{6}-[0-9a-f]+\.(json|txt)$')" = 2 ] ||
	fail "vfat: want the .json and .txt home: $(mdir -b -i "$T/efi.img" ::assay)"
hasnt 'Kernel panic|Oops|BUG:|segfault'

# --- home: the files are the console's document; the filesystem checks clean; the rest unchanged ---
e2fsck -fn "$T/sys.img" > "$T/fsck" 2>&1 || fail "e2fsck after the trip: $(tail -5 "$T/fsck")"
debugfs -R "dump /canary.bin $T/canary.out" "$T/sys.img" >/dev/null 2>&1
cmp -s "$T/fs/canary.bin" "$T/canary.out" || fail "a file besides the results changed"
name=$(debugfs -R "ls /var/lib/assay" "$T/sys.img" 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]{8}-.*\.json$' | head -1)
[ -n "$name" ] || fail "no result file home: $(debugfs -R 'ls /var/lib/assay' "$T/sys.img" 2>&1)"
debugfs -R "dump /var/lib/assay/$name $T/home.json" "$T/sys.img" >/dev/null 2>&1
sed '/^installed: sending to vfat$/q' "$console" > "$T/first.log"
"$A" extract "$T/first.log" > "$T/console.json" || fail "no result block before the second trip"
cmp -s <(jq -S 'del(.results)' "$T/console.json") <(jq -S 'del(.results)' "$T/home.json") ||
	fail "the file home is not the console's document"
jq -e '.options.mode == "rewrite" and ([.summary[] | select(.name == "disk.seq.write.bw")] | length == 1)' \
	"$T/home.json" >/dev/null || fail "no write figures in rewrite mode"
echo ok
