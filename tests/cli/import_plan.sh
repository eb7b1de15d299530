#!/bin/sh
# import_plan.sh — inserting a benchmark row opens no temporary table per row.  SQLite checks a
# CHECK (x IN (...)) list through an ephemeral table opened at every insert; written so on
# recompute (schema 15) and on sharding (schema 17), each made a bulk import several times
# slower (sharding: 50,000 rows from 1.2 s to 7.4 s; make bench's 1M rows 4.6x sqlite3).  Such
# checks are written with OR.  method's (schema 12) is the one IN list the table has kept (a
# check is changed only by rebuilding the table); the 50,000-row import at 1.2 s carries it, so
# the plan may hold that one ephemeral table and no other.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "import plan: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi
PLAN=$(sqlite3 "$SHIPPED_KB" "EXPLAIN INSERT INTO benchmark (gpu, gpu_count, workload, metric, value, unit, source, recompute, sharding) VALUES ('x', 1, 'w', 'm', 1, 'u', 's', 'full', 'zero3')")
check_eq "import plan: one ephemeral table at most in a benchmark insert (method's)" \
    "$(printf '%s\n' "$PLAN" | grep -c 'OpenEphemeral')" 1
check_eq "import plan: the sharding and recompute checks are comparisons, not IN lists" \
    "$(sqlite3 "$SHIPPED_KB" "SELECT sql FROM sqlite_master WHERE name = 'benchmark'" | grep -c -E "(sharding|recompute) IN \\(")" 0
