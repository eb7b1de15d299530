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
check_eq "checklist --json: four shipped" "$(jqr '[.[] | select(.path | test("/plugins/checklists/"))] | length')" 4
check_eq "checklist --json: sorted" "$(jqr '[.[].name] | join(",")')" "a100-rental,buy-vs-rent,multi-gpu-build,used-card"

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
check_rc "checklist --dump: exit 0" 0
check_eq "checklist --dump: power limit answered" \
    "$(jqr '.items[] | select(.id == "auto-power-limit") | .answer.status')" WARN
check_eq "checklist --dump: fan answered" \
    "$(jqr '.items[] | select(.id == "auto-fan") | .answer.status')" WARN
check_eq "checklist --dump: evaluate() sees mining" \
    "$(jqr '.items[] | select(.id == "look-mining-signs") | .answer.status')" FAIL
check_eq "checklist --dump: answered by evaluate" \
    "$(jqr '.items[] | select(.id == "look-mining-signs") | .answer.by')" evaluate
check_eq "checklist --dump: questions for people stay open" \
    "$(jqr '.items[] | select(.id == "ask-history") | .answer')" null
# 11 automatic items plus the mining-signs answer
check_eq "checklist --dump: answered count" "$(jqr '.answered')" 12
check_eq "checklist --dump: source named" "$(jqr '.inspection_source')" "$NV/mining-3090.xml"

if [ -f "$KB" ]; then
    run "$GW" --kb "$KB" --json checklist used-card --dump "$NV/memory-mismatch-3090.xml"
    check_eq "checklist --dump: memory mismatch fails the item" \
        "$(jqr '.items[] | select(.id == "auto-memory") | .answer.status')" FAIL
fi
run "$GW" --kb "$T/no-kb.db" --json checklist a100-rental --dump "$NV/remapped-unc-a100.xml"
check_eq "checklist a100-rental --dump: worst GPU wins" \
    "$(jqr '.items[] | select(.id == "health") | .answer.status')" FAIL
check_eq "checklist a100-rental --dump: MIG off" \
    "$(jqr '.items[] | select(.id == "mig") | .answer.status')" PASS
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
