# SUMMARY: bad assay.* values on the kernel command line give clear error lines and the run still powers off
# TIMEOUT: 600
# KERNELS: debian
. "$(dirname "$0")/../lib.sh"
# with a second console (a virtio console to a file; /dev/console stays ttyS0, the last
# named): init's warnings and the suite's output reach both, as they would a provider's
# VGA console and serial line; on Debian's kernel hvc0 comes with a module, late
boot --no-disk --qemu-arg -device --qemu-arg virtio-serial-pci \
	--qemu-arg -chardev --qemu-arg "file,id=hv,path=$T/hvc0.log" --qemu-arg -device --qemu-arg virtconsole,chardev=hv \
	--append "console=hvc0 console=ttyS0 assay.suite=bogus assay.after=sideways assay.nosuchkey=1 assay.timeout=abc assay.cpu-time=1 assay.tests=cpu"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0 (the run goes on with defaults)"
has '^init: warning: kernel command line: assay\.after=sideways: unknown value; accepted: one of poweroff\|reboot\|shell\|kexec; using the default$'
has '^init: warning: kernel command line: assay\.timeout=abc: not a duration; accepted: .*; using the default$'
has '^assay: warning: kernel command line: assay\.suite=bogus: unknown value; accepted: one of quick\|standard\|full\|burnin; using the default$'
has '^assay: warning: kernel command line: assay\.nosuchkey: unknown option; accepted: .*; ignored$'
# init's own keys are not reported as unknown by assay
hasnt 'assay: warning: .*assay\.(after|timeout)'
has '^init: powering off$'
tr -d '\r' < "$T/hvc0.log" > "$T/hvc0.txt"
for pat in '^init: assay .* image, booted by qemu' '^init: warning: kernel command line: assay\.timeout=abc: not a duration' \
	'^assay: warning: kernel command line: assay\.suite=bogus: unknown value' '^-----BEGIN ASSAY RESULT-----$' \
	'^init: powering off$'; do
	grep -qE "$pat" "$T/hvc0.txt" || fail "the second console (hvc0) lacks /$pat/: $(head -c 800 "$T/hvc0.txt")"
done
result_json "$T/result.json"
jq -e '.option_errors | length == 2' "$T/result.json" >/dev/null || fail "want 2 option_errors in the document"
jq -e '.tests[0].args | index("--time=1") != null' "$T/result.json" >/dev/null || fail "assay.cpu-time=1 not applied"
echo "ok"
