# Sourced by boot tests: boots the image with qemu/run into a private temp dir.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export BUILD=${BUILD:-$top/build}
T=$(mktemp -d /tmp/assay-boot.XXXXXX)
trap 'rm -rf "$T"' EXIT
console=$T/console.log
rc=

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# the image under test: ASSAY_KERNEL=debian (default) or custom
kernel_args=()
if [ "${ASSAY_KERNEL:-debian}" = custom ]; then
	kernel_args=(--kernel "$BUILD/custom/vmlinuz" --initrd "$BUILD/custom/initramfs.cpio.xz")
fi

# boot [qemu/run args...]: sets $rc; the console (without \r) is in $console, what qemu/run
# itself said in $T/qemu.err
boot() {
	"$top/qemu/run" --quiet --log "$T/raw.log" --timeout "${BOOT_TIMEOUT:-400}" "${kernel_args[@]}" "$@" \
		2> "$T/qemu.err"
	rc=$?
	cat "$T/qemu.err" >&2
	tr -d '\r' < "$T/raw.log" > "$console"
	echo "--- console ($console) ---"
	cat "$console"
	echo "--- qemu/run exit $rc ---"
}

has() { grep -qE "$1" "$console" || fail "console lacks /$1/"; }
. "$top/tests/ports.sh"
hasnt() { ! grep -qE "$1" "$console" || fail "console has /$1/: $(grep -m1 -E "$1" "$console")"; }

# result_json OUT: the JSON document of the console's compact block (base64 of gzip),
# decoded with the system's base64 and gzip, checked against the byte count and CRC-32
# announced on the line after BEGIN.
result_json() {
	local out=$1 want_bytes want_crc bytes crc
	awk '/^-----BEGIN ASSAY RESULT-----$/ { on = 1; getline; print > "/dev/stderr"; next }
	     /^-----END ASSAY RESULT-----$/ { on = 0 } on' "$console" > "$out.b64" 2> "$T/header" ||
		fail "no result block"
	base64 -d < "$out.b64" | gzip -dc > "$out" || fail "result block: not base64 of a gzip stream"
	[ -s "$out" ] || fail "empty or missing result block"
	want_bytes=$(sed -n 's/^format=gzip+base64 bytes=\([0-9]*\) crc32=\([0-9a-f]*\) gzip=[0-9]*$/\1/p' "$T/header")
	want_crc=$(sed -n 's/^format=gzip+base64 bytes=\([0-9]*\) crc32=\([0-9a-f]*\) gzip=[0-9]*$/\2/p' "$T/header")
	bytes=$(stat -c %s "$out")
	# gzip's trailer holds the CRC-32 of the data (little-endian), then its size
	crc=$(gzip -c < "$out" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
	[ "$bytes" = "$want_bytes" ] || fail "result block: $bytes bytes, header says $want_bytes"
	[ "$crc" = "$want_crc" ] || fail "result block: crc32 $crc, header says $want_crc"
	jq -e . "$out" >/dev/null || fail "result block is not valid JSON"
}

# the kernel and initramfs of the image under test
image_files() {
	if [ "${ASSAY_KERNEL:-debian}" = custom ]; then
		echo "$BUILD/custom/vmlinuz $BUILD/custom/initramfs.cpio.xz"
	else
		echo "$BUILD/vmlinuz $BUILD/initramfs.cpio.xz"
	fi
}

# boot_only [qemu/run args...]: like boot, without the image's --kernel/--initrd
boot_only() {
	local saved=("${kernel_args[@]}")
	kernel_args=()
	boot "$@"
	kernel_args=("${saved[@]}")
}

# console_wait PATTERN: wait (up to 5 min) for the running guest's console to show PATTERN
console_wait() {
	local i
	for i in $(seq 1200); do grep -qE "$1" "$T/raw.log" 2>/dev/null && return 0; sleep 0.25; done
	return 1
}

# monitor_send SOCKET COMMAND: one command to QEMU's human monitor (-monitor unix:SOCKET,
# server=on,wait=off), waiting for the socket to appear; QEMU's answer goes to stderr
monitor_send() {
	python3 - "$1" "$2" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
for _ in range(40):
    try:
        s.connect(sys.argv[1]); break
    except OSError:
        time.sleep(0.25)
s.sendall(sys.argv[2].encode() + b"\n")
time.sleep(1)
s.settimeout(1)
try:
    print(s.recv(65536).decode(errors="replace"), file=sys.stderr)
except OSError:
    pass
s.close()
PY
}
