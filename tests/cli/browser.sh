#!/bin/sh
# tests/cli/browser.sh — every shipped HTML document opened in headless Chromium: a screenshot
# is taken (a non-empty PNG), the DOM Chromium built keeps the tables and SVG charts of the file
# and holds no script, and its text says what the KB says: the figures, row counts and names
# expected here come from the commands' --json output (kb show, kb compare, decide, inspect,
# checklist), never from the HTML that was loaded, so an empty or broken page fails.  A document
# that gpuwise or Chromium cannot produce fails; only a machine without Chromium skips.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1764460800
cd "$ROOT" || exit 1

BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
    skip "browser" "chromium not installed (apt-get install chromium)"
    exit 0
fi
# make test installs both (.ci/deps.sh): without them nothing below can be checked.
for tool in xmllint jq python3; do
    if ! command -v $tool >/dev/null 2>&1; then
        fail "browser: $tool installed" "make test installs it"
        exit 0
    fi
done
if ! KB=$(fresh_kb browser); then
    fail "browser: a copy of the shipped KB" "no $SHIPPED_KB (run make)"
    exit 0
fi

count() { grep -o "$1" "$2" | wc -l | tr -d ' '; }

# xp FILE XPATH: the XPath's value in FILE (a number, a string, or one line per text node).
xp() { xmllint --html --xpath "$2" "$1" 2>/dev/null; }
# column FILE TABLE N: the first text of column N in each body row of TABLE (an XPath), one row
# a line, without trailing blanks.
column() { xp "$1" "$2/tbody/tr/td[$3]/descendant::text()[1]" | sed 's/[[:space:]]*$//'; }
# numbers: the first number of each line, without thousands separators ("CNY 5,999" is 5999).
numbers() { sed -e 's/,//g' -e 's/^[^0-9]*\([0-9][0-9.]*\).*/\1/'; }

# Chromium is started once, for every page (tests/cli/chromium.py): each start costs about two
# CPU-seconds, and the checks read only the files it writes.  First every document is written
# and listed in $T/jobs; then Chromium takes a screenshot of each ($T/NAME.png), dumps the DOM
# it built ($T/NAME.dom) and prints the justifications to PDF; then the checks below run.
: >"$T/jobs"
# write_doc NAME GPUWISE-ARGS...: writes $T/NAME.html (exit status in $T/NAME.rc) and lists it
# for Chromium.
write_doc() {
    name=$1
    shift
    printf '%s\n' "$*" >"$T/$name.args"
    "$GW" --kb "$KB" "$@" --format html -o "$T/$name.html" >"$T/$name.out" 2>"$T/$name.err"
    echo $? >"$T/$name.rc"
    [ -s "$T/$name.html" ] &&
        printf 'page\tfile://%s\t%s\t%s\t%s\n' "$T/$name.html" "$T/$name.png" "$T/$name.dom" \
            "$T/$name.chrome" >>"$T/jobs"
}
# open_doc NAME: checks what every document must be, from the files written for NAME.  Fails
# (status 1) when there is no DOM to check further.
open_doc() {
    name=$1
    html="$T/$name.html"
    rc=$(cat "$T/$name.rc")
    if [ ! -s "$html" ] || { [ $rc -ne 0 ] && [ $rc -ne 2 ]; }; then
        fail "browser: $name: gpuwise $(cat "$T/$name.args") writes HTML" "exit $rc: $(head -2 "$T/$name.err")"
        return 1
    fi
    # libxml2's HTML parser (HTML 4) calls <main>, <svg> ... unknown tags; nothing else may fail.
    check_eq "browser: $name HTML well-formed (xmllint --html)" \
        "$(xmllint --html --noout "$html" 2>&1 | grep 'error' | grep -v 'Tag [a-z]* invalid')" ""
    if [ "$(cat "$T/$name.chrome" 2>/dev/null)" = ok ]; then
        pass "browser: $name opens in Chromium"
    else
        fail "browser: $name opens in Chromium" \
            "$(cat "$T/$name.chrome" 2>/dev/null || grep -v 'dbus\|bus\.cc' "$T/chromium.err" | tail -2)"
    fi
    if [ -s "$T/$name.png" ] && [ "$(head -c 8 "$T/$name.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
        [ "$(wc -c <"$T/$name.png")" -gt 10000 ]; then
        pass "browser: $name screenshot is a PNG"
    else
        fail "browser: $name screenshot is a PNG" "$(ls -l "$T/$name.png" 2>&1)"
    fi
    [ -n "${GPUWISE_KEEP_SCREENSHOTS:-}" ] && cp "$T/$name.png" "$GPUWISE_KEEP_SCREENSHOTS/"
    if [ ! -s "$T/$name.dom" ]; then
        fail "browser: $name DOM" "chromium printed no DOM"
        return 1
    fi
    dom="$T/$name.dom"
    check_eq "browser: $name has no script" "$(grep -ci '<script' "$dom")" 0
    # Chromium kept the structure the file has (it moves misnested elements elsewhere).
    check_eq "browser: $name tables" "$(count '<table' "$dom")" "$(count '<table' "$html")"
    check_eq "browser: $name table rows" "$(count '<tr' "$dom")" "$(count '<tr' "$html")"
    check_eq "browser: $name SVG charts" "$(count '<svg' "$dom")" "$(count '<svg' "$html")"
}

# --all: the datasheet lists every measured result (by default it summarises them)
write_doc datasheet kb show "RTX 3090" --all
write_doc comparison kb compare 4090 a100-sxm4-80gb h100-sxm5
write_doc justification report examples/vision-team.lua
write_doc justification-full report examples/vision-team.lua --appendix full
write_doc inspection inspect tests/fixtures/nvsmi/healthy-3090.xml
write_doc checklist checklist used-card
printing=
if command -v pdftotext >/dev/null 2>&1 && command -v pdfinfo >/dev/null 2>&1; then
    printing=yes
    for ex in examples/*.lua; do
        ex=$(basename "$ex" .lua)
        "$GW" --kb "$KB" report "examples/$ex.lua" -o "$T/print-$ex.html" 2>/dev/null
        printf 'print\tfile://%s\t%s\t%s\n' "$T/print-$ex.html" "$T/print-$ex.pdf" \
            "$T/print-$ex.status" >>"$T/jobs"
    done
    # The same page laid out for the screen, as a PDF whose text says what a reader sees.
    printf 'screen\tfile://%s\t%s\t%s\n' "$T/print-vision-team.html" "$T/screen-vision-team.pdf" \
        "$T/screen-vision-team.status" >>"$T/jobs"
fi
timeout 300 python3 "$ROOT/tests/cli/chromium.py" "$BROWSER" "$T/jobs" 2>"$T/chromium.err"

# ---- the datasheet: kb show -------------------------------------------------------------
if open_doc datasheet; then
    grep -q "936 GB/s" "$dom" && pass "browser: datasheet shows 936 GB/s" ||
        fail "browser: datasheet shows 936 GB/s"
    run "$GW" --kb "$KB" kb show "RTX 3090" --all --json
    specs="//h2[@id='specifications']/following-sibling::table[1]"
    check_eq "browser: datasheet title names the card" \
        "$(xp "$dom" 'string(//h1)')" "$(jqr .name) datasheet"
    # 936 GB/s: the KB's memory_bandwidth_gbs and its unit.
    check_eq "browser: datasheet shows the KB's bandwidth" \
        "$(xp "$dom" "string($specs/tbody/tr[td[1]='Memory bandwidth']/td[2])")" \
        "$(jqr .memory_bandwidth_gbs) GB/s"
    check_eq "browser: datasheet specification rows are the KB's" \
        "$(column "$dom" "$specs" 1)" "$(jqr '.specs[].label')"
    measured="//h2[@id='measured-results']/following-sibling::table[1]"
    # 7 benchmarks and 3 prices in the shipped KB
    check_eq "browser: datasheet has one row per KB benchmark" \
        "$(xp "$dom" "count($measured/tbody/tr)")" "$(jqr '.benchmarks | length')"
    check_eq "browser: datasheet benchmark workloads are the KB's" \
        "$(column "$dom" "$measured" 1)" "$(jqr '.benchmarks[].workload')"
    check_eq "browser: datasheet benchmark results are the KB's values" \
        "$(column "$dom" "$measured" 5 | numbers)" "$(jqr '.benchmarks[].value')"
    prices="//h2[@id='prices']/following-sibling::table[1]"
    check_eq "browser: datasheet has one row per KB price" \
        "$(xp "$dom" "count($prices/tbody/tr)")" "$(jqr '.prices | length')"
    # amounts from 100 up are shown in whole units: the Amazon listing's USD 1,499.99 as 1,500
    check_eq "browser: datasheet prices are the KB's amounts (whole units from 100 up)" \
        "$(column "$dom" "$prices" 2 | numbers)" "$(jqr '.prices[].amount | if . >= 100 then round else . end')"
fi

# ---- the comparison: kb compare ---------------------------------------------------------
if open_doc comparison; then
    grep -q "3,350 GB/s" "$dom" && pass "browser: comparison shows 3,350 GB/s" ||
        fail "browser: comparison shows 3,350 GB/s"
    run "$GW" --kb "$KB" kb compare 4090 a100-sxm4-80gb h100-sxm5 --json
    # The comparison's table has one row per compared figure, as the KB gives them.
    check_eq "browser: comparison rows match the KB" "$(count '<tr' "$dom")" "$(( $(jqr '.rows | length') + 1 ))"
    check_eq "browser: comparison charts" "$(count '<svg' "$dom")" 2
    check_eq "browser: comparison has one column per GPU" \
        "$(xp "$dom" 'count(//table[1]/thead/tr/th) - 1')" "$(jqr '.gpus | length')"
    check_eq "browser: comparison columns are the KB's GPUs, in order" \
        "$(xp "$dom" '//table[1]/thead/tr/th[position() > 1]/descendant::text()[1]' | sed 's/[[:space:]]*$//')" \
        "$(jqr '.gpus[].name')"
    # 1,008, 2,039 and 3,350 GB/s
    check_eq "browser: comparison bandwidths are the KB's" \
        "$(xp "$dom" "//table[1]/tbody/tr[td[1]='Memory bandwidth']/td[position() > 1]/descendant::text()[1]" | numbers)" \
        "$(jqr '.rows[] | select(.field == "memory_bandwidth_gbs") | .values[]')"
fi

# ---- the justification: report, checked against decide --json --------------------------
if open_doc justification; then
    run "$GW" --kb "$KB" decide examples/vision-team.lua --json
    n_opt=$(jqr '.options | length')
    n_ok=$(jqr '[.options[] | select(.feasible)] | length')
    # 32 options, 11 feasible, for the shipped KB
    check_eq "browser: justification counts decide's options" \
        "$(xp "$dom" "string(//h2[@id='options-considered']/following-sibling::p[1])")" \
        "$n_opt options were considered; $n_ok are feasible."
    # The body groups them by reason with a count (the groups' counts add up to every option
    # that fell out, 61 - 40 = 21); the appendix lists each one.
    check_eq "browser: justification groups every option that fell out, with counts" \
        "$(xp "$dom" "//h2[@id='options-considered']/following-sibling::ul[1]/li/strong/text()" |
            sed -n 's/.*(\([0-9]*\)):$/\1/p' | awk '{ n += $1 } END { print n + 0 }')" \
        "$((n_opt - n_ok))"
    # The short appendix leaves them to the full one (below).
    check_eq "browser: justification's short appendix leaves out the options that fell out" \
        "$(xp "$dom" "count(//h3[@id='every-option-that-fell-out'])")" 0
    costs="//h2[@id='costs']/following-sibling::table[1]"
    # The body's table: the 8 best-ranked feasible options (21 are feasible; the rest are in
    # the appendix).
    check_eq "browser: justification costs the best feasible options, ranked as decide ranks them" \
        "$(column "$dom" "$costs" 2)" \
        "$(jqr '[.options[] | select(.feasible)] | sort_by(.rank) | .[:8] | .[].label')"
    check_eq "browser: justification recommends what decide recommends" \
        "$(xp "$dom" "string(//h2[@id='summary']/following-sibling::p[1])")" \
        "Recommendation: $(jqr .recommendation.label)."
    check_eq "browser: justification draws decide's charts" \
        "$(xp "$dom" 'count(//svg)')" "$(jqr '.charts | length')"
    # Each part of the appendix is folded: a closed <details> whose summary is the part's
    # heading (checklists, the five best-ranked options, the recommendation's verdicts, the
    # method); nothing before the appendix is.
    check_eq "browser: justification's appendix parts are folded, headed by their names" \
        "$(xp "$dom" "//h2[@id='appendix']/following-sibling::details[not(@open)]/summary/h3/text()")" \
        "$(printf '%s\n' Checklists "The five best-ranked options" "The recommendation's evidence and verdicts" Method)"
    check_eq "browser: justification's body has nothing folded" \
        "$(xp "$dom" "count(//h2[@id='appendix']/preceding::details)")" 0
fi
if open_doc justification-full; then
    run "$GW" --kb "$KB" decide examples/vision-team.lua --json
    # --appendix full: every option that fell out, one by one, in its folded part (88 - 54 = 34
    # for the shipped KB), and every feasible option's row.
    check_eq "browser: the full appendix lists every option that fell out" \
        "$(xp "$dom" "count(//details[summary/h3[@id='every-option-that-fell-out']]/ul[1]/li)")" \
        "$(jqr '[.options[] | select(.feasible | not)] | length')"
    check_eq "browser: the full appendix has every feasible option's figures" \
        "$(xp "$dom" "count(//details[summary/h3[@id='every-feasible-option-s-figures']]/table/tbody/tr)")" \
        "$(jqr '[.options[] | select(.feasible)] | length')"
fi

# ---- the justification printed: the part before the appendix fits in 5 A4 pages ------------
# An approver reads the body; the appendix starts a page of its own (page.html.mustache's print
# CSS), so the page its heading is on, less one, is the body's length.  Before the body was
# grouped, vision-team printed 10 pages with no appendix.  Every example is printed.
if [ -z "$printing" ]; then
    skip "browser: printed justification" "pdftotext not installed (apt-get install poppler-utils)"
else
    for ex in examples/*.lua; do
        ex=$(basename "$ex" .lua)
        pages=$(pdfinfo "$T/print-$ex.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
        appendix=0
        p=1
        while [ -n "$pages" ] && [ "$p" -le "$pages" ]; do
            if pdftotext -f "$p" -l "$p" "$T/print-$ex.pdf" - 2>/dev/null | grep -qx 'Appendix'; then
                appendix=$p
                break
            fi
            p=$((p + 1))
        done
        if [ "$appendix" -eq 0 ]; then
            fail "browser: $ex printed: the appendix" \
                "no page starts it (${pages:-no} pages printed; Chromium: $(cat "$T/print-$ex.status" 2>/dev/null || echo "no answer"))"
        elif [ $((appendix - 1)) -le 5 ]; then
            pass "browser: $ex printed: the body fits 5 A4 pages ($((appendix - 1)) of $pages)"
        else
            fail "browser: $ex printed: the body fits 5 A4 pages" "$((appendix - 1)) pages before the appendix"
        fi
    done
    # Folded on screen, unfolded in print: the sentence that opens the five best-ranked
    # options' evidence is inside a folded part, so the screen's layout lacks it and the
    # printed one has it (the print CSS shows every <details>'s content).
    line="Their evidence: where each speed and price comes from"
    # (the screen's text has the appendix's heading, which is not folded, and not the line)
    check_eq "browser: vision-team on screen: the appendix's parts are folded" \
        "$(pdftotext "$T/screen-vision-team.pdf" - 2>/dev/null | grep -c -x 'Appendix') $(pdftotext "$T/screen-vision-team.pdf" - 2>/dev/null | grep -c "$line")" \
        "1 0"
    check_eq "browser: vision-team printed: the appendix's parts are unfolded" \
        "$(pdftotext "$T/print-vision-team.pdf" - 2>/dev/null | grep -c "$line")" 1
fi

# ---- the inspection: inspect ------------------------------------------------------------
if open_doc inspection; then
    run "$GW" --kb "$KB" inspect tests/fixtures/nvsmi/healthy-3090.xml --json
    check_eq "browser: inspection has one section per GPU" \
        "$(xp "$dom" "count(//h2[starts-with(@id, 'gpu-')])")" "$(jqr .gpu_count)"
    checks="//h2[starts-with(@id, 'gpu-')][1]/following-sibling::table[1]"
    # 16 checks on a healthy 3090
    check_eq "browser: inspection lists inspect's checks" \
        "$(column "$dom" "$checks" 2)" "$(jqr '.gpus[0].checks[].id')"
    check_eq "browser: inspection statuses are inspect's" \
        "$(column "$dom" "$checks" 1)" "$(jqr '.gpus[0].checks[].status')"
    sum=$(jqr '.gpus[0].summary | "Failed: \(.fail), warnings: \(.warn), unknown: \(.unknown), passed: \(.pass)"')
    case "$(xp "$dom" "string(//h2[starts-with(@id, 'gpu-')][1]/following-sibling::p[1])")" in
        *"$sum"*) pass "browser: inspection summary counts are inspect's" ;;
        *) fail "browser: inspection summary counts are inspect's" "no '$sum'" ;;
    esac
fi

# ---- the checklist: checklist -----------------------------------------------------------
if open_doc checklist; then
    run "$GW" --kb "$KB" checklist used-card --json
    # 23 items in used-card
    check_eq "browser: checklist has one heading per item, the item's question" \
        "$(xp "$dom" '//main//h3/text()')" "$(jqr '.items[] | "\(.n). \(.question)"')"
    check_eq "browser: checklist items show their severity and section" \
        "$(xp "$dom" '//main//h3/following-sibling::p[1]/em/text()')" \
        "$(jqr '.items[] | "\(.severity) · \(.section)"')"
fi
