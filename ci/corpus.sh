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
#
# CI then took 72.6 of its 90 minutes (2026-11-28; issue 36 asks for under 60), so `full` runs the
# `-g` and AArch64 rows of the C programs in two-level mode only (tests/test_corpus.py, SIDE_MODES:
# it optimises subgraphs, where the `-g` differences found so far came from, and cuts them per function,
# the most pieces for the link), every mode for cjson and zlib (also in the default test
# command); every C program keeps a -O2 row in every split mode, a -g row and an AArch64 row, and
# rust-markdown its strict-xfail -g row. 32 rows move to EMBER_CORPUS=all (154 -> 122 rows), and
# so does the -j1 build of those programs' AArch64 rows (their x86-64 rows compare -j1 with -j2).
# Measured on the loaded 2-core machine (lua, zlib, SQLite; tests/test_corpus.py's rows of them):
# the moved rows were 2,017 of 4,453 s of test time, about 1,250 s net of the serial builds the
# kept rows now make.
#
# `--dist worksteal`: each worker takes a contiguous half of the rows and steals from the other's
# tail when idle, so the rows of one program (which share its serial reference build, the slowest
# build of a row and cached per worker: _serial, _serial_debug, _serial_aarch64) mostly stay on
# one worker (a steal can still split one program's rows). pytest-xdist's default `load` deals
# rows out in small batches across both workers, each of which built the same serial reference
# again (measured on lua, zlib, SQLite: 4 of 16 serial builds were repeats, 79 s).
# Since then each serial reference is built once per session whichever worker asks first
# (tests/shared_build_cache.py: a file-locked cache in the session's temp folder; a worker that
# needs one the other is building waits and reads it): lua + zlib, -n 2 worksteal, 10 serial
# builds of which 2 repeats (lua's plain -O2 and zlib's AArch64, 46 s) before, 8 of 8 after.
set -uo pipefail
cd "$(dirname "$0")/.."
EMBER_CORPUS=full .venv/bin/python -m pytest -n auto --dist worksteal -q tests/test_corpus.py
rc=$?
[ "$rc" -eq 5 ] && { echo "ci: the corpus test collected nothing" >&2; exit 1; }
exit "$rc"
