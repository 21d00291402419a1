# The house: docs/options.md matches the option tables, no source file in lib/ or bench/
# over 1,500 lines nor function over ~150, no two files of bench/ of one name, no include
# loop between folders, the README a user's guide of at most ~200 lines.
. "$(dirname "$0")/lib.sh"

"$A" --options-markdown > "$T/options.md" || fail "assay --options-markdown"
cmp -s "$T/options.md" "$top/docs/options.md" ||
	fail "docs/options.md is stale: run 'make docs' ($(diff "$top/docs/options.md" "$T/options.md" | head -n 3 | tr '\n' ' '))"
cp "$top/docs/fleet.md" "$T/fleet.md"
"$top/mk/metrics-doc.sh" "$A" "$T/fleet.md" || fail "mk/metrics-doc.sh"
cmp -s "$T/fleet.md" "$top/docs/fleet.md" || fail "docs/fleet.md's metrics are stale: run 'make docs'"
grep -q '^| `assay_disk_clat_seconds` | summary |' "$T/fleet.md" || fail "docs/fleet.md: no metrics table"
for o in run cpu mem disk net dns certify compare kexec serve; do
	grep -q "^## assay $o\$" "$T/options.md" || fail "docs/options.md has no section for assay $o"
done
# every option of the disk engine's table is in it (a row or the also-accepted line)
for o in bs iodepth rw verify zonemode gtod_reduce; do
	grep -q -- "\`--$o\`" "$T/options.md" || fail "docs/options.md lacks --$o"
done
for f in "$top"/lib/*.[ch] "$top"/bench/*.[ch] "$top"/bench/*/*.[ch] "$top"/bench/*/*/*.[ch]; do
	[ -f "$f" ] || continue
	n=$(wc -l < "$f")
	[ "$n" -le 1500 ] || fail "${f#$top/}: $n lines (over 1,500: split it)"
done
# no function over ~150 lines (a function: a line opening with its name, its body from a
# '{' alone in the first column to a '}' alone there; option tables are not functions)
long=$(awk '/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0 } /^\{/ { start = FNR; name = sig }
	/^\}/ { if (start && FNR - start > 150) printf "%s: %s (%d lines)\n", FILENAME, name, FNR - start; start = 0 }' \
	"$top"/lib/*.c "$top"/bench/*.c "$top"/bench/*/*.c "$top"/bench/*/*/*.c "$top"/init/*.c)
[ -z "$long" ] || fail "functions over 150 lines: $long"
# a file's name says its room: no two source files of bench/ share one
dup=$(cd "$top" && find bench -name '*.c' | xargs -n1 basename | sort | uniq -d | tr '\n' ' ')
[ -z "$dup" ] || fail "bench/ has several files named: $dup"
# folders depend one way: lib/ and init/ and every folder of bench/ as a node, an edge for
# each #include "x.h" that resolves (as the Makefile's -Ilib -Ibench: the file's own folder,
# then lib/, then bench/) to another folder; tsort finds a loop
edges=$(cd "$top" && for f in lib/*.[ch] init/*.[ch] bench/*.[ch] bench/*/*.[ch] bench/*/*/*.[ch]; do
	[ -f "$f" ] || continue
	d=$(dirname "$f")
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		for base in "$d" lib bench; do
			if [ -f "$base/$inc" ]; then
				t=$(dirname "$(realpath -m --relative-to=. "$base/$inc")")
				[ "$t" = "$d" ] || echo "$d $t"
				break
			fi
		done
	done
done | sort -u)
[ -n "$edges" ] || fail "no includes between folders found (the check itself is broken)"
loop=$(echo "$edges" | tsort 2>&1 >/dev/null | grep -v 'input contains a loop' | sed 's/^tsort: //' | tr '\n' ' ')
[ -z "$loop" ] || fail "folders include each other in a loop: $loop"
n=$(wc -l < "$top/README.md")
[ "$n" -le 210 ] || fail "README.md: $n lines (a user's guide of ~200 lines; measurements go to docs/notes/)"
finish
