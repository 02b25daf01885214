#!/bin/sh
# usage: coverage-report.sh COV_BUILD   (make coverage, after the suite ran on COV_BUILD)
# Reads the gcov counts the suite left in COV_BUILD/obj, writes the HTML report
# (COV_BUILD/html/index.html, a page a source file) and COV_BUILD/summary.json, and prints line
# and branch coverage per directory of src/ and overall, marking the goals of docs/testing.md
# missed (90 % of lines and 80 % of branches in each of GOAL_DIRS, 85 % of lines overall); with
# COVERAGE_STRICT=1 a missed goal fails it.
set -eu
build=${1:-build/cov}
GOAL_DIRS="src/core src/result src/engine src/model src/compat src/store src/util"
if ! command -v gcovr >/dev/null 2>&1; then
	echo "coverage-report: gcovr not found ('make coverage' installs it)" >&2
	exit 1
fi
if [ -z "$(find "$build/obj" -name '*.gcda' 2>/dev/null | head -1)" ]; then
	echo "coverage-report: no counts in $build/obj: run 'make coverage' first" >&2
	exit 1
fi
mkdir -p "$build/html"
rm -f "$build"/html/*.html
# Branches the compiler made that no source line can take (such as a function's unwinding)
# are not counted: --exclude-unreachable-branches.
gcovr -r . --object-directory "$build/obj" --filter 'src/' -j 2 \
	--exclude-unreachable-branches \
	--html-details "$build/html/index.html" --html-title "iorate coverage" \
	--json-summary "$build/summary.json" --json-summary-pretty >/dev/null
python3 - "$build/summary.json" "$GOAL_DIRS" <<'EOF'
import json, os, sys
files = json.load(open(sys.argv[1]))["files"]
goal_dirs = sys.argv[2].split()
dirs = {}
for f in files:
    d = os.path.dirname(f["filename"]) or "."
    t = dirs.setdefault(d, [0, 0, 0, 0])
    t[0] += f["line_covered"]; t[1] += f["line_total"]
    t[2] += f["branch_covered"]; t[3] += f["branch_total"]
pct = lambda a, b: 100.0 * a / b if b else 100.0
total = [sum(t[i] for t in dirs.values()) for i in range(4)]
print("%-14s %18s %18s" % ("directory", "lines", "branches"))
missed = []
for d in sorted(dirs) + ["overall"]:
    t = total if d == "overall" else dirs[d]
    lp, bp = pct(t[0], t[1]), pct(t[2], t[3])
    mark = ""
    if d in goal_dirs and (lp < 90 or bp < 80):
        mark = "  below 90 % / 80 %"
        missed.append(d)
    if d == "overall" and lp < 85:
        mark = "  below 85 % of lines"
        missed.append(d)
    print("%-14s %6.1f %% %5d/%-5d %6.1f %% %5d/%-5d%s" % (d, lp, t[0], t[1], bp, t[2], t[3], mark))
print("HTML report: %s" % os.path.join(os.path.dirname(sys.argv[1]), "html", "index.html"))
if missed:
    print("coverage: goal missed in: %s" % " ".join(missed))
    sys.exit(1 if os.environ.get("COVERAGE_STRICT") == "1" else 0)
EOF
