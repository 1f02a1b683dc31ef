"""instructions: an instruction goes; a value it defined is redefined from constants
(`add i64 0, 0`), so every use stays valid."""

from __future__ import annotations

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    VALUE_DEF,
    instruction_chunks,
    instruction_lines,
    result_type,
    zero_def,
)


def _drop_instructions(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    drop = {line_no for k, line_no in enumerate(instruction_lines(text)) if k not in keep}
    out = []
    for i, line in enumerate(lines):
        if i not in drop:
            out.append(line)
            continue
        m = VALUE_DEF.match(line)
        if m:  # a value-producing instruction: replace its uses by a constant of its type
            ty = result_type(m.group(2))
            if ty is None:
                out.append(line)
                continue
            out.append(f"  {m.group(1)} = {zero_def(ty)}")
    return "\n".join(out)


PASS = DeltaPass("instructions", instruction_chunks, _drop_instructions)
