#!/bin/sh
# tests/plugins/worker.sh — what only the worker process can stop: C calls that never return
# (XPath, string.rep, table.move, a backtracking pattern), documents outside the Lua allocator,
# SIGINT during such a call; and the defects of the in-process sandbox: namespace nodes, pairs
# over read-only tables, errors inside xpcall, source hijacks, terminal escapes.  Each case:
# the exit status, the plugin named, the time taken, the KB byte-identical, no process left.
. "$ROOT/tests/cli/lib.sh"
H="$FIX/plugins/hostile"
export GPUWISE_PLUGIN_INSTRUCTIONS=2000000 GPUWISE_PLUGIN_MEMORY_MB=32 GPUWISE_PLUGIN_SECONDS=2

KB=$(fresh_kb worker)
cp "$KB" "$T/before.db"

# No process whose command line names the case's folder (a worker is a fork of gpuwise, so it
# has the same command line) is left.
no_process_left() {
    if ps -eo args | grep -v grep | grep -q -- "$1"; then fail "$2: no process left" "$(ps -eo pid,args | grep -- "$1" | grep -v grep)"
    else pass "$2: no process left"; fi
}

# case NAME EXPECTED_RC TEXT MAX_SECONDS [--provider X]: `prices refresh NAME` with only that
# plugin added.
case_() {
    name=$1 want=$2 text=$3 max=$4
    shift 4
    d="$T/w-$name-$#"
    mkdir -p "$d"
    cp "$H/$name.lua" "$d/"
    start=$(date +%s%N)
    run timeout 60 "$GW" --kb "$KB" --plugins "$d" prices refresh "$name" "$@"
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    label="worker $name${1:+ $2}"
    check_rc "$label: exit $want" "$want"
    check_err "$label: says '$text'" "$text"
    check_err "$label: names the plugin" "$name"
    if [ "$ms" -le $((max * 1000)) ]; then pass "$label: stopped in ${ms} ms"
    else fail "$label: took ${ms} ms, over ${max} s"; fi
    if cmp -s "$KB" "$T/before.db"; then pass "$label: KB unchanged"; else fail "$label: KB changed"; fi
    no_process_left "$d" "$label"
}

# XPath results: a namespace node is left out (it was a copy freed with the result), so
# [1] is nil: an ordinary error at the plugin's line, never a crash (139).
case_ xpath-namespace 70 "xpath-namespace.lua:7: attempt to index a nil value" 10
# One XPath call of minutes: killed at the time limit + the 0.5 s grace; its offer not stored.
# These four spin until the limit, so it is 0.5 s for them (the others stop long before 2 s).
GPUWISE_PLUGIN_SECONDS=0.5
case_ xpath-bomb 70 "xpath-bomb.lua: time limit of 0.5 s reached" 4
# string.rep("", 1e12), table.move over 1e12 slots, a backtracking pattern: the same.
case_ c-hang 70 "c-hang.lua: time limit of 0.5 s reached" 4
case_ c-hang 70 "c-hang.lua: time limit of 0.5 s reached" 4 --provider move
case_ c-hang 70 "c-hang.lua: time limit of 0.5 s reached" 4 --provider pattern
GPUWISE_PLUGIN_SECONDS=2
# Errors inside xpcall name the plugin's line (6), not "xpcall:3:".
case_ xpcall-loop 70 "xpcall-loop.lua:6: instruction limit of 2000000 reached" 10
check_err_not() { case "$ERR" in *"$2"*) fail "$1" "stderr has '$2'" ;; *) pass "$1" ;; esac; }
check_err_not "worker xpcall-loop: not the sandbox's xpcall" "xpcall:"
# pairs(string), pairs(gw): the state is the read-only proxy, never the table behind it.
case_ readonly-pairs 70 "readonly-pairs.lua:7: attempt to modify a read-only table (field 'rep')" 10
case_ readonly-pairs 70 "readonly-pairs.lua:7: attempt to modify a read-only table (field 'rep')" 10 --provider gw
# A plugin citing the curated Lambda price list: refused (65), Lambda's offers kept.
case_ source-hijack 65 "offers[1].source: 'lambda-cloud-pricing' is not one of this plugin's sources" 10
# Terminal escapes: the log escaped, the offer refused, the error escaped; no ESC byte on stderr.
case_ terminal-escape 65 "offers()[1].provider: control character U+001B" 10
check_err "worker terminal-escape: log escaped" 'terminal-escape: log: \x1b]0;pwned\x07\x1b[31mred'
esc=$(printf '\033')
case "$ERR" in *"$esc"*) fail "worker terminal-escape: no ESC on stderr" ;; *) pass "worker terminal-escape: no ESC on stderr" ;; esac
case_ terminal-escape 70 'terminal-escape.lua:7: \x1b[2J\x1b]0;gone\x07cleared' 10 --provider error
case "$ERR" in *"$esc"*) fail "worker terminal-escape error: no ESC on stderr" ;; *) pass "worker terminal-escape error: no ESC on stderr" ;; esac

# Documents outside the Lua allocator: the worker's address space is limited (the size at the
# fork + 4 x 32 MiB + 64 MiB), so the largest process stays far below the 2.9 GB it reached.
d="$T/w-xml-memory"
mkdir -p "$d"
cp "$H/xml-memory.lua" "$d/"
/usr/bin/time -f "%M" -o "$T/rss" "$GW" --kb "$KB" --plugins "$d" prices refresh xml-memory \
    >"$T/.out" 2>"$T/.err"
RC=$?
ERR=$(cat "$T/.err")
check_rc "worker xml-memory: exit 70" 70
check_err "worker xml-memory: names the plugin" "xml-memory.lua"
rss=$(tail -1 "$T/rss")
if nm "$GW" 2>/dev/null | grep -q '__asan_'; then
    skip "worker xml-memory: peak memory" "an AddressSanitizer build has no RLIMIT_AS"
elif [ "$rss" -lt 400000 ]; then pass "worker xml-memory: peak ${rss} KiB, under 400 MiB"
else fail "worker xml-memory: peak ${rss} KiB"; fi
if cmp -s "$KB" "$T/before.db"; then pass "worker xml-memory: KB unchanged"; else fail "worker xml-memory: KB changed"; fi
no_process_left "$d" "worker xml-memory"

# SIGINT while the worker is inside a C call (the XPath bomb, limit 60 s): gpuwise kills it,
# rolls back and exits 130 within a second; no worker left.
for sig in INT TERM; do
    d="$T/w-signal-$sig"
    mkdir -p "$d"
    cp "$H/xpath-bomb.lua" "$d/"
    GPUWISE_PLUGIN_SECONDS=60 "$GW" --kb "$KB" --plugins "$d" prices refresh xpath-bomb \
        >"$T/.out" 2>"$T/.err" &
    pid=$!
    # the worker is running once a second process names the folder
    wait_until 10 sh -c "[ \$(ps -eo args | grep -v grep | grep -c -- '$d') -ge 2 ]"
    sleep 0.3
    start=$(date +%s%N)
    kill -"$sig" "$pid"
    wait "$pid"
    RC=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    want=130; [ "$sig" = TERM ] && want=143
    check_rc "worker SIG$sig in a C call: exit $want" "$want"
    if [ "$ms" -le 1000 ]; then pass "worker SIG$sig: ended in ${ms} ms"; else fail "worker SIG$sig: took ${ms} ms"; fi
    if cmp -s "$KB" "$T/before.db"; then pass "worker SIG$sig: KB unchanged"; else fail "worker SIG$sig: KB changed"; fi
    no_process_left "$d" "worker SIG$sig"
done
