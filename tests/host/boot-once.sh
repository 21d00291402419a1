# assay boot-once's refusals and what it writes, on a boot directory of the test's own (the
# boot through GRUB itself: tests/boot/17-boot-once).  Nothing outside it is touched.
. "$(dirname "$0")/lib.sh"
B=$T/boot
mkdir -p "$B/grub"
head -c 1000 /dev/urandom > "$T/k"
head -c 1000 /dev/urandom > "$T/i"
O=(--kernel "$T/k" --initrd "$T/i" --boot "$B" --yes)
expect 2 "boot-once: $B/grub/grub.cfg: boot-once needs GRUB|no $B/grub/grub.cfg" "$A" boot-once "${O[@]}"
echo 'menuentry "x" { linux /x }' > "$B/grub/grub.cfg"
expect 2 'does not read next_entry' "$A" boot-once "${O[@]}"
printf 'if [ "${next_entry}" ] ; then set default="${next_entry}"; fi\nmenuentry "x" { linux /x }\n' > "$B/grub/grub.cfg"
expect 2 'does not read custom.cfg' "$A" boot-once "${O[@]}"
echo 'source $prefix/custom.cfg' >> "$B/grub/grub.cfg"
# grub-reboot: a stand-in that records its words (the real one: the boot test)
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "$@" > %s/reboot-args\n' "$T" > "$T/bin/grub-reboot"
chmod +x "$T/bin/grub-reboot"
expect 2 "grub-reboot not found" env PATH=/nonexistent "$A" boot-once "${O[@]}"
expect 2 "boot-once: $T/nope:" "$A" boot-once --kernel "$T/nope" --initrd "$T/i" --boot "$B" --yes
expect 2 "after --: expected --KEY=VALUE" env PATH="$T/bin:$PATH" "$A" boot-once "${O[@]}" -- bogus
echo 'menuentry "mine" { linux /mine }' > "$B/grub/custom.cfg"
PATH="$T/bin:$PATH" "$A" boot-once --kernel "$T/k" --initrd "$T/i" --boot "$B" --dry-run -- --suite=standard > "$T/dry" ||
	fail "--dry-run: exit $?"
grep -q '^cmdline: console=tty0 console=ttyS0,115200 panic=-1 assay.boot=boot-once assay.suite=standard$' "$T/dry" ||
	fail "--dry-run: $(cat "$T/dry")"
[ ! -e "$B/assay" ] && [ ! -e "$T/reboot-args" ] || fail "--dry-run changed something"
echo no | PATH="$T/bin:$PATH" "$A" boot-once --kernel "$T/k" --initrd "$T/i" --boot "$B" > /dev/null; [ $? = 1 ] ||
	fail "not confirmed: want exit 1"
PATH="$T/bin:$PATH" "$A" boot-once "${O[@]}" > "$T/out" || fail "boot-once: exit $?"
grep -q "^--boot-directory=$B assay-once$" "$T/reboot-args" || fail "grub-reboot's words: $(cat "$T/reboot-args")"
grep -q '^menuentry "mine"' "$B/grub/custom.cfg" && grep -q 'menuentry "assay (once)" --id assay-once' "$B/grub/custom.cfg" ||
	fail "custom.cfg: the user's entry kept and ours added: $(cat "$B/grub/custom.cfg")"
cmp -s "$T/k" "$B"/assay/vmlinuz-* && cmp -s "$T/i" "$B"/assay/initramfs-* || fail "the files in $B/assay"
grep -q "linux $B/assay/vmlinuz-[0-9a-f]* console=tty0" "$B/grub/custom.cfg" || fail "the entry's kernel line"
PATH="$T/bin:$PATH" "$A" boot-once --boot "$B" --remove > /dev/null || fail "--remove: exit $?"
[ "$(cat "$B/grub/custom.cfg")" = 'menuentry "mine" { linux /mine }' ] && [ ! -e "$B/assay" ] ||
	fail "--remove: $(cat "$B/grub/custom.cfg"; ls "$B")"
finish
