# assay kexec on a host: bad input is refused and nothing happens without confirmation.
# (Never given --yes here: it would reboot this machine.)
. "$(dirname "$0")/lib.sh"
expect 2 'kexec: --kernel /nonexistent: No such file' "$A" kexec --kernel /nonexistent --initrd /dev/null
expect 2 'kexec: --initrd /nonexistent: No such file' "$A" kexec --kernel /dev/null --initrd /nonexistent
expect 2 "kexec: 'suite=quick' after --: expected --KEY=VALUE" "$A" kexec --kernel /dev/null --initrd /dev/null -- suite=quick
expect 2 'kexec: --bogus: unknown option' "$A" kexec --bogus
"$A" kexec --help | grep -q -- '--again' || fail "--help"
out=$(echo no | "$A" kexec --kernel /dev/null --initrd /dev/null --console "tty0 ttyS0,115200" -- --suite=standard --mode=rewrite 2>&1)
rc=$?
[ $rc = 1 ] || fail "unconfirmed: exit $rc, want 1"
echo "$out" | grep -q '^cmdline: console=tty0 console=ttyS0,115200 panic=-1 assay.boot=kexec assay.suite=standard assay.mode=rewrite$' ||
	fail "command line: $out"
echo "$out" | grep -q 'not confirmed: nothing done' || fail "no 'nothing done' line"
finish
