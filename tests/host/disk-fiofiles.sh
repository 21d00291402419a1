# fio's job semantics on regular files (no assay profile, no --mode given): the null engine
# makes no file, a file the job lays out is written and verified, a plain file written, a
# disk image (a filesystem in it) left alone with one line, an iolog replayed on the files
# it names, fio's accepted-but-idle options accepted; stderr stays empty when all is well.
# (Bare names, holes off the --bs grid, notes on stdout: disk-badinput, disk-fiolines.)
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "fio missing"
cd "$T" || exit 1
quiet() {  # WHAT: stderr of the last command ($T/err) empty
	[ ! -s "$T/err" ] || fail "$1: stderr not empty: $(head -c 300 "$T/err")"
}

# null: 100 GB named, nothing made (fio's null touches no file), writes without --mode
"$A" disk --name=n --ioengine=null --size=100g --rw=randwrite --runtime=0.3 --time_based -J > n.json 2> err ||
	fail "null: exit $?"
quiet null
[ ! -e n.0.0 ] || fail "null: made $(ls -l n.0.0)"
jq -e '.jobs[0].write.total_ios > 1000' n.json > /dev/null || fail "null: $(jq -c '.jobs[0].write.total_ios' n.json)"
"$A" disk --name=o --ioengine=null --size=1m --io_submit_mode=offload --rw=read -J > /dev/null 2> err ||
	fail "null with io_submit_mode=offload: exit $?"
quiet "null offload"

# a file the job lays out: written and verified as fio's, no --mode
"$A" disk --name=v --filename=v.dat --size=2m --rw=write --bs=64k --verify=crc32c -J > v.json 2> err ||
	fail "verify on a laid-out file: exit $?"
quiet verify
jq -e '.jobs[0] | .error == 0 and .write.io_bytes == 2097152 and .read.io_bytes == 2097152' v.json > /dev/null ||
	fail "verify: $(jq -c '.jobs[0] | [.error, .write.io_bytes, .read.io_bytes]' v.json)"
# the same in fio 3.33: the same exit status and byte counts
fio --name=v --filename=fv.dat --size=2m --rw=write --bs=64k --verify=crc32c --output-format=json > fv.json 2> err ||
	fail "fio verify: exit $?"
[ "$(jq -c '.jobs[0] | [.write.io_bytes, .read.io_bytes]' fv.json)" = \
	"$(jq -c '.jobs[0] | [.write.io_bytes, .read.io_bytes]' v.json)" ] || fail "verify: byte counts differ from fio's"

# a plain file of someone's data: written as fio writes it (fio's semantics: the job said write)
head -c 1M /dev/urandom > plain.dat
s0=$(sha plain.dat)
"$A" disk --filename=plain.dat --rw=randwrite --size=1m -J > p.json 2> err || fail "plain file: exit $?"
quiet "plain file"
[ "$(sha plain.dat)" != "$s0" ] && jq -e '.jobs[0].write.io_bytes == 1048576' p.json > /dev/null ||
	fail "plain file: not written"
# its header says so (not the run's "readonly", above writes); a disk image's stays readonly
"$A" disk --filename=plain.dat --rw=randwrite --size=1m > p.txt 2> err || fail "plain file, text: exit $?"
head -n 1 p.txt | grep -qE '^\./plain\.dat: .*, mode as fio.s \(a plain file\)$' || fail "plain file header: $(head -n 1 p.txt)"

# a disk image (ext4 inside): its writes skipped, one line saying why; untouched
truncate -s 8m img.raw
mkfs.ext4 -q -F img.raw || skip "mkfs.ext4 failed"
s1=$(sha img.raw)
"$A" disk --filename=img.raw --rw=randwrite --size=1m > img.txt 2> err
rc=$?
[ $rc = 77 ] || fail "disk image: exit $rc, want 77 (skipped)"
grep -q 'skipped: writes; ./img.raw holds ext2/3/4 (a disk image): fio would overwrite it, assay only with --mode=destroy --force' img.txt ||
	fail "disk image: $(grep skipped img.txt)"
[ "$(sha img.raw)" = "$s1" ] || fail "the disk image changed"
head -n 1 img.txt | grep -qE '^\./img\.raw: .*, mode readonly$' || fail "disk image header: $(head -n 1 img.txt)"
# an explicit --mode keeps assay's rules: readonly never writes a file
"$A" disk --filename=plain.dat --rw=write --size=1m --mode=readonly > /dev/null 2>&1
[ $? = 77 ] || fail "--mode=readonly on a file: not skipped"
# fio's --readonly refuses a job that writes, before any file is made; both tools exit 1
"$A" disk --name=ro --filename=ro.dat --rw=randwrite --size=1m --readonly > /dev/null 2> err
rc=$?
fio --name=ro --filename=fro.dat --rw=randwrite --size=1m --readonly > /dev/null 2>&1
[ $rc = $? ] && [ $rc = 1 ] || fail "--readonly writer: exit $rc, fio's $?"
grep -q "^assay: error: disk: --readonly: job 'ro' has rw=randwrite" err || fail "--readonly writer: $(cat err)"
[ ! -e ro.dat ] || fail "--readonly writer: made ro.dat"
# ... and a replay of a log with writes in it (the log's file left as it was)
fio --name=lw --filename=lw.dat --size=1m --rw=randwrite --number_ios=5 --write_iolog=lw.log --output-format=json \
	> /dev/null 2>&1 || fail "fio write_iolog (writes)"
s0=$(sha lw.dat)
"$A" disk --name=lr --read_iolog=lw.log --readonly > /dev/null 2> err
rc=$?
[ $rc = 1 ] && [ "$(sha lw.dat)" = "$s0" ] && grep -q "^assay: error: disk: --readonly: job 'lr' replays writes" err ||
	fail "--readonly replay of writes: exit $rc: $(cat err)"
# failed threads: fio's exit status counts them (three threads reading an empty file)
fio --name=e --filename=fe.dat --rw=read --size=1m --create_on_open=1 --numjobs=3 --output-format=json > /dev/null 2>&1
fe=$?
"$A" disk --name=e --filename=ae.dat --rw=read --size=1m --create_on_open=1 --numjobs=3 -J > e.json 2> /dev/null
ae=$?
[ $ae = $fe ] && [ $ae = 3 ] && jq -e '.assay.failed_threads == 3' e.json > /dev/null ||
	fail "three failed threads: exit $ae, fio's $fe, failed_threads $(jq .assay.failed_threads e.json)"
# threads failing their setup: each counted, as fio's (two threads of their own files, each
# smaller than one --zonemode=zbd zone; fio's files absent, of size 0 to it)
fio --name=z --size=1m --numjobs=2 --zonemode=zbd --zonesize=4m --rw=randwrite --output-format=json > /dev/null 2>&1
fe=$?
"$A" disk --name=z --size=1m --numjobs=2 --zonemode=zbd --zonesize=4m --rw=randwrite -J > z.json 2> err
ae=$?
[ $ae = $fe ] && [ $ae = 2 ] && jq -e '.assay.failed_threads == 2 and .jobs[0].error == 22' z.json > /dev/null &&
	grep -q "^assay: error: disk: z: --zonemode=zbd: ./z.0.0 (1048576 bytes) is smaller than one zone" err ||
	fail "zbd setup failures: exit $ae, fio's $fe: $(cat err)"
# bad input exits as fio's: an unknown option, a bad value, a job file's unknown option
printf '[j]\nrw=read\nsize=1m\nbogus_option=1\n' > bad.fio
for args in "--name=b --filename=b.dat --size=1m --bogus" "--name=b --filename=b.dat --size=1m --bs=abc" \
	"--name=b --filename=b.dat --rw=sideways --size=1m" "bad.fio"; do
	# shellcheck disable=SC2086  # the words are the test
	fio $args --output-format=json > /dev/null 2>&1
	fe=$?
	# shellcheck disable=SC2086
	"$A" disk $args -J > /dev/null 2> err
	ae=$?
	[ $ae = $fe ] && [ "$(grep -c . err)" = 1 ] || fail "$args: exit $ae, fio's $fe; stderr: $(cat err)"
done

# --read_iolog with no --filename: the files the log names (fio's)
fio --name=w --filename=h.dat --size=1m --rw=randread --number_ios=20 --write_iolog=h.log --output-format=json > /dev/null ||
	fail "fio write_iolog"
"$A" disk --name=r --read_iolog=h.log -J > r.json 2> err || fail "read_iolog without --filename: exit $?"
quiet read_iolog
jq -e '.jobs[0].read.total_ios == 20 and .jobs[0]["job options"].filename == "./h.dat"' r.json > /dev/null ||
	fail "read_iolog: $(jq -c '.jobs[0] | [.read.total_ios, .["job options"].filename]' r.json)"

# a hole on a file the job lays out: fio wraps at its end and does the region's bytes; the
# same offsets as fio's (a device larger than the region: disk-fiolines)
fio --name=hw --size=1m --rw=write:12k --write_iolog=fh.log --output-format=json > /dev/null 2>&1 || fail "fio hole"
rm -f hw.0.0
"$A" disk --name=hw --size=1m --rw=write:12k --write_iolog=ah.log -J > /dev/null 2> err || fail "hole on a file: exit $?"
quiet "hole on a file"
cmp -s <(awk '$3 == "write" { print $4, $5 }' fh.log) <(awk '$3 == "write" { print $4, $5 }' ah.log) &&
	[ "$(grep -c ' write ' ah.log)" = 256 ] || fail "hole on a file: not fio's offsets ($(grep -c ' write ' ah.log) writes)"

# fio's JESD219 example: --blockalign with a zoned --random_distribution and --bssplit
"$A" disk --name=jz --size=16m --rw=randrw --norandommap --bssplit=512/4:4k/86:16k/10 --blockalign=4k \
	--random_distribution=zoned:50/5:30/15:20/80 --number_ios=2000 --write_iolog=jz.log -J > /dev/null 2> err ||
	fail "jesd219: exit $?"
quiet jesd219
awk '$3 == "read" || $3 == "write" { n++; if ($4 % 4096) off++; z = $4 / 16777216 * 100; if (z < 5) a++; else if (z < 20) b++ }
	END { exit !(n == 2000 && !off && a / n > 0.4 && a / n < 0.6 && b / n > 0.2 && b / n < 0.4) }' jz.log ||
	fail "jesd219: offsets not on 4k or not zoned 50/30/20: $(awk '$3 == "read" || $3 == "write"' jz.log | head -3)"

# fio's --debug: accepted, a note in normal output only
"$A" disk --filename=h.dat --rw=read --size=64k --debug=io,file > d.txt 2> err || fail "--debug: exit $?"
quiet debug
grep -q '^disk: --debug=io,file: accepted' d.txt || fail "--debug: no note in normal output"
"$A" disk --filename=h.dat --rw=read --size=64k --debug=io -J 2> err | jq -e . > /dev/null || fail "--debug -J: not JSON"
quiet "debug -J"
finish
