#!/bin/sh
# tests/cli/hostile_writes.sh — writes where another local user can reach: links that user
# plants in a sticky folder anyone may write (-o, the user's KB, the prices cache) are refused
# as the kernel's protected_symlinks rule refuses them, the user's own links still work, new
# files respect the umask, the cache is private with names nobody can guess, and two first
# writes of the user's KB at once keep both writers' rows.  The other user is `nobody`, as
# setpriv makes it: the suite needs root.
. "$ROOT/tests/cli/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
    skip "hostile writes" "needs root and setpriv (links are planted as the user nobody)"
    exit 0
fi
# as_nobody CMD...: runs CMD as another user, nobody
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# mode FILE: its permission bits in octal ("600")
mode() { stat -c %a "$1"; }

chmod 711 "$T"   # nobody may pass through to the sticky folder, and read nothing else here
STICKY="$T/sticky"
mkdir "$STICKY" && chmod 1777 "$STICKY"
KB=$(fresh_kb hw)
WORKLOAD="$ROOT/examples/vision-team.lua"
# decide CMD-ARGS...: a decision written with -o (exit 0 and a text document where it lands)
decide_to() { run "$GW" --kb "$KB" decide "$WORKLOAD" -o "$1"; }

# ---- -o: another user's link in a sticky folder ------------------------------------------
# a root-only file, and a copy to compare it with byte for byte
mkdir -m 700 "$T/private"
printf 'root only: %s\n' secret >"$T/private/secret"
chmod 600 "$T/private/secret"
cp -p "$T/private/secret" "$T/secret.orig"
as_nobody ln -s "$T/private/secret" "$STICKY/report.txt"
decide_to "$STICKY/report.txt"
check_rc "-o through nobody's link in a sticky folder: exit 73" 73
check_err "-o through nobody's link: the path and the rule named" \
    "$STICKY/report.txt: not followed: it is a symbolic link of another user in a sticky folder anyone may write"
check_eq "-o through nobody's link: one line on stderr" "$(printf '%s\n' "$ERR" | wc -l)" 1
if cmp -s "$T/private/secret" "$T/secret.orig"; then
    pass "-o through nobody's link: the root-only file is byte-identical"
else
    fail "-o through nobody's link: the root-only file is byte-identical" "it changed"
fi
check_eq "-o through nobody's link: its mode and owner kept" \
    "$(stat -c '%a %U' "$T/private/secret")" "600 root"
check_eq "-o through nobody's link: no temporary file left beside the target" \
    "$(ls -A "$T/private" | tr '\n' ' ')" "secret "

# a link to a file that does not exist yet: nothing created where it points
as_nobody ln -s "$T/private/crontab" "$STICKY/new.txt"
decide_to "$STICKY/new.txt"
check_rc "-o through nobody's dangling link: exit 73" 73
check_eq "-o through nobody's dangling link: no file made where it points" \
    "$(ls "$T/private" | tr '\n' ' ')" "secret "

# the link as a folder in the middle of the path
as_nobody ln -s "$T/private" "$STICKY/dir"
decide_to "$STICKY/dir/report.txt"
check_rc "-o through nobody's link to a folder: exit 73" 73
check_err "-o through nobody's link to a folder: the link named" \
    "$STICKY/dir/report.txt: not followed: the path goes through $STICKY/dir, a symbolic link of another user"
check_eq "-o through nobody's link to a folder: nothing written in it" \
    "$(ls "$T/private" | tr '\n' ' ')" "secret "

# the starting files `workload new` and `plugin new` write with -o: the same rule
run "$GW" workload new --task train -o "$STICKY/dir/w.lua"
check_rc "workload new -o through nobody's link to a folder: exit 73" 73
run "$GW" plugin new pricing acme -o "$STICKY/dir/acme.lua"
check_rc "plugin new -o through nobody's link to a folder: exit 73" 73
check_eq "workload new, plugin new: nothing written where the link points" \
    "$(ls "$T/private" | tr '\n' ' ')" "secret "

# ---- links the rule allows: the user's own, and the sticky folder's owner's -----------------
printf 'old\n' >"$T/mine.txt"
ln -s "$T/mine.txt" "$STICKY/mine.txt"
decide_to "$STICKY/mine.txt"
check_rc "-o through the user's own link in a sticky folder: exit 0" 0
check_eq "-o through the user's own link: the file it points to written, the link kept" \
    "$(head -c 12 "$T/mine.txt") $(test -L "$STICKY/mine.txt" && echo link)" "Vision team: link"
mkdir "$T/nobodys" && chown nobody:nogroup "$T/nobodys" && chmod 1777 "$T/nobodys"
as_nobody ln -s "$T/mine.txt" "$T/nobodys/owners.txt"
printf 'old\n' >"$T/mine.txt"
decide_to "$T/nobodys/owners.txt"
check_rc "-o through a link of the sticky folder's owner: followed (as the kernel does)" 0
check_eq "-o through the folder owner's link: written" "$(head -c 12 "$T/mine.txt")" "Vision team:"

# ---- new files respect the umask; an existing file keeps its mode --------------------------
(umask 077 && "$GW" --kb "$KB" decide "$WORKLOAD" -o "$T/umask077.txt" >/dev/null 2>&1)
check_eq "umask 077: a new report is 0600 (0666 less 077)" "$(mode "$T/umask077.txt")" 600
(umask 022 && "$GW" --kb "$KB" decide "$WORKLOAD" -o "$T/umask022.txt" >/dev/null 2>&1)
check_eq "umask 022: a new report is 0644 (0666 less 022)" "$(mode "$T/umask022.txt")" 644
printf 'old\n' >"$T/kept.txt"
chmod 640 "$T/kept.txt"
(umask 077 && "$GW" --kb "$KB" decide "$WORKLOAD" -o "$T/kept.txt" >/dev/null 2>&1)
check_eq "an existing report keeps its mode (0640 under umask 077)" "$(mode "$T/kept.txt")" 640

ROWS="$T/rows.csv"
awk -v n=3 -v seed=7 -v prefix=hw-umask -v gpus=rtx-4090 -f "$ROOT/tests/bench/gen_benchmarks.awk" >"$ROWS"
(umask 077 && XDG_DATA_HOME="$T/data077" "$GW" kb import "$ROWS" >/dev/null 2>&1)
check_eq "umask 077: the user's copy of the KB is 0600" \
    "$(mode "$T/data077/gpuwise/gpuwise.db" 2>/dev/null)" 600
check_eq "umask 077: its folder is 0700" "$(mode "$T/data077/gpuwise" 2>/dev/null)" 700

# ---- the user's KB through another user's link ----------------------------------------------
mkdir -m 700 "$T/victim"
as_nobody ln -s "$T/victim" "$STICKY/gpuwise"
XDG_DATA_HOME="$STICKY" run "$GW" kb import "$ROWS"
check_rc "user KB through nobody's link: exit 73" 73
check_err "user KB through nobody's link: the link named" "$STICKY/gpuwise: not followed: it is a symbolic link"
check_eq "user KB through nobody's link: no KB made where it points" "$(ls -A "$T/victim")" ""
cp "$KB" "$T/private/kb.db"
cp -p "$T/private/kb.db" "$T/kb.orig"
as_nobody ln -s "$T/private/kb.db" "$STICKY/kb.db"
run "$GW" --kb "$STICKY/kb.db" kb import "$ROWS"
check_rc "--kb through nobody's link: exit 73" 73
if cmp -s "$T/private/kb.db" "$T/kb.orig" && [ ! -e "$T/private/kb.db-wal" ]; then
    pass "--kb through nobody's link: the KB it points to untouched"
else
    fail "--kb through nobody's link: the KB it points to untouched" "it changed"
fi
run "$GW" --kb "$STICKY/kb.db" kb show a100-sxm4-80gb
check_rc "--kb through nobody's link: not read either (exit 73)" 73
# a KB of the user's own in the sticky folder, with nobody's links planted as its WAL files:
# SQLite opens those O_NOFOLLOW, so the import fails and the file they point to is untouched
cp "$KB" "$STICKY/own.db"
as_nobody ln -s "$T/private/secret" "$STICKY/own.db-wal"
as_nobody ln -s "$T/private/shm" "$STICKY/own.db-shm"
run "$GW" --kb "$STICKY/own.db" kb import "$ROWS"
check_eq "nobody's links as a KB's WAL files: not written through" \
    "$(cmp -s "$T/private/secret" "$T/secret.orig" && echo same) $(ls "$T/private" | tr '\n' ' ')" \
    "same kb.db secret "
cp "$KB" "$T/mine.db"
ln -s "$T/mine.db" "$STICKY/my-kb.db"
run "$GW" --kb "$STICKY/my-kb.db" kb import "$ROWS"
check_rc "--kb through the user's own link: works" 0
check_eq "--kb through the user's own link: the rows in the KB it points to" \
    "$(sqlite3 "$T/mine.db" "SELECT count(*) FROM benchmark WHERE workload LIKE 'hw-umask%'")" 3

# ---- two first writes of the user's KB at once: every import's rows survive -------------------
# 20 pairs, each on a fresh user KB, the second import started 0 to 80 ms after the first.  A
# shipped KB padded to 20 MB makes the copy last longer than the first import takes to open
# its own copy, so a second copy renamed over the first (as it once was) would take the rows
# the first import stored in it, in most pairs; one linked to its name never can.
if command -v sqlite3 >/dev/null 2>&1; then
    mkdir -p "$T/data/kb"
    cp "$SHIPPED_KB" "$T/data/kb/gpuwise.db"
    sqlite3 "$T/data/kb/gpuwise.db" "CREATE TABLE padding(x); INSERT INTO padding VALUES (zeroblob(20000000))"
    ln -s "$ROOT/plugins" "$T/data/plugins"
    ln -s "$ROOT/templates" "$T/data/templates"
    lost=
    i=1
    while [ $i -le 20 ]; do
        awk -v n=2 -v seed=$i -v prefix="race-a$i-" -v gpus=rtx-4090 \
            -f "$ROOT/tests/bench/gen_benchmarks.awk" >"$T/a$i.csv"
        awk -v n=2 -v seed=$((i + 100)) -v prefix="race-b$i-" -v gpus=rtx-4090 \
            -f "$ROOT/tests/bench/gen_benchmarks.awk" >"$T/b$i.csv"
        export XDG_DATA_HOME="$T/race$i" GPUWISE_DATADIR="$T/data" GPUWISE_BUSY_TIMEOUT_MS=60000
        "$GW" kb import "$T/a$i.csv" >/dev/null 2>"$T/a$i.err" &
        pa=$!
        sleep "0.0$((i % 5 * 2))"
        "$GW" kb import "$T/b$i.csv" >/dev/null 2>"$T/b$i.err" &
        pb=$!
        wait $pa; ra=$?
        wait $pb; rb=$?
        # 2 rows each: race-aI-1 and race-aI-2, race-bI-1 and race-bI-2
        got=$(sqlite3 "$T/race$i/gpuwise/gpuwise.db" \
            "SELECT count(*) FROM benchmark WHERE workload LIKE 'race-a$i-%';
             SELECT count(*) FROM benchmark WHERE workload LIKE 'race-b$i-%'" | tr '\n' ' ')
        [ "$ra $rb $got" = "0 0 2 2 " ] || lost="$lost [pair $i: exits $ra $rb, rows $got]"
        i=$((i + 1))
    done
    export XDG_DATA_HOME="$T/xdg-data"
    unset GPUWISE_DATADIR GPUWISE_BUSY_TIMEOUT_MS
    check_eq "20 pairs of first imports at once: both exit 0 and keep their 2 rows each" "$lost" ""
else
    skip "concurrent first writes" "sqlite3 not installed"
fi

# ---- the prices cache -------------------------------------------------------------------
if ! command -v python3 >/dev/null 2>&1; then
    skip "prices cache" "python3 not found (the test's HTTP server)"
    exit 0
fi
WWW="$T/www"
mkdir -p "$WWW/catalogs/v7/aws"
cp "$FIX/prices/skypilot-aws-vms.csv" "$WWW/catalogs/v7/aws/vms.csv"
python3 "$ROOT/tests/plugins/fetch_server.py" "$WWW" "$T/port" 120 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
if ! wait_until 10 test -s "$T/port"; then
    fail "fetch server started" "no port after 10 s"
    exit 0
fi
URL="http://127.0.0.1:$(cat "$T/port")/catalogs/v7/aws/vms.csv"
fetch() { run "$GW" --kb "$KB" prices fetch skypilot --url "$URL"; }

export XDG_CACHE_HOME="$T/cache"
# two fetches at once, which name their downloads by the same second in most tries: each keeps
# its own file (a name made of the time alone would have one replace the other).  Tried until
# two files share their time (both kept) or only one is left (one lost); two of different
# seconds say nothing, and a loaded machine may give only those in 5 tries.
verdict=
for try in 1 2 3 4 5; do
    rm -rf "$XDG_CACHE_HOME"
    GPUWISE_BUSY_TIMEOUT_MS=60000 "$GW" --kb "$KB" prices fetch skypilot --url "$URL" >/dev/null 2>&1 &
    first=$!
    GPUWISE_BUSY_TIMEOUT_MS=60000 "$GW" --kb "$KB" prices fetch skypilot --url "$URL" >/dev/null 2>&1
    RC=$?
    wait $first
    names=$(ls "$XDG_CACHE_HOME/gpuwise/prices/skypilot/aws" | grep -v '\.url$')
    files=$(printf '%s\n' "$names" | wc -l)
    seconds=$(printf '%s\n' "$names" | cut -c1-18 | sort -u | wc -l)
    [ "$files" = 1 ] && verdict="one file left" && break
    [ "$files" = 2 ] && [ "$seconds" = 1 ] && verdict="two files" && break
done
check_rc "cache: fetch exits 0" 0
check_eq "cache: gpuwise, prices, skypilot and aws folders are 0700" \
    "$(cd "$XDG_CACHE_HOME" && stat -c %a gpuwise gpuwise/prices gpuwise/prices/skypilot \
        gpuwise/prices/skypilot/aws | tr '\n' ' ')" "700 700 700 700 "
if [ -n "$verdict" ]; then
    check_eq "cache: two fetches in one second keep two files, by different names" "$verdict" "two files"
else
    skip "cache: two fetches in one second keep two files" "no two fetches in one second in 5 tries"
fi
check_eq "cache: each name is the time, 8 random letters, the source's name" \
    "$(printf '%s\n' "$names" | grep -Ec '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{6}Z\.[a-z2-7]{8}-aws-vms\.csv$')" 2
check_eq "cache: the files are 0600" \
    "$(cd "$XDG_CACHE_HOME/gpuwise/prices/skypilot/aws" && stat -c %a * | sort -u)" 600
run "$GW" --kb "$KB" prices refresh skypilot --cached
check_out "cache: the newest download replays (its name read back)" "skypilot aws: 8 offers stored"

# a cache folder another user made first, or one others may write, is not used
STICKY="$T/sticky-cache"
mkdir "$STICKY" && chmod 1777 "$STICKY"
export XDG_CACHE_HOME="$STICKY"
as_nobody mkdir -m 755 "$STICKY/gpuwise"
fetch
check_rc "cache: a folder of nobody's at its place: exit 73" 73
check_err "cache: nobody's folder named" "$STICKY/gpuwise: belongs to another user"
check_eq "cache: nothing written in nobody's folder" "$(ls -A "$STICKY/gpuwise")" ""
as_nobody rmdir "$STICKY/gpuwise"
as_nobody ln -s "$T/private" "$STICKY/gpuwise"
fetch
check_rc "cache: nobody's link at its place: exit 73" 73
check_eq "cache: nothing written where the link points" "$(ls "$T/private" | tr '\n' ' ')" "kb.db secret "
export XDG_CACHE_HOME="$T/cache-open"
mkdir -p "$XDG_CACHE_HOME/gpuwise" && chmod 777 "$XDG_CACHE_HOME/gpuwise"
fetch
check_rc "cache: a folder anyone may write: exit 73" 73
check_err "cache: the folder anyone may write named" \
    "$XDG_CACHE_HOME/gpuwise: other users may write in it (mode 0777)"
