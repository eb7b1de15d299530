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
