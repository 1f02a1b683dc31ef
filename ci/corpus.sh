#!/usr/bin/env bash
# The whole real-world corpus (tests/test_corpus.py with EMBER_CORPUS=full): every program,
# every split mode, -O0/-O2, -j1/-j2, and once more with -g (clang -g modules: DWARF checks).
# Needs the sources (ci/fetch_corpus.sh, ci/fetch_lua.sh) and clang-19; programs whose sources
# are missing skip with the reason.
set -uo pipefail
cd "$(dirname "$0")/.."
EMBER_CORPUS=full .venv/bin/python -m pytest -n auto -q tests/test_corpus.py
rc=$?
[ "$rc" -eq 5 ] && { echo "ci: the corpus test collected nothing" >&2; exit 1; }
exit "$rc"
