#!/bin/sh
# tests/plugins/hostile.sh — plugins that try to hang, exhaust memory, escape the sandbox, reach
# each other or hand back poisoned values.  Each must be stopped with a message naming it, exit
# 65 or 70 (never a signal or a hang), and leave the KB byte-for-byte as it was.
. "$ROOT/tests/cli/lib.sh"
H="$FIX/plugins/hostile"
# Small limits keep the suite fast; the defaults are far larger.
export GPUWISE_PLUGIN_INSTRUCTIONS=2000000 GPUWISE_PLUGIN_MEMORY_MB=32 GPUWISE_PLUGIN_SECONDS=5

KB=$(fresh_kb hostile)
cp "$KB" "$T/before.db"

# hostile NAME EXPECTED_RC TEXT: runs `prices refresh NAME` with only that plugin added.
hostile() {
    d="$T/p-$1"
    mkdir -p "$d"
    cp "$H/$1.lua" "$d/"
    start=$(date +%s)
    run timeout 60 "$GW" --kb "$KB" --plugins "$d" prices refresh "$1"
    took=$(( $(date +%s) - start ))
    check_rc "hostile $1: exit $2" "$2"
    check_err "hostile $1: says '$3'" "$3"
    check_err "hostile $1: names the plugin" "$1"
    if [ "$took" -le 20 ]; then pass "hostile $1: stopped in ${took}s"; else fail "hostile $1: took ${took}s"; fi
    if cmp -s "$KB" "$T/before.db"; then pass "hostile $1: KB unchanged"; else fail "hostile $1: KB changed"; fi
}

hostile loop 70 "instruction limit of 2000000 reached"
hostile pcall-loop 70 "instruction limit"
hostile xpcall-handler 70 "instruction limit"
hostile coroutine-loop 70 "instruction limit"
hostile memory-bomb 70 "memory limit of 32 MiB reached"
hostile string-rep 70 "string-rep.lua:"
hostile string-grow 70 "memory limit"
hostile bytecode 70 "binary chunks are not allowed"
hostile gc-finalizer 70 "__gc finalizers are not allowed"
hostile io 70 "undefined global 'io'"
hostile os-execute 70 "attempt to call a nil value (field 'execute')"
hostile require 70 "undefined global 'require'"
hostile debug 70 "undefined global 'debug'"
hostile package 70 "undefined global 'package'"
hostile string-metatable 70 "attempt to index a boolean value"
hostile cycle 65 "offers()[1].self: the table contains itself"
hostile nan-price 65 "price_per_hour: expected a finite number, got NaN"
hostile nul-name 65 "provider: a string contains a NUL byte"
hostile bad-utf8 65 "provider: a string is not valid UTF-8"
hostile huge-string 65 "a string of 10485760 bytes"
hostile deep 65 "nested deeper than"
hostile not-a-list 70 "offers: expected a list, got string"
hostile function-value 65 "expected data, got a function"
hostile wrong-types 65 "wrong-types: offers[1].price_per_hour: expected a number, got the text '2.50'"
check_err "hostile wrong-types: negative price named" "offers[2].price_per_hour: expected a number greater than 0"
check_err "hostile wrong-types: unknown GPU named" "offers[3].gpu: no GPU named 'Voodoo 5 6000'"
check_err "hostile wrong-types: bad currency named" "offers[4].currency: 'dollars' is not a currency code"
[ ! -e /tmp/gpuwise-hostile-was-here ] && pass "hostile os-execute: nothing ran" || fail "hostile os-execute: a command ran"

# A plugin that loops while its file loads stops every command that loads plugins, clearly.
mkdir -p "$T/p-load"
cp "$H/load-loop.lua" "$T/p-load/"
run timeout 60 "$GW" --kb "$KB" --plugins "$T/p-load" plugin list
check_rc "hostile load-loop: exit 70" 70
check_err "hostile load-loop: names file and limit" "load-loop.lua:2: instruction limit"

# A __gc added after setmetatable is never called: the run ends normally.
mkdir -p "$T/p-gc-late"
cp "$H/gc-late.lua" "$T/p-gc-late/"
KB2=$(fresh_kb gclate)
run timeout 60 "$GW" --kb "$KB2" --plugins "$T/p-gc-late" prices refresh gc-late
check_rc "hostile gc-late: ends normally" 0
check_out "hostile gc-late: stored its offer" "gc-late: 1 offer stored"

# Two plugins in one run: what one changes, the other does not see.
mkdir -p "$T/p-two"
cp "$H/meddler.lua" "$H/bystander.lua" "$T/p-two/"
run timeout 60 "$GW" --kb "$KB2" --plugins "$T/p-two" prices refresh meddler bystander
check_rc "hostile meddler/bystander: both run" 0
check_out "hostile bystander: saw no meddling" "bystander: 1 offer stored"

# plugin check reports the same problems without touching anything.
run timeout 60 "$GW" --kb "$KB" plugin check "$H/wrong-types.lua"
check_rc "hostile check wrong-types: exit 65" 65
check_out "hostile check wrong-types: file and line" "wrong-types.lua:4: wrong-types: offers[1].price_per_hour"
run timeout 60 "$GW" --kb "$KB" plugin check "$H/pcall-loop.lua"
check_rc "hostile check pcall-loop: exit 65" 65
check_out "hostile check pcall-loop: the limit with file:line" "pcall-loop.lua:5: instruction limit"
if cmp -s "$KB" "$T/before.db"; then pass "hostile: KB unchanged at the end"; else fail "hostile: KB changed"; fi

# The wall-clock limit, alone (a huge instruction budget): GPUWISE_PLUGIN_SECONDS=1.
mkdir -p "$T/p-time"
cp "$H/loop.lua" "$T/p-time/"
start=$(date +%s)
GPUWISE_PLUGIN_INSTRUCTIONS=1000000000000 GPUWISE_PLUGIN_SECONDS=1 \
    run timeout 60 "$GW" --kb "$KB" --plugins "$T/p-time" prices refresh loop
took=$(( $(date +%s) - start ))
check_rc "hostile loop, time limit: exit 70" 70
check_err "hostile loop, time limit: says so" "loop.lua:5: time limit of 1 s reached"
if [ "$took" -le 10 ]; then pass "hostile loop, time limit: stopped in ${took}s"; else fail "hostile loop, time limit: took ${took}s"; fi
