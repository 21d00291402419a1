# qemu/run refuses bad arguments and missing files with a clear message and exit 2.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/qemu/run
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect2() {
	local pat=$1 out rc
	shift
	out=$("$R" "$@" 2>&1 </dev/null)
	rc=$?
	[ $rc = 2 ] || fail "qemu/run $*: exit $rc, want 2"
	echo "$out" | grep -qE "$pat" || fail "qemu/run $*: '$out' lacks /$pat/"
}
expect2 'no such file' --kernel /nonexistent/vmlinuz
expect2 'no such file' --initrd /nonexistent/initrd
expect2 'disk /nonexistent.img: no such file' --disk /nonexistent.img
expect2 'accepted: user, none' --net bridge
expect2 'not a positive integer' --mem lots
expect2 'not a positive integer' --timeout 0
expect2 'unknown argument' --frobnicate
expect2 'needs a value' --disk
ASSAY_ACCEL=xen expect2 'accepted: kvm, tcg'
"$R" --help | grep -q -- '--qemu-arg' || fail "--help"
[ $fails = 0 ] && echo ok
exit $((fails > 0))
