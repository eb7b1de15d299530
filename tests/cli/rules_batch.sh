#!/bin/sh
# tests/cli/rules_batch.sh — how the options reach a rule and its verdicts come back
# (core/sandbox: plugin_call_batch).  The worker sends back only the calls that returned
# something, each with its option's index, so a verdict must land on the option it was said of
# whatever the options around it returned; and an option's null fields are not sent at all, so
# a rule must read them as nil, as before, and find the same fields in pairs().
. "$ROOT/tests/cli/lib.sh"

mkdir -p "$T/plugins/rules"
# Says something of every option of 2 cards only, nil of one card and {} of the rest: the
# answers for a batch are sparse and interleaved with both kinds of nothing.
cat >"$T/plugins/rules/batch-pairs.lua" <<'LUA'
return {
  name = "batch-pairs", kind = "rule", version = "1.0.0",
  description = "A test rule: names every option of two cards.",
  evaluate = function(option, workload)
    if option.count == 1 then return nil end
    if option.count ~= 2 then return {} end
    return { { effect = "warn", weight = 0, because = "seen " .. option.id } }
  end,
}
LUA
# Says of every purchase whether its provider (null in a purchase's view) reads as nil, and
# how many fields pairs() visits that are nil by reading: none, null or not sent.
cat >"$T/plugins/rules/batch-nulls.lua" <<'LUA'
return {
  name = "batch-nulls", kind = "rule", version = "1.0.0",
  description = "A test rule: reads a purchase's null fields.",
  evaluate = function(option, workload)
    if option.acquisition == "rent" then return {} end
    local nil_in_pairs = 0
    for k, v in pairs(option) do
      if v == nil or option[k] == nil then nil_in_pairs = nil_in_pairs + 1 end
    end
    return { { effect = "warn", weight = 0,
               because = string.format("provider %s, system %s, %d nil in pairs",
                   tostring(option.provider), tostring(option.system), nil_in_pairs) } }
  end,
}
LUA

run "$GW" --kb "$SHIPPED_KB" --plugins "$T/plugins" decide "$ROOT/examples/vision-team.lua" --json
check_rc "rules batch: decide exits 0" 0
# examples/vision-team.lua on the shipped KB has 11 options of 2 cards (of 105: 54 of one card,
# 12 of 4, 22 of 8, 6 of 16), each named once, by its own id, and no other option named.
check_eq "rules batch: 11 options of 2 cards, each named by its own id" \
    "$(jqr '[.options[] | select(.count == 2) as $o | $o.verdicts[]?
             | select(.rule == "batch-pairs" and .because == "seen " + $o.id)] | length')" 11
check_eq "rules batch: no option of another count is named" \
    "$(jqr '[.options[] | select(.count != 2) | .verdicts[]? | select(.rule == "batch-pairs")]
            | length')" 0
# The 30 purchases (15 new, 15 used): a purchase's provider and system are null in its view;
# the rule reads both as nil, and pairs() visits no field that reads as nil.
check_eq "rules batch: every purchase reads its null fields as nil" \
    "$(jqr '[.options[].verdicts[]? | select(.rule == "batch-nulls"
             and .because == "provider nil, system nil, 0 nil in pairs")] | length')" 30
check_eq "rules batch: no rental is judged by the purchase rule" \
    "$(jqr '[.options[] | select(.acquisition == "rent") | .verdicts[]?
             | select(.rule == "batch-nulls")] | length')" 0
