#!/bin/sh
# tests/plugins/readme.sh — follows "Add a new cloud provider in ten minutes" in
# plugins/README.md word for word: the `$ gpuwise ...` lines between the walkthrough markers are
# run in order, and the README's `local prices = {...}` block replaces the skeleton's table, the
# edit step 2 asks for.  Then the new provider's offers must be listed.
. "$ROOT/tests/cli/lib.sh"
README="$ROOT/plugins/README.md"
KB=$(fresh_kb readme)
# The README speaks of ~/.config, the default when XDG_CONFIG_HOME is unset.
export HOME="$T/home"
unset XDG_CONFIG_HOME
mkdir -p "$HOME"
gpuwise() { "$GW" --kb "$KB" "$@"; }

sed -n '/<!-- walkthrough -->/,/<!-- \/walkthrough -->/p' "$README" >"$T/walk.md"
sed -n 's/^\$ //p' "$T/walk.md" >"$T/commands"
awk '/^```lua/ { on = 1; next } /^```/ { on = 0 } on' "$T/walk.md" >"$T/prices.lua"
check_eq "readme: the walkthrough has 4 commands" "$(wc -l <"$T/commands" | tr -d ' ')" "4"
check_eq "readme: the walkthrough has the prices table" "$(head -1 "$T/prices.lua")" "local prices = {"

n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    eval "run $cmd"
    check_rc "readme step $n: $cmd" 0
    if [ "$n" = 1 ]; then
        f="$HOME/.config/gpuwise/plugins/pricing/acme.lua"
        check_out "readme step 1: prints the path it wrote" "$f"
        # step 2: replace the skeleton's table with the README's
        awk -v repl="$T/prices.lua" '
            /^local prices = \{/ { while ((getline line < repl) > 0) print line; skip = 1; next }
            skip && /^\}/ { skip = 0; next }
            !skip' "$f" >"$T/acme.lua" && cp "$T/acme.lua" "$f"
        grep -q 'acme.8xh100' "$f" && pass "readme step 2: prices put in" || fail "readme step 2: edit failed"
    fi
done <"$T/commands"

# The last command listed the H100 offers: Acme's two are there, priced as the README says.
check_out "readme: Acme's 8x H100 offer is listed" "acme.8xh100"
check_out "readme: Acme's 1x H100 offer is listed" "acme.1xh100"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM"
# README: 8x H100 SXM at USD 23.60/h = 2.95 per GPU-hour
check_num "readme: acme.8xh100 per GPU-hour = 23.60 / 8" \
    "$(jqr '.offers[] | select(.instance == "acme.8xh100") | .price_per_gpu_hour')" 2.95 0.0001
check_eq "readme: provider name" "$(jqr '[.offers[] | select(.instance == "acme.1xa100" or .instance == "acme.1xh100")][0].provider')" "Acme"
