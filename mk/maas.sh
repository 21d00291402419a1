#!/bin/sh
# usage: mk/maas.sh OUT ASSAY
# The MAAS testing script (fleet/maas-assay.sh) with the static assay binary carried at its
# end, gzipped and in base64: one file to upload (docs/fleet.md "MAAS").
set -eu
out=$1 bin=$2
mkdir -p "$(dirname "$out")"
{
	cat "$(dirname "$0")/../fleet/maas-assay.sh"
	echo "exit 1 # (not reached)"
	echo "__ASSAY_BINARY_BELOW__"
	gzip -9n -c "$bin" | base64 -w 76
} > "$out.tmp"
chmod 755 "$out.tmp"
mv "$out.tmp" "$out"
echo "maas: $out ($(stat -c %s "$out") bytes): maas \$PROFILE node-scripts create name=assay script@=$out"
