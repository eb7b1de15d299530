#!/bin/sh
# tests/plugins/hostile_workers.sh — plugins that poison what runs after them, and signals that
# leave children behind: a plugin that hoards XML documents (memory outside its Lua cap) followed
# by an honest one; a plugin that runs its worker out of memory; names that would lead the prices
# cache out of its folder; a shipped plugin changed by one byte; two SIGTERMs during `inspect`
# while a slow nvidia-smi and its own child run.  Each case: the exit status, the message naming
# the right plugin, no process left.
. "$ROOT/tests/cli/lib.sh"
export GPUWISE_PLUGIN_INSTRUCTIONS=50000000 GPUWISE_PLUGIN_MEMORY_MB=32 GPUWISE_PLUGIN_SECONDS=20
KB=$(fresh_kb hostile_workers) || { fail "hostile_workers: a copy of the shipped KB"; exit 1; }
export GPUWISE_KB="$KB" XDG_CACHE_HOME="$T/xdg-cache"

# ---- 1. a plugin that keeps documents cannot make the next one fail -------------------------
# a-hoard parses documents and keeps them all (each outside its Lua allocator) until libxml2 is
# refused memory; b-good then needs 8 MiB of Lua strings, well under its 32 MiB cap.  When both
# shared a worker, b-good failed with "not enough memory", named as the culprit.
mkdir -p "$T/hoard"
cat >"$T/hoard/a-hoard.lua" <<'EOF'
local kept = {}
return {
  name = "a-hoard", kind = "pricing", version = "1", description = "keeps every document",
  offers = function(ctx)
    local text = "<r>" .. string.rep("<a b='c'>d</a>", 20000) .. "</r>"
    for i = 1, 100000 do
      local doc = gw.xml.parse(text)
      if not doc then break end
      kept[#kept + 1] = doc
    end
    return {}
  end,
}
EOF
cat >"$T/hoard/b-good.lua" <<'EOF'
return {
  name = "b-good", kind = "pricing", version = "1", description = "an honest plugin",
  offers = function(ctx)
    local s = string.rep("x", 8 * 1024 * 1024)
    return { { provider = "goodcloud", gpu = "H100 SXM", gpu_count = 1,
               price_per_hour = 2.5 + 0 * #s, currency = "USD" } }
  end,
}
EOF
# An AddressSanitizer build runs its workers without RLIMIT_AS (the shadow memory needs the
# address space), so neither the hoarder's limit nor an out-of-memory report can be seen there.
asan=0
if nm "$GW" 2>/dev/null | grep -q '__asan_'; then asan=1; fi
if [ "$asan" = 1 ]; then
    skip "hoarder then honest" "an AddressSanitizer build has no RLIMIT_AS"
else
run timeout 120 "$GW" --plugins "$T/hoard" prices refresh a-hoard b-good
check_rc "hoarder then honest: exit 0" 0
check_out "hoarder then honest: b-good's offer stored" "b-good: 1 offer stored"
run "$GW" offers --where "provider = 'goodcloud'"
check_out "hoarder then honest: the offer is in the KB" "goodcloud"
fi

# ---- 2. out of memory is said so, naming the plugin ------------------------------------------
# The plugin builds 5,000 offers (about 5 MB of Lua strings), then keeps documents until
# libxml2 is refused memory; handing the offers back then needs memory the worker has not got.
mkdir -p "$T/oom"
cat >"$T/oom/oom.lua" <<'EOF'
local kept = {}
return {
  name = "oom", kind = "pricing", version = "1", description = "runs its worker out of memory",
  offers = function(ctx)
    local out, s = {}, string.rep("x", 1000)
    for i = 1, 5000 do
      out[i] = { provider = s .. i, gpu = "H100 SXM", gpu_count = 1, price_per_hour = 2,
                 currency = "USD" }
    end
    local text = "<r>" .. string.rep("<a b='c'>d</a>", 200) .. "</r>"
    for i = 1, 10000000 do
      local doc = gw.xml.parse(text)
      if not doc then break end
      kept[#kept + 1] = doc
    end
    return out
  end,
}
EOF
if [ "$asan" = 1 ]; then
    skip "out of memory" "an AddressSanitizer build has no RLIMIT_AS"
else
cp "$KB" "$T/before.db"
run timeout 120 "$GW" --plugins "$T/oom" prices refresh oom
check_rc "out of memory: exit 70" 70
check_err "out of memory: said so, naming the plugin and the limit" \
    "oom.lua: plugin 'oom': out of memory (limit 32 MB a plugin, GPUWISE_PLUGIN_MEMORY_MB"
case "$ERR" in
*Segmentation*|*signal*) fail "out of memory: not a crash" "$ERR" ;;
*) pass "out of memory: not a crash" ;;
esac
cmp -s "$KB" "$T/before.db" && pass "out of memory: KB unchanged" || fail "out of memory: KB unchanged"
fi

# ---- 3. plugin names: [a-z0-9][a-z0-9-]* ---------------------------------------------------
# A name is a folder of the prices cache (prices/NAME/): '.', '..', a dot or a slash would lead
# it elsewhere; upper case folds into another name on some file systems.
n=0
for name in . .. A a.b a/b -a a_b; do
    n=$((n + 1))
    f="$T/name$n.lua"
    printf 'return { name = "%s", kind = "rule", version = "1", description = "x",\n  evaluate = function() return {} end }\n' "$name" >"$f"
    run "$GW" plugin check "$f"
    check_rc "name '$name': refused (65)" 65
    case "$OUT$ERR" in   # plugin check lists a plugin's problems on stdout
    *"name '$name': use lower-case letters, digits and '-', starting with a letter or digit"*)
        pass "name '$name': says why" ;;
    *) fail "name '$name': says why" "$OUT$ERR" ;;
    esac
done
# loaded from a folder too (prices fetch and refresh load every pricing plugin)
mkdir -p "$T/dotdot/pricing"
cat >"$T/dotdot/pricing/up.lua" <<'EOF'
return { name = "..", kind = "pricing", version = "1", description = "x",
  urls = { a = "https://example.com/a" }, offers = function() return {} end }
EOF
# (a plugin of a folder with a problem in its table is a configuration error, 78, as any other)
run "$GW" --plugins "$T/dotdot" prices refresh
check_rc "name '..' in a folder: refused (78)" 78
check_err "name '..' in a folder: names the file and line" "up.lua:1: name '..': use lower-case"
[ ! -e "$T/xdg-cache" ] && pass "name '..': no cache written" ||
    fail "name '..': no cache written"
# every shipped plugin's name passes
bad=$(grep -h '^  name = "' "$ROOT"/plugins/*/*.lua | sed 's/^  name = "\([^"]*\)".*/\1/' |
      grep -v '^[a-z0-9][a-z0-9-]*$')
[ -z "$bad" ] && pass "shipped plugin names pass" || fail "shipped plugin names pass" "$bad"
run "$GW" plugin list
check_rc "shipped plugins: plugin list loads them all (0)" 0

# ---- 4. shipped or not is gpuwise's own decision, from the text it read ---------------------
# cn-market cites the KB's curated article sources, which only a shipped plugin may.  An exact
# copy is still the shipped text; one byte changed (in its first comment) makes it a user
# plugin, whose citations are refused.
mkdir -p "$T/same/pricing" "$T/changed/pricing"
cp "$ROOT/plugins/pricing/cn-market.lua" "$T/same/pricing/"
# byte 4 of the file is the first letter after "-- " of its first comment line: flip its case
head -c 3 "$ROOT/plugins/pricing/cn-market.lua" >"$T/changed/pricing/cn-market.lua"
head -c 4 "$ROOT/plugins/pricing/cn-market.lua" | tail -c 1 | tr 'a-zA-Z' 'A-Za-z' \
    >>"$T/changed/pricing/cn-market.lua"
tail -c +5 "$ROOT/plugins/pricing/cn-market.lua" >>"$T/changed/pricing/cn-market.lua"
diffs=$(cmp -l "$ROOT/plugins/pricing/cn-market.lua" "$T/changed/pricing/cn-market.lua" | wc -l)
check_eq "one byte changed" "$diffs" 1
run "$GW" --plugins "$T/same" plugin list --json
check_out "exact copy: shipped" '"compiled": true'
run "$GW" --plugins "$T/same" prices refresh cn-market
check_rc "exact copy: may cite the curated sources (0)" 0
run "$GW" --plugins "$T/changed" plugin list --json
case "$OUT" in
*"$T/changed/pricing/cn-market.lua"*) pass "one byte changed: the copy is the one loaded" ;;
*) fail "one byte changed: the copy is the one loaded" ;;
esac
run "$GW" --plugins "$T/changed" prices refresh cn-market
check_rc "one byte changed: a user plugin (65)" 65
check_err "one byte changed: its curated citation refused" "is not one of this plugin's sources"

# ---- 5. a second SIGTERM never leaves nvidia-smi's group running -----------------------------
# The fake nvidia-smi is slow (it prints nothing for 300 s) and starts a child of its own.  Two
# SIGTERMs come in quick succession, the second 0 to 30 ms after the first; the first may even
# come before nvidia-smi has started.  Once gpuwise has ended, no process of the group is left.
mkdir -p "$T/smi"
cat >"$T/smi/nvidia-smi" <<EOF
#!/bin/sh
echo \$\$ >"$T/smi.pid"
sleep 300 &
wait
EOF
chmod +x "$T/smi/nvidia-smi"
# is_gpuwise PID: the process runs gpuwise (env has exec'd it)
GW_EXE=$(readlink -f "$GW")
is_gpuwise() { [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$GW_EXE" ]; }
# group_gone PGID: no process of that group runs (zombies waiting for their parent aside)
group_gone() { ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { f = 1 } END { exit f }'; }
left=0 rounds=0 bad_rc=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
    rm -f "$T/smi.pid"
    env PATH="$T/smi:/usr/bin:/bin" "$GW" inspect >/dev/null 2>&1 &
    gw=$!
    # rounds 1-4: the first SIGTERM once gpuwise runs (it may not have started nvidia-smi yet;
    # before the exec, the shell's own child would take the signal)
    wait_until 10 is_gpuwise "$gw"
    [ "$i" -gt 4 ] && wait_until 10 test -s "$T/smi.pid"
    gap=$(( (i % 4) * 10 ))
    kill -TERM "$gw" 2>/dev/null
    [ "$gap" -gt 0 ] && sleep "0.0$gap" 2>/dev/null
    kill -TERM "$gw" 2>/dev/null
    wait "$gw"
    rc=$?
    [ "$rc" = 143 ] || bad_rc="$bad_rc round $i: $rc;"
    rounds=$((rounds + 1))
    if [ -s "$T/smi.pid" ]; then
        pg=$(cat "$T/smi.pid")
        if ! wait_until 2 group_gone "$pg"; then
            left=$((left + 1))
            kill -9 -- "-$pg" 2>/dev/null
        fi
    fi
done
check_eq "two SIGTERMs, $rounds rounds: gpuwise ended with 143 each time" "$bad_rc" ""
check_eq "two SIGTERMs, $rounds rounds: no process of nvidia-smi's group left" "$left" 0
