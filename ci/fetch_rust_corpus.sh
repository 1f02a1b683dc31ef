#!/usr/bin/env bash
# The Rust corpus (fuzz/corpus.py, front_end="rustc"; docs/corpus-rust.md): Debian's crate
# sources (librust-*-dev, pinned versions, under /usr/share/cargo/registry) for the drivers in
# fuzz/corpus_rust/, then one cargo build of each (offline, that registry as a directory source,
# fat LTO) into .cache/corpus/rust: the module, rustc's executable and its link line.
# Needs root + apt for the packages, and cargo/rustc whose LLVM is the tools wheel's (22).
# Tests skip with the reason when the crates or cargo are missing. Usage: bash ci/fetch_rust_corpus.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# package=version (their dependencies come with them: aho-corasick, memchr, regex-syntax,
# bitflags, unicase, version_check)
packages="librust-regex-dev=1.7.1-1 librust-regex+default-dev=1.7.1-1 librust-pulldown-cmark-dev=0.9.2-1+b2"
crates="regex-1.7.1 regex-syntax-0.6.27 aho-corasick-0.7.19 memchr-2.5.0 pulldown-cmark-0.9.2 bitflags-1.3.2 unicase-2.6.0 version_check-0.9.4"

have_all() {
  local c
  for c in $crates; do [ -f "/usr/share/cargo/registry/$c/Cargo.toml" ] || return 1; done
}

if ! have_all; then
  command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] \
    || { echo "rust corpus: Debian crate sources missing and cannot apt-get install them (not root)" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 \
         && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages >/dev/null 2>&1; } \
    || { echo "rust corpus: apt-get install $packages failed" >&2; exit 1; }
  have_all || { echo "rust corpus: the packages did not bring every crate ($crates)" >&2; exit 1; }
fi

# Build the modules now (cached by recipe; the tests would otherwise build them on first use).
[ -x .venv/bin/python ] || { echo "rust corpus: no .venv yet (bash ci/setup.sh); modules are built on first use" >&2; exit 0; }
.venv/bin/python - <<'PY'
import sys
from fuzz import corpus

status = 0
for program in corpus.PROGRAMS:
    if program.front_end != "rustc":
        continue
    reason = corpus.missing(program)
    if reason:
        print(f"rust corpus: {program.name}: {reason}", file=sys.stderr)
        status = 1
        continue
    try:
        built = corpus.rust_build(program)
    except Exception as exc:  # one line per program, as the C fetch does
        print(f"rust corpus: {program.name}: {exc}", file=sys.stderr)
        status = 1
        continue
    print(f"rust corpus: {program.name}: {built.module}")
sys.exit(status)
PY
