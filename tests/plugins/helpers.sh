#!/bin/sh
# tests/plugins/helpers.sh — what the gw module gives the plugins' tests (gw.test) and the
# plugins' money (gw.money), each shown failing where it must.
. "$ROOT/tests/cli/lib.sh"
D="$T/plugins/checklists"
mkdir -p "$D"
cat >"$D/mini.lua" <<'LUA'
return {
  name = "mini", kind = "checklist", version = "1.0", description = "two items",
  items = {
    { id = "a", section = "S", severity = "high", question = "Q1?", how_to_check = "H1" },
    { id = "b", severity = "low", question = "Q2?", how_to_check = "H2" },
  },
}
LUA

# each test_ function is one case; its name says what it expects
cat >"$D/mini_test.lua" <<'LUA'
local bad = { items = { { id = "a", question = "Q", how_to_check = "H", severity = "high" },
                        { id = "a", question = "Q", how_to_check = "H", severity = "high" } } }
return {
  test_pass_two_items = function(p) gw.test.checklist_items(p, 2) end,
  test_fail_count = function(p) gw.test.checklist_items(p, 3) end,
  test_fail_section = function(p) gw.test.checklist_items(p, 2, { "section" }) end,
  test_fail_duplicate = function() gw.test.checklist_items(bad, 2) end,
  test_fail_severity = function()
    gw.test.checklist_items({ items = { { id = "x", question = "Q", how_to_check = "H",
                                          severity = "urgent" } } }, 1)
  end,
  test_fail_empty_question = function()
    gw.test.checklist_items({ items = { { id = "x", question = "", how_to_check = "H",
                                          severity = "low" } } }, 1)
  end,
  test_pass_with = function()
    local base = { a = 1, b = 2 }
    local t = gw.test.with(base, { b = 3, c = 4 })
    assert(t.a == 1 and t.b == 3 and t.c == 4, "merged")
    assert(base.b == 2 and base.c == nil, "base untouched")
    assert(t ~= base, "a new table")
  end,
  test_pass_money = function()
    assert(gw.money(41000, "CNY") == "CNY 41,000", gw.money(41000, "CNY"))
    assert(gw.money(2750, "USD") == "$2,750", gw.money(2750, "USD"))
    assert(gw.money(3.05, "USD") == "$3.05", gw.money(3.05, "USD"))
    assert(gw.money(1234.5, "EUR", 2) == "\u{20ac}1,234.50", gw.money(1234.5, "EUR", 2))
    assert(gw.money(-1500) == "-1,500", gw.money(-1500))
    assert(gw.money(0 / 0, "USD") == "n/a", gw.money(0 / 0, "USD"))
    assert(not pcall(gw.money, 1, "USD", 7), "decimals over 6 refused")
  end,
}
LUA

run "$GW" plugin test "$D/mini.lua"
check_rc "gw.test: a failing helper fails its test (exit 2)" 2
for t in pass_two_items pass_with pass_money; do
    check_out "gw.test: test_$t passes" "ok - mini: test_$t"
done
check_out "checklist_items: the count" "not ok - mini: test_fail_count: $D/mini_test.lua:5: expected 3 items, got 2"
check_out "checklist_items: an extra field" "not ok - mini: test_fail_section: $D/mini_test.lua:6: item 2 lacks section"
check_out "checklist_items: a duplicate id" "not ok - mini: test_fail_duplicate: $D/mini_test.lua:7: duplicate id a"
check_out "checklist_items: the severity" "x: severity urgent"
check_out "checklist_items: an empty field" "item 1 lacks question"
check_eq "gw.test: five cases fail, three pass" "$(echo "$OUT" | grep -c '^not ok - mini: test_fail_')/$(echo "$OUT" | grep -c '^ok - mini: test_pass_')" "5/3"
