# Sourced by host tests: temp dir, loop devices over /dev/shm, and expectation helpers.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export BUILD=${BUILD:-$top/build}
A=${ASSAY_BIN:-$BUILD/assay}   # make check-asan: the sanitizer build
T=$(mktemp -d /tmp/assay-host.XXXXXX)
# loop devices are found again by their backing files: loopdev runs in $(...), a subshell
cleanup() {
	umount "$T/mnt" 2>/dev/null
	for f in /dev/shm/assay-test.$$.*; do
		[ -e "$f" ] || continue
		losetup -j "$f" | cut -d: -f1 | while read -r l; do losetup -d "$l" 2>/dev/null; done
	done
	rm -rf "$T" /dev/shm/assay-test.$$.*
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
skip() { echo "SKIP: $*"; exit 77; }
finish() { [ $fails = 0 ] && echo ok; exit $((fails > 0)); }

# loopdev NAME MIB [random|zero]: a loop device over /dev/shm/...; prints its path
loopdev() {
	local f=/dev/shm/assay-test.$$.$1 l
	if [ "${3:-random}" = zero ]; then truncate -s "$2M" "$f"; else head -c $(($2 << 20)) /dev/urandom > "$f"; fi
	l=$(losetup -f --show "$f") || return 1
	echo "$l"
}
need_root() { [ "$(id -u)" = 0 ] || skip "needs root (losetup)"; losetup -f >/dev/null 2>&1 || skip "no loop devices"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

# expect CODE PATTERN CMD...: exit code, and (when PATTERN is set) exactly one stderr line
# matching it
expect() {
	local code=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = "$code" ] || fail "$*: exit $rc, want $code (stderr: $out)"
	if [ -n "$pat" ]; then
		echo "$out" | grep -qE -- "$pat" || fail "$*: stderr '$out' lacks /$pat/"
		[ "$(echo "$out" | grep -c .)" -le 1 ] || fail "$*: more than one line: $out"
	fi
}

. "$top/tests/ports.sh"
