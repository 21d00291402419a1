# The house: docs/options.md matches the option tables, no source file in lib/ or bench/
# over 1,500 lines nor function over ~150, the README a user's guide of at most ~200 lines.
. "$(dirname "$0")/lib.sh"

"$A" --options-markdown > "$T/options.md" || fail "assay --options-markdown"
cmp -s "$T/options.md" "$top/docs/options.md" ||
	fail "docs/options.md is stale: run 'make docs' ($(diff "$top/docs/options.md" "$T/options.md" | head -n 3 | tr '\n' ' '))"
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
	/^\}/ { if (start && FNR - start > 160) printf "%s: %s (%d lines)\n", FILENAME, name, FNR - start; start = 0 }' \
	"$top"/lib/*.c "$top"/bench/*.c "$top"/bench/*/*.c "$top"/bench/*/*/*.c "$top"/init/*.c)
[ -z "$long" ] || fail "functions over 150 lines: $long"
n=$(wc -l < "$top/README.md")
[ "$n" -le 210 ] || fail "README.md: $n lines (a user's guide of ~200 lines; measurements go to docs/notes/)"
finish
