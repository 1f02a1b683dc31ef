"""operands-zero: a local value used as an operand becomes a zero of its type."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import function_bodies, zero_literal

_OPERAND = re.compile(r"(?<=[ (,\[])(i\d+|ptr|double|float) (%[-\w.$]+|%\"[^\"]*\")(?![-\w.$]*\()")


def _operand_sites(text: str) -> list[tuple[int, int, int, str]]:
    """(line, start, end, type) of each typed local operand inside function bodies."""
    lines = text.split("\n")
    sites: list[tuple[int, int, int, str]] = []
    for start, end in function_bodies(lines):
        for i in range(start + 1, end):
            if lines[i].startswith("  "):
                sites.extend((i, m.start(2), m.end(2), m.group(1)) for m in _OPERAND.finditer(lines[i]))
    return sites


def _operand_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i][a:b] for i, a, b, _ty in _operand_sites(text)]


def _operands_to_zero(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    # right to left within a line, so earlier offsets stay valid
    for k, (i, a, b, ty) in sorted(enumerate(_operand_sites(text)), key=lambda kv: (kv[1][0], -kv[1][1])):
        if k not in keep:
            lines[i] = lines[i][:a] + zero_literal(ty) + lines[i][b:]
    return "\n".join(lines)


PASS = DeltaPass("operands-zero", _operand_chunks, _operands_to_zero)
