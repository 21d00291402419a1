# fio's --steadystate: a job stops once its last --steadystate_duration seconds meet the
# criterion (fio's "steadystate" object says so, with the window judged), not before
# --steadystate_ramp_time, and runs its full time when they never do; bad specs refused.
# (The judging itself, on known series: tests/unit/steady.c.)
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev s 32) || skip "losetup failed"
J() { jq -e "$1" "$T/out.json" >/dev/null || fail "$2: $(jq -c '.jobs[0] | [.read.runtime, .steadystate]' "$T/out.json" 2>&1 | head -c 400)"; }

# a criterion any two seconds meet (a deviation is at most 100% of the mean): stops at 2 s
"$A" disk --filename="$dev" --rw=randread --direct=1 --runtime=30 --time_based --steadystate=iops:200% \
	--steadystate_duration=2 --numjobs=2 -J > "$T/out.json" || fail "attained: exit $?"
J '.jobs[0] | .read.runtime >= 1900 and .read.runtime < 8000 and .steadystate.attained == 1 and
	(.steadystate.data.iops | length) == 2 and (.steadystate.data.iops | min) > 0 and
	.steadystate.ss == "iops:200.000000%" and .steadystate.duration == 2 and
	(.steadystate.criterion | rtrimstr("%") | tonumber) <= 200' "attained at 2 s"
J '.jobs[0]["job options"] | .steadystate == "iops:200%" and .steadystate_duration == "2"' "job options"
# fio's short names; the ramp comes first
"$A" disk --filename="$dev" --rw=randread --direct=1 --runtime=30 --time_based --ss=bw_slope:1000% --ss_dur=2 \
	--ss_ramp=2 -J > "$T/out.json" || fail "ramp: exit $?"
J '.jobs[0] | .read.runtime >= 3900 and .read.runtime < 10000 and .steadystate.attained == 1 and
	.steadystate.data.bw_mean > 0' "ramp 2 s + window 2 s"
# never met (every second exactly the mean): the full runtime, the last window judged
"$A" disk --filename="$dev" --rw=randread --direct=1 --runtime=2.5 --time_based --ss=iops:0 --ss_dur=2 \
	> "$T/out.txt" || fail "never attained: exit $?"
grep -qE '^  steadystate  : attained=no, bw=.*, iops=.*, iops mean dev=[0-9.]+$' "$T/out.txt" ||
	fail "text: $(grep steady "$T/out.txt")"
# (the full 2.5 s, not stopped at the 2 s window: up to 1 s late on a loaded machine)
grep -qE 'IOPS=.*\(.*/(2[4-9]|3[0-4])[0-9][0-9]msec\)' "$T/out.txt" || fail "not attained: the full runtime ($(grep IOPS "$T/out.txt"))"

expect 1 "steadystate: give the window it judges, --steadystate_duration" \
	"$A" disk --filename="$dev" --rw=randread --steadystate=iops:2%
expect 1 "steadystate=iops: KIND:LIMIT" "$A" disk --filename="$dev" --steadystate=iops --ss_dur=10
expect 1 "steadystate=lat:1%: KIND:LIMIT" "$A" disk --filename="$dev" --steadystate=lat:1% --ss_dur=10
expect 1 "steadystate=iops:x: KIND:LIMIT" "$A" disk --filename="$dev" --ss=iops:x --ss_dur=10
expect 1 "steadystate_duration=1: at least 2 seconds" "$A" disk --filename="$dev" --ss_dur=1
finish
