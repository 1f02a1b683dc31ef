#!/usr/bin/env bash
# The whole real-world corpus (tests/test_corpus.py with EMBER_CORPUS=full): every program,
# every split mode, -O0/-O2, -j1/-j2, and once more with -g (clang -g modules: DWARF checks).
# Needs the sources (ci/fetch_corpus.sh, ci/fetch_lua.sh) and clang-19; programs whose sources
# are missing skip with the reason.
#
# The Rust programs (rust-regex, rust-markdown: ci/fetch_rust_corpus.sh, docs/corpus-rust.md) run
# here only, never in the default test command: each is one fat-LTO module of 2,700-3,500
# functions (std included), so one split build costs 20-110 s on the 2-core machine where a C
# quick program's costs seconds. Here: -O2 in subgraph and two-level mode (-j2) on both, and
# -g once (rust-markdown, subgraph mode); EMBER_CORPUS=all adds function mode, -j1, -O0 and -g
# in every mode (tests/test_corpus.py says why, with the measured cost). This step took 72 min
# of CI's 90 with all of them (2026-11-27); docs/corpus-rust.md has the table.
#
# CI then took 85 of its 90 minutes, so `full` also leaves to EMBER_CORPUS=all what repeats
# another row's check: `function` mode on the C programs of 1,200+ functions (duktape, SQLite,
# gawk, libxml2) except at -O2 (it optimises the module whole in one worker, a serial build's
# cost, and its per-function cut is two-level mode's), the -j1 build of -O0 rows and of
# `function` mode (one task: nothing to schedule differently), and AArch64's serial build and
# qemu run once per program instead of once per mode.
set -uo pipefail
cd "$(dirname "$0")/.."
EMBER_CORPUS=full .venv/bin/python -m pytest -n auto -q tests/test_corpus.py
rc=$?
[ "$rc" -eq 5 ] && { echo "ci: the corpus test collected nothing" >&2; exit 1; }
exit "$rc"
