#!/bin/sh
# tests/cli/hostile_names.sh — names and sources belong to their owners: a card, from an
# importer plugin or a table CSV, may not carry a name that already names another card (exit 65,
# the KB as it was), and a plugin's source id is its own: no other name makes it, and no user
# plugin makes a shipped plugin's (plugin-NAME.FILE for shipped plugins, user-NAME.FILE else).
. "$ROOT/tests/cli/lib.sh"

if ! command -v sqlite3 >/dev/null 2>&1; then
    skip "hostile_names" "sqlite3 is a test dependency (.ci/deps.sh --test)"
    exit 0
fi
q() { sqlite3 "$1" "$2"; }

KB=$(fresh_kb names)
cp "$KB" "$T/before.db"
unchanged() {   # NAME: the KB is byte for byte what it was
    if cmp -s "$KB" "$T/before.db"; then pass "$1: KB unchanged"; else fail "$1: KB changed"; fi
}

# --- an importer takes over names ----------------------------------------------------------
# The importer adds one card with the alias its input names: another card's id, an alias that
# is another card's name, and "H100 80GB", which the resolver reads as h100-sxm5 (an H100, 80 GB,
# and of the H100s with 80 GB the SXM part).
P="$T/plugins/importers"
mkdir -p "$P"
cat >"$P/takeover.lua" <<'LUA'
return {
  name = "takeover", kind = "importer", version = "1", description = "hostile: takes names",
  import = function(ctx, text)
    local alias = text:match("[^\n]+")
    return { { kind = "gpu", id = "evil", name = "Evil Accelerator", vendor = "NVIDIA",
               architecture = "Hopper", form_factor = "sxm5", memory_gb = 80,
               aliases = { "Evil", alias } } }
  end,
}
LUA
for case in "rtx-4090|rtx-4090" "h100-sxm5|h100-sxm5" "GeForce RTX 4090|rtx-4090" \
            "H100 80GB|h100-sxm5"; do
    alias=${case%|*} owner=${case#*|}
    KB=$(fresh_kb importer)   # each case on the shipped KB: an earlier one may have added evil
    printf '%s\n' "$alias" >"$T/alias.txt"
    run "$GW" --kb "$KB" --plugins "$T/plugins" kb import --with takeover "$T/alias.txt"
    check_rc "importer alias '$alias': exit 65" 65
    check_err "importer alias '$alias': the conflict named" \
        "takeover: records[1]: alias '$alias' of card 'evil' already names card '$owner'"
    unchanged "importer alias '$alias'"
    run "$GW" --kb "$KB" plugin check "$P/takeover.lua" --input "$T/alias.txt"
    check_rc "plugin check, alias '$alias': exit 65" 65
    check_out "plugin check, alias '$alias': the conflict named" \
        "alias '$alias' of card 'evil' already names card '$owner'"
done
# after the last case "H100 80GB" still means the H100 SXM5
run "$GW" --kb "$KB" --json kb show "H100 80GB"
check_eq "'H100 80GB' is still the H100 SXM5" "$(jqr .id)" "h100-sxm5"

# a card whose own id is another card's alias ("4090" is rtx-4090's)
cat >"$P/idtaker.lua" <<'LUA'
return {
  name = "idtaker", kind = "importer", version = "1", description = "hostile: an alias as id",
  import = function(ctx, text)
    return { { kind = "gpu", id = "4090", name = "Not a 4090", vendor = "NVIDIA" } }
  end,
}
LUA
run "$GW" --kb "$KB" --plugins "$T/plugins" kb import --with idtaker "$T/alias.txt"
check_rc "importer id '4090': exit 65" 65
check_err "importer id '4090': the conflict named" \
    "idtaker: records[1]: id '4090' of card '4090' already names card 'rtx-4090'"
unchanged "importer id '4090'"

# the same card with names of its own is welcome
printf 'Evil X1\n' >"$T/own.txt"
KB2=$(fresh_kb own)
run "$GW" --kb "$KB2" --plugins "$T/plugins" kb import --with takeover "$T/own.txt"
check_rc "importer with names of its own: exit 0" 0
run "$GW" --kb "$KB2" --json kb show "Evil X1"
check_eq "importer with names of its own: 'Evil X1' is the new card" "$(jqr .id)" "evil"

# --- a table CSV does the same -------------------------------------------------------------
head -1 "$ROOT/kb/data/gpus.csv" >"$T/gpus.csv"
# evil: h100-sxm5's row with another id and name (the source and figures are real)
grep '^h100-sxm5,' "$ROOT/kb/data/gpus.csv" |
    sed 's/^h100-sxm5,NVIDIA H100 SXM5 80GB,/evil,Evil Accelerator,/' >>"$T/gpus.csv"
for case in "rtx-4090|rtx-4090" "h100-sxm5|h100-sxm5" "H100 80GB|h100-sxm5"; do
    alias=${case%|*} owner=${case#*|}
    KB=$(fresh_kb csv)
    printf 'gpu,alias\nevil,Evil\nevil,%s\n' "$alias" >"$T/aliases.csv"
    run "$GW" --kb "$KB" kb import "$T/gpus.csv" "$T/aliases.csv"
    check_rc "CSV alias '$alias': exit 65" 65
    check_err "CSV alias '$alias': file, line and conflict" \
        "aliases.csv:3: alias '$alias' of card 'evil' already names card '$owner'"
    unchanged "CSV alias '$alias'"
done
# a card named as another: the name normalised ("NVIDIA GeForce" and case aside)
head -1 "$ROOT/kb/data/gpus.csv" >"$T/named.csv"
grep '^h100-sxm5,' "$ROOT/kb/data/gpus.csv" |
    sed 's/^h100-sxm5,NVIDIA H100 SXM5 80GB,/evil,NVIDIA GEFORCE RTX-4090,/' >>"$T/named.csv"
run "$GW" --kb "$KB" kb import "$T/named.csv"
check_rc "CSV name of another card: exit 65" 65
check_err "CSV name of another card: the conflict named" \
    "named.csv:2: name 'NVIDIA GEFORCE RTX-4090' of card 'evil' already names card 'rtx-4090'"
unchanged "CSV name of another card"

# --- source ids -----------------------------------------------------------------------------
LAMBDA="$FIX/prices/lambda-instance-types.json"
KB=$(fresh_kb sources)
run "$GW" --kb "$KB" prices refresh lambda-cloud --input "$LAMBDA"
check_rc "shipped lambda-cloud: exit 0" 0
# a shipped plugin's source: "plugin-", its name, '.', its file
SHIPPED=$(q "$KB" "SELECT id FROM source WHERE id LIKE 'plugin-lambda-cloud%'")
check_eq "shipped lambda-cloud: its source id" "$SHIPPED" \
    "plugin-lambda-cloud.lambda-instance-types.json"
# its 3 offers (tests/plugins/pricing.sh), the cheapest gpu_1x_a100 at 129 cents = USD 1.29 an hour
OFFERS=$(q "$KB" "SELECT count(*) || ' ' || min(amount) FROM price WHERE source = '$SHIPPED'")
check_eq "shipped lambda-cloud: 3 offers" "$OFFERS" "3 1.29"
cp "$KB" "$T/before.db"

# A name that is no plugin name (the one that took lambda-cloud's source by its slug) is refused.
U="$T/user/pricing"
mkdir -p "$U"
hijack() {   # FILE NAME: a pricing plugin NAME offering one H100 at USD 0.10 from Lambda
    cat >"$1" <<LUA
return {
  name = "$2", kind = "pricing", version = "1", description = "hostile: a source takeover",
  offers = function(ctx)
    return { { provider = "Lambda", gpu = "H100 SXM", gpu_count = 1, price_per_hour = 0.10,
               currency = "USD", instance = "gpu_1x_h100_sxm5", as_of = "2026-01-01" } }
  end,
}
LUA
}
hijack "$U/dotted.lua" "lambda_cloud.lambda_instance_types.json"
run "$GW" --kb "$KB" --plugins "$T/user" prices refresh lambda_cloud.lambda_instance_types.json
if [ "$RC" -ne 0 ]; then pass "plugin name with '_' and '.': refused"; else fail "plugin name with '_' and '.': exit 0"; fi
check_err "plugin name with '_' and '.': the name named" "lambda_cloud.lambda_instance_types.json"
unchanged "plugin name with '_' and '.'"
rm "$U/dotted.lua"

# A valid name that slugs to the shipped id of old ("plugin-" + "lambda-cloud-lambda-instance-
# types-json") gets an id of its own, and the shipped offers stay.
hijack "$U/slug.lua" "lambda-cloud-lambda-instance-types-json"
run "$GW" --kb "$KB" --plugins "$T/user" prices refresh lambda-cloud-lambda-instance-types-json
check_rc "user plugin named like the shipped source: exit 0" 0
check_eq "user plugin named like the shipped source: its own source id" \
    "$(q "$KB" "SELECT source FROM price WHERE amount = 0.1")" \
    "user-lambda-cloud-lambda-instance-types-json"
check_eq "user plugin named like the shipped source: the shipped offers stay" \
    "$(q "$KB" "SELECT count(*) || ' ' || min(amount) FROM price WHERE source = '$SHIPPED'")" \
    "$OFFERS"
check_eq "user plugin named like the shipped source: the shipped source row stays" \
    "$(q "$KB" "SELECT publisher FROM source WHERE id = '$SHIPPED'")" \
    "$(q "$T/before.db" "SELECT publisher FROM source WHERE id = '$SHIPPED'")"
rm "$U/slug.lua"

# A user plugin that overrides lambda-cloud by name still writes under "user-".
hijack "$U/lambda-cloud.lua" "lambda-cloud"
run "$GW" --kb "$KB" --plugins "$T/user" prices refresh lambda-cloud
check_rc "user plugin overriding lambda-cloud: exit 0" 0
check_eq "user plugin overriding lambda-cloud: its one offer cites user-lambda-cloud" \
    "$(q "$KB" "SELECT count(*) FROM price WHERE amount = 0.1 AND source = 'user-lambda-cloud'")" 1
check_eq "user plugin overriding lambda-cloud: no shipped source id made" \
    "$(q "$KB" "SELECT count(*) FROM source WHERE id = 'plugin-lambda-cloud'")" 0
rm "$U/lambda-cloud.lua"

# Ids are injective: plugin "foo" on bar-baz.csv and "foo-bar" on baz.csv were both
# "plugin-foo-bar-baz-csv"; one plugin's "Bench_1.csv" and "bench-1.csv" both "...-bench-1-csv".
I="$T/user/importers"
mkdir -p "$I"
for name in foo foo-bar; do
    cat >"$I/$name.lua" <<LUA
return {
  name = "$name", kind = "importer", version = "1", description = "$name's measurements",
  import = function(ctx, text)
    return { { kind = "benchmark", gpu = "RTX 4090", workload = "w-$name", metric = "m",
               value = 1, unit = "u" } }
  end,
}
LUA
done
printf 'x\n' >"$T/bar-baz.csv"
printf 'x\n' >"$T/baz.csv"
printf 'x\n' >"$T/Bench_1.csv"
printf 'x\n' >"$T/bench-1.csv"
KB=$(fresh_kb injective)
"$GW" --kb "$KB" --plugins "$T/user" kb import --with foo "$T/bar-baz.csv" >/dev/null 2>&1
"$GW" --kb "$KB" --plugins "$T/user" kb import --with foo-bar "$T/baz.csv" >/dev/null 2>&1
"$GW" --kb "$KB" --plugins "$T/user" kb import --with foo "$T/Bench_1.csv" >/dev/null 2>&1
"$GW" --kb "$KB" --plugins "$T/user" kb import --with foo "$T/bench-1.csv" >/dev/null 2>&1
# '_' is "_5f" and 'B' "_42": a byte other than a-z, 0-9, '.' and '-' is written in hex
check_eq "source ids: one per plugin and file" \
    "$(q "$KB" "SELECT group_concat(id, ' ') FROM (SELECT id FROM source WHERE id LIKE 'user-%' ORDER BY id)")" \
    "user-foo-bar.baz.csv user-foo._42ench_5f1.csv user-foo.bar-baz.csv user-foo.bench-1.csv"
check_eq "source ids: each file's source keeps its own title" \
    "$(q "$KB" "SELECT title FROM source WHERE id = 'user-foo.bar-baz.csv'")" \
    "foo's measurements (bar-baz.csv)"
