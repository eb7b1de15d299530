# tests/bench/record.sh — sourced by tests/bench/run.sh (and tests/cli/bench_readme.sh): one
# line of make bench's summary, and whether its target was met.  Appends to $RESULTS.
# record NAME GW-FIGURE REF-FIGURE RATIO TARGET-TEXT [STATUS]: one line of the summary
# (BENCH_RESULTS), with met or missed where the target names a limit ("within 3x", "1.5 or
# less"), else n/a; STATUS, where given, is the caller's own verdict.
record() {
    awk -v n="$1" -v g="$2" -v r="$3" -v q="$4" -v t="$5" -v s="${6:-}" 'BEGIN {
        lim = ""
        if (match(t, /within [0-9.]+x/)) lim = substr(t, RSTART + 7, RLENGTH - 8)
        else if (match(t, /^[0-9.]+ or less/)) lim = substr(t, 1, index(t, " ") - 1)
        st = (lim == "" || q == "n/a") ? "n/a" : (q + 0 <= lim + 0 ? "met" : "missed")
        if (s != "") st = s
        printf "%s\t%s\t%s\t%s\t%s\t%s\n", n, g, r, q, t, st }' >>"$RESULTS"
}
