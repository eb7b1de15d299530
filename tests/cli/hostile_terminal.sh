#!/bin/sh
# tests/cli/hostile_terminal.sh — text that reaches a terminal is shown, never obeyed: escape
# sequences, C1 controls, bidi overrides and line breaks from plugin file names, importers,
# pricing plugins, dumps and a server's Location header come out escaped ("\x1b", "\u009b",
# "\u202e", "\n") in text output and in error messages, and text tables are cut and padded by
# display width, never inside a UTF-8 character.
. "$ROOT/tests/cli/lib.sh"

ESC=$(printf '\033')
RLO=$(printf '\342\200\256')     # U+202E RIGHT-TO-LEFT OVERRIDE
LRI=$(printf '\342\201\246')     # U+2066 LEFT-TO-RIGHT ISOLATE
CSI8=$(printf '\302\233')        # U+009B, the 8-bit CSI

# raw_controls FILE: true when FILE holds a byte a terminal would act on rather than show (C0
# controls but tab and line feed, DEL, C1 controls in UTF-8, the bidi marks, embeddings,
# overrides and isolates, U+2028/2029) or invalid UTF-8.
RAW=$(printf '[\001-\010\013-\037\177]|\302[\200-\237]|\330\234|\342\200[\216\217\250-\256]|\342\201[\246-\251]')
raw_controls() {
    LC_ALL=C grep -qE "$RAW" "$1" && return 0
    command -v iconv >/dev/null 2>&1 && ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
}

# clean NAME: neither stdout nor stderr of the last run holds a raw control.
clean() {
    if raw_controls "$T/.out"; then fail "$1: stdout is clean" "$(od -c "$T/.out" | head -5)"
    else pass "$1: stdout is clean"; fi
    if raw_controls "$T/.err"; then fail "$1: stderr is clean" "$(od -c "$T/.err" | head -5)"
    else pass "$1: stderr is clean"; fi
}

# check_both NAME TEXT: stdout or stderr shows TEXT (where a name is listed or refused).
check_both() {
    case "$OUT$ERR" in
        *"$2"*) pass "$1" ;;
        *) fail "$1" "neither output has '$2': $OUT $ERR" ;;
    esac
}

# check_line NAME A B: one line of stdout holds both A and B (a row was not split).
check_line() {
    if grep -F -- "$2" "$T/.out" | grep -qF -- "$3"; then pass "$1"
    else fail "$1" "no line of stdout has both '$2' and '$3'"; fi
}

KB=$(fresh_kb term)

# ---- plugin file names: in `plugin list` and in a load error ------------------------------------
mkdir -p "$T/names" "$T/broken"
printf 'return { name = "hp", kind = "rule", version = "1", description = "x",
  evaluate = function() return {} end }\n' >"$T/names/ok${ESC}[2J${RLO}txt.lua"
run "$GW" --kb "$KB" --plugins "$T/names" plugin list
check_both "plugin list: a file name's ESC and U+202E shown escaped" 'ok\x1b[2J\u202etxt.lua'
clean "plugin list"

printf 'return { name =' >"$T/broken/bad${ESC}]0;owned$(printf '\007')${RLO}.lua"
run "$GW" --kb "$KB" --plugins "$T/broken" plugin list
check_err "load error: the file name's OSC, BEL and U+202E shown escaped" \
    'bad\x1b]0;owned\x07\u202e.lua'
clean "load error"

# ---- names from an importer and offers from a pricing plugin -----------------------------------
# ESC and the C1 controls are refused at ingest; a line break and the bidi marks are stored, and
# every text output must show them escaped: "Evil\nGPU" is one row, never two.
mkdir -p "$T/imp" "$T/pr"
cat >"$T/imp/evil.lua" <<EOF
return {
  name = "evil", kind = "importer", version = "1.0", description = "hostile names",
  import = function(ctx, text)
    return { { kind = "gpu", id = "evil-gpu", name = "Evil\nGPU ${RLO}X${LRI}", vendor = "NVIDIA",
               memory_gb = 24 } }
  end,
}
EOF
cat >"$T/pr/evilp.lua" <<EOF
return {
  name = "evilp", kind = "pricing", version = "1.0", description = "hostile offers",
  offers = function(ctx)
    return { { provider = "Bad\nCloud", gpu = "RTX 4090", gpu_count = 1, price_per_hour = 0.01,
               currency = "USD", region = "eu${RLO}-1", spot = false, instance = "i\nx",
               as_of = "2026-01-01" } }
  end,
}
EOF
echo x >"$T/in.txt"
run "$GW" --kb "$KB" --plugins "$T/imp" kb import --with evil "$T/in.txt"
check_rc "importer with a line break in a name: stored" 0
run "$GW" --kb "$KB" --plugins "$T/pr" prices refresh evilp
check_rc "pricing plugin with a line break in a provider: stored" 0

run "$GW" --kb "$KB" kb show evil-gpu
check_out "kb show: the name on one line, escaped" 'Evil\nGPU \u202eX\u2066 (evil-gpu)'
clean "kb show"
run "$GW" --kb "$KB" kb list --where 'id ~ evil' --columns id,name,memory_gb
check_line "kb list: the name's row on one line" 'evil-gpu  Evil\nGPU \u202eX\u2066' ' 24'
check_out_not "kb list: no forged row" "
GPU "
clean "kb list"
run "$GW" --kb "$KB" kb search evil
check_out "kb search: the hit's name escaped" 'Evil\nGPU \u202eX\u2066'
clean "kb search"
run "$GW" --kb "$KB" offers --gpu "RTX 4090"
check_line "offers: provider and instance escaped in their row" 'Bad\nCloud' '  i\nx  '
check_line "offers: the region's U+202E escaped in the same row" 'Bad\nCloud' 'eu\u202e-1'
check_out_not "offers: no forged row" "
Cloud"
clean "offers"
run "$GW" --kb "$KB" prices list
check_out "prices list: the provider escaped" 'Bad\nCloud'
clean "prices list"

# ---- a dump with C1 controls and a line break ----------------------------------------------------
NEL=$(printf '\302\205')
sed -e "s|>NVIDIA GeForce RTX 3090</product_name>|>NVIDIA GeForce RTX 3090${CSI8}2J${NEL}forged<\/product_name>|" \
    -e "s|<driver_version>535.183.01<|<driver_version>535\&#10;verdict: PASS<|" \
    "$FIX/nvsmi/healthy-3090.xml" >"$T/c1.xml"
run "$GW" --kb "$KB" inspect "$T/c1.xml"
check_out "inspect: C1 controls in the product name shown escaped" \
    'GPU 0: NVIDIA GeForce RTX 3090\u009b2J\u0085forged'
check_out "inspect: a line break in the driver version cannot forge a verdict" \
    'driver 535\nverdict: PASS, CUDA'
clean "inspect"
run "$GW" --kb "$KB" inspect "$T/c1.xml" --format md
clean "inspect --format md"

# ---- a server's Location header in a fetch error ---------------------------------------------
if command -v python3 >/dev/null 2>&1; then
    mkdir -p "$T/www" "$T/fetch/pricing"
    python3 "$ROOT/tests/plugins/fetch_server.py" "$T/www" "$T/port" 60 &
    SERVER=$!
    trap 'kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
    if wait_until 10 test -s "$T/port"; then
        cat >"$T/fetch/pricing/escloud.lua" <<EOF
return {
  name = "escloud", kind = "pricing", version = "1", description = "a hostile redirect",
  needs_input = true,
  urls = { list = "http://127.0.0.1:$(cat "$T/port")/redirect-escape" },
  offers = function(ctx) return {} end,
}
EOF
        run env GPUWISE_FETCH_ALLOW_PRIVATE=1 XDG_CACHE_HOME="$T/cache" timeout 30 \
            "$GW" --kb "$KB" --plugins "$T/fetch" prices fetch escloud --timeout 5
        check_err "fetch: the Location's OSC, CSI and U+202E shown escaped" \
            'redirected to http://example.invalid/\x1b]0;owned\x07\x1b[2J\u202ecsv.exe'
        clean "fetch error"
    else
        fail "fetch server started" "no port after 10 s"
    fi
else
    skip "fetch error" "python3 not found (the test's HTTP server)"
fi

# ---- display width: CJK and emoji in tables --------------------------------------------------
# 中 and 🚀 are 2 columns each (3 and 4 bytes of UTF-8).
cat >"$T/imp/wide.lua" <<'EOF'
return {
  name = "wide", kind = "importer", version = "1.0", description = "wide names",
  import = function(ctx, text)
    return {
      { kind = "gpu", id = "wide-a", name = "中文显卡", vendor = "NVIDIA", memory_gb = 8 },
      { kind = "gpu", id = "wide-b", name = "ABCDEFGH", vendor = "NVIDIA", memory_gb = 16 },
      { kind = "gpu", id = "wide-c", name = "🚀🚀x", vendor = "NVIDIA", memory_gb = 32 } }
  end,
}
EOF
run "$GW" --kb "$KB" --plugins "$T/imp" kb import --with wide "$T/in.txt"
check_rc "wide names: stored" 0
run "$GW" --kb "$KB" kb list --where 'id ~ wide' --columns id,name,memory_gb --sort id
# The name column is max(4, 8, 8, 5) = 8 columns wide; memory_gb is 9 (its title), right-aligned
# after two spaces: "8" gets 8 spaces before it, "16" and "32" 7.  So after a name of 8 columns
# come 2 + 8 = 10 or 2 + 7 = 9 spaces, after "🚀🚀x" (5 columns) 3 + 2 + 7 = 12.
# "中文显卡" is 8 columns in 12 bytes: padded by bytes the row would be 4 columns short.
check_out "kb list: a CJK name padded by display width" "wide-a  中文显卡          8"
check_out "kb list: an ASCII name of the same width" "wide-b  ABCDEFGH         16"
check_out "kb list: emoji 2 columns each (🚀🚀x is 5)" "wide-c  🚀🚀x            32"
clean "kb list, wide"

# A provider of 25 CJK characters (50 columns) is cut to 40 columns: 20 whole characters, where
# 40 bytes would split the 14th character.
P25=$(printf '中%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25)
P20=$(printf '中%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20)
cat >"$T/pr/widep.lua" <<EOF
return {
  name = "widep", kind = "pricing", version = "1.0", description = "a wide provider",
  offers = function(ctx)
    return { { provider = "$P25", gpu = "RTX 4090", gpu_count = 1, price_per_hour = 0.02,
               currency = "USD", region = "eu-1", spot = false, instance = "w1",
               as_of = "2026-01-01" } }
  end,
}
EOF
run "$GW" --kb "$KB" --plugins "$T/pr" prices refresh widep
check_rc "wide provider: stored" 0
run "$GW" --kb "$KB" offers --gpu "RTX 4090"
check_out "offers: a 50-column provider cut to 20 whole characters" "  $P20  w1"
clean "offers, wide"
run "$GW" --kb "$KB" prices list
check_out "prices list: a 50-column provider cut to 20 whole characters" "$P20      1"
clean "prices list, wide"

# decide's option column is 44 columns: "rent 1x rtx-4090 (" takes 18, which leaves 26 for the
# provider, 13 of its characters; 44 bytes would end 2 bytes into the 9th.
P13=$(printf '中%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13)
run "$GW" --kb "$KB" decide "$ROOT/examples/vision-team.lua"
check_out "decide: a provider with a line break escaped in its option's row" '(Bad\nCloud)'
check_out "decide: a 50-column provider cut to 13 whole characters" "rent 1x rtx-4090 (${P13} "
clean "decide"
