"""delete-instructions: an instruction goes and the uses of its value become zeros of its
type (llvm-reduce's instruction deletion; `zeroinitializer` where the type is not one the
patterns read: a Rust call returning `{ i64, ptr }`)."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    VALUE_DEF,
    function_bodies,
    instruction_chunks,
    instruction_lines,
    result_type,
    zero_literal,
)


def _delete_instructions(text: str, keep: set[int]) -> str:
    """Instructions outside `keep` go; uses of their values become zeros of the value's type
    (llvm-reduce's instruction deletion: one step shorter than a constant definition, and
    it does not leave the function's size unchanged)."""
    lines = text.split("\n")
    drop = {line_no for k, line_no in enumerate(instruction_lines(text)) if k not in keep}
    for start, end in function_bodies(lines):
        zeros: dict[str, str] = {}
        for j in range(start + 1, end):
            if j not in drop:
                continue
            m = VALUE_DEF.match(lines[j])
            if m:
                ty = result_type(m.group(2))
                # a type the patterns do not read (a call returning `{ i64, ptr }`, one with
                # `align 8` before its type): `zeroinitializer`, a zero of every type
                zeros[m.group(1)] = zero_literal(ty) if ty is not None else "zeroinitializer"
            lines[j] = "\0"  # dropped below
        if zeros:
            use = re.compile("(" + "|".join(re.escape(n) for n in zeros) + r")(?![-\w.$])")
            for j in range(start + 1, end):
                if lines[j] != "\0":
                    lines[j] = use.sub(lambda m, z=zeros: z[m.group(1)], lines[j])  # type: ignore[misc]
    return "\n".join(line for line in lines if line != "\0")


PASS = DeltaPass("delete-instructions", instruction_chunks, _delete_instructions)
