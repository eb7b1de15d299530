#!/bin/sh
# tests/cli/render.sh — `gpuwise render`, and documents (`kb show`, `kb compare`) written as
# Markdown and HTML: charts beside Markdown, well-formed HTML, user template overrides, errors
# that name file, line and column, atomic output.
. "$ROOT/tests/cli/lib.sh"
FIXR="$FIX/render"
export SOURCE_DATE_EPOCH=1764460800   # 2025-11-30: the "generated" date of documents

# ---- gpuwise render -------------------------------------------------------------------------
printf '{"name":"RTX <3090>","gpus":[{"n":"a"},{"n":"b"}]}' >"$T/d.json"
printf 'Hello {{name}}: {{#gpus}}{{n}} {{/gpus}}{{>tail}}\n' >"$T/t.txt.mustache"
printf '(end)' >"$T/tail.txt.mustache"
run "$GW" render "$T/t.txt.mustache" "$T/d.json"
check_rc "render: plain template" 0
check_eq "render: values and partial beside the template" "$OUT" "Hello RTX <3090>: a b (end)"

cp "$T/t.txt.mustache" "$T/t.html.mustache"
cp "$T/tail.txt.mustache" "$T/tail.html.mustache"
run "$GW" render "$T/t.html.mustache" "$T/d.json"
check_out "render: *.html.mustache escapes HTML" "Hello RTX &lt;3090&gt;: a b (end)"

printf '{{name}} | {{#gpus}}*{{n}}* {{/gpus}}\n' >"$T/t.md.mustache"
run "$GW" render "$T/t.md.mustache" "$T/d.json"
check_eq "render: *.md.mustache escapes Markdown" "$OUT" "RTX &lt;3090&gt; | *a* *b* "

mkdir -p "$T/parts"
printf '[other end]' >"$T/parts/tail.txt.mustache"
run "$GW" render "$T/t.txt.mustache" "$T/d.json" --partials "$T/parts"
check_out "render: --partials DIR comes first" "a b [other end]"

run sh -c "cat '$T/d.json' | '$GW' render '$T/t.txt.mustache' -"
check_out "render: data from standard input" "Hello RTX <3090>"

# An HTML document folds each part of its appendix (every ### under "## Appendix") into a
# closed <details> headed by the part's heading; what comes before the appendix, and a
# document without one, is not folded.
printf '# T\n\n## Body\n\n### Kept open\n\ntext\n\n## Appendix\n\nintro\n\n### Part one\n\none\n\n### Part two\n\n- two\n' >"$T/fold.md.mustache"
run "$GW" render "$T/fold.md.mustache" "$T/d.json" --format html
check_out "render html: the appendix's parts folded, each headed by its heading" \
    '<h2 id="appendix">Appendix</h2>
<p>intro</p>
<details><summary><h3 id="part-one">Part one</h3></summary>
<p>one</p>
</details>
<details><summary><h3 id="part-two">Part two</h3></summary>
<ul>
<li>two</li>
</ul>
</details>'
check_out "render html: the body's parts stay open" '<h3 id="kept-open">Kept open</h3>'
check_eq "render html: two folded parts" "$(printf '%s' "$OUT" | grep -c '<details><summary>')" 2
printf '# T\n\n## Body\n\n### Part\n\ntext\n' >"$T/nofold.md.mustache"
run "$GW" render "$T/nofold.md.mustache" "$T/d.json" --format html
check_out_not "render html: nothing folded without an appendix" '<details><summary>'

printf 'line one\n  {{#gpus}}\n{{n}}\n' >"$T/bad.txt.mustache"
run "$GW" render "$T/bad.txt.mustache" "$T/d.json"
check_rc "render: unclosed section exits 65" 65
check_err "render: error names template, line, column" "bad.txt.mustache:2:3: unclosed section 'gpus'"

printf 'x\n{{#a}}{{/b}}\n' >"$T/bad2.txt.mustache"
run "$GW" render "$T/bad2.txt.mustache" "$T/d.json"
check_err "render: mismatched close tag" "bad2.txt.mustache:2:7: closing tag 'b' does not match 'a' opened at 2:1"

printf 'x {{>missing}}\n' >"$T/bad3.txt.mustache"
run "$GW" render "$T/bad3.txt.mustache" "$T/d.json"
check_rc "render: unknown partial exits 65" 65
check_err "render: unknown partial named" "bad3.txt.mustache:1:3: unknown partial 'missing'"

printf 'x {{name\n' >"$T/bad4.txt.mustache"
run "$GW" render "$T/bad4.txt.mustache" "$T/d.json"
check_err "render: unclosed tag" "bad4.txt.mustache:1:3: unclosed tag"

printf '{"name": }' >"$T/bad.json"
run "$GW" render "$T/t.txt.mustache" "$T/bad.json"
check_rc "render: malformed JSON exits 65" 65
check_err "render: malformed JSON names the file" "bad.json"

run "$GW" render "$T/nothere.mustache" "$T/d.json"
check_rc "render: missing template exits 66" 66
run "$GW" render "$T/t.txt.mustache"
check_rc "render: missing data argument is a usage error" 64

# A Markdown template into a full HTML page, charts inline.
run "$GW" render "$ROOT/templates/comparison.md.mustache" "$FIXR/comparison.json" --format html -o "$T/cmp.html"
check_rc "render: Markdown template --format html" 0
check_eq "render: page has three inline charts" "$(grep -c '<svg ' "$T/cmp.html")" 3
check_eq "render: page has no script" "$(grep -ci '<script' "$T/cmp.html")" 0

# The command line: help, options, formats.
run "$GW" render --help
check_rc "render --help: exit 0" 0
check_out "render --help: the synopsis" "usage: gpuwise render [OPTIONS] TEMPLATE DATA.json"
check_out "render --help: --partials" "--partials DIR"
run "$GW" render "$T/t.txt.mustache" "$T/d.json" --partial "$T/parts"
check_rc "render --partial: exit 64" 64
check_err "render --partial: did you mean" "(did you mean --partials?)"
run "$GW" render "$T/t.txt.mustache" "$T/d.json" --partials="$T/parts"
check_out "render --partials=DIR" "a b [other end]"
run "$GW" render "$T/t.txt.mustache" "$T/d.json" --json
check_rc "render --json: exit 64 (the data is already JSON)" 64
check_err "render --json: names what it writes" "render cannot write json (it writes text, md or html)"
run "$GW" render "$T/t.txt.mustache" "$T/d.json" -o "$T/r.csv"
check_rc "render -o r.csv: exit 64" 64
run "$GW" render "$T/t.txt.mustache" "$T/d.json" "$T/d.json"
check_rc "render: three operands is a usage error" 64
check_err "render: one prefix, no usage text" "gpuwise render: too many operands"
check_eq "render errors: no usage text in the message" "$(printf '%s' "$ERR" | grep -c 'Renders a Mustache')" 0
# -o's extension: md takes a Markdown template's document path (same text here: no charts);
# a template that is not Markdown writes its own output whatever the format.
run "$GW" render "$T/t.md.mustache" "$T/d.json" -o "$T/t-out.md"
check_rc "render -o x.md: exit 0" 0
check_eq "render -o x.md: the Markdown document" "$(cat "$T/t-out.md")" "RTX &lt;3090&gt; | *a* *b* "
run "$GW" render "$T/t.html.mustache" "$T/d.json" -o "$T/t-out.html"
check_rc "render *.html.mustache -o x.html: exit 0" 0
check_eq "render *.html.mustache -o x.html: the template's own output" "$(cat "$T/t-out.html")" "Hello RTX &lt;3090&gt;: a b (end)"
run "$GW" render "$T/t.md.mustache" "$T/d.json" -o "$T/t-page.html"
check_rc "render *.md.mustache -o x.html: exit 0" 0
grep -q '<em>a</em>' "$T/t-page.html" && grep -q '</html>' "$T/t-page.html" &&
    pass "render *.md.mustache -o x.html: a page from the Markdown" || fail "render *.md.mustache -o x.html: a page from the Markdown" "$(head -c 300 "$T/t-page.html")"

# ---- documents from the KB -----------------------------------------------------------------
if [ ! -f "$ROOT/kb/gpuwise.db" ]; then
    skip "documents" "kb/gpuwise.db not built"
    exit 0
fi
KB=$(fresh_kb render)

run "$GW" --kb "$KB" kb show "RTX 3090" --format md -o "$T/ds.md"
check_rc "kb show --format md -o" 0
check_eq "kb show md: nothing on stdout" "$OUT" ""
grep -q '^| Memory bandwidth | 936 GB/s |$' "$T/ds.md" && pass "kb show md: bandwidth row from the KB" ||
    fail "kb show md: bandwidth row from the KB" "$(grep -i bandwidth "$T/ds.md")"
grep -q '^\[\^1\]: ' "$T/ds.md" && pass "kb show md: numbered sources" || fail "kb show md: numbered sources"

run "$GW" --kb "$KB" kb show "RTX 3090" --format html -o "$T/ds.html"
check_rc "kb show --format html -o" 0
# libxml2's HTML parser is HTML 4: it calls <main>, <svg> ... unknown tags; anything else is an error.
if command -v xmllint >/dev/null 2>&1; then
    errs=$(xmllint --html --noout "$T/ds.html" 2>&1 | grep 'error' | grep -v 'Tag [a-z]* invalid')
    check_eq "kb show html: well-formed (xmllint --html)" "$errs" ""
else
    skip "kb show html: well-formed" "xmllint not installed"
fi
grep -q '<td>936 GB/s</td>' "$T/ds.html" && pass "kb show html: bandwidth cell" || fail "kb show html: bandwidth cell"
check_eq "kb show html: no script" "$(grep -ci '<script' "$T/ds.html")" 0

run "$GW" --kb "$KB" kb compare 4090 a100-sxm4-80gb h100-sxm5 --json
nrows=$(jqr '.rows | length')
# The charts' words are their rows' label and unit, from the KB's one description of the GPU
# columns; the renderer writes none of its own.
bw_axis=$(jqr '.rows[] | select(.field == "memory_bandwidth_gbs") | "\(.label) (\(.unit))"')
bf16_label=$(jqr '.rows[] | select(.field == "bf16_tflops") | .label')
bf16_unit=$(jqr '.rows[] | select(.field == "bf16_tflops") | .unit')
run "$GW" --kb "$KB" kb compare 4090 a100-sxm4-80gb h100-sxm5 --format md -o "$T/cmp.md"
check_rc "kb compare --format md -o" 0
# header + rule + one line per row
check_eq "kb compare md: one table line per row" "$(grep -c '^|' "$T/cmp.md")" "$((nrows + 2))"
[ -s "$T/cmp-memory-bandwidth.svg" ] && pass "kb compare md: bandwidth chart written beside" ||
    fail "kb compare md: bandwidth chart written beside" "$(ls "$T")"
grep -q '](cmp-memory-bandwidth.svg)' "$T/cmp.md" && pass "kb compare md: chart referenced as image" ||
    fail "kb compare md: chart referenced as image"
grep -q '>3,350 GB/s</text>' "$T/cmp-memory-bandwidth.svg" && pass "kb compare svg: H100 bandwidth label" ||
    fail "kb compare svg: H100 bandwidth label"
# Dense and sparse throughput never share a chart: the BF16 chart carries the dense figure only.
grep -q '>989.5 TFLOPS dense</text>' "$T/cmp-bf16-dense.svg" && ! grep -q '1,979' "$T/cmp-bf16-dense.svg" &&
    pass "kb compare svg: BF16 chart is dense only" || fail "kb compare svg: BF16 chart is dense only"
check_eq "kb compare svg: bandwidth axis is the row's label and unit" \
    "$(grep -c ">$bw_axis</text>" "$T/cmp-memory-bandwidth.svg")" 1
check_eq "kb compare svg: BF16 chart titled with the row's label" \
    "$(grep -c "<title id=\"bf16-dense-title\">$bf16_label</title>" "$T/cmp-bf16-dense.svg")" 1
check_eq "kb compare svg: BF16 axis is the row's label and unit" \
    "$(grep -c ">$bf16_label ($bf16_unit)</text>" "$T/cmp-bf16-dense.svg")" 1

run "$GW" --kb "$KB" kb compare 4090 a100-sxm4-80gb h100-sxm5 --format html -o "$T/cmp.html"
check_rc "kb compare --format html" 0
check_eq "kb compare html: table rows" "$(grep -c '<tr>' "$T/cmp.html")" "$((nrows + 1))"
check_eq "kb compare html: two charts" "$(grep -c '<svg ' "$T/cmp.html")" 2
if command -v xmllint >/dev/null 2>&1; then
    errs=$(xmllint --html --noout "$T/cmp.html" 2>&1 | grep 'error' | grep -v 'Tag [a-z]* invalid')
    check_eq "kb compare html: well-formed (xmllint --html)" "$errs" ""
fi

# ---- user overrides ------------------------------------------------------------------------
mkdir -p "$XDG_CONFIG_HOME/gpuwise/templates"
printf '{{<datasheet}}{{$intro}}Reviewed for {{name}}.\n\n{{/intro}}{{/datasheet}}\n' \
    >"$XDG_CONFIG_HOME/gpuwise/templates/datasheet.md.mustache"
run "$GW" --kb "$KB" kb show "RTX 3090" --format md
check_out "override: user template in XDG_CONFIG_HOME inherits the shipped one" "Reviewed for GeForce RTX 3090."
check_out "override: the rest of the shipped datasheet stays" "| Memory bandwidth | 936 GB/s |"
rm "$XDG_CONFIG_HOME/gpuwise/templates/datasheet.md.mustache"

printf 'Only {{name}}.\n' >"$T/own.md.mustache"
run "$GW" --kb "$KB" kb show "RTX 3090" --format md --template "$T/own.md.mustache"
check_eq "override: --template FILE" "$OUT" "Only GeForce RTX 3090."
run "$GW" --kb "$KB" kb show "RTX 3090" --format md --template "$T/none.md.mustache"
check_rc "override: missing --template exits 66" 66

printf '<html><body>{{{body}}}<p>custom page</p></body></html>\n' \
    >"$XDG_CONFIG_HOME/gpuwise/templates/page.html.mustache"
run "$GW" --kb "$KB" kb show "RTX 3090" --format html
check_out "override: user page.html.mustache" "<p>custom page</p>"
rm "$XDG_CONFIG_HOME/gpuwise/templates/page.html.mustache"

# ---- hostile text in the KB ------------------------------------------------------------------
# Sources and GPUs whose text is markup, links with script URLs in several spellings, table
# pipes, heading markers and Mustache tags: no output may hold executable markup or a broken table.
HKB=$(fresh_kb hostile)
run "$GW" --kb "$HKB" kb import "$FIXR/hostile-sources.csv" "$FIXR/hostile-gpus.csv"
check_rc "hostile: fixture CSVs import" 0

# Table lines per table must all have the same number of cells (pipes not escaped).
table_shape() {   # FILE -> "lines tables bad"
    awk '
        /^\|/ { line = $0; gsub(/\\./, "", line); n = gsub(/\|/, "", line)
                if (!intable) { tables++; want = n } else if (n != want) bad++
                intable = 1; lines++; next }
        { intable = 0 }
        END { print lines + 0, tables + 0, bad + 0 }' "$1"
}
# href/src values, lower-cased, entities and blanks removed, must not name a script scheme.
bad_urls() {
    grep -Eio '(href|src|action)="[^"]*"' "$1" | sed 's/&amp;/\&/g; s/&#[0-9]*;//g; s/&#x[0-9a-f]*;//gi' |
        tr 'A-Z' 'a-z' | tr -d ' \t' | grep -E 'javascript:|vbscript:|data:text|data:application' || true
}
i=0
for args in "kb show evil-gpu" "kb show evil-gpu-2" "kb compare evil-gpu evil-gpu-2 rtx-3090"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    run "$GW" --kb "$HKB" $args --json
    if [ "${args#kb show}" != "$args" ]; then want_rows=$(jqr '.specs | length'); else want_rows=$(jqr '.rows | length'); fi
    # shellcheck disable=SC2086
    run "$GW" --kb "$HKB" $args --format md -o "$T/h$i.md"
    check_rc "hostile md: $args" 0
    set -- $(table_shape "$T/h$i.md")
    check_eq "hostile md: $args: every table row keeps its cells" "$3" 0
    first=$(awk '/^\|/ { n++ } !/^\|/ && n { exit } END { print n }' "$T/h$i.md")
    check_eq "hostile md: $args: first table has one line per row" "$first" "$((want_rows + 2))"
    md_lines=$1 md_tables=$2
    check_eq "hostile md: $args: no raw HTML" "$(grep -v '<https*://' "$T/h$i.md" | grep -c '<[a-zA-Z!/]')" 0
    check_eq "hostile md: $args: no heading but the template's" \
        "$(sed 1d "$T/h$i.md" | grep '^#' | grep -Evc '^## (Specifications|Measured results|Prices|Claims to read with care|Side by side)$')" 0
    # shellcheck disable=SC2086
    run "$GW" --kb "$HKB" $args --format html -o "$T/h$i.html"
    check_rc "hostile html: $args" 0
    check_eq "hostile html: $args: no script" "$(grep -ci '<script' "$T/h$i.html")" 0
    check_eq "hostile html: $args: no event attributes" \
        "$(grep -Eic '<[a-z][^>]*[[:space:]]on[a-z]+[[:space:]]*=' "$T/h$i.html")" 0
    check_eq "hostile html: $args: no script URLs" "$(bad_urls "$T/h$i.html")" ""
    check_eq "hostile html: $args: table rows as in Markdown" "$(grep -c '<tr>' "$T/h$i.html")" "$((md_lines - md_tables))"
done

# ---- atomic output -------------------------------------------------------------------------
run "$GW" --kb "$KB" kb show "RTX 3090" --format html -o "$T/no-such-folder/x.html"
check_rc "output: a folder that does not exist exits 73" 73
check_err "output: the error names the file" "no-such-folder/x.html"
echo "old" >"$T/keep.md"
printf '{{#x}}\n' >"$T/broken.md.mustache"
run "$GW" --kb "$KB" kb show "RTX 3090" --format md --template "$T/broken.md.mustache" -o "$T/keep.md"
check_rc "output: a failed render exits 65" 65
check_eq "output: the old file is untouched" "$(cat "$T/keep.md")" "old"

# ---- speed: a document from the shipped KB in well under a second ---------------------------
start=$(date +%s%N)
"$GW" --kb "$KB" kb compare 4090 a100-sxm4-80gb h100-sxm5 --format html -o "$T/speed.html"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "# kb compare --format html took ${ms} ms"
