# assay disk's system calls, counted by strace: its batching by default on the kernel's
# queues, fio's calls when fio's batching options are given.
# SERIAL: how completions batch depends on the other CPU's load: run alone
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
need_root
command -v strace >/dev/null || skip "strace missing"
dev=$(loopdev c 64) || skip "losetup failed"

J() {
	local show=${3:-'.jobs[0].read | {iops, total_ios, runtime}'}
	jq -e "$1" "$T/out.json" >/dev/null || fail "${2:-$1}: $(jq -c "$show" "$T/out.json" 2>&1 | head -c 300)"
}

# assay's batching by default on the kernel's queues: every I/O ready in one submit, every
# completion there in one reap (io_uring: the submit and the wait in one io_uring_enter),
# far fewer calls than I/Os; fio's batching given: one call or more an I/O, as fio's
	for e in io_uring libaio; do
	for b in "" "--iodepth_batch_submit=1 --iodepth_batch_complete_max=1"; do
			strace -f -qq -c -o "$T/st" -e trace=io_uring_enter,io_submit,io_getevents "$A" disk --filename="$dev" \
				--rw=randread --bs=4k --size=8m --iodepth=32 --direct=1 --ioengine=$e $b -J > "$T/out.json" ||
				fail "calls ($e $b): exit $?"
			calls=$(awk '$NF ~ /^(io_uring_enter|io_submit|io_getevents)$/ { n += $4 } END { print n + 0 }' "$T/st")
			J ".jobs[0].read.total_ios == 2048 and (if \"$b\" == \"\" then $calls * 4 < 2048 else $calls >= 2048 end)" \
				"calls ($e ${b:-default}): $calls for 2048 I/Os" '.jobs[0] | [.iodepth_submit, .iodepth_complete]'
		done
	done
finish
