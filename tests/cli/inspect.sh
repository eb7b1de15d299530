#!/bin/sh
# tests/cli/inspect.sh — `gpuwise inspect` end to end: exit codes 0/2/65/66/69, text, JSON,
# Markdown and HTML, running nvidia-smi, hostile dumps opened with nothing else, real dumps.
. "$ROOT/tests/cli/lib.sh"
NV="$FIX/nvsmi"
KB="$ROOT/kb/gpuwise.db"

# ---- exit codes ----
run "$GW" --kb "$T/no-kb.db" inspect "$NV/healthy-3090.xml"
check_rc "inspect: a healthy dump exits 0" 0
check_out "inspect: text names the GPU" "GPU 0: NVIDIA GeForce RTX 3090 [00000000:01:00.0]"
check_out "inspect: text quotes the evidence" "gpu/fb_memory_usage/total = 24576 MiB (line 56)"
check_err "inspect: says when there is no KB" "cards are not identified"
case "$OUT" in *"$(printf '\033')"*) fail "inspect: no colour when stdout is not a terminal" ;;
    *) pass "inspect: no colour when stdout is not a terminal" ;; esac

for f in hw-slowdown-3090 retired-pending-v100 remapped-unc-a100; do
    run "$GW" --kb "$T/no-kb.db" inspect "$NV/$f.xml"
    check_rc "inspect: $f exits 2" 2
    check_err "inspect: $f says a check failed" "failed"
done
run "$GW" --kb "$T/no-kb.db" inspect "$NV/pcie-x4-3090.xml"
check_rc "inspect: a WARN alone exits 0" 0
check_out "inspect: x4 of x16 under load" "WARN    bus.pcie_link"

run "$GW" inspect "$NV/not-nvsmi.xml"
check_rc "inspect: XML that is not a dump exits 65" 65
check_err "inspect: names the root element" "root element is <html>, not <nvidia_smi_log>"
run "$GW" inspect "$NV/plain-text.txt"
check_rc "inspect: text that is not XML exits 65" 65
check_err "inspect: names file and line" "plain-text.txt:1:"
head -c 2000 "$NV/healthy-3090.xml" >"$T/truncated.xml"
run "$GW" inspect "$T/truncated.xml"
check_rc "inspect: a truncated dump exits 65" 65
run "$GW" inspect "$T/missing.xml"
check_rc "inspect: a missing file exits 66" 66
check_err "inspect: names the missing file" "missing.xml"
start=$(date +%s)
run "$GW" inspect /dev/zero
check_rc "inspect: an endless file is refused (65)" 65
check_err "inspect: says it is too large" "too large"
[ $(( $(date +%s) - start )) -le 5 ] && pass "inspect: an endless file is refused fast" ||
    fail "inspect: an endless file is refused fast" "took $(( $(date +%s) - start ))s"
run "$GW" inspect a.xml b.xml
check_rc "inspect: two files is a usage error" 64

# ---- no file: nvidia-smi ----
mkdir -p "$T/empty" "$T/bin" "$T/badbin"
run env PATH="$T/empty" "$GW" inspect
check_rc "inspect: no nvidia-smi on PATH exits 69" 69
check_err "inspect: says how to give a dump" "nvidia-smi not found; give a dump: nvidia-smi -q -x > dump.xml"
cat >"$T/bin/nvidia-smi" <<EOF
#!/bin/sh
[ "\$1 \$2" = "-q -x" ] || { echo "unexpected arguments: \$*"; exit 3; }
cat "$NV/hw-slowdown-3090.xml"
EOF
chmod +x "$T/bin/nvidia-smi"
run env PATH="$T/bin:/usr/bin:/bin" "$GW" --kb "$T/no-kb.db" inspect
check_rc "inspect: runs nvidia-smi -q -x and judges its dump" 2
check_out "inspect: names the source" "nvidia-smi -q -x: driver 535.183.01"
cat >"$T/badbin/nvidia-smi" <<'EOF'
#!/bin/sh
echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
exit 9
EOF
chmod +x "$T/badbin/nvidia-smi"
run env PATH="$T/badbin:/usr/bin:/bin" "$GW" inspect
check_rc "inspect: a failing nvidia-smi exits 69" 69
check_err "inspect: quotes nvidia-smi's reason" "couldn't communicate with the NVIDIA driver"

# ---- standard input ----
"$GW" --kb "$T/no-kb.db" inspect - <"$NV/retired-pending-v100.xml" >"$T/stdin.out" 2>/dev/null
check_eq "inspect: - reads standard input" "$?" 2
grep -q "FAIL    memory.retired_pages" "$T/stdin.out" && pass "inspect: stdin dump judged" ||
    fail "inspect: stdin dump judged" "$(head -3 "$T/stdin.out")"

# ---- JSON ----
run "$GW" --kb "$T/no-kb.db" --json inspect "$NV/remapped-unc-a100.xml"
jq_all _j1 '.gpus | length' \
    _j2 '.verdict' \
    _j3 '.gpus[1].checks[] | select(.id == "memory.remapped_rows") | .status' \
    _j4 '.gpus[1].checks[] | select(.id == "memory.remapped_rows") | .evidence[1].path' \
    _j5 '.gpus[0].memory_total_mib' \
    _j6 '.gpus[1].driver_version' \
    _j7 '.gpus[0].checks[0] | keys_unsorted | join(",")'
check_rc "inspect --json: exit 2 still" 2
check_eq "inspect --json: two GPUs" "$_j1" 2
check_eq "inspect --json: verdict" "$_j2" FAIL
check_eq "inspect --json: remapped rows fail on GPU 1" \
    "$_j3" FAIL
check_eq "inspect --json: evidence path" \
    "$_j4" \
    "gpu/remapped_rows/remapped_row_unc"
check_eq "inspect --json: memory total" "$_j5" 81920
check_eq "inspect --json: driver per GPU" "$_j6" "535.129.03"
check_eq "inspect --json: check fields" "$_j7" \
    "id,group,status,fail,warn,message,evidence_text,evidence"

# ---- with the knowledge base ----
if [ -f "$KB" ]; then
    run "$GW" --kb "$KB" --json inspect "$NV/memory-mismatch-3090.xml"
    check_rc "inspect: a 3090 with 20 GB exits 2" 2
    check_eq "inspect: resolves the 3090" "$(jqr '.gpus[0].kb_id')" rtx-3090
    check_eq "inspect: memory does not match" \
        "$(jqr '.gpus[0].checks[] | select(.id == "identity.memory_total") | .status')" FAIL
    run "$GW" --kb "$KB" --json inspect "$NV/healthy-3090.xml"
    check_rc "inspect: a healthy 3090 with the KB exits 0" 0
    check_eq "inspect: 24576 MiB is a 3090" \
        "$(jqr '.gpus[0].checks[] | select(.id == "identity.memory_total") | .status')" PASS
    check_eq "inspect: 350 W is the 3090's TDP" \
        "$(jqr '.gpus[0].checks[] | select(.id == "thermal.power_limit") | .status')" PASS
else
    skip "inspect with the KB" "kb/gpuwise.db not built"
fi

# ---- documents ----
run "$GW" --kb "$T/no-kb.db" --format md inspect "$NV/retired-pending-v100.xml"
check_rc "inspect --format md: exit 2" 2
check_out "inspect --format md: verdict" "**Verdict: FAIL**"
check_out "inspect --format md: a table row" "| **FAIL** | memory.retired\\_pages |"
run "$GW" --kb "$T/no-kb.db" --format html -o "$T/inspection.html" inspect "$NV/healthy-3090.xml"
check_rc "inspect --format html -o: exit 0" 0
grep -q "<table" "$T/inspection.html" 2>/dev/null && pass "inspect --format html: a table" ||
    fail "inspect --format html: a table" "no <table> in $T/inspection.html"

# ---- the option table: help, mistakes, formats ----
run "$GW" inspect --help
check_rc "inspect --help: exit 0" 0
check_out "inspect --help: the synopsis" "usage: gpuwise inspect [OPTIONS] [FILE.xml]"
check_out "inspect --help: the exit statuses" "2 a check failed"
run "$GW" inspect "$NV/healthy-3090.xml" --jsn
check_rc "inspect: an unknown option exits 64" 64
check_err "inspect: suggests the option meant" "gpuwise inspect: unknown option '--jsn' (did you mean --json?)"
run "$GW" inspect a.xml b.xml
check_err "inspect: two files, one line" "gpuwise inspect: too many operands"
check_eq "inspect: two files, no usage text" "$(printf '%s\n' "$ERR" | wc -l | tr -d ' ')" 1
run "$GW" --kb "$T/no-kb.db" inspect -- "$NV/healthy-3090.xml"
check_rc "inspect -- FILE: exit 0" 0
run "$GW" --kb "$T/no-kb.db" inspect "$NV/healthy-3090.xml" --format csv
check_rc "inspect --format csv: exit 64" 64
check_err "inspect --format csv: says what it writes" "inspect cannot write csv (it writes text, md, html or json)"
run "$GW" --kb "$T/no-kb.db" inspect "$NV/healthy-3090.xml" -o "$T/inspection.csv"
check_rc "inspect -o x.csv: exit 64" 64
[ -e "$T/inspection.csv" ] && fail "inspect -o x.csv: no file written" || pass "inspect -o x.csv: no file written"
run "$GW" --kb "$T/no-kb.db" inspect "$NV/healthy-3090.xml" --format text --template "$T/inspection.html"
check_rc "inspect --template with text: exit 64, not ignored" 64
# the format follows -o's extension; a failed check still exits 2
run "$GW" --kb "$T/no-kb.db" inspect "$NV/retired-pending-v100.xml" -o "$T/v100.md"
check_rc "inspect -o x.md: exit 2 still" 2
check_eq "inspect -o x.md: nothing on stdout" "$OUT" ""
grep -q "Verdict: FAIL" "$T/v100.md" 2>/dev/null && pass "inspect -o x.md: Markdown by extension" ||
    fail "inspect -o x.md: Markdown by extension" "$(head -3 "$T/v100.md")"
run "$GW" --kb "$T/no-kb.db" inspect "$NV/remapped-unc-a100.xml" -o "$T/a100.json"
check_rc "inspect -o x.json: exit 2 still" 2
check_eq "inspect -o x.json: JSON by extension, two GPUs" "$(jq -r '.gpus | length' "$T/a100.json")" 2
run "$GW" --kb "$T/no-kb.db" inspect "$NV/healthy-3090.xml" -o "$T/healthy.txt"
check_rc "inspect -o x.txt: exit 0" 0
grep -q "GPU 0: NVIDIA GeForce RTX 3090" "$T/healthy.txt" 2>/dev/null && pass "inspect -o x.txt: text" ||
    fail "inspect -o x.txt: text" "$(head -3 "$T/healthy.txt")"

# ---- hostile dumps: read safely, fast, nothing else opened ----
mkdir -p "$T/hostile"
cat >"$T/hostile/nvsmi_device_v12.dtd" <<'EOF'
<!ENTITY planted "PLANTED-ENTITY-WAS-LOADED">
EOF
cat >"$T/hostile/dump.xml" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd" [
<!ENTITY xxe SYSTEM "file:///etc/passwd">
<!ENTITY net SYSTEM "http://127.0.0.1:9/x">
]>
<nvidia_smi_log><driver_version>535.1</driver_version>
<gpu id="0"><product_name>RTX &planted;&xxe;&net;</product_name></gpu></nvidia_smi_log>
EOF
awk 'BEGIN { printf "<nvidia_smi_log><gpu id=\"0\">"; for (i = 0; i < 100000; i++) printf "<a>";
             for (i = 0; i < 100000; i++) printf "</a>"; print "</gpu></nvidia_smi_log>" }' \
    >"$T/hostile/deep.xml"
awk 'BEGIN { printf "<nvidia_smi_log><gpu id=\"0\"><product_name>"; s = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
             for (i = 0; i < 500000; i++) printf "%s", s; print "</product_name></gpu></nvidia_smi_log>" }' \
    >"$T/hostile/big.xml"
for f in dump deep big; do
    start=$(date +%s)
    run "$GW" --kb "$T/no-kb.db" inspect "$T/hostile/$f.xml"
    took=$(( $(date +%s) - start ))
    case "$RC" in 0|65) pass "inspect hostile $f: read or rejected (exit $RC)" ;;
        *) fail "inspect hostile $f: read or rejected" "exit $RC: $ERR" ;; esac
    [ "$took" -le 3 ] && pass "inspect hostile $f: fast (${took}s)" ||
        fail "inspect hostile $f: fast" "${took}s"
    check_out_not "inspect hostile $f: planted DTD not loaded" "PLANTED"
    check_out_not "inspect hostile $f: /etc/passwd not read" "root:"
done
if command -v strace >/dev/null 2>&1 && strace -o "$T/probe" true 2>/dev/null; then
    strace -f -e trace=open,openat,connect,socket -o "$T/trace" \
        "$GW" --kb "$T/no-kb.db" inspect "$T/hostile/dump.xml" >/dev/null 2>&1
    # Every file the process opened, less shared libraries and what a sanitizer runtime reads
    # about the process itself.
    opened=$(grep -E 'open(at)?\(' "$T/trace" | grep -v ENOENT |
             grep -v -E '\.so[.0-9"]|ld\.so\.cache|"/proc/self/' |
             sed -n 's/.*"\(.*\)".*/\1/p' | sort -u | tr '\n' ' ')
    check_eq "inspect hostile: only the dump is opened" "$opened" "$T/hostile/dump.xml "
    if grep -q -E 'connect\(|socket\(' "$T/trace"; then
        fail "inspect hostile: no network" "$(grep -E 'connect|socket' "$T/trace" | head -2)"
    else
        pass "inspect hostile: no network"
    fi
    if grep -q -E 'passwd|\.dtd' "$T/trace"; then
        fail "inspect hostile: no DTD or entity file tried" "$(grep -E 'passwd|\.dtd' "$T/trace" | head -2)"
    else
        pass "inspect hostile: no DTD or entity file tried"
    fi
else
    skip "inspect hostile: files opened" "strace not installed or not allowed to trace here"
fi

# ---- the real dumps ----
DUMPS="$TESTDATA/nvsmi"
if [ -d "$DUMPS" ]; then
    for f in "$DUMPS"/*.xml; do
        run "$GW" --kb "$T/no-kb.db" --json inspect "$f"
        case "$RC" in 0|2) pass "inspect real $(basename "$f"): read (exit $RC)" ;;
            *) fail "inspect real $(basename "$f"): read" "exit $RC: $ERR" ;; esac
    done
    # verdicts that hold without a KB
    run "$GW" --kb "$T/no-kb.db" --json inspect "$DUMPS/netdata-tesla-p100.xml"
    check_eq "inspect real: P100 corrected ECC errors flagged" \
        "$(jqr '.gpus[0].checks[] | select(.id == "memory.ecc_errors") | .status')" WARN
    for f in telegraf-a100-sxm4-v12 netdata-a100-sxm4-mig; do
        run "$GW" --kb "$T/no-kb.db" --json inspect "$DUMPS/$f.xml"
        check_eq "inspect real: $f reports MIG" \
            "$(jqr '.gpus[0].checks[] | select(.id == "software.mig") | .status')" WARN
    done
    run "$GW" --kb "$T/no-kb.db" --json inspect "$DUMPS/telegraf-tesla_p4.xml"
    check_rc "inspect real: vGPU guest exits 0" 0
    check_eq "inspect real: vGPU temperature unknown" \
        "$(jqr '.gpus[0].checks[] | select(.id == "thermal.temperature") | .status')" UNKNOWN
    run "$GW" --kb "$T/no-kb.db" --json inspect "$DUMPS/telegraf-gtx-1070-ti.xml"
    check_rc "inspect real: trimmed dump exits 0" 0
    check_eq "inspect real: trimmed dump has no driver" \
        "$(jqr '.gpus[0].checks[] | select(.id == "software.driver") | .status')" UNKNOWN
    check_eq "inspect real: trimmed dump, 16 checks" "$(jqr '.gpus[0].checks | length')" 16
    run "$GW" --kb "$T/no-kb.db" --json inspect "$DUMPS/datakit-v100s-pcie-32gb-x8.xml"
    check_eq "inspect real: eight GPUs" "$(jqr '.gpu_count')" 8
    if [ -f "$KB" ]; then
        for f in "$DUMPS"/*.xml; do
            run "$GW" --kb "$KB" inspect "$f"
            check_rc "inspect real with KB $(basename "$f"): nothing fails" 0
        done
        run "$GW" --kb "$KB" --json inspect "$DUMPS/telegraf-gtx-1660-ti.xml"
        check_eq "inspect real: Graphics Device not guessed" "$(jqr '.gpus[0].kb_id')" null
    fi
else
    skip "inspect real dumps" "../shared/testdata not found"
fi

# inspect/ judges dumps against the card facts it is handed: the commands own the KB lookup
# (core/cli/cli_inspect.c), so nothing in core/inspect includes the KB's header.
check_eq "inspect/ includes nothing of kb/" \
    "$(grep -l '#include "kb/' "$ROOT"/core/inspect/*.c "$ROOT"/core/inspect/*.h | wc -l)" 0
