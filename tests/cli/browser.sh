#!/bin/sh
# tests/cli/browser.sh — every shipped HTML document opened in headless Chromium: a screenshot
# is taken (a non-empty PNG), and the DOM Chromium built holds the KB's figures, the tables and
# SVG charts of the file, and no script.  Documents whose command does not run here are skipped.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1764460800

BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
    skip "browser" "chromium not installed (apt-get install chromium)"
    exit 0
fi
if [ ! -f "$ROOT/kb/gpuwise.db" ]; then
    skip "browser" "kb/gpuwise.db not built"
    exit 0
fi
KB=$(fresh_kb browser)

chrome() {   # chrome OUTFILE-OPTION URL: one headless run, never longer than a minute
    timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$T/chrome.XXXXXX")" --window-size=1200,2000 "$@" 2>/dev/null
}

count() { grep -o "$1" "$2" | wc -l | tr -d ' '; }

# name | text the page must show | gpuwise arguments (documents of other commands join here)
cat >"$T/documents" <<'EOF'
datasheet|936 GB/s|kb show "RTX 3090"
comparison|3,350 GB/s|kb compare 4090 a100-sxm4-80gb h100-sxm5
justification||report examples/vision-team.lua
inspection||inspect tests/fixtures/nvsmi/healthy-3090.xml
checklist||checklist used-card
EOF

while IFS='|' read -r name text args; do
    html="$T/$name.html"
    (cd "$ROOT" && eval "\"\$GW\" --kb \"\$KB\" $args --format html -o \"\$html\"") >"$T/.out" 2>"$T/.err"
    rc=$?
    if [ ! -s "$html" ] || { [ $rc -ne 0 ] && [ $rc -ne 2 ]; }; then
        skip "browser: $name" "gpuwise $args does not write HTML here yet (exit $rc: $(head -1 "$T/.err"))"
        continue
    fi
    # libxml2's HTML parser (HTML 4) calls <main>, <svg> ... unknown tags; nothing else may fail.
    if command -v xmllint >/dev/null 2>&1; then
        check_eq "browser: $name HTML well-formed (xmllint --html)" \
            "$(xmllint --html --noout "$html" 2>&1 | grep 'error' | grep -v 'Tag [a-z]* invalid')" ""
    fi
    chrome --screenshot="$T/$name.png" "file://$html" >/dev/null
    if [ -s "$T/$name.png" ] && [ "$(head -c 8 "$T/$name.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
        [ "$(wc -c <"$T/$name.png")" -gt 10000 ]; then
        pass "browser: $name screenshot is a PNG"
    else
        fail "browser: $name screenshot is a PNG" "$(ls -l "$T/$name.png" 2>&1)"
    fi
    [ -n "${GPUWISE_KEEP_SCREENSHOTS:-}" ] && cp "$T/$name.png" "$GPUWISE_KEEP_SCREENSHOTS/"
    chrome --dump-dom "file://$html" >"$T/$name.dom"
    if [ ! -s "$T/$name.dom" ]; then
        fail "browser: $name DOM" "chromium printed no DOM"
        continue
    fi
    check_eq "browser: $name has no script" "$(grep -ci '<script' "$T/$name.dom")" 0
    check_eq "browser: $name tables" "$(count '<table' "$T/$name.dom")" "$(count '<table' "$html")"
    check_eq "browser: $name table rows" "$(count '<tr' "$T/$name.dom")" "$(count '<tr' "$html")"
    check_eq "browser: $name SVG charts" "$(count '<svg' "$T/$name.dom")" "$(count '<svg' "$html")"
    if [ -n "$text" ]; then
        grep -q "$text" "$T/$name.dom" && pass "browser: $name shows $text" ||
            fail "browser: $name shows $text"
    fi
done <"$T/documents"

# The comparison's table has one row per compared figure, as the KB gives them.
if [ -s "$T/comparison.dom" ]; then
    run "$GW" --kb "$KB" kb compare 4090 a100-sxm4-80gb h100-sxm5 --json
    check_eq "browser: comparison rows match the KB" "$(count '<tr' "$T/comparison.dom")" "$(( $(jqr '.rows | length') + 1 ))"
    check_eq "browser: comparison charts" "$(count '<svg' "$T/comparison.dom")" 2
fi
