#!/bin/sh
# The command line itself: help, version, dispatch and usage errors (exit 64).
. "$ROOT/tests/cli/lib.sh"

run "$GW" --version
check_rc "version exits 0" 0
check_out "version prints the name and number" "gpuwise 0."

run "$GW" --help
check_rc "help exits 0" 0
check_out "help lists the kb command" "  kb "
check_out "help lists the report command" "  report "
check_out "help explains exit codes" "75 KB busy"

run "$GW"
check_rc "no command is a usage error" 64
check_err "no command prints usage on stderr" "usage: gpuwise"

run "$GW" frobnicate
check_rc "unknown command exits 64" 64
check_err "unknown command is named" "'frobnicate' is not a command"

run "$GW" help kb
check_rc "help COMMAND exits 0" 0
check_out "help kb shows its usage" "usage: gpuwise kb"

run "$GW" kb --help
check_rc "COMMAND --help exits 0" 0
check_out "kb --help shows its usage" "usage: gpuwise kb"

run "$GW" help nosuch
check_rc "help for an unknown command exits 64" 64

run "$GW" --format pdf kb list
check_rc "bad --format exits 64" 64
check_err "bad --format names the choices" "expected one of text|md|html|json|csv"

run "$GW" kb list --kb
check_rc "--kb without a value exits 64" 64
check_err "--kb without a value says so" "--kb needs a value"

run "$GW" --kb "$T/nonexistent.db" kb list
check_rc "a missing KB file exits 66" 66
check_err "a missing KB file is named" "nonexistent.db"
