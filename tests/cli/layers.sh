#!/bin/sh
# The house's shape (tests/cli/layers.py): folders of core/ in one stated order, includes only
# down it, no C file over 1,000 lines and no function over 80.
. "$ROOT/tests/cli/lib.sh"
cd "$ROOT" && python3 tests/cli/layers.py
