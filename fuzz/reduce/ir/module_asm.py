"""module-asm: a `module asm "..."` line goes (the reducer kept every one: an ifunc crash of
llvm-split and llvm-lto reduced to 11 lines, 6 of them module asm it did not need)."""

from __future__ import annotations

from fuzz.reduce.ir.common import line_pass


def _asm_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.startswith("module asm ")]


PASS = line_pass("module-asm", _asm_lines)
