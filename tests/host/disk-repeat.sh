# --repeat=auto: again until every job's IOPS has its 95% CI within --repeat-target, at
# least 3 passes, never more than --repeat-max; when the target is not reached it says so
# (in the JSON and a warning) instead of running on.  assay run --disk-repeat passes it on.
. "$(dirname "$0")/lib.sh"
head -c $((32 << 20)) /dev/urandom > "$T/d.img"
D=(--filename="$T/d.img" --profile=qd1 --runtime=0.2)
# a wide target: reached after the 3 passes a CI needs (on a busy machine a pass or two
# more: the CI of the passes run is what decides, checked below)
"$A" disk "${D[@]}" --repeat=auto --repeat-target=50 -J > "$T/a.json" 2>/dev/null || fail "auto: exit $?"
jq -e '.assay.repeat_auto | .reached == true and .repeats >= 3 and .repeats <= 10 and .widest_ci_pct <= 50 and
	.target_pct == 50 and .widest == "qd1"' "$T/a.json" >/dev/null ||
	fail "auto, wide target: $(jq -c .assay.repeat_auto "$T/a.json")"
jq -e '.assay.repeat == .assay.repeat_auto.repeats and (.assay.repeats.qd1.read.iops.n == .assay.repeat)' "$T/a.json" \
	>/dev/null || fail "auto: the repeats in the JSON disagree"
# an unreachable target: bounded, and said
"$A" disk "${D[@]}" --repeat=auto --repeat-target=0.1 --repeat-max=4 -J > "$T/b.json" 2> "$T/b.err" || fail "bounded: exit $?"
jq -e '.assay.repeat_auto | .reached == false and .repeats == 4 and .widest_ci_pct > 0.1' "$T/b.json" >/dev/null ||
	fail "bounded: $(jq -c .assay.repeat_auto "$T/b.json")"
grep -q 'repeat=auto: the 95% CIs are not all within +-0.1% after 4 passes (the widest: qd1 IOPS' "$T/b.err" ||
	fail "bounded: no warning: $(cat "$T/b.err")"
"$A" disk "${D[@]}" --repeat=auto --repeat-target=50 > "$T/t.txt" 2>/dev/null
grep -q -- '--repeat=auto: every CI within +-50% (the widest: qd1' "$T/t.txt" || fail "text: $(grep -A2 across "$T/t.txt")"
# a fixed count has no auto section
"$A" disk "${D[@]}" --repeat=2 -J 2>/dev/null | jq -e '.assay.repeat == 2 and .assay.repeat_auto == null' >/dev/null ||
	fail "--repeat=2"
expect 1 'repeat=sometimes' "$A" disk "${D[@]}" --repeat=sometimes
expect 1 'repeat-max=2: out of range' "$A" disk "${D[@]}" --repeat=auto --repeat-max=2
# through assay run
"$A" run --tests=disk --disks="$T/d.img" --disk-profile=qd1 --disk-time=0.2 --disk-repeat=auto -J 2>/dev/null |
	jq -e '.tests[0].args | index("--repeat=auto") != null and index("--repeat-max=5") != null' >/dev/null ||
	fail "run --disk-repeat=auto"
finish
