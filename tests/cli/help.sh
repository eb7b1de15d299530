#!/bin/sh
# The command line as a newcomer meets it: help for every command (from the same tables as the
# parser), unknown options and commands with suggestions, formats chosen by -o's extension and
# refused when a command cannot write them, one error prefix, JSON number forms, the manual page
# (rendered by man) and shell completion in a real bash.
. "$ROOT/tests/cli/lib.sh"

# ---- every command answers --help, and `gpuwise help` says the same --------------------------
run "$GW" --help
check_rc "--help exits 0" 0
for g in kb offers prices plugin decide report workload inspect checklist render help complete; do
    check_out "--help lists $g" "  $g "
done
commands=$("$GW" complete 1 gpuwise "")
check_eq "completion offers every command" "$(echo $commands)" \
    "kb offers prices plugin decide report workload inspect checklist render help complete"
all_ok=1 same_ok=1 n=0
for g in $commands; do
    subs=$("$GW" complete 2 gpuwise "$g" "" | grep -v '^@' | tr '\n' ' ')
    # a command without subcommands offers its operands here; keep only real subcommands
    if "$GW" help "$g" 2>/dev/null | grep -q '^Subcommands:'; then :; else subs=""; fi
    for s in ${subs:-.}; do
        [ "$s" = . ] && s=""
        n=$((n + 1))
        # shellcheck disable=SC2086
        a=$("$GW" $g $s --help 2>&1) || { all_ok=0; echo "# $g $s --help failed"; }
        # shellcheck disable=SC2086
        b=$("$GW" help $g $s 2>&1)
        case "$a" in "usage: gpuwise $g${s:+ $s}"*) ;; *) all_ok=0; echo "# $g $s: $a" | head -2 ;; esac
        [ "$a" = "$b" ] || { same_ok=0; echo "# '$g $s --help' differs from 'help $g $s'"; }
    done
done
if [ "$all_ok" = 1 ] && [ "$n" -ge 20 ]; then pass "each of $n commands answers --help with its usage"
else fail "each command answers --help with its usage" "$n commands, see above"; fi
if [ "$same_ok" = 1 ]; then pass "COMMAND --help and help COMMAND print the same text"
else fail "COMMAND --help and help COMMAND print the same text" "see above"; fi

run "$GW" help help
check_rc "help help exits 0" 0
check_out "help help shows help's usage" "usage: gpuwise help [OPTIONS] [COMMAND [SUBCOMMAND]]"
run "$GW" help nosuch
check_rc "help of an unknown command is a usage error" 64

# ---- unknown words get a suggestion, exit 64 ------------------------------------------------
run "$GW" offers --gpuu h100
check_rc "unknown option exits 64" 64
check_err "unknown option suggests the closest" "gpuwise offers: unknown option '--gpuu' (did you mean --gpu?)"
run "$GW" offers --fromat md
check_err "a swapped pair of letters is one edit" "did you mean --format?"
run "$GW" ofers
check_rc "unknown command exits 64" 64
check_err "unknown command suggests the closest" "'ofers' is not a command (did you mean 'offers'?)"
run "$GW" kb shwo 3090
check_rc "unknown subcommand exits 64" 64
check_err "unknown subcommand suggests the closest" "did you mean 'show'?"
# (offers --sort takes any offer field now, so report --appendix stands for the options with
# choices)
run "$GW" report examples/vision-team.lua --appendix cheapest
check_rc "a value outside an option's choices exits 64" 64
check_err "the choices are named" "expected one of short|full, not 'cheapest'"
run "$GW" offers --max-price 0x10
check_rc "hex is not a price" 64
check_err "one error prefix: the command's full name, once" "gpuwise offers: --max-price: expected"
case "$ERR" in *"offers: offers"*) fail "the command name is not repeated" "$ERR" ;; *) pass "the command name is not repeated" ;; esac
run "$GW" offers --max-price=2 --max-price 3
check_rc "an option given twice is a usage error" 64
run "$GW" kb show
check_rc "a missing operand is a usage error" 64
run "$GW" kb show 3090 4090
check_rc "an extra operand is a usage error" 64

# ---- formats follow the user ------------------------------------------------------------------
run "$GW" offers --gpu t4 -o "$T/o.csv"
check_rc "offers -o FILE.csv" 0
# the columns offers has had, then the slice, its memory, the regions an offer folds and their
# area (area and areas: added with the offer's area, after the others)
check_eq "-o .csv writes RFC 4180 CSV with the keys as header" "$(head -1 "$T/o.csv" | tr -d '\r')" \
    "gpu,gpu_count,provider,instance,region,spot,price_per_hour,price_per_gpu_hour,currency,as_of,source,fraction,memory_gb,region_count,regions,area,areas"
if head -1 "$T/o.csv" | grep -q "$(printf '\r')\$"; then pass "CSV lines end with CRLF (RFC 4180)"; else fail "CSV lines end with CRLF (RFC 4180)" "no CR"; fi
# the AWS g4dn.xlarge row of kb/data/prices.csv: 1 T4 at USD 0.526/h
check_out_not "nothing on stdout with -o" "gpu,"
if grep -q '^t4,1,AWS,g4dn.xlarge,us-east-1,false,0.526,0.526,USD,2024-01,aws-ec2-on-demand-pricing' "$T/o.csv"; then
    pass "the CSV row holds the KB's figures"; else fail "the CSV row holds the KB's figures" "$(cat "$T/o.csv")"; fi
run "$GW" offers --gpu t4 -o "$T/o.json"
check_eq "-o .json writes JSON" "$(jq -r '.offers[0].gpu' "$T/o.json")" "t4"
run "$GW" offers --gpu t4 -o "$T/o.md"
if grep -q '^| --- |' "$T/o.md"; then pass "-o .md writes a Markdown table"; else fail "-o .md writes a Markdown table" "$(head -3 "$T/o.md")"; fi
run "$GW" offers --gpu t4 -o "$T/o.txt"
if head -1 "$T/o.txt" | grep -q '^GPU  *COUNT'; then pass "-o .txt writes the terminal table"; else fail "-o .txt writes the terminal table" "$(head -1 "$T/o.txt")"; fi
run "$GW" offers --gpu t4 --format md -o "$T/o2.csv"
if grep -q '^| --- |' "$T/o2.csv"; then pass "--format wins over the extension"; else fail "--format wins over the extension" "$(head -2 "$T/o2.csv")"; fi
run "$GW" offers --gpu t4 --format=csv
check_out "--format=VALUE is read like --format VALUE" "gpu,gpu_count,provider"
run "$GW" offers -o "$T/o.html"
check_rc "a format the command cannot write is refused" 64
check_err "the refusal names what it writes" "offers cannot write html (it writes text, md, json or csv"
run "$GW" offers --json --format md
check_rc "--json and another --format disagree" 64

# ---- a family name where a set is wanted -------------------------------------------------------
run "$GW" offers --gpu h100 --json
check_rc "offers --gpu h100 (a family)" 0
check_err "the variants are named" "'h100' stands for 3 GPUs: h100-nvl, h100-pcie, h100-sxm5"
check_eq "every offer is an H100 variant" "$(jqr '[.offers[].gpu | select(startswith("h100-") | not)] | length')" "0"
check_eq "offers of more than one variant are listed" "$(jqr '[.offers[].gpu] | unique | length > 1')" "true"

# ---- JSON numbers: 15 significant digits at most --------------------------------------------
# 0.526 USD x 6.8322 CNY/USD (the ECB's cross rate of 2026-04-13, kb/data/rates.csv) = 3.5937372
# CNY, which double arithmetic makes 3.5937372000000005.
run "$GW" offers --gpu t4 --currency CNY --json
check_out "a converted price is written as 3.5937372" '"price_per_hour": 3.5937372,'
if printf '%s' "$OUT" | grep -Eq '[0-9]\.[0-9]{15,}'; then fail "no JSON number carries arithmetic noise" "$(printf '%s' "$OUT" | grep -Eo '[0-9]+\.[0-9]{15,}' | head -2)"
else pass "no JSON number carries arithmetic noise"; fi

# ---- the manual page ----------------------------------------------------------------------
man1="$GPUWISE_BUILD/gpuwise.1"
if [ ! -f "$man1" ]; then
    fail "the build writes gpuwise.1" "missing $man1"
elif ! command -v man >/dev/null 2>&1; then
    skip "man renders gpuwise.1" "man is not installed (make test installs man-db)"
else
    page=$(MANWIDTH=100 man -l "$man1" 2>"$T/man.err" | col -b)
    [ -s "$T/man.err" ] && fail "man reads gpuwise.1 without warnings" "$(head -3 "$T/man.err")" || pass "man reads gpuwise.1 without warnings"
    for section in NAME SYNOPSIS DESCRIPTION "GLOBAL OPTIONS" COMMANDS "WORKLOAD FILES" "OUTPUT FORMATS" "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
        if printf '%s\n' "$page" | grep -q "^$section\$"; then pass "man page has $section"; else fail "man page has $section" "missing"; fi
    done
    missing=""
    for g in $commands; do
        printf '%s\n' "$page" | grep -q "gpuwise $g" || missing="$missing $g"
    done
    check_eq "man page documents every command" "$missing" ""
    if printf '%s\n' "$page" | grep -Eq '\*\*|`|^#+ |^- \*\*'; then
        fail "man page shows no raw Markdown" "$(printf '%s\n' "$page" | grep -E '\*\*|`|^#+ ' | head -3)"
    else pass "man page shows no raw Markdown"; fi
    if printf '%s\n' "$page" | grep -Eq -- '--max-price +X'; then pass "man page lists a command's options"; else fail "man page lists a command's options" "no --max-price"; fi
    # the field list is generated into the page: a field of a table, with its default and task
    if printf '%s\n' "$page" | tr -s ' \t\n' '   ' | grep -Fq "finetune.rank: a whole number at least 1 and at most 65536; default 16; task finetune. The adapters' rank (lora and qlora)."
    then pass "man page: WORKLOAD FILES lists finetune.rank from the field table"
    else fail "man page: WORKLOAD FILES lists finetune.rank from the field table" "$(printf '%s\n' "$page" | grep -A2 'finetune.rank' | head -3)"; fi
    if command -v groff >/dev/null 2>&1; then
        w=$(groff -man -Tutf8 -ww -Wbreak -z "$man1" 2>&1)   # a long path may not justify: not a fault
        check_eq "groff -ww finds nothing wrong in gpuwise.1" "$w" ""
    fi
fi
run "$GW" help --all
check_out "help --all is the manual's Markdown" "# EXIT STATUS"
run "$GW" help --man offers
check_rc "help --man takes no command" 64

# ---- workload files: every field, from the one field table ----------------------------------
# `help workload --json` is the field list the reader checks files with; the text help, the
# Markdown and the manual are written from it, so each must name every one of its fields.
run "$GW" help workload --json
check_rc "help workload --json" 0
printf '%s' "$OUT" | jq -r '.fields[].name' >"$T/fields"
# 83 fields (tests/unit/test_workload.c counts them table by table; 80 with hours_needed_on, 81
# with model.attention_head_dim, 82 with model.decode_attention_head_dim, 83 with
# model.experts_active)
check_eq "help workload --json lists the 83 fields" "$(wc -l <"$T/fields" | tr -d ' ')" 83
check_eq "help workload --json has the workload new command" "$(jqr '.commands[0].name')" "workload new"
check_eq "a field's tasks: sharding concerns train and finetune" \
    "$(jqr '.fields[] | select(.name == "sharding") | .tasks | join(",")')" "train,finetune"
run "$GW" help workload
check_rc "help workload exits 0" 0
check_out "help workload: the usage of the group" "usage: gpuwise workload SUBCOMMAND"
missing=""
while read -r f; do
    case "$OUT" in *"  - $f: "*) ;; *) missing="$missing $f" ;; esac
done <"$T/fields"
check_eq "help workload prints every field of the field table" "$missing" ""
check_out "help workload names the subcommand" "  workload new [OPTIONS]"
run "$GW" help workload --format md
md_out=$OUT
missing=""
while read -r f; do
    case "$md_out" in *"- **$f**: "*) ;; *) missing="$missing $f" ;; esac
done <"$T/fields"
check_eq "help workload --format md prints every field" "$missing" ""
# finetune.rank in the table: whole, 1 to 65536, fallback "16", the finetune table's task
check_out "a field's line: what it takes, default, task and meaning" \
    "- **finetune.rank**: a whole number at least 1 and at most 65536; default \`16\`; task finetune. The adapters' rank (lora and qlora)."
# model.context is the model's whatever the task: no task is named
check_out "a field for every task names none" "- **model.context**: a whole number at least 1 and at most 1e9 tokens. The longest sequence the model takes."
# "rent:*" stays literal in Markdown (the '*' escaped), so the text help shows it as written
check_out "Markdown escapes the star of rent:*" 'adds every cloud offer'
case "$md_out" in *'\"rent:\*\"'*|*'"rent:\*"'*) pass "the star of \"rent:*\" is escaped in Markdown" ;; *) fail "the star of \"rent:*\" is escaped in Markdown" "$(printf '%s' "$md_out" | grep -m1 'rent:')" ;; esac
run "$GW" help workload
check_out "the text help shows \"rent:*\" as written" '"rent:*" adds every cloud offer'
# The manual's WORKLOAD FILES section is the same text as help workload --format md's
"$GW" help --all | awk '/^# WORKLOAD FILES/{p=1;next} /^# /{p=0} p' | sed '/./,$!d' >"$T/manual.md"
printf '%s\n' "$md_out" | awk 'NR>4 && /^## gpuwise workload new/{exit} NR>4' | sed '/./,$!d' >"$T/help.md"
if [ -s "$T/manual.md" ] && diff "$T/manual.md" "$T/help.md" >"$T/diff" 2>&1; then
    pass "the manual's WORKLOAD FILES section is help workload's text"
else fail "the manual's WORKLOAD FILES section is help workload's text" "$(head -5 "$T/diff")"; fi
run "$GW" help decide --json
# cli_decide.c: CLI_FMT_TEXT | CLI_FMT_JSON
check_eq "help COMMAND --json: its formats from its table" "$(jqr '.formats | join(",")')" "text,json"
run "$GW" help report --format md
check_out "help COMMAND --format md: the manual's text of it" "## gpuwise report [OPTIONS] WORKLOAD"
run "$GW" help offers --format csv
check_rc "help writes no csv" 64

# README lists no fields of its own: it points at help and the manual, and its example is the
# manual's, which runs as it is.
readme="$ROOT/README.md"
if grep -q '^| field | meaning' "$readme"; then fail "README keeps no hand-written field table" "found one"
else pass "README keeps no hand-written field table"; fi
if grep -q 'gpuwise help workload' "$readme" && grep -q 'WORKLOAD FILES' "$readme"; then
    pass "README points at help workload and the manual"
else fail "README points at help workload and the manual" "no pointer"; fi
awk '/gpuwise help workload/{p=1} p && /^```lua/{q=1;next} q && /^```/{exit} q' "$readme" >"$T/readme-example.lua"
awk '/^# WORKLOAD FILES/{p=1} p && /^    return \{/{q=1} q && !/^    /{exit} q{sub(/^    /, ""); print}' \
    "$GPUWISE_BUILD/gpuwise.md" >"$T/manual-example.lua"
if [ -s "$T/readme-example.lua" ] && cmp -s "$T/readme-example.lua" "$T/manual-example.lua"; then
    pass "README's example workload is the manual's"
else fail "README's example workload is the manual's" "$(diff "$T/readme-example.lua" "$T/manual-example.lua" | head -4)"; fi
run "$GW" --kb "$SHIPPED_KB" decide "$T/readme-example.lua"
check_rc "README's example workload runs as it is" 0
check_out "README's example workload gets a recommendation" "Recommendation:"

# ---- completion in a real bash ----------------------------------------------------------------
comp() {   # comp WORD...: the completions bash offers for the last word
    bash -c '. "$1/core/completion/gpuwise.bash"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpuwise; printf "%s\n" "${COMPREPLY[@]}"' \
        comp "$ROOT" "$GW" "$@" 2>&1
}
if ! command -v bash >/dev/null 2>&1; then
    skip "completion in bash" "no bash"
else
    check_eq "completes a command" "$(comp of)" "offers"
    check_eq "completes a subcommand" "$(comp kb sh)" "show"
    check_eq "completes an option" "$(comp offers --cu)" "--currency"
    check_eq "completes an option's choices" "$(comp report --appendix fu)" "full"
    check_eq "completes after --opt= as bash splits it" "$(comp report --appendix = fu)" "full"
    check_eq "completes --format's values" "$(comp kb list --format c)" "csv"
    # report writes md, html and json: text and csv, which it refuses, are not offered
    check_eq "report --format offers only report's formats" "$(comp report --format '' | tr '\n' ' ')" "md html json "
    check_eq "completes workload new --task's values" "$(comp workload new --task s)" "serve"
    check_eq "completes help's topic" "$(comp help work)" "workload"
    out=$(comp kb show rtx-309)
    case "$out" in *rtx-3090*) pass "completes GPU ids from the KB" ;; *) fail "completes GPU ids from the KB" "$out" ;; esac
    out=$(comp checklist us)
    check_eq "completes checklist names" "$out" "used-card"
    out=$(comp prices refresh fs)
    check_eq "completes pricing plugin names" "$out" "fsdl"
    mkdir -p "$T/cwd" && : >"$T/cwd/workload-one.lua"
    out=$(cd "$T/cwd" && comp decide work)
    check_eq "completes file names where a file is expected" "$out" "workload-one.lua"
    out=$(comp --kb "$T/cwd/work")
    check_eq "completes a global option's file" "$out" "$T/cwd/workload-one.lua"
    # a KB named on the line is the one whose names are offered
    kb=$(fresh_kb comp)
    printf 'gpu,alias\nrtx-4090,team-box-card\n' >"$T/aliases.csv"
    "$GW" --kb "$kb" kb import "$T/aliases.csv" >/dev/null 2>&1
    check_eq "completes an alias from the KB given with --kb" "$(comp --kb "$kb" kb show team-b)" "team-box-card"
    check_eq "the shipped KB has no such alias" "$(comp kb show team-b)" ""
fi
