#!/bin/sh
# tests/plugins/style.sh — every shipped plugin and test in one indentation style (two spaces a
# level, no tab: tests/plugins/lua_style.py), and the checker refuses the others.
. "$ROOT/tests/cli/lib.sh"
STYLE="$ROOT/tests/plugins/lua_style.py"

run python3 "$STYLE" "$ROOT"/plugins/*/*.lua
check_rc "style: every plugins/*/*.lua indents two spaces a level" 0
[ -z "$OUT" ] || fail "style: problems" "$(echo "$OUT" | head -5)"

printf 'local function f(x)\n  if x then\n    return {\n      a = 1,\n    }\n  end\n  return g(x,\n           1)\nend\n' >"$T/good.lua"
run python3 "$STYLE" "$T/good.lua"
check_rc "style: two spaces, an aligned continuation: accepted" 0

printf 'local function f(x)\n    if x then\n        return 1\n    end\nend\n' >"$T/four.lua"
run python3 "$STYLE" "$T/four.lua"
check_rc "style: four spaces a level: refused" 1
check_out "style: names the line and the expected indentation" "four.lua:2: indented 4 spaces, expected 2"

printf 'local function f(x)\n\treturn x\nend\n' >"$T/tab.lua"
run python3 "$STYLE" "$T/tab.lua"
check_rc "style: a tab: refused" 1
check_out "style: says it is a tab" "tab.lua:2: a tab in the indentation"

printf 'local s = [[\n   free text\n\tin a long string]]\nreturn s\n' >"$T/long.lua"
run python3 "$STYLE" "$T/long.lua"
check_rc "style: a long string's lines are its own" 0
