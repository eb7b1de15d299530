#!/bin/sh
# tests/cli/rules.sh — the shipped decision rules: each loads cleanly and passes its NAME_test.lua.
. "$ROOT/tests/cli/lib.sh"
for rule in "$ROOT"/plugins/rules/*.lua; do
    case "$rule" in *_test.lua) continue ;; esac
    name=$(basename "$rule" .lua)
    if [ ! -f "$ROOT/plugins/rules/${name}_test.lua" ]; then
        fail "rule $name: has a test" "no ${name}_test.lua"
        continue
    fi
    run "$GW" plugin check "$rule"
    check_rc "rule $name: plugin check" 0
    run "$GW" plugin test "$rule"
    check_rc "rule $name: its tests pass" 0
done

# The rules' sentences on real decisions say only what is true of each option (issue 13).
for ex in vision-team short-project big-model; do
    run "$GW" --kb "$SHIPPED_KB" decide "$ROOT/examples/$ex.lua" --json
    check_rc "rules on $ex: decide exits 0" 0
    # TF32 only on cards that have it (Ampere and later): not on T4 (Turing) or V100 (Volta).
    check_eq "rules on $ex: no TF32 advice without TF32" \
        "$(jqr '[.options[] | select(.tf32 == false) | .verdicts[]?.because | select(test("TF32"))] | length')" 0
    # NCCL (the all-reduce between cards) only with more than one card.
    check_eq "rules on $ex: no NCCL advice for one card" \
        "$(jqr '[.options[] | select(.count == 1) | .verdicts[]?.because | select(test("NCCL"))] | length')" 0
    # NVLink praised only where the option has it.
    check_eq "rules on $ex: no NVLink preference without NVLink" \
        "$(jqr '[.options[] | select(.nvlink != true) | .verdicts[]? | select(.effect == "prefer") | .because | select(test("NVLink"))] | length')" 0
    # Numbers and nouns agree.
    check_eq "rules on $ex: numbers and nouns agree" \
        "$(jqr '[.options[].verdicts[]?.because | select(test("\\ba 8-|\\ba 11-|\\ba 18-|each of the 1\\b|\\b1 months|\\b1 cards"))] | length')" 0
    # No option is told that its own count buys "the most".
    check_eq "rules on $ex: no per-option superlative" \
        "$(jqr '[.options[].verdicts[]?.because | select(test("buy the most"))] | length')" 0
done

# The cases of the review, on examples/short-project.lua's rentals.
run "$GW" --kb "$SHIPPED_KB" decide "$ROOT/examples/short-project.lua" --json
tuning() { jqr "[.options[] | select(.acquisition == \"rent\" and .gpu == \"$1\" and .count == $2)
                | .verdicts[]? | select(.rule == \"rented-tuning\") | .because][0] // \"none\""; }
# short-project trains in mixed precision (AMP), which already runs on the tensor cores: TF32
# is advice for full precision only (the rule's own test covers fp32).  The sentence names no
# card, so the report says it once for every option it applies to.
check_eq "rules: a rented T4 is not told to enable TF32" \
    "$(tuning t4 1)" "a rented data-centre card reaches the assumed speed only once the data loader is set up: check it in the first hour"
check_eq "rules: a rented V100 is not told to enable TF32" \
    "$(tuning v100-sxm2-16gb 1)" "a rented data-centre card reaches the assumed speed only once the data loader is set up: check it in the first hour"
check_eq "rules: an A100 in mixed precision is not told to enable TF32, and one card gets no NCCL advice" \
    "$(tuning a100-sxm4-40gb 1)" "a rented data-centre card reaches the assumed speed only once the data loader is set up: check it in the first hour"
check_eq "rules: eight rented H100 get NCCL advice" \
    "$(tuning h100-sxm5 8)" "a rented data-centre card reaches the assumed speed only once the data loader and NCCL are set up: check them in the first hour"
