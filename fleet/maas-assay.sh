#!/bin/bash
# --- Start MAAS 1.0 script metadata ---
# name: assay
# title: assay hardware benchmark and certification
# description: Runs assay's suite on the node, checks it against a certify profile and
#   reports passed, degraded (only performance rules failed) or failed (a test, or a
#   health, memory or error rule failed). Built by `make maas`; docs/fleet.md.
# script_type: testing
# hardware_type: node
# parallel: disabled
# destructive: false
# timeout: 12:00:00
# tags: assay, burn-in
# parameters:
#   runtime:
#     type: runtime
#     default: 0
#     argument_format: --runtime={input}
#     description: seconds of burn-in (0 runs the full suite once)
# results:
#   assay_verdict:
#     title: Certify verdict
#     description: PASS or FAIL of the certify profile's rules
#   assay_why:
#     title: Why
#     description: the first failed test or rule, or what passed
# --- End MAAS 1.0 script metadata ---
#
# What it does: unpacks the static assay binary carried at the end of this file (or uses
# $DOWNLOAD_PATH/assay, or $ASSAY_BIN), runs `assay run` read-only on every disk with the
# profile below, prints the run's screen and JSON on stdout (MAAS keeps them as the
# script's output), and writes the results YAML to $RESULT_PATH (stdout when unset).
# Edit ASSAY_PROFILE/ASSAY_ARGS below (or set them in the environment) to change what runs.
set -u
ASSAY_PROFILE=${ASSAY_PROFILE:-hw-certify}
ASSAY_ARGS=${ASSAY_ARGS:-}
runtime=0
for a in "$@"; do
	case $a in
	--runtime=*) runtime=${a#--runtime=} ;;
	*) echo "assay (MAAS): unknown argument '$a' (accepted: --runtime=SECONDS)" >&2; exit 2 ;;
	esac
done
case $runtime in ''|*[!0-9]*) echo "assay (MAAS): --runtime=$runtime: whole seconds" >&2; exit 2 ;; esac

work=$(mktemp -d /tmp/assay-maas.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
assay=${ASSAY_BIN:-}
if [ -z "$assay" ] && [ -n "${DOWNLOAD_PATH:-}" ] && [ -x "$DOWNLOAD_PATH/assay" ]; then
	assay=$DOWNLOAD_PATH/assay
fi
if [ -z "$assay" ]; then
	line=$(grep -an '^__ASSAY_BINARY_BELOW__$' "$0" | tail -n 1 | cut -d: -f1)
	if [ -z "$line" ]; then
		echo "assay (MAAS): no assay binary: this is the template; build the script with 'make maas'" >&2
		exit 1
	fi
	tail -n +"$((line + 1))" "$0" | base64 -d | gzip -dc > "$work/assay" && chmod +x "$work/assay" ||
		{ echo "assay (MAAS): the binary at the end of $0 is damaged" >&2; exit 1; }
	assay=$work/assay
fi

if [ "$runtime" -gt 0 ]; then
	suite="--suite=burnin --burnin=${runtime}s"
else
	suite="--suite=full"
fi
mkdir -p "$work/results"
# shellcheck disable=SC2086 # the arguments are words by design
"$assay" run $suite --certify="$ASSAY_PROFILE" --results="$work/results" $ASSAY_ARGS
rc=$?
json=$(ls -t "$work"/results/*.json 2>/dev/null | head -n 1)
if [ -z "$json" ]; then
	echo "assay (MAAS): the run wrote no result (exit $rc)" >&2
	printf 'status: failed\nresults:\n  assay_why: "assay run exited %s and wrote no result"\n' "$rc" > "${RESULT_PATH:-/dev/stdout}"
	exit 1
fi
"$assay" export --format=maas "$json" > "$work/result.yaml" || exit 1
cat "$work/result.yaml" > "${RESULT_PATH:-/dev/stdout}"
case $(sed -n 's/^status: //p' "$work/result.yaml") in
passed|degraded) exit 0 ;;
*) exit 1 ;;
esac
