#!/bin/sh
# tests/cli/report.sh — `gpuwise report`: the purchase justification as Markdown and HTML.
. "$ROOT/tests/cli/lib.sh"
EX="$ROOT/examples"

run "$GW" report "$EX/vision-team.lua" -o "$T/j.md"
check_rc "report md: exit 0" 0
MD=$(cat "$T/j.md" 2>/dev/null)
case "$MD" in *"Recommendation: used 4x GeForce RTX 3090"*) pass "report md: recommendation" ;; *) fail "report md: recommendation" "missing" ;; esac
for section in "## Summary" "## The workload and its assumptions" "## Options considered" \
    "## Costs" "## Buying against renting" "## Sensitivity" "## Rules that fired" \
    "## Risks and checklists" "## Method"; do
    case "$MD" in *"$section"*) pass "report md: $section" ;; *) fail "report md: $section" "missing" ;; esac
done
case "$MD" in *"[^1]:"*) pass "report md: numbered citations" ;; *) fail "report md: numbered citations" "no [^1]:" ;; esac
case "$MD" in *"the budget is CNY 40,000"*) pass "report md: why the A100 fell out" ;; *) fail "report md: why the A100 fell out" "missing" ;; esac
if [ -s "$T/j-cumulative-cost.svg" ] && grep -q "break-even" "$T/j-cumulative-cost.svg"; then
    pass "report md: cumulative-cost chart with the break-even marker"
else
    fail "report md: cumulative-cost chart with the break-even marker" "no svg or no marker"
fi
[ -s "$T/j-cost-per-unit.svg" ] && pass "report md: cost-per-unit chart" || fail "report md: cost-per-unit chart" "missing"

# HTML by the output's name; charts inline.
run "$GW" report "$EX/vision-team.lua" -o "$T/j.html"
check_rc "report html: exit 0" 0
if grep -q "<svg" "$T/j.html" && grep -q "</html>" "$T/j.html"; then
    pass "report html: a page with inline charts"
else
    fail "report html: a page with inline charts" "no <svg> or no </html>"
fi
grep -q "<script" "$T/j.html" && fail "report html: no script" "has <script" || pass "report html: no script"

# To standard output: no files are left in the current folder; the charts are named, and the
# reader is told that -o FILE writes them.
mkdir -p "$T/cwd" && cd "$T/cwd" || exit 1
run "$GW" report "$EX/short-project.lua" --format md
check_rc "report short-project to stdout: exit 0" 0
check_out "report short-project: a rental is recommended" "**Recommendation: rent "
check_eq "report to stdout: no chart files in the current folder" "$(ls -A "$T/cwd")" ""
check_out "report to stdout: the chart is named, with how to get it" "*Chart: Cost per 1M images (written as an SVG file beside the document with -o FILE)*"
cd "$ROOT" || exit 1

run "$GW" report "$ROOT/tests/fixtures/decide/bad-hours.lua" -o "$T/bad.md"
check_rc "report bad workload: exit 65" 65
[ -e "$T/bad.md" ] && fail "report bad workload: no file" "file written" || pass "report bad workload: no file"
