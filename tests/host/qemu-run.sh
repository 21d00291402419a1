# qemu/run refuses bad arguments and missing files with a clear message and exit 64, and
# falls back to TCG when a KVM boot stays silent.
# TIMEOUT: 120
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/qemu/run
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect64() {
	local pat=$1 out rc
	shift
	out=$("$R" "$@" 2>&1 </dev/null)
	rc=$?
	[ $rc = 64 ] || fail "qemu/run $*: exit $rc, want 64"
	echo "$out" | grep -qE "$pat" || fail "qemu/run $*: '$out' lacks /$pat/"
}
expect64 'no such file' --kernel /nonexistent/vmlinuz
expect64 'no such file' --initrd /nonexistent/initrd
expect64 'disk /nonexistent.img: no such file' --disk /nonexistent.img
expect64 'accepted: user, none' --net bridge
expect64 'not a positive integer' --mem lots
expect64 'not a positive integer' --timeout 0
expect64 'unknown argument' --frobnicate
expect64 'needs a value' --disk
expect64 'neither a built-in profile' --certify /nonexistent.rules
ASSAY_ACCEL=xen expect64 'accepted: kvm, tcg'
"$R" --help | grep -q -- '--qemu-arg' || fail "--help"

# KVM that passes the probe, then hangs the kernel without a line from init (seen on a
# nested-KVM host, silent or after GRUB's menu): with a fake QEMU, qemu/run stops it after
# ASSAY_KVM_GRACE seconds and boots again under TCG; forced KVM (ASSAY_ACCEL=kvm) is left to
# the timeout.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
: > "$T/vmlinuz"; : > "$T/initrd"
cat > "$T/qemu" <<'FAKE'
#!/bin/bash
# fake QEMU: the KVM probe (a floppy) passes; a KVM boot hangs (after FAKE_KVM_SAYS on the
# console, if set) unless FAKE_KVM_TALKS=1; a TCG boot prints what init prints and exits
accel= log= pidf= probe=0
while [ $# -gt 0 ]; do
	case $1 in
	-accel) accel=$2; shift ;;
	-pidfile) pidf=$2; shift ;;
	-chardev) log=$(sed -n 's/.*logfile=\([^,]*\).*/\1/p' <<< "$2"); shift ;;
	-drive) [[ $2 == *if=floppy* ]] && probe=1; shift ;;
	esac
	shift
done
[ $probe = 1 ] && exit 85
[ -n "$pidf" ] && echo $$ > "$pidf"
echo "$accel" >> "${FAKE_ACCELS:-/dev/null}"
if [ "$accel" = kvm ] && [ "${FAKE_KVM_TALKS:-0}" != 1 ]; then
	printf '%s' "${FAKE_KVM_SAYS:-}" > "$log"
	exec sleep 100
fi
printf 'init: suite status 0\r\ninit: powering off\r\n' > "$log"
FAKE
chmod +x "$T/qemu"
fake() {  # ENV... : qemu/run with the fake QEMU; output in $T/out, exit status printed
	env -u ASSAY_ACCEL_CACHE QEMU="$T/qemu" FAKE_ACCELS="$T/accels" "$@" "$R" --kernel "$T/vmlinuz" --initrd "$T/initrd" \
		--no-disk --net none --log "$T/console.log" --quiet --timeout "${TO:-20}" > "$T/out" 2>&1 </dev/null
	echo $?
}
boots() {  # WANT CASE: the boots the fake QEMU saw since $T/accels was emptied are WANT
	local saw
	saw=$(tr '\n' ' ' < "$T/accels")
	[ "$saw" = "$1" ] || fail "$2: boots '$saw', want '$1'"
}
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	: > "$T/accels"
	rc=$(fake ASSAY_KVM_GRACE=2)
	[ "$rc" = 0 ] || fail "silent KVM: exit $rc, want 0 ($(cat "$T/out"))"
	grep -q 'KVM: no line from init in 2 s; booting again under TCG' "$T/out" ||
		fail "silent KVM: no fallback line in '$(cat "$T/out")'"
	boots "kvm tcg " "silent KVM"
	: > "$T/accels"
	rc=$(fake ASSAY_KVM_GRACE=2 FAKE_KVM_SAYS="GNU GRUB  version 2.06
  Booting \`assay: standard suite'")
	[ "$rc" = 0 ] || fail "KVM hung after GRUB: exit $rc, want 0 ($(cat "$T/out"))"
	boots "kvm tcg " "KVM hung after GRUB"
	: > "$T/accels"
	rc=$(fake ASSAY_KVM_GRACE=2 FAKE_KVM_TALKS=1)
	[ "$rc" = 0 ] || fail "working KVM: exit $rc, want 0"
	boots "kvm " "working KVM"
	# ASSAY_ACCEL_CACHE: the fallback is remembered, the next boot goes to TCG unprobed
	: > "$T/accels"; rm -f "$T/cache"
	rc=$(fake ASSAY_KVM_GRACE=2 ASSAY_ACCEL_CACHE="$T/cache")
	[ "$rc" = 0 ] && [ "$(cat "$T/cache" 2>/dev/null)" = tcg ] || fail "cache after a fallback: exit $rc, '$(cat "$T/cache" 2>/dev/null)', want 0 and tcg"
	rc=$(fake ASSAY_KVM_GRACE=2 ASSAY_ACCEL_CACHE="$T/cache")
	[ "$rc" = 0 ] || fail "cached tcg: exit $rc, want 0"
	boots "kvm tcg tcg " "cached tcg"
	# a KVM that works is remembered too
	: > "$T/accels"; rm -f "$T/cache"
	fake ASSAY_KVM_GRACE=2 FAKE_KVM_TALKS=1 ASSAY_ACCEL_CACHE="$T/cache" >/dev/null
	[ "$(cat "$T/cache" 2>/dev/null)" = kvm ] || fail "cache after a KVM boot: '$(cat "$T/cache" 2>/dev/null)', want kvm"
	: > "$T/accels"
	rc=$(TO=3 fake ASSAY_KVM_GRACE=2 ASSAY_ACCEL=kvm)
	[ "$rc" = 124 ] || fail "forced KVM: exit $rc, want 124 (the timeout; no fallback)"
	boots "kvm " "forced KVM"
else
	echo "no writable /dev/kvm: KVM fallback not tried"
fi
: > "$T/accels"
rc=$(fake ASSAY_ACCEL=tcg)
[ "$rc" = 0 ] || fail "forced TCG: exit $rc, want 0"
boots "tcg " "forced TCG"
rc=$(fake ASSAY_KVM_GRACE=soon)
[ "$rc" = 64 ] && grep -q 'ASSAY_KVM_GRACE=soon: not a number' "$T/out" || fail "ASSAY_KVM_GRACE=soon: exit $rc ($(cat "$T/out"))"
[ $fails = 0 ] && echo ok
exit $((fails > 0))
