#!/bin/sh
# make install: the installed program finds its KB, plugins and templates without flags, and
# keeps the user's own KB and plugins in the XDG folders, never writing into the prefix.
. "$ROOT/tests/cli/lib.sh"

stage="$T/stage"
run make -C "$ROOT" -s install PREFIX=/opt/gpuwise DESTDIR="$stage"
check_rc "make install exits 0" 0
bin="$stage/opt/gpuwise/bin/gpuwise"
share="$stage/opt/gpuwise/share/gpuwise"
for f in "$bin" "$share/kb/gpuwise.db" "$share/templates/justification.md.mustache" \
         "$share/templates/page.html.mustache" "$share/plugins/rules/budget.lua" \
         "$share/plugins/checklists/used-card.lua" "$share/plugins/pricing/fsdl.lua" \
         "$stage/opt/gpuwise/share/man/man1/gpuwise.1" \
         "$stage/opt/gpuwise/share/bash-completion/completions/gpuwise" \
         "$stage/opt/gpuwise/share/zsh/vendor-completions/_gpuwise" \
         "$stage/opt/gpuwise/share/doc/gpuwise/README.md" \
         "$stage/opt/gpuwise/share/doc/gpuwise/gpuwise.md" \
         "$stage/opt/gpuwise/share/doc/gpuwise/examples/vision-team.lua" \
         "$stage/opt/gpuwise/share/doc/gpuwise/plugins/README.md"; do
    if [ -f "$f" ]; then pass "installed ${f#$stage}"; else fail "installed ${f#$stage}" "missing"; fi
done

# Run from somewhere else entirely, with nothing pointing at the source tree.
chmod -R a-w "$stage"
cd "$T" || exit 1
run "$bin" kb show 3090
check_rc "installed: kb show finds the shipped KB" 0
check_out "installed: the datasheet has the 3090's bandwidth" "936 GB/s"

run "$bin" plugin list
check_rc "installed: plugin list" 0
check_out "installed: finds the shipped rules" "budget"

run "$bin" report "$ROOT/examples/vision-team.lua" --format html -o "$T/j.html"
check_rc "installed: report with the shipped templates" 0
if grep -q "<svg" "$T/j.html" 2>/dev/null; then pass "installed: report has its charts"; else fail "installed: report has its charts" "no svg"; fi

# A write goes to the user's KB, created from the shipped one; the prefix stays untouched.
before=$(find "$stage" -type f -exec md5sum {} + | sort | md5sum)
run "$bin" prices refresh cn-market
check_rc "installed: prices refresh writes the user's KB" 0
if [ -f "$XDG_DATA_HOME/gpuwise/gpuwise.db" ]; then pass "installed: user KB created under XDG_DATA_HOME"; else fail "installed: user KB created under XDG_DATA_HOME" "missing"; fi
after=$(find "$stage" -type f -exec md5sum {} + | sort | md5sum)
check_eq "installed: nothing in the prefix changed" "$after" "$before"

run "$bin" plugin new pricing acme
check_rc "installed: plugin new writes to the user's folder" 0
if [ -f "$XDG_CONFIG_HOME/gpuwise/plugins/pricing/acme.lua" ]; then pass "installed: new plugin under XDG_CONFIG_HOME"; else fail "installed: new plugin under XDG_CONFIG_HOME" "missing"; fi

# The documentation an installed copy gives: the examples' installed path, a man page that
# matches its help, and no advice that only a source tree can follow.
run "$bin" help decide
check_out "installed: help decide names the installed examples" "/opt/gpuwise/share/doc/gpuwise/examples"
page=$(MANWIDTH=100 man -l "$stage/opt/gpuwise/share/man/man1/gpuwise.1" 2>/dev/null | col -b)
case "$page" in *"gpuwise offers [OPTIONS]"*) pass "installed: the man page documents offers" ;;
    *) fail "installed: the man page documents offers" "$(printf '%s' "$page" | head -3)" ;; esac
cp "$bin" "$T/copied-gpuwise"
run env GPUWISE_DATADIR="$T/nowhere" XDG_DATA_HOME="$T/no-user-kb" "$T/copied-gpuwise" kb show 3090
check_rc "copied binary without its data: missing input" 66
case "$ERR" in *make*) fail "copied binary never says to run make" "$ERR" ;; *) pass "copied binary never says to run make" ;; esac
check_err "copied binary says what to do instead" "pass --kb FILE"
chmod -R u+w "$stage"
