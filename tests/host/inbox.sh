# Results home without a filesystem in the image: assay kexec --results-to --dry-run makes
# and maps the inbox on ext4, xfs and vfat (loop devices), the image's writer (assay run
# --results=inbox:...) fills it with the filesystem unmounted, assay show unpacks and
# prints it; the filesystem checks clean and every other file is unchanged. Refused
# before any jump: btrfs, tmpfs, a full or read-only filesystem, a loop device for real.
# A power cut before the header, a damaged inbox, a block changed under the writer.
. "$(dirname "$0")/lib.sh"
need_root
mkdir -p "$T/mnt"
K=(--kernel "$BUILD/vmlinuz" --initrd "$BUILD/initramfs.cpio.xz")
[ -f "$BUILD/vmlinuz" ] || K=(--kernel /dev/null --initrd /dev/null)
"$A" run --tests=cpu --cpu-time=0.1 -J > "$T/old.json" 2>/dev/null || fail "run -J: exit $?"
spec_of() { sed -n 's/.* assay\.results=\(inbox:[^ ]*\) .*/\1/p' "$1"; }

# trip FS MIB MKFS...: the whole round trip on a fresh filesystem
trip() {
	local fs=$1 mib=$2 l spec c1 c2 n
	shift 2
	l=$(loopdev "$fs" "$mib" zero) || { fail "$fs: losetup"; return; }
	"$@" "$l" >/dev/null 2>&1 || { fail "$fs: mkfs"; return; }
	mount "$l" "$T/mnt" || { fail "$fs: mount"; return; }
	mkdir -p "$T/mnt/res"
	head -c 300000 /dev/urandom > "$T/mnt/canary.bin"
	cp "$T/old.json" "$T/mnt/res/20200101-000000-old.json"
	c1=$(cat "$T/mnt/canary.bin" "$T/mnt/res/20200101-000000-old.json" | sha256sum)
	"$A" kexec "${K[@]}" --results-to="$T/mnt/res" --dry-run -- --tests=cpu > "$T/k.out" 2> "$T/k.err" ||
		{ fail "$fs: kexec --dry-run: exit $? ($(cat "$T/k.err"))"; umount "$T/mnt"; return; }
	grep -q "^results: $T/mnt/res/assay-inbox ($fs on ${l#/dev/}, 1 extent)" "$T/k.out" || fail "$fs: the results line: $(grep results "$T/k.out")"
	grep -q ' assay.after=reboot assay.tests=cpu$' "$T/k.out" || fail "$fs: assay.after=reboot and the run's options"
	spec=$(spec_of "$T/k.out")
	[ -n "$spec" ] || { fail "$fs: no assay.results=inbox: in $(cat "$T/k.out")"; umount "$T/mnt"; return; }
	[ "$(stat -c %s "$T/mnt/res/assay-inbox")" = $((4 << 20)) ] || fail "$fs: the inbox is not 4 MiB"
	# the writer refuses while the filesystem is mounted (the image never mounts it)
	"$A" run --tests=cpu --cpu-time=0.1 --results="$spec" > /dev/null 2> "$T/busy.err"
	grep -q "results not written: .*in use: mounted" "$T/busy.err" || fail "$fs: written while mounted: $(grep results "$T/busy.err")"
	umount "$T/mnt"
	"$A" run --tests=cpu --cpu-time=0.1 --results="$spec" > "$T/run.txt" 2> "$T/run.err" || fail "$fs: run: exit $?"
	grep -q "results written to $T/mnt/res/assay-inbox on ${l#/dev/}: assay show $T/mnt/res" "$T/run.err" ||
		fail "$fs: where: $(grep results "$T/run.err")"
	case $fs in
	ext4) e2fsck -fn "$l" >/dev/null 2>&1 || fail "ext4: e2fsck after the writer" ;;
	xfs) xfs_repair -n "$l" >/dev/null 2>&1 || fail "xfs: xfs_repair -n after the writer" ;;
	vfat) fsck.vfat -n "$l" >/dev/null 2>&1 || fail "vfat: fsck.vfat -n after the writer" ;;
	esac
	mount "$l" "$T/mnt" || { fail "$fs: mount again"; return; }
	c2=$(cat "$T/mnt/canary.bin" "$T/mnt/res/20200101-000000-old.json" | sha256sum)
	[ "$c1" = "$c2" ] || fail "$fs: a file besides the inbox changed"
	"$A" show "$T/mnt/res" > "$T/show.txt" 2> "$T/show.err" || fail "$fs: show: exit $? ($(cat "$T/show.err"))"
	grep -q "unpacked $T/mnt/res/.*\.json, $T/mnt/res/.*\.txt, $T/mnt/res/.*\.html$" "$T/show.err" ||
		fail "$fs: show: $(cat "$T/show.err")"
	h=$(ls "$T/mnt/res"/*.html 2>/dev/null | head -n 1)
	[ -n "$h" ] && grep -q '^<!DOCTYPE html>' "$h" && grep -q 'CPU: prime events per second' "$h" ||
		fail "$fs: no report unpacked beside the result"
	grep -q '^==== assay .*, quick suite, ' "$T/show.txt" && grep -qE '^cpu +1 thread [0-9.]+ events/s' "$T/show.txt" &&
		grep -qE "^results +$T/mnt/res/20[0-9]{6}-[0-9]{6}-[0-9a-f]+\.json$" "$T/show.txt" ||
		fail "$fs: show's screen: $(cat "$T/show.txt")"
	[ ! -e "$T/mnt/res/assay-inbox" ] || fail "$fs: the inbox is left after unpacking"
	n=$(ls "$T/mnt/res"/*.json | wc -l)
	[ "$n" = 2 ] || fail "$fs: $n result files, want the earlier one and this run's"
	"$A" extract "$T/run.txt" | jq -S 'del(.results)' > "$T/console.json"
	jq -S 'del(.results)' "$(ls "$T/mnt/res"/2026*.json "$T/mnt/res"/20[3-9]*.json 2>/dev/null | tail -1)" > "$T/home.json" 2>/dev/null
	cmp -s "$T/console.json" "$T/home.json" || fail "$fs: the file home differs from the console's document"
	"$A" show "$T/mnt/res" > /dev/null 2>&1 || fail "$fs: show again (nothing to unpack): exit $?"
	umount "$T/mnt"
}
trip ext4 64 mkfs.ext4 -q -F
command -v mkfs.xfs >/dev/null && trip xfs 320 mkfs.xfs -q -f || echo "no mkfs.xfs: xfs not tried"
modprobe vfat 2>/dev/null
grep -qw vfat /proc/filesystems && trip vfat 64 mkfs.vfat || echo "this kernel mounts no vfat: vfat not tried here"

# --- a power cut before the header, a damaged inbox, a block changed under the writer ---
l=$(loopdev cut 64 zero)
mkfs.ext4 -q -F "$l" && mount "$l" "$T/mnt" && mkdir -p "$T/mnt/res" || fail "cut: setup"
cp "$T/old.json" "$T/mnt/res/20200101-000000-old.json"
"$A" kexec "${K[@]}" --results-to="$T/mnt/res" --dry-run > "$T/k.out" 2>&1 || fail "cut: kexec --dry-run"
spec=$(spec_of "$T/k.out")
phys=$(echo "$spec" | cut -d: -f4 | cut -d+ -f1)
umount "$T/mnt"
dd if="$l" of="$T/block0" bs=4096 count=1 skip=$((phys / 4096)) status=none
"$A" run --tests=cpu --cpu-time=0.1 --results="$spec" > /dev/null 2>&1 || fail "cut: run"
dd if="$T/block0" of="$l" bs=4096 seek=$((phys / 4096)) conv=notrunc status=none   # as if cut before the header
mount "$l" "$T/mnt"
"$A" show "$T/mnt/res" > "$T/show.txt" 2> "$T/show.err"
grep -q 'holds no results: the run did not get to write them' "$T/show.err" || fail "cut: $(cat "$T/show.err")"
grep -q '20200101-000000-old.json' "$T/show.txt" && [ -e "$T/mnt/res/assay-inbox" ] ||
	fail "cut: the earlier result, the inbox left: $(cat "$T/show.txt")"
# damaged: the header written, a byte of a file changed
"$A" kexec "${K[@]}" --results-to="$T/mnt/res" --dry-run > "$T/k.out" 2>&1 || fail "damaged: kexec --dry-run"
spec=$(spec_of "$T/k.out")
phys=$(echo "$spec" | cut -d: -f4 | cut -d+ -f1)
umount "$T/mnt"
"$A" run --tests=cpu --cpu-time=0.1 --results="$spec" > /dev/null 2>&1 || fail "damaged: run"
printf 'X' | dd of="$l" bs=1 seek=$((phys + 4096 + 100)) conv=notrunc status=none
mount "$l" "$T/mnt"
"$A" show "$T/mnt/res" > /dev/null 2> "$T/show.err"
[ $? = 2 ] && grep -q "damaged: 'file .*\.json .*' does not check" "$T/show.err" || fail "damaged: exit 2 and the reason: $(cat "$T/show.err")"
[ -e "$T/mnt/res/assay-inbox" ] || fail "damaged: the inbox must be left for a look"
rm -f "$T/mnt/res/assay-inbox"
# a block changed under the writer: nothing written
"$A" kexec "${K[@]}" --results-to="$T/mnt/res" --dry-run > "$T/k.out" 2>&1 || fail "changed: kexec --dry-run"
spec=$(spec_of "$T/k.out")
phys=$(echo "$spec" | cut -d: -f4 | cut -d+ -f1)
umount "$T/mnt"
printf 'Y' | dd of="$l" bs=1 seek=$((phys + 5 * 4096 + 7)) conv=notrunc status=none
dd if="$l" bs=4096 skip=$((phys / 4096)) count=1024 status=none | sha256sum > "$T/before"
"$A" run --tests=cpu --cpu-time=0.1 --results="$spec" > /dev/null 2> "$T/run.err"
grep -q 'results not written: block 5 of the inbox is not as assay kexec left it: nothing written' "$T/run.err" ||
	fail "changed: $(grep results "$T/run.err")"
dd if="$l" bs=4096 skip=$((phys / 4096)) count=1024 status=none | sha256sum | cmp -s - "$T/before" || fail "changed: something was written"
expect 2 'results=inbox:zz: not inbox:NONCE' "$A" run --tests=cpu --cpu-time=0.1 --results=inbox:zz
expect 2 'extent 1 is not 512-byte aligned inside the disk' "$A" run --tests=cpu --results=inbox:0123456789abcdef:999:0+4194304

# --- refused before the jump, with the reason ---
mount "$l" "$T/mnt"
expect 2 'kexec: --results-to=/dev/shm: tmpfs is in memory' "$A" kexec "${K[@]}" --results-to=/dev/shm --dry-run
expect 2 'Not a directory|not a directory' "$A" kexec "${K[@]}" --results-to="$T/mnt/res/20200101-000000-old.json" --dry-run
# for real (no --dry-run), a loop device is refused: the image would not find it.  The
# kernel given does not exist: were the refusal missing, nothing could be loaded anyway
expect 2 'not a disk of the machine: the image would not find it' "$A" kexec --kernel /nonexistent --initrd /nonexistent \
	--results-to="$T/mnt/res" --yes
umount "$T/mnt"
mount -o ro "$l" "$T/mnt"
expect 2 'Read-only file system \(mounted read-only\)' "$A" kexec "${K[@]}" --results-to="$T/mnt/res" --dry-run
umount "$T/mnt"
l2=$(loopdev full 8 zero)
mkfs.ext4 -q -F "$l2" && mount "$l2" "$T/mnt" && mkdir "$T/mnt/res" || fail "full: setup"
dd if=/dev/zero of="$T/mnt/fill" bs=1M status=none 2>/dev/null
expect 2 'No space left on device \(the inbox needs 4 MiB free\)' "$A" kexec "${K[@]}" --results-to="$T/mnt/res" --dry-run
[ ! -e "$T/mnt/res/.assay-inbox.new" ] && [ ! -e "$T/mnt/res/assay-inbox" ] || fail "full: a partial inbox left"
umount "$T/mnt"
if command -v mkfs.btrfs >/dev/null; then
	l3=$(loopdev btrfs 128 zero)
	mkfs.btrfs -q -f "$l3" >/dev/null 2>&1 && mount "$l3" "$T/mnt" || fail "btrfs: setup"
	expect 2 'btrfs is copy-on-write with checksums' "$A" kexec "${K[@]}" --results-to="$T/mnt" --dry-run
	umount "$T/mnt"
else
	echo "no mkfs.btrfs: btrfs not tried"
fi
finish
