# assay report: one self-contained HTML page from real runs (a standard-suite one with disk,
# CPU and network; a quick one with memory; a third), checked in headless Chromium: not
# blank, every chart's title and each headline figure's value in the DOM, no console error,
# no request (offline); valid HTML (html5lib strict, tidy); run --results writes it beside
# the .json and .txt; bad input refused in one line.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
need_root
command -v chromium >/dev/null || skip "chromium missing (apt-get install chromium)"
command -v tidy >/dev/null || skip "tidy missing (apt-get install tidy)"
PY=/usr/bin/python3
$PY -c 'import html5lib, PIL' 2>/dev/null || skip "python3-html5lib or python3-pil missing"

dev=$(loopdev r 128) || skip "losetup failed"
sum0=$(sha "/dev/shm/assay-test.$$.r")
port=$(free_port)
"$A" serve -B 127.0.0.1 -p "$port" --forever > "$T/serve.log" 2>&1 &
spid=$!
listening "$port"
run() {  # DIR ARGS...: a run writing its results into DIR
	local d=$1
	shift
	"$A" run --cpu-time 1 --disk-time 1 --disks "$dev" --results "$T/$d" "$@" > "$T/$d.out" 2> "$T/$d.err" ||
		fail "run $d: exit $? ($(tail -n 3 "$T/$d.err"))"
}
run std --suite standard --tests cpu,disk,net --disk-repeat 1 --net-time 1 --iperf "127.0.0.1:$port"
run mem --tests cpu,mem,disk
run cpu --tests cpu
kill "$spid"
[ "$(sha "/dev/shm/assay-test.$$.r")" = "$sum0" ] || fail "the disk changed under read-only runs"

# --- run --results: the report beside the .json and .txt ---
for d in std mem cpu; do
	j=$(ls "$T/$d"/*.json 2>/dev/null | head -n 1)
	[ -n "$j" ] || { fail "$d: no .json in --results"; continue; }
	[ -s "${j%.json}.html" ] || fail "$d: no ${j%.json}.html beside the json"
	grep -q "results written to .*\.{json,txt,html}$" "$T/$d.err" || fail "$d: the results line: $(grep 'results written' "$T/$d.err")"
	eval "$d=\$j"
done

"$A" report "$std" -o "$T/std.html" || fail "report std: exit $?"
"$A" report "$mem" -o "$T/mem.html" || fail "report mem: exit $?"
"$A" report "A=$std" "B=$mem" "$cpu" -o "$T/three.html" || fail "report three: exit $?"
"$A" report "$std" -o - > "$T/stdout.html" || fail "report -o -: exit $?"
cmp -s "$T/std.html" "$T/stdout.html" || fail "-o - differs from -o FILE"
cmp -s "$T/std.html" "${std%.json}.html" || fail "the report run --results wrote differs from assay report's"
size=$(stat -c %s "$T/std.html")
[ "$size" -le 512000 ] || fail "the standard suite's page is $size bytes (budget 500 KB)"
echo "pages: std $size bytes, mem $(stat -c %s "$T/mem.html"), three $(stat -c %s "$T/three.html")"

# --- self-contained: nothing fetched, no script; valid HTML ---
for p in std mem three; do
	f=$T/$p.html
	grep -qiE '<script|<link|<img|<iframe|src=|url\(|@import' "$f" && fail "$p: references something outside the page"
	grep -oE 'https?://[^" ]*' "$f" | grep -vx 'http://www.w3.org/2000/svg' | grep -q . &&
		fail "$p: a URL other than the SVG namespace: $(grep -oE 'https?://[^" ]*' "$f" | sort -u | head -3)"
	$PY - "$f" <<'PY' || fail "$p: html5lib (strict) rejects it"
import sys, html5lib
p = html5lib.HTMLParser(strict=True)
p.parse(open(sys.argv[1], 'rb').read())
PY
	tidy -q -e "$f" > "$T/tidy.$p" 2>&1 || fail "$p: tidy: $(head -n 3 "$T/tidy.$p")"
done

# --- what the page must hold: the charts the runs' data call for, each headline value ---
# (the headline figures and their values come from the runs' own JSON, by assay compare)
expect_titles() {  # PAGE TITLE...
	local page=$1 t
	shift
	for t in "$@"; do
		grep -qF "$t" "$T/$page.dom" || fail "$page: no chart titled '$t' in Chromium's DOM"
	done
}
chrome() {  # PAGE: DOM dump, screenshot and console log of the page, offline
	local u=file://$T/$1.html
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --enable-logging=stderr --v=0 \
		--host-resolver-rules="MAP * ~NOTFOUND" --dump-dom "$u" > "$T/$1.dom" 2> "$T/$1.console" ||
		fail "$1: chromium --dump-dom: exit $?"
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --window-size=1000,2000 \
		--host-resolver-rules="MAP * ~NOTFOUND" --screenshot="$T/$1.png" "$u" > /dev/null 2>&1 ||
		fail "$1: chromium --screenshot: exit $?"
	grep -E 'CONSOLE|Failed to load|ERR_' "$T/$1.console" | grep -q . &&
		fail "$1: console: $(grep -E 'CONSOLE|Failed to load|ERR_' "$T/$1.console" | head -n 2)"
	# not blank: the screenshot's pixels vary (a white page's variance is 0)
	$PY - "$T/$1.png" <<'PY' || fail "$1: the screenshot is blank"
import sys
from PIL import Image, ImageStat
im = Image.open(sys.argv[1]).convert('L')
var = ImageStat.Stat(im).var[0]
dark = sum(im.histogram()[:128]) / (im.width * im.height)
print(f"screenshot {im.width}x{im.height}: variance {var:.0f}, dark share {dark:.3f}")
sys.exit(0 if var > 200 and dark > 0.005 else 1)
PY
}
headline_values() {  # PAGE RESULT...: each headline figure's value as the page prints it
	local page=$1
	shift
	"$A" compare -J "$@" > "$T/cmp.json" || { fail "compare -J: exit $?"; return; }
	$PY - "$T/cmp.json" "$T/$page.dom" "$#" <<'PY' || fail "$page: headline values missing from the DOM"
import json, math, sys
rows = json.load(open(sys.argv[1]))["rows"]
dom = open(sys.argv[2]).read()
several = int(sys.argv[3]) > 1
def cell(v):  # a figure's value as docs/results.md says it is printed
    a = abs(v)
    if a >= 1000 or a == int(a):
        return "{:,.0f}".format(v)
    d = 0 if a >= 100 else 1 if a >= 10 else 2 if a >= 1 else 2 - math.floor(math.log10(a))
    return "%.*f" % (min(d, 12), v)
missing, n = [], 0
for r in rows:
    for v in r["values"]:
        if v is None:
            continue
        n += 1
        want = (">%s" % cell(v)) if several else ("<td>%s</td><td>%s</td>" % (r["figure"], cell(v)))
        if want not in dom:
            missing.append("%s=%s" % (r["figure"], want))
print(f"{n} headline values checked")
if missing or not n:
    print("missing:", missing[:5])
    sys.exit(1)
PY
}
# every chart drawn to be read: something plotted, a bar chart's axis at most twice its
# tallest bar, no two labels on top of each other nor past the chart's edge (text boxes
# estimated at 0.6 em a character, or their textLength)
svg_check() {  # PAGE
	$PY - "$T/$1.html" > "$T/svg.$1" <<'PY' || fail "$1: $(tail -n 1 "$T/svg.$1")"
import re, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
PALETTE = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000", "#f0e442"}
page = open(sys.argv[1]).read()
bad, n = [], 0
for m in re.finditer(r"<svg .*?</svg>", page, re.S):
    svg = ET.fromstring(m.group(0))
    n += 1
    title = svg.find(NS + "title").text
    vw, vh = (float(v) for v in svg.get("viewBox").split()[2:])
    drawn = [e for e in svg.iter() if e.tag in (NS + "polyline", NS + "rect") and
             (e.get("stroke") in PALETTE or e.get("fill") in PALETTE)]
    if not drawn:
        bad.append(f"'{title}': nothing drawn")
        continue
    if vw == 640 and svg.find(NS + "polyline") is None:   # svg_bars: W 640, plot T 34 to H-B 254
        tall = max(float(e.get("height")) for e in drawn if e.tag == NS + "rect" and float(e.get("x")) < 490)
        if tall < 0.49 * (300 - 34 - 46):
            bad.append(f"'{title}': the tallest bar is {tall:.0f} px of {300 - 34 - 46} (axis more than twice the data)")
    boxes = []
    for t in svg.iter(NS + "text"):
        if t.get("transform") or not t.text:
            continue
        fs, x, y = float(t.get("font-size")), float(t.get("x")), float(t.get("y"))
        w = 0.6 * fs * len(t.text)
        if t.get("textLength"):   # squeezed to fit
            w = min(w, float(t.get("textLength")))
        x0 = {"end": x - w, "middle": x - w / 2}.get(t.get("text-anchor"), x)
        boxes.append((x0, y - 0.8 * fs, x0 + w, y + 0.2 * fs, t.text))
    for b in boxes:
        if b[0] < -1 or b[2] > vw + 1 or b[1] < -1 or b[3] > vh + 1:
            bad.append(f"'{title}': '{b[4]}' runs past the edge ({b[0]:.0f}-{b[2]:.0f} of {vw:.0f})")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1:
                bad.append(f"'{title}': '{a[4]}' and '{b[4]}' overlap")
print(f"{n} charts checked")
for b in bad[:10]:
    print(b)
if bad or not n:
    print(f"{len(bad)} chart defects, first: {bad[0] if bad else 'no chart'}")
    sys.exit(1)
PY
	cat "$T/svg.$1"
}
chrome std
svg_check std
expect_titles std "Disk latency: share of I/Os slower than x" "Disk I/Os completed within a latency" \
	"CPU: prime events per second by thread count" "CPU: events per thread (fairness)" \
	"Network throughput per interval"
grep -q 'Run status: <b class="good">ok</b>' "$T/std.dom" || fail "std: no run status"
headline_values std "$std"
chrome mem
svg_check mem
expect_titles mem "Memory latency by working-set size" "Memory bandwidth (STREAM)"
headline_values mem "$mem"
chrome three
svg_check three
# runs compared: the verdicts first, the machines, the table, a chart a category with a
# bar group for each headline figure some run measured above zero
for h in Verdicts Machines Figures Charts; do grep -q "<h2>$h</h2>" "$T/three.dom" || fail "three: no $h section"; done
[ "$(grep -o '<h2>[A-Z][a-z]*</h2>' "$T/three.dom" | head -n 1)" = "<h2>Verdicts</h2>" ] || fail "three: the verdicts are not first"
"$A" compare -J "A=$std" "B=$mem" "$cpu" |
	jq -r '.rows[] | select(any(.values[]; . != null and . > 0)) | "\(.figure)\t\(.unit)"' > "$T/three.figs"
[ -s "$T/three.figs" ] || fail "three: compare -J gave no figure"
while IFS=$'\t' read -r fig unit; do   # "figure (unit)", or on two lines when long
	grep -qF ">$fig ($unit)</text>" "$T/three.dom" ||
		{ grep -qF ">$fig</text>" "$T/three.dom" && grep -qF ">($unit)</text>" "$T/three.dom"; } ||
		fail "three: no bar group for headline figure $fig"
done < "$T/three.figs"
grep -q '<th>A</th>' "$T/three.dom" && grep -q '<th>B</th>' "$T/three.dom" || fail "three: the NAME= labels"
# the series as small multiples: a chart a disk job (std and mem have disk), a line a run
for t in "Latency tail: qd1 read" "Memory latency: mem.1t" "Throughput: net.tcp"; do
	grep -qF "$t" "$T/three.dom" || fail "three: no small multiple '$t'"
done
headline_values three "A=$std" "B=$mem" "$cpu"

# --- an engine's JSON+ (histogram bins): the tail curve from the bins ---
"$A" disk --filename="$dev" --rw=randread --direct=1 --runtime=1 --time_based --name=rr \
	--output-format=json+ > "$T/jplus.json" || fail "disk json+: exit $?"
"$A" report "$T/jplus.json" -o "$T/jplus.html" || fail "report of an engine's json+: exit $?"
pts=$(grep 'share of I/Os slower than x' "$T/jplus.html" | grep -o 'points="[^"]*"' | head -n 1 | wc -w)
[ "$pts" -gt 17 ] || fail "json+: the tail curve has $pts points (the bins give more than fio's 17 percentiles)"

# --- bad input: one line naming it ---
expect 2 'report: /nonexistent.json: No such file' "$A" report /nonexistent.json -o "$T/x.html"
echo '{"schema_version": 1}' > "$T/bad.json"
expect 2 "report: $T/bad.json: not an assay result" "$A" report "$T/bad.json" -o "$T/x.html"
expect 2 'report: give one or more results' "$A" report -o "$T/x.html"
expect 111 "report: -o /nonexistent/dir/r.html: No such file" "$A" report "$std" -o /nonexistent/dir/r.html
[ -e "$T/x.html" ] && fail "a refused report left $T/x.html"
finish
