#!/bin/sh
# Hostile text coming from plugins — a rule's reasons, a pricing plugin's provider and instance
# names — through the justification report (Markdown and HTML) and the offers listing: no
# executable markup, no broken table, no heading but the template's.
. "$ROOT/tests/cli/lib.sh"

HOSTILE="$ROOT/tests/fixtures/render/hostile.txt"
P="$T/plugins"
mkdir -p "$P/rules" "$P/pricing"

# Each hostile line becomes a Lua long string; ]==] does not occur in the corpus.
if grep -q ']==]' "$HOSTILE"; then fail "corpus fits in Lua long strings" "]==] found"; fi
{
    echo "local hostile = {"
    while IFS= read -r line; do printf '  [==[%s]==],\n' "$line"; done <"$HOSTILE"
    echo "}"
    cat <<'LUA'
return {
  name = "hostile-reasons", kind = "rule", version = "1.0", description = "says hostile things",
  evaluate = function(option, workload)
    local out = {}
    for i, text in ipairs(hostile) do
      out[#out + 1] = { effect = "warn", weight = 0, because = text }
    end
    return out
  end,
}
LUA
} >"$P/rules/hostile-reasons.lua"
{
    echo "local hostile = {"
    while IFS= read -r line; do printf '  [==[%s]==],\n' "$line"; done <"$HOSTILE"
    echo "}"
    cat <<'LUA'
return {
  name = "hostile-cloud", kind = "pricing", version = "1.0", description = "a provider named badly",
  offers = function(ctx)
    local out = {}
    for i, text in ipairs(hostile) do
      out[#out + 1] = { provider = "P" .. i .. " " .. text, gpu = "rtx-4090", gpu_count = 1,
                        price_per_hour = 2 + i / 100, currency = "CNY", region = "CN",
                        spot = false, instance = text, as_of = "2026-11-01" }
    end
    return out
  end,
}
LUA
} >"$P/pricing/hostile-cloud.lua"
n_hostile=$(grep -c '' "$HOSTILE")

KB=$(fresh_kb hostile-plugins)
run "$GW" --kb "$KB" --plugins "$P" prices refresh hostile-cloud
check_rc "hostile pricing plugin: its offers are stored" 0
run "$GW" --kb "$KB" --json offers --gpu rtx-4090
check_eq "hostile pricing plugin: every offer kept as text" \
    "$(jqr '[.offers[] | select(.provider | startswith("P"))] | length')" "$n_hostile"

cat >"$T/work.lua" <<'LUA'
return {
  name = "Hostile plugin output", model = { params = 25.6e6, activations_gb = 8 },
  benchmark = "resnet50", work = { samples = 1e8 }, hours_per_day = 8, horizon_months = 12,
  currency = "CNY", electricity = { price = 1.0 }, candidates = { "rtx-4090", "rent:rtx-4090" },
}
LUA

table_shape() {   # FILE -> "lines tables bad": every row of a table has the same cells
    awk '
        /^\|/ { line = $0; gsub(/\\./, "", line); n = gsub(/\|/, "", line)
                if (!intable) { tables++; want = n } else if (n != want) bad++
                intable = 1; lines++; next }
        { intable = 0 }
        END { print lines + 0, tables + 0, bad + 0 }' "$1"
}
bad_urls() {
    grep -Eio '(href|src|action|xlink:href)="[^"]*"' "$1" | sed 's/&amp;/\&/g; s/&#[0-9]*;//g; s/&#x[0-9a-f]*;//gi' |
        tr 'A-Z' 'a-z' | tr -d ' \t' | grep -E 'javascript:|vbscript:|data:text|data:application' || true
}

run "$GW" --kb "$KB" --plugins "$P" report "$T/work.lua" --format md -o "$T/r.md"
check_rc "report md with hostile plugin output" 0
if grep -q 'P1 ' "$T/r.md"; then pass "report md: the hostile provider is in the report"; else fail "report md: the hostile provider is in the report" "not found"; fi
# The rule's reasons reach the report as text: "<img src=x onerror=alert(1)>" with its
# punctuation escaped still reads "img src=x onerror=alert(1)" once the escapes are removed.
if sed 's/\\//g' "$T/r.md" | grep -q 'img src=x onerror=alert(1)'; then
    pass "report md: the rule's hostile reasons are shown as text"
else
    fail "report md: the rule's hostile reasons are shown as text" "not found"
fi
set -- $(table_shape "$T/r.md")
check_eq "report md: every table row keeps its cells" "$3" 0
md_lines=$1 md_tables=$2
check_eq "report md: no raw HTML" "$(grep -v '<https*://' "$T/r.md" | grep -c '<[a-zA-Z!/]')" 0
check_eq "report md: no heading but the template's" \
    "$(grep '^#' "$T/r.md" | grep -Evc '^#{1,3} [A-Z]')" 0

run "$GW" --kb "$KB" --plugins "$P" report "$T/work.lua" --format html -o "$T/r.html"
check_rc "report html with hostile plugin output" 0
check_eq "report html: no script element" "$(grep -ci '<script' "$T/r.html")" 0
check_eq "report html: no event attributes" \
    "$(grep -Eic '<[a-z][^>]*[[:space:]]on[a-z]+[[:space:]]*=' "$T/r.html")" 0
check_eq "report html: no script URLs" "$(bad_urls "$T/r.html")" ""
check_eq "report html: no iframe, object or form" "$(grep -Eic '<(iframe|object|embed|form)' "$T/r.html")" 0
check_eq "report html: table rows as in the Markdown" "$(grep -c '<tr>' "$T/r.html")" "$((md_lines - md_tables))"
if command -v xmllint >/dev/null 2>&1; then
    errors=$(xmllint --html --noout "$T/r.html" 2>&1 | grep -v 'Tag \(svg\|path\|g\|text\|line\|rect\|circle\|polyline\|title\|desc\|defs\|pattern\|nav\|section\|header\|footer\|main\|figure\|figcaption\|tspan\|polygon\|details\|summary\) invalid' | grep -c 'error')
    check_eq "report html: well-formed for libxml2's HTML parser" "$errors" 0
else
    skip "report html: well-formed for libxml2's HTML parser" "xmllint not installed"
fi

run "$GW" --kb "$KB" offers --gpu rtx-4090
check_rc "offers text with hostile names" 0
others=$(sqlite3 "$KB" "select count(*) from price where gpu='rtx-4090' and kind='cloud' and provider not like 'P%'")
check_eq "offers text: one line per offer (no newline smuggled in)" \
    "$(printf '%s\n' "$OUT" | grep -c '^rtx-4090 ')" "$((n_hostile + others))"
