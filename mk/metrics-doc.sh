#!/bin/sh
# mk/metrics-doc.sh ASSAY FILE: the metrics table of FILE (between its marker lines) made
# anew from `ASSAY export --list-metrics`; the rest of FILE kept
set -eu
assay=$1 file=$2
"$assay" export --list-metrics > "$file.table"
awk -v table="$file.table" '
	/^<!-- metrics: assay export --list-metrics -->$/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/^<!-- end of metrics -->$/ { skip = 0 }
	!skip' "$file" > "$file.new"
rm -f "$file.table"
mv "$file.new" "$file"
