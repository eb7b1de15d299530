#!/bin/sh
# tests/plugins/commands.sh — `gpuwise plugin list|check|new|test`, `prices refresh` and
# `offers` options, on the shipped plugins and small fixtures.
. "$ROOT/tests/cli/lib.sh"
KB=$(fresh_kb cmd)
USERP="$XDG_CONFIG_HOME/gpuwise/plugins"

# -- list
run "$GW" --kb "$KB" plugin list
check_rc "plugin list: exit 0" 0
check_out "plugin list: shows a shipped pricing plugin" "example-cloud"
check_out "plugin list: shows an importer" "lambda               importer"
run "$GW" --kb "$KB" --json plugin list
jq_all _j1 '.[] | select(.name == "fsdl") | .kind' \
    _j2 '[.[] | select(.overrides)] | length'
check_eq "plugin list --json: fsdl is a pricing plugin" \
    "$_j1" "pricing"
check_eq "plugin list --json: nothing overridden yet" "$_j2" "0"

# -- a user plugin with a shipped plugin's name hides it, and list says so
mkdir -p "$USERP/pricing"
sed 's/version = "1.0"/version = "9.9"/' "$ROOT/plugins/pricing/cn-market.lua" >"$USERP/pricing/cn-market.lua"
run "$GW" --kb "$KB" --json plugin list
check_eq "override: the user's cn-market is the one used" \
    "$(jqr '.[] | select(.name == "cn-market") | .version')" "9.9"
check_eq "override: list names the shipped file it hides" \
    "$(jqr '.[] | select(.name == "cn-market") | .overrides' | sed 's|.*/plugins/|plugins/|')" \
    "plugins/pricing/cn-market.lua"
run "$GW" --kb "$KB" plugin list
check_out "override: text list says 'overrides'" "overrides "
# --plugins DIR comes before the user's folder
mkdir -p "$T/extra"
sed 's/version = "1.0"/version = "7.7"/' "$ROOT/plugins/pricing/cn-market.lua" >"$T/extra/cn-market.lua"
run "$GW" --kb "$KB" --plugins "$T/extra" --json plugin list
check_eq "override: --plugins DIR wins over the user's folder" \
    "$(jqr '.[] | select(.name == "cn-market") | .version')" "7.7"
rm -rf "$USERP/pricing/cn-market.lua" "$T/extra"

# -- shipped plugins are loaded from their compiled copy when the text is exactly theirs; an
#    edited copy is parsed; either way a runtime error names the file that was read, and its line
check_eq "compiled: the shipped rules are loaded compiled" \
    "$(jqr '[.[] | select(.kind == "rule" and .compiled == false)] | length')" "0"
mkdir -p "$T/same/rules" "$T/edited/rules"
cp "$ROOT/plugins/rules/cooling-power.lua" "$T/same/rules/"
{ cat "$ROOT/plugins/rules/cooling-power.lua"; echo "-- edited"; } >"$T/edited/rules/cooling-power.lua"
# count is missing: `option.count > 1` compares nil with a number
cat >"$T/compiled_test.lua" <<'LUA'
return {
    test_missing_count = function(rule)
        rule.evaluate({ acquisition = "buy-new", consumer = true }, { cooling = "poor", context = {} })
    end,
}
LUA
line=$(grep -n 'option.count > 1' "$ROOT/plugins/rules/cooling-power.lua" | cut -d: -f1)
for d in same edited; do
    want=$([ $d = same ] && echo true || echo false)
    run "$GW" --kb "$KB" --plugins "$T/$d" --json plugin list
    check_eq "compiled ($d copy): compiled is $want" \
        "$(jqr '.[] | select(.name == "cooling-power") | .compiled')" "$want"
    cp "$T/compiled_test.lua" "$T/$d/rules/cooling-power_test.lua"
    run "$GW" --kb "$KB" plugin test "$T/$d/rules/cooling-power.lua"
    check_rc "compiled ($d copy): the failing test exits 2" 2
    check_out "compiled ($d copy): the error names the file read and the line" \
        "$T/$d/rules/cooling-power.lua:$line: attempt to compare number with nil"
done
rm -rf "$T/same" "$T/edited" "$T/compiled_test.lua"

# -- check
run "$GW" --kb "$KB" plugin check "$ROOT/plugins/pricing/cn-market.lua"
check_rc "check cn-market: exit 0" 0
check_out "check cn-market: dry run counted" "dry run: 10 offers"
run "$GW" --kb "$KB" plugin check "$FIX/plugins/broken/broken.lua"
check_rc "check broken: exit 65" 65
check_out "check broken: the bad name, with its line" "broken.lua:3: name 'Broken Plugin'"
check_out "check broken: the missing version" "missing field 'version'"
check_out "check broken: the missing offers function" "a pricing plugin needs a function 'offers'"
check_err "check broken: counts the problems" "3 problems"
run "$GW" --kb "$KB" plugin check "$FIX/plugins/broken/syntax.lua"
check_rc "check syntax error: exit 65" 65
check_out "check syntax error: file:line" "syntax.lua:5: '}' expected"
run "$GW" --kb "$KB" plugin check "$FIX/plugins/broken/bad-offers.lua"
check_rc "check bad offers: exit 65" 65
# the gpu_count column's own rule (kb_table.c), the same for CSV rows and importers
check_out "check bad offers: a fractional count" \
    "offers[1].gpu_count: expected a whole number of GPUs from 1 to 1024, got 1.5"
check_out "check bad offers: a bad date" "offers[2].as_of: 'last week' is not a date"
check_out "check bad offers: an unknown field" "offers[3].colour: unknown field"
run "$GW" --kb "$KB" plugin check "$T/nothing.lua"
check_rc "check a missing file: exit 66" 66

# -- new: one of each kind; each checks clean
for kind in pricing importer rule checklist; do
    run "$GW" --kb "$KB" plugin new "$kind" "my-$kind"
    check_rc "new $kind: exit 0" 0
    folder=$kind
    case $kind in importer) folder=importers ;; rule) folder=rules ;; checklist) folder=checklists ;; esac
    f="$USERP/$folder/my-$kind.lua"
    [ -f "$f" ] && pass "new $kind: wrote $folder/my-$kind.lua" || fail "new $kind: no $f"
    run "$GW" --kb "$KB" plugin check "$f"
    check_rc "new $kind: the skeleton checks clean" 0
done
run "$GW" --kb "$KB" plugin new pricing my-pricing
check_rc "new: refuses to overwrite (exit 73)" 73
check_err "new: says it exists" "already exists"
run "$GW" --kb "$KB" plugin new pricing zed -o "$T/zed.lua"
check_rc "new -o FILE: exit 0" 0
check_out "new -o FILE: names the file" "$T/zed.lua"
run "$GW" --kb "$KB" plugin new gadget x
check_rc "new with an unknown kind: exit 64" 64
run "$GW" --kb "$KB" plugin new pricing "Bad Name"
check_rc "new with a bad name: exit 64" 64
# the new pricing plugin is found by refresh and its offers appear in `offers`
run "$GW" --kb "$KB" prices refresh my-pricing
check_rc "refresh the new plugin: exit 0" 0
check_out "refresh the new plugin: 3 offers" "my-pricing: 3 offers stored"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM"
check_eq "the new plugin's offers are listed" \
    "$(jqr '[.offers[] | select(.provider == "My-pricing")] | length')" "2"
# refreshing again replaces them rather than adding copies
run "$GW" --kb "$KB" prices refresh my-pricing
# the same 3 offers (same identity, same figures): each leaves its earlier row as it is
check_out "refresh again: the earlier 3 unchanged" "prices     0 added, 0 updated, 0 removed (3 unchanged)"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM"
check_eq "refresh again: still 2 H100 offers" \
    "$(jqr '[.offers[] | select(.provider == "My-pricing")] | length')" "2"
rm -rf "$USERP"

# -- test: the shipped plugins' own tests
for f in "$ROOT"/plugins/pricing/*.lua "$ROOT"/plugins/importers/*.lua; do
    case "$f" in *_test.lua) continue ;; esac
    name=$(basename "$f" .lua)
    run "$GW" --kb "$KB" plugin test "$f"
    check_rc "plugin test $name: all pass" 0
done
printf 'return { test_fails = function(p) assert(p.name == "nope", "wrong name") end }\n' \
    >"$T/failing_test.lua"
cp "$ROOT/plugins/pricing/cn-market.lua" "$T/failing.lua"
run "$GW" --kb "$KB" plugin test "$T/failing.lua"
check_rc "plugin test: a failing test exits 2" 2
check_out "plugin test: says which and why" "not ok - cn-market: test_fails:"
check_out "plugin test: the message" "wrong name"

# -- the option tables: --help, unknown options, the formats each command writes
for cmd in "plugin list" "plugin check" "plugin new" "plugin test" "prices refresh"; do
    run "$GW" --kb "$KB" $cmd --help
    check_rc "$cmd --help: exit 0" 0
    check_out "$cmd --help: its usage line" "usage: gpuwise $cmd"
done
run "$GW" --kb "$KB" plugin check "$ROOT/plugins/pricing/cn-market.lua" --inptu x
check_rc "plugin check --inptu: exit 64" 64
check_err "plugin check --inptu: suggests --input" "did you mean --input?"
run "$GW" --kb "$KB" prices refresh --inptu x
check_rc "prices refresh --inptu: exit 64" 64
check_err "prices refresh --inptu: suggests --input" "did you mean --input?"
run "$GW" --kb "$KB" prices refresh fsdl --input "$T/no-such.csv"
check_rc "prices refresh --input a missing file: exit 66" 66
# one error prefix: main names the command, the message does not repeat it
run "$GW" --kb "$KB" plugin new gadget x
check_err "new gadget: one prefix, then the kinds" "gpuwise plugin new: KIND is pricing, importer, rule or checklist, not 'gadget'"
run "$GW" --kb "$KB" plugin new pricng x
check_rc "new pricng: exit 64" 64
check_err "new pricng: suggests pricing" "(did you mean 'pricing'?)"
# plugin list as a listing: -o by extension, CSV header = the column keys
run "$GW" --kb "$KB" --json plugin list
n_plugins=$(jqr 'length')
run "$GW" --kb "$KB" plugin list -o "$T/plugins.csv"
check_rc "plugin list -o x.csv: exit 0" 0
check_eq "plugin list -o x.csv: nothing on stdout" "$OUT" ""
check_eq "plugin list csv: the header is the column keys" \
    "$(head -1 "$T/plugins.csv" | tr -d '\r')" "name,kind,version,path,overrides"
# one header row and one row per plugin of the JSON list
check_eq "plugin list csv: a row per plugin" "$(wc -l <"$T/plugins.csv" | tr -d ' ')" "$((n_plugins + 1))"
check_eq "plugin list csv: cn-market's row (no override: empty last field)" \
    "$(grep '^cn-market,' "$T/plugins.csv" | tr -d '\r' | sed 's|,/.*/plugins/|,plugins/|')" \
    "cn-market,pricing,1.0,plugins/pricing/cn-market.lua,"
run "$GW" --kb "$KB" plugin list --format md
check_out "plugin list --format md: a Markdown table" "| Name | Kind | Version | Path | Overrides |"
run "$GW" --kb "$KB" plugin list --format html
check_rc "plugin list --format html: exit 64" 64
# plugin check --json (it used to be ignored)
run "$GW" --kb "$KB" --json plugin check "$ROOT/plugins/pricing/cn-market.lua"
check_rc "check --json cn-market: exit 0" 0
check_eq "check --json cn-market: ok, the plugin, the dry run (10 offers, as in text)" \
    "$(jqr '[.ok, .plugin.name, .plugin.kind, .plugin.version, .dry_run.count, .dry_run.of, (.problems | length)] | join("|")')" \
    "true|cn-market|pricing|1.0|10|offers|0"
run "$GW" --kb "$KB" --json plugin check "$FIX/plugins/broken/broken.lua"
jq_all _j1 '[.ok, (.problems | length), .dry_run] | join("|")' \
    _j2 '.problems[] | select(.message | startswith("name ")) | .line'
check_rc "check --json broken: still exit 65" 65
check_err "check --json broken: counts the problems" "3 problems"
check_eq "check --json broken: not ok, 3 problems, no dry run" \
    "$_j1" "false|3|"
check_eq "check --json broken: the bad name on line 3" \
    "$_j2" "3"
run "$GW" --kb "$KB" plugin check "$FIX/plugins/broken/syntax.lua" -o "$T/syntax.json"
check_rc "check -o x.json syntax error: exit 65" 65
check_eq "check -o x.json: JSON by extension, line 5, no plugin" \
    "$(jq -r '[.plugin, .problems[0].line] | map(tostring) | join("|")' "$T/syntax.json")" "null|5"
run "$GW" --kb "$KB" plugin check "$ROOT/plugins/pricing/cn-market.lua" --format csv
check_rc "check --format csv: exit 64" 64
# commands that write no document refuse the output options instead of ignoring them
run "$GW" --kb "$KB" --json plugin new pricing jsonny
check_rc "new --json: exit 64" 64
[ ! -e "$USERP/pricing/jsonny.lua" ] && pass "new --json: wrote nothing" || fail "new --json: wrote a file"
run "$GW" --kb "$KB" plugin new rule r -o "$T/r.md"
check_rc "new -o r.md: the extension picks no format, exit 0" 0
grep -q 'name = "r"' "$T/r.md" && pass "new -o r.md: the rule is there" || fail "new -o r.md: no rule"
run "$GW" --kb "$KB" --json plugin test "$T/failing.lua"
check_rc "plugin test --json: exit 64" 64
run "$GW" --kb "$KB" plugin test -o "$T/t.txt"
check_rc "plugin test -o: exit 64" 64
run "$GW" --kb "$KB" prices refresh cn-market --format json
check_rc "prices refresh --format json: exit 64" 64

# -- offers options (a fresh KB: only the shipped offers and cn-market)
KB=$(fresh_kb offers)
run "$GW" --kb "$KB" prices refresh cn-market
run "$GW" --kb "$KB" --json offers --gpu "RTX 4090" --currency CNY
# kb/data prices: rtx-4090 cloud CNY 3 and 5 (article-4090-a100-h100), RunPod's USD 0.34 and 0.74
# (2026-09-25): cheapest first, 0.34 x 6.8322 (the ECB's cross rate of 2026-04-13) = CNY 2.322948
check_eq "offers --currency CNY: cheapest RTX 4090 first, CNY 2.322948" "$(jqr '.offers[0].price_per_hour')" "2.322948"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM" --currency USD --max-price 3
jq_all _j1 '.offers | length' \
    _j2 '.offers[] | select(.provider == "Lambda") | .price_per_gpu_hour'
# kb/data prices: Lambda gpu_8x_h100_sxm5 USD 23.92 for 8 GPUs = 2.99 per GPU-hour, Spheron's
# 2.50 and its spot 1.03 (2026-03), RunPod's Community Cloud 2.69 (2026-11-09) and CoreWeave's
# HGX H100 spot 19.71 / 8 = 2.46 (2026-09-20); AWS p5 is 98.32 / 8 = 12.29 (its Capacity Block
# 39.33 / 8 = 4.92), RunPod 3.49 and its Secure Cloud 3.99, Lambda's 1x 3.78 and 8x 3.99 of
# 2026-09-20, CoreWeave's on demand 49.24 / 8 = 6.16, Modal 3.95, Replicate 5.49 and the CNY quotes
# convert above 3: five offers under USD 3; and since the KB's rental shapes (issue 27) RunPod's
# Community Cloud pods of 2, 4 and 8 H100 SXM at 2.69 a GPU-hour (its Secure Cloud pods, 3.99, and
# Lambda's 2x 4.19 and 4x 4.09 are above): eight
check_eq "offers --max-price 3 (per GPU-hour): eight H100 offers" "$_j1" "8"
check_num "offers: Lambda's price per GPU-hour 23.92 / 8" \
    "$_j2" 2.99 0.0001
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM" --sort price --currency USD
check_eq "offers --sort price: by instance price" "$(jqr '[.offers[].price_per_hour] | . == sort')" "true"
run "$GW" --kb "$KB" --json offers --spot
check_eq "offers --spot: only spot offers" "$(jqr '[.offers[] | select(.spot == false)] | length')" "0"
run "$GW" --kb "$KB" offers --sort cost
check_rc "offers --sort cost: usage error" 64
run "$GW" --kb "$KB" offers --gpu "Voodoo 5"
check_rc "offers --gpu unknown: exit 67" 67
run "$GW" --kb "$KB" prices refresh no-such-plugin
check_rc "refresh an unknown plugin: exit 67" 67
run "$GW" --kb "$KB" prices refresh lambda
check_rc "refresh an importer: usage error" 64

# -- gw.gpu.resolve and gw.kb.gpu against the shipped KB (tests/fixtures/plugins/resolve_test.lua)
run "$GW" --kb "$KB" plugin test "$FIX/plugins/resolve.lua"
check_rc "gw.gpu.resolve: the names of the issue resolve" 0
check_out "gw.gpu.resolve: 6 tests ran" "6 passed, 0 failed"

# Lua shortens a chunk name longer than about 60 characters to "...tail"; the error still names
# the whole path and the real line (5) of a plugin deep in a folder tree.
deep="$T/a-folder-name-long-enough/to-push-the-path/past-what-lua-keeps-whole"
mkdir -p "$deep" && cp "$FIX/plugins/broken/syntax.lua" "$deep/"
run "$GW" --kb "$KB" plugin check "$deep/syntax.lua"
check_rc "check a deep path: exit 65" 65
check_out "check a deep path: the whole path and line 5" "$deep/syntax.lua:5: '}' expected"
