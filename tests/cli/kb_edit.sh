#!/bin/sh
# A team's KB as text it edits: `kb export` -> edit a price -> `kb import` updates that row (a
# price's identity: GPU, kind, spot, count, fraction, region, provider, instance, as_of and
# source); a range's two ends are matched one to one; `kb import --replace SOURCE` replaces a
# source's rows in one transaction; every import counts rows added, updated and removed;
# exported notes carry no machine's folders; `prices refresh --as-of DATE`.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "kb_edit: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
    skip "kb_edit" "python3 and jq are test dependencies (.ci/deps.sh --test)"
    exit 0
fi

# edit IN OUT TABLE.csv MATCH SET: copies the export IN to OUT with the rows of the section
# TABLE.csv whose columns match MATCH ("col=value;col=value") changed by SET (the same form, a
# value may be empty).  Prints how many rows it changed.
edit() {
    python3 - "$@" <<'EOF'
import csv, sys
src, dst, section, match, change = sys.argv[1:6]
def pairs(s):
    return dict(p.split("=", 1) for p in s.split(";")) if s else {}
want, sets = pairs(match), pairs(change)
rows, out, here, header, n = list(csv.reader(open(src, newline=""))), [], False, None, 0
for r in rows:
    if r and r[0].startswith("#"):
        here, header = r[0] == "# " + section, None
    elif here and r and header is None:
        header = r
    elif here and r and all(r[header.index(k)] == v for k, v in want.items()):
        n += 1
        for k, v in sets.items():
            r[header.index(k)] = v
    out.append(r)
csv.writer(open(dst, "w", newline=""), lineterminator="\n").writerows(out)
print(n)
EOF
}
# counts TABLE: "added,updated,unchanged,removed" of the last --json import
counts() { jqr ".tables[\"$1\"] | [.added, .updated, .unchanged, .removed] | join(\",\")"; }
q() { sqlite3 "$1" "$2"; }

SECURE="provider=RunPod;instance=H100 SXM (Secure Cloud)"   # one row of its identity
PRICES=$(q "$SHIPPED_KB" "SELECT count(*) FROM price")

# --- export -> edit an amount -> import: the row is updated, not doubled -----------------------
KB=$(fresh_kb amount)
"$GW" --kb "$KB" kb export -o "$T/e0.csv"
check_eq "the edit script finds the one RunPod H100 SXM Secure Cloud price" \
    "$(edit "$T/e0.csv" "$T/e1.csv" prices.csv "$SECURE" "amount=3.79")" 1
run "$GW" --kb "$KB" --json kb import "$T/e1.csv"
check_rc "the edited export imports: exit 0" 0
# every price of the KB is in the file, 1 with another amount: 0 added, 1 updated, the rest as
# they were, 0 removed
check_eq "an edited amount: 0 added, 1 updated, $((PRICES - 1)) unchanged, 0 removed" \
    "$(counts prices)" "0,1,$((PRICES - 1)),0"
check_eq "the KB keeps $PRICES prices" "$(q "$KB" "SELECT count(*) FROM price")" "$PRICES"
check_eq "one row of that identity, at the new amount, with its id (119)" \
    "$(q "$KB" "SELECT group_concat(id || ':' || amount) FROM price WHERE provider = 'RunPod' AND instance = 'H100 SXM (Secure Cloud)'")" \
    "119:3.79"
check_eq "JSON: no --replace, replaced_source null" "$(jqr '.replaced_source')" "null"
# the row's search entry (rowid 119 * 8 + 3, kb/schema.sql) is made again from the new row
check_eq "its search entry has the new amount, not the old" \
    "$(q "$KB" "SELECT instr(body, ' 3.79 USD') > 0, instr(body, ' 3.99 USD') > 0 FROM kb_fts WHERE rowid = 119 * 8 + 3")" \
    "1|0"
run "$GW" --kb "$KB" kb check
check_rc "kb check passes after the update (search index complete)" 0
"$GW" --kb "$KB" kb export -o "$T/e1b.csv"
check_eq "the export after the import has the edited row (its place sorted by amount)" \
    "$(sort "$T/e1.csv" | cksum)" "$(sort "$T/e1b.csv" | cksum)"

# the text report: the table that changed, its three counts (the same row, 3.79 -> 3.59)
edit "$T/e0.csv" "$T/e2.csv" prices.csv "$SECURE" "amount=3.59" >/dev/null
run "$GW" --kb "$KB" kb import "$T/e2.csv"
check_out "text: prices 0 added, 1 updated, 0 removed" "prices     0 added, 1 updated, 0 removed"

# a note, then a quality: neither is part of the identity, so each file (every price, 1 row
# edited) updates 1 row and adds none
edit "$T/e0.csv" "$T/e3.csv" prices.csv "$SECURE" "note=checked on the page again" >/dev/null
run "$GW" --kb "$(fresh_kb note)" --json kb import "$T/e3.csv"
check_eq "an edited note: 0 added, 1 updated" "$(counts prices | cut -d, -f1,2)" "0,1"
edit "$T/e0.csv" "$T/e4.csv" prices.csv "$SECURE" "quality=quote" >/dev/null
KB=$(fresh_kb quality)
run "$GW" --kb "$KB" --json kb import "$T/e4.csv"
check_eq "an edited quality: 0 added, 1 updated" "$(counts prices | cut -d, -f1,2)" "0,1"
check_eq "the quality is the new one" \
    "$(q "$KB" "SELECT quality FROM price WHERE id = 119")" "quote"

# another region is another price: added beside the first
edit "$T/e0.csv" "$T/e5.csv" prices.csv "$SECURE" "region=EU" >/dev/null
KB=$(fresh_kb region)
run "$GW" --kb "$KB" --json kb import "$T/e5.csv"
# the edited row has an identity no stored row has: 1 added; the stored one is not in the file
# but an import without --replace removes nothing
check_eq "another region: 1 added, 0 updated, 0 removed" \
    "$(counts prices | cut -d, -f1,2,4)" "1,0,0"
check_eq "both regions are kept (2 rows)" \
    "$(q "$KB" "SELECT count(*) FROM price WHERE provider = 'RunPod' AND instance = 'H100 SXM (Secure Cloud)'")" 2

# --- a range: two rows of one identity, matched one to one -----------------------------------
RANGE="gpu=a100-pcie-80gb;kind=new;source=aitooldiscovery-a100-2026"
range() { q "$1" "SELECT group_concat(amount, ' ') FROM (SELECT amount FROM price WHERE gpu = 'a100-pcie-80gb' AND kind = 'new' AND source = 'aitooldiscovery-a100-2026' ORDER BY amount)"; }
check_eq "the shipped range: USD 8000 and 15000" "$(range "$SHIPPED_KB")" "8000.0 15000.0"
edit "$T/e0.csv" "$T/r1.csv" prices.csv "$RANGE;amount=8000" "amount=8500" >/dev/null
KB=$(fresh_kb range1)
run "$GW" --kb "$KB" --json kb import "$T/r1.csv"
# the high end is identical to its row (unchanged); the low end takes the row left: 1 updated
check_eq "the low end edited: 0 added, 1 updated" "$(counts prices | cut -d, -f1,2)" "0,1"
check_eq "the range is 8500-15000, still two rows" "$(range "$KB")" "8500.0 15000.0"
edit "$T/e0.csv" "$T/r2a.csv" prices.csv "$RANGE;amount=8000" "amount=7000" >/dev/null
edit "$T/r2a.csv" "$T/r2.csv" prices.csv "$RANGE;amount=15000" "amount=16000" >/dev/null
KB=$(fresh_kb range2)
run "$GW" --kb "$KB" --json kb import "$T/r2.csv"
# both ends edited: neither is identical to a stored row; each updates one of the two
check_eq "both ends edited: 0 added, 2 updated" "$(counts prices | cut -d, -f1,2)" "0,2"
check_eq "the range is 7000-16000, still two rows" "$(range "$KB")" "7000.0 16000.0"

# --- claims have an identity too: subject, claim, source ---------------------------------------
edit "$T/e0.csv" "$T/c1.csv" claims.csv "subject=nccl;status=disputed" "status=wrong" >/dev/null
# every claim in the file, 1 with another status (not part of its identity): 1 updated
run "$GW" --kb "$(fresh_kb claim)" --json kb import "$T/c1.csv"
check_eq "a claim's status edited: 0 added, 1 updated" "$(counts claims | cut -d, -f1,2)" "0,1"

# --- --replace SOURCE ------------------------------------------------------------------------
SRC=datareceipts-gpu-pricing
NSRC=$(q "$SHIPPED_KB" "SELECT count(*) FROM price WHERE source = '$SRC'")
# the source's prices alone: its section of the export, less the 2x H100 row, one amount edited
python3 - "$T/e0.csv" "$T/src.csv" "$SRC" <<'EOF'
import csv, sys
rows, out, here = list(csv.reader(open(sys.argv[1], newline=""))), [], False
for r in rows:
    if r and r[0].startswith("#"):
        here = r[0] == "# prices.csv"
    elif here and r and (r[0] == "gpu" or r[11] == sys.argv[3]):
        out.append(r)
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(out)
EOF
grep -v '2x H100 SXM (Community Cloud)' "$T/src.csv" >"$T/src1.csv"
sed 's/^\(h100-sxm5,cloud,\)3\.99,/\13.79,/' "$T/src1.csv" >"$T/src2.csv"
check_eq "the source file: a header and $((NSRC - 1)) rows" "$(wc -l <"$T/src2.csv")" "$NSRC"
KB=$(fresh_kb replace)
cp "$KB" "$T/replace-before.db"
run "$GW" --kb "$KB" --json kb import --replace "$SRC" "$T/src2.csv"
check_rc "--replace: exit 0" 0
# the file: the source's rows but one (left out: removed), one with another amount (updated),
# the others as stored (unchanged), none new
check_eq "--replace: 0 added, 1 updated, $((NSRC - 2)) unchanged, 1 removed" \
    "$(counts prices)" "0,1,$((NSRC - 2)),1"
check_eq "--replace: JSON names the source" "$(jqr '.replaced_source')" "$SRC"
check_eq "--replace: the source keeps $((NSRC - 1)) prices" \
    "$(q "$KB" "SELECT count(*) FROM price WHERE source = '$SRC'")" "$((NSRC - 1))"
check_eq "--replace: other sources' prices untouched ($PRICES - 1 in all)" \
    "$(q "$KB" "SELECT count(*) FROM price")" "$((PRICES - 1))"
run "$GW" --kb "$KB" kb import --replace "$SRC" "$T/src2.csv"
check_out "--replace again, text: the source named" "replacing the rows of source $SRC"
check_out "--replace again: nothing new" "nothing new"

# one transaction: a bad row anywhere, and the KB file is byte for byte what it was
cp "$KB" "$T/before.db"
{ cat "$T/src1.csv"; echo "no-such-gpu,cloud,1,USD,hour,1,,RunPod,x,0,2026-11-09,$SRC,,list,1,,,,,"; } >"$T/bad.csv"
run "$GW" --kb "$KB" kb import --replace "$SRC" "$T/bad.csv"
check_rc "--replace with a bad row: exit 65" 65
check_err "--replace with a bad row: file and line named" "bad.csv:$((NSRC + 1)): gpu: unknown GPU"
if cmp -s "$T/before.db" "$KB"; then pass "--replace with a bad row: the KB file unchanged"; else
    fail "--replace with a bad row: the KB file unchanged"; fi
run "$GW" --kb "$KB" kb import --replace no-such-source "$T/src1.csv"
check_rc "--replace an unknown source: exit 67" 67
check_err "--replace an unknown source: says so" "--replace no-such-source: no source 'no-such-source'"
if cmp -s "$T/before.db" "$KB"; then pass "--replace an unknown source: the KB file unchanged"; else
    fail "--replace an unknown source: the KB file unchanged"; fi
# amd-mi300x-page is the source of the MI300X's gpu row, which benchmarks and prices of other
# sources name: a file without it cannot remove it
printf 'id,title\namd-mi300x-page,AMD Instinct MI300X\n' >"$T/mi300x.csv"
run "$GW" --kb "$KB" kb import --replace amd-mi300x-page "$T/mi300x.csv"
check_rc "--replace removing a GPU others name: exit 65" 65
check_err "--replace removing a GPU others name: says why" "still named by other rows"
if cmp -s "$T/before.db" "$KB"; then pass "--replace removing a GPU others name: the KB file unchanged"; else
    fail "--replace removing a GPU others name: the KB file unchanged"; fi

# --- notes carry no machine's folders --------------------------------------------------------
KB=$(fresh_kb paths)
mkdir -p "$T/deep/folder"
printf 'gpu,gpu_count,workload,metric,value,unit\nRTX 3090,1,path-test,train_throughput,100,images/s\n' \
    >"$T/deep/folder/mine.csv"
cp "$FIX/plugins/acme-prices.html" "$T/deep/folder/acme-prices.html"
run "$GW" --kb "$KB" kb import --with gpuwise-csv "$T/deep/folder/mine.csv"
check_rc "an import from an absolute path: exit 0" 0
run "$GW" --kb "$KB" prices refresh html-table --input "$T/deep/folder/acme-prices.html"
check_rc "a refresh from an absolute path: exit 0" 0
"$GW" --kb "$KB" kb export -o "$T/paths.csv"
check_eq "the export names neither the input's folder nor the plugins'" \
    "$(grep -c -e "$T" -e "$ROOT/plugins" "$T/paths.csv")" 0
check_eq "the importer's source note names the plugin and the file by name" \
    "$(q "$KB" "SELECT note FROM source WHERE id = 'plugin-gpuwise-csv.mine.csv'")" \
    "Records returned by the importer plugin gpuwise-csv.lua from the file mine.csv."
check_eq "html-table's offer notes begin with the page's name" \
    "$(q "$KB" "SELECT count(*) FROM price WHERE source LIKE 'plugin-html-table%' AND note LIKE 'acme-prices.html, %'")" 4

# --- prices refresh --as-of DATE -------------------------------------------------------------
# today pinned to 2026-11-30 (12:00 UTC), so "after today" is a fixed date
export SOURCE_DATE_EPOCH=1796040000
LAMBDA="$FIX/prices/skypilot-lambda-vms.csv"   # 5 GPU offers, none dated by the file
# a shipped plugin's source id: "plugin-", its name, "." and its file (tests/cli/hostile_names.sh)
SKY="plugin-skypilot.skypilot-lambda-vms.csv"
KB=$(fresh_kb asof)
run "$GW" --kb "$KB" prices refresh skypilot --input "$LAMBDA"
check_eq "without --as-of: the 5 offers dated today" \
    "$(q "$KB" "SELECT count(*) || ' ' || max(as_of) FROM price WHERE source = '$SKY'")" "5 2026-11-30"
run "$GW" --kb "$KB" prices refresh skypilot --input "$LAMBDA"
# the same file again: every offer has its identity and figures stored already
check_out "the same file again: 5 unchanged" "prices     0 added, 0 updated, 0 removed (5 unchanged)"
mkdir -p "$T/saved"
sed 's/,1\.29,/,1.39,/' "$LAMBDA" >"$T/saved/skypilot-lambda-vms.csv"
run "$GW" --kb "$KB" prices refresh skypilot --input "$T/saved/skypilot-lambda-vms.csv"
# the same name (so the same source), the 1x A100 at 1.39 instead of 1.29: 1 updated
check_out "one price changed: 1 updated, 4 unchanged" "prices     0 added, 1 updated, 0 removed (4 unchanged)"
run "$GW" --kb "$KB" prices refresh skypilot --input "$LAMBDA" --as-of 2026-10-03
check_rc "--as-of 2026-10-03: exit 0" 0
# another date is another identity: the 5 dated offers added, the 5 of today removed
check_out "--as-of: 5 added, 5 earlier removed" "prices     5 added, 0 updated, 5 removed (0 unchanged)"
check_eq "--as-of: the 5 offers dated 2026-10-03" \
    "$(q "$KB" "SELECT count(*) || ' ' || min(as_of) || ' ' || max(as_of) FROM price WHERE source = '$SKY'")" \
    "5 2026-10-03 2026-10-03"
check_eq "--as-of: the source retrieved 2026-10-03" \
    "$(q "$KB" "SELECT retrieved FROM source WHERE id = '$SKY'")" "2026-10-03"
run "$GW" --kb "$KB" prices refresh skypilot --input "$LAMBDA" --as-of 2026-11-30
check_rc "--as-of today: exit 0" 0
cp "$KB" "$T/asof-before.db"
for bad in 2026-12-01:"is after today (2026-11-30)" 2026-02-30:"is not a date (YYYY-MM-DD)" \
           2026-10:"is not a date (YYYY-MM-DD)" 03/10/2026:"is not a date (YYYY-MM-DD)"; do
    run "$GW" --kb "$KB" prices refresh skypilot --input "$LAMBDA" --as-of "${bad%%:*}"
    check_rc "--as-of ${bad%%:*}: exit 64" 64
    check_err "--as-of ${bad%%:*}: says why" "${bad#*:}"
done
run "$GW" --kb "$KB" prices refresh skypilot --as-of 2026-10-03
check_rc "--as-of without --input: exit 64" 64
check_err "--as-of without --input: says so" "give --input FILE"
if cmp -s "$T/asof-before.db" "$KB"; then pass "refused --as-of: the KB file unchanged"; else
    fail "refused --as-of: the KB file unchanged"; fi
