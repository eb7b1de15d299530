#!/bin/sh
# tests/cli/checklist.sh — `gpuwise checklist` end to end: the list, each shipped checklist as
# text, JSON and documents, answers from a dump, and a plugin that breaks the contract.
. "$ROOT/tests/cli/lib.sh"
NV="$FIX/nvsmi"
KB="$ROOT/kb/gpuwise.db"

# The shipped checklists and templates alone, so other plugins cannot change what is tested
# here; the last block checks them among all the shipped plugins.
mkdir -p "$T/data/plugins"
ln -s "$ROOT/plugins/checklists" "$T/data/plugins/checklists"
ln -s "$ROOT/templates" "$T/data/templates"
export GPUWISE_DATADIR="$T/data"

run "$GW" checklist
check_rc "checklist: lists" 0
for name in used-card a100-rental multi-gpu-build buy-vs-rent; do
    check_out "checklist: lists $name" "$name"
done

run "$GW" --json checklist
jq_all _j1 '[.[] | select(.path | test("/plugins/checklists/"))] | length' \
    _j2 '[.[].name] | join(",")'
check_eq "checklist --json: four shipped" "$_j1" 4
check_eq "checklist --json: sorted" "$_j2" "a100-rental,buy-vs-rent,multi-gpu-build,used-card"

# item counts as written in each file (and asserted by its _test.lua)
for pair in used-card:23 a100-rental:12 multi-gpu-build:12 buy-vs-rent:11; do
    name=${pair%%:*}
    run "$GW" --json checklist "$name"
    check_rc "checklist $name: exit 0" 0
    check_eq "checklist $name: items" "$(jqr '.items | length')" "${pair#*:}"
    check_eq "checklist $name: every item has a question and a way to check" \
        "$(jqr '[.items[] | select((.question | length) > 0 and (.how_to_check | length) > 0)] | length')" "${pair#*:}"
    check_eq "checklist $name: unanswered without a dump" "$(jqr '.answered')" 0
done

run "$GW" checklist used-card
check_out "checklist text: a section" "Ask the seller"
check_out "checklist text: an item" "[high] Does a full memory test pass without a single error?"
check_out "checklist text: automatic items marked" "automatic: \`gpuwise inspect\` answers this (identity.memory_total)"

run "$GW" checklist a100-rental
check_out "checklist a100-rental: TF32 switch" "torch.backends.cuda.matmul.allow_tf32"
check_out "checklist a100-rental: topology" "nvidia-smi topo -m"
check_out "checklist a100-rental: smallest MIG profile" "1g.10gb"
check_out_not "checklist a100-rental: no NVLink ports" "UDP"
check_out_not "checklist a100-rental: no ccs" "smi ccs"

run "$GW" checklist multi-gpu-build
check_out "checklist multi-gpu-build: 3090 NVLink" "The RTX 3090 supports a 2-way NVLink bridge"

run "$GW" checklist no-such-list
check_rc "checklist: unknown name exits 67" 67
check_err "checklist: lists the ones there are" "there are: a100-rental, buy-vs-rent"

run "$GW" checklist --dump
check_rc "checklist: --dump without a file is a usage error" 64

# ---- answers from a dump ----
run "$GW" --kb "$T/no-kb.db" --json checklist used-card --dump "$NV/mining-3090.xml"
jq_all _j1 '.items[] | select(.id == "auto-power-limit") | .answer.status' \
    _j2 '.items[] | select(.id == "auto-fan") | .answer.status' \
    _j3 '.items[] | select(.id == "look-mining-signs") | .answer.status' \
    _j4 '.items[] | select(.id == "look-mining-signs") | .answer.by' \
    _j5 '.items[] | select(.id == "ask-history") | .answer' \
    _j6 '.answered' \
    _j7 '.inspection_source'
check_rc "checklist --dump: exit 0" 0
check_eq "checklist --dump: power limit answered" \
    "$_j1" WARN
check_eq "checklist --dump: fan answered" \
    "$_j2" WARN
check_eq "checklist --dump: evaluate() sees mining" \
    "$_j3" FAIL
check_eq "checklist --dump: answered by evaluate" \
    "$_j4" evaluate
check_eq "checklist --dump: questions for people stay open" \
    "$_j5" null
# 11 automatic items plus the mining-signs answer
check_eq "checklist --dump: answered count" "$_j6" 12
check_eq "checklist --dump: source named" "$_j7" "$NV/mining-3090.xml"

if [ -f "$KB" ]; then
    run "$GW" --kb "$KB" --json checklist used-card --dump "$NV/memory-mismatch-3090.xml"
    check_eq "checklist --dump: memory mismatch fails the item" \
        "$(jqr '.items[] | select(.id == "auto-memory") | .answer.status')" FAIL
fi
run "$GW" --kb "$T/no-kb.db" --json checklist a100-rental --dump "$NV/remapped-unc-a100.xml"
jq_all _j1 '.items[] | select(.id == "health") | .answer.status' \
    _j2 '.items[] | select(.id == "mig") | .answer.status'
check_eq "checklist a100-rental --dump: worst GPU wins" \
    "$_j1" FAIL
check_eq "checklist a100-rental --dump: MIG off" \
    "$_j2" PASS
run "$GW" checklist used-card --dump "$T/missing.xml"
check_rc "checklist --dump: a missing dump exits 66" 66
run "$GW" checklist used-card --dump "$NV/not-nvsmi.xml"
check_rc "checklist --dump: not a dump exits 65" 65

# ---- documents ----
run "$GW" --format md checklist buy-vs-rent
check_rc "checklist --format md: exit 0" 0
check_out "checklist --format md: title" "# Checklist: Buying or renting GPUs"
check_out "checklist --format md: a task item" "- [ ] "
run "$GW" --kb "$T/no-kb.db" --format html -o "$T/used.html" checklist used-card --dump "$NV/mining-3090.xml"
check_rc "checklist --format html -o: exit 0" 0
grep -q "mining card" "$T/used.html" 2>/dev/null && pass "checklist --format html: the answer is in the page" ||
    fail "checklist --format html: the answer is in the page" "not in $T/used.html"

# ---- a checklist that breaks the contract ----
mkdir -p "$T/plugins/checklists"
cat >"$T/plugins/checklists/liar.lua" <<'EOF'
return {
  name = "liar", kind = "checklist", version = "1", description = "answers what it has not got",
  items = { { id = "a", question = "q?", how_to_check = "h", severity = "low" } },
  evaluate = function(inspection) return { { id = "a", status = "MAYBE", answer = "?" } } end,
}
EOF
run "$GW" --plugins "$T/plugins" --kb "$T/no-kb.db" checklist liar --dump "$NV/healthy-3090.xml"
check_rc "checklist: a bad evaluate() status exits 70" 70
check_err "checklist: names the plugin and the rule" "status must be PASS, WARN, FAIL or UNKNOWN"

# ---- the option table: help, mistakes, formats ----
run "$GW" checklist --help
check_rc "checklist --help: exit 0" 0
check_out "checklist --help: the synopsis" "usage: gpuwise checklist [OPTIONS] [NAME]"
check_out "checklist --help: names --dump" "--dump FILE.xml"
run "$GW" checklist used-card --dum "$NV/mining-3090.xml"
check_rc "checklist: an unknown option exits 64" 64
check_err "checklist: suggests the option meant" "unknown option '--dum' (did you mean --dump?)"
check_err "checklist: one prefix" "gpuwise checklist: unknown option"
run "$GW" checklist used-card buy-vs-rent
check_rc "checklist: two names is a usage error" 64
run "$GW" checklist --dump "$NV/mining-3090.xml"
check_rc "checklist: --dump without NAME exits 64" 64
check_err "checklist: --dump without NAME, no usage text in the message" "gpuwise checklist: --dump needs a checklist NAME"
check_eq "checklist: the error is one line" "$(printf '%s\n' "$ERR" | wc -l | tr -d ' ')" 1

# the list as md and CSV: one row per shipped checklist (4), items as in the files
run "$GW" checklist --format md
check_rc "checklist --format md (list): exit 0" 0
check_out "checklist --format md (list): header" "| Name | Description | Items | Version | Path |"
check_out "checklist --format md (list): a row" "| used-card | Inspecting a used GPU before you pay | 23 | 1.0 |"
check_eq "checklist --format md (list): 2 + 4 lines" "$(printf '%s\n' "$OUT" | wc -l | tr -d ' ')" 6
run "$GW" checklist -o "$T/lists.csv"
check_rc "checklist -o x.csv: exit 0" 0
check_eq "checklist -o x.csv: nothing on stdout" "$OUT" ""
check_eq "checklist -o x.csv: header row is the column keys" "$(head -1 "$T/lists.csv" | tr -d '\r')" \
    "name,description,items,version,path"
check_eq "checklist -o x.csv: CRLF line ends (RFC 4180)" "$(head -1 "$T/lists.csv" | tail -c 2 | od -An -tx1 | tr -d ' \n')" "0d0a"
check_eq "checklist -o x.csv: header + 4 rows" "$(wc -l <"$T/lists.csv" | tr -d ' ')" 5
check_eq "checklist -o x.csv: the names, sorted" \
    "$(tail -n +2 "$T/lists.csv" | tr -d '\r' | cut -d, -f1 | tr '\n' ' ')" \
    "a100-rental buy-vs-rent multi-gpu-build used-card "
check_eq "checklist -o x.csv: used-card has 23 items" \
    "$(grep '^used-card,' "$T/lists.csv" | cut -d, -f3)" 23
if command -v python3 >/dev/null 2>&1; then
    check_eq "checklist -o x.csv: Python's csv module reads 5 rows of 5 fields" \
        "$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], newline=""))); print(len(r), set(map(len, r)))' "$T/lists.csv")" \
        "5 {5}"
fi
run "$GW" --json checklist -o "$T/lists.json"
check_eq "checklist --json -o: the list as before" "$(jq -r '[.[].name] | join(",")' "$T/lists.json")" \
    "a100-rental,buy-vs-rent,multi-gpu-build,used-card"

run "$GW" checklist used-card --format csv
check_rc "checklist NAME --format csv: exit 64" 64
check_err "checklist NAME --format csv: says why" "not csv (csv is for the list of checklists, without NAME)"
run "$GW" checklist used-card -o "$T/used.csv"
check_rc "checklist NAME -o x.csv: exit 64" 64
[ -e "$T/used.csv" ] && fail "checklist NAME -o x.csv: no file written" || pass "checklist NAME -o x.csv: no file written"
run "$GW" checklist --format html
check_rc "checklist --format html without NAME: exit 64" 64
check_err "checklist --format html without NAME: says why" "html needs a checklist NAME"
run "$GW" checklist used-card -o "$T/used.md"
check_rc "checklist NAME -o x.md: exit 0" 0
grep -q "^# Checklist: Inspecting a used GPU before you pay" "$T/used.md" 2>/dev/null &&
    pass "checklist NAME -o x.md: the document" || fail "checklist NAME -o x.md: the document" "$(head -2 "$T/used.md")"
run "$GW" checklist used-card --format text --template "$T/used.md"
check_rc "checklist --template with text: exit 64, not ignored" 64
run "$GW" checklist --format md --template "$T/used.md"
check_rc "checklist --template with the list: exit 64, not ignored" 64

# ---- the user's own checklist, in $XDG_CONFIG_HOME/gpuwise/plugins like every other plugin ----
mkdir -p "$XDG_CONFIG_HOME/gpuwise/plugins/checklists"
cat >"$XDG_CONFIG_HOME/gpuwise/plugins/checklists/my-room.lua" <<'EOF'
return {
  name = "my-room", kind = "checklist", version = "0.1", description = "My server room",
  items = {
    { id = "breaker", section = "Power", severity = "high",
      question = "Is the breaker rated for the whole machine?", how_to_check = "Read its label." },
    { id = "door", severity = "low", question = "Does the door lock?", how_to_check = "Try it." },
  },
}
EOF
run "$GW" checklist
check_rc "user checklist: list exits 0" 0
check_out "user checklist: listed" "my-room            My server room (2 items)"
run "$GW" --json checklist
jq_all _j1 'length' \
    _j2 '.[] | select(.name == "my-room") | .path'
check_eq "user checklist: five in all" "$_j1" 5
check_eq "user checklist: read from the config folder" "$_j2" \
    "$XDG_CONFIG_HOME/gpuwise/plugins/checklists/my-room.lua"
run "$GW" checklist my-room
check_rc "user checklist: printed" 0
check_out "user checklist: its section" "Power"
check_out "user checklist: its first item" " 1. [high] Is the breaker rated for the whole machine?"
check_out "user checklist: its second item" " 2. [low] Does the door lock?"
run "$GW" --json checklist my-room
check_eq "user checklist --json: two items" "$(jqr '.items | length')" 2
rm -r "$XDG_CONFIG_HOME/gpuwise/plugins"

# ---- among every shipped plugin ----
unset GPUWISE_DATADIR
run "$GW" --json checklist
check_eq "checklist: all four found among the shipped plugins (no other plugin takes their names)" \
    "$(jqr '[.[] | select(.path | test("/plugins/checklists/")) | .name] | join(",")')" \
    "a100-rental,buy-vs-rent,multi-gpu-build,used-card"
run "$GW" --kb "$T/no-kb.db" --json checklist used-card --dump "$NV/mining-3090.xml"
check_eq "checklist: used-card is the checklist, not the rule of that name" "$(jqr '.items | length')" 23
run "$GW" --json checklist multi-gpu-build
check_eq "checklist: multi-gpu-build is the checklist, not the rule of that name" "$(jqr '.items | length')" 12
