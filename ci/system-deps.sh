#!/usr/bin/env bash
# Optional system tools for the opt-in-by-availability tests: clang-19 (the real-world corpus),
# redis-server (shared example database), gdb (breakpoints in split-built -g programs), the
# AArch64 cross tools (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user: tests/test_aarch64.py), the
# Debian crate sources of the Rust corpus (ci/fetch_rust_corpus.sh). Best effort: without them those tests skip with a reason.
set -uo pipefail
cd "$(dirname "$0")/.."
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  missing=""
  command -v clang-19 >/dev/null 2>&1 || missing="$missing clang-19"
  command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
  command -v gdb >/dev/null 2>&1 || missing="$missing gdb"
  command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing="$missing gcc-aarch64-linux-gnu"
  [ -e /usr/aarch64-linux-gnu/include/stdio.h ] || missing="$missing libc6-dev-arm64-cross"
  command -v qemu-aarch64 >/dev/null 2>&1 || missing="$missing qemu-user"
  if [ -n "$missing" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null 2>&1 \
      || (apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null 2>&1) \
      || echo "ci: could not install$missing; their tests will skip" >&2
  fi
fi
bash ci/fetch_lua.sh || echo "ci: could not fetch the Lua sources; the Lua corpus test will skip" >&2
bash ci/fetch_corpus.sh || echo "ci: could not fetch every corpus program; their tests will skip" >&2
bash ci/fetch_rust_corpus.sh || echo "ci: could not fetch or build the Rust corpus programs; their tests will skip" >&2
