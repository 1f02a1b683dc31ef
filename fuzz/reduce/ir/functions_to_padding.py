"""functions-to-padding: an unreferenced function goes and `main` keeps its split-planner
cost as dead `add`s, so the module still splits the same way."""

from __future__ import annotations

import re

from compiler.backend import irmodel
from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    LABEL,
    function_bodies,
    parsed,
    rebuild,
    referenced_by_others,
    signature,
)

_PAD_NAME = re.compile(r"%ember\.pad\.([0-9]+)\b")


def _paddable_functions(text: str) -> list[irmodel.Entity]:
    """Defined functions but `main` that nothing refers to, when there is a `main` to pad."""
    mod = parsed(text)
    if not any(e.kind == "function" and e.name == "main" for e in mod.entities):
        return []
    referenced = referenced_by_others(mod)
    return [e for e in mod.entities if e.kind == "function" and e.name != "main" and e.name not in referenced]


def _paddable_chunks(text: str) -> list[str]:
    return [e.name for e in _paddable_functions(text)]


def _functions_to_padding(text: str, keep: set[int]) -> str:
    """Functions outside `keep` go and `main` gains one dead `add` per unit of their
    split-planner cost (compiler.backend.irmodel: a function's line count). A fault that
    shows only when the module splits into the same subgraphs needs the module's total
    cost more than the functions that make it up; plain deletion loses that, and the
    padding can still go later if it is not needed."""
    gone = [e for i, e in enumerate(_paddable_functions(text)) if i not in keep]
    if not gone:
        return text
    text = rebuild(text, {f"function:{e.name}": None for e in gone})
    first = max((int(n) for n in _PAD_NAME.findall(text)), default=-1) + 1
    pads = [f"  %ember.pad.{first + k} = add i64 0, 0" for k in range(sum(e.cost for e in gone))]
    lines = text.split("\n")
    for start, _end in function_bodies(lines):
        head = signature(lines[start])
        if head is not None and head[1] == "main":
            at = start + 2 if LABEL.match(lines[start + 1]) else start + 1
            while _PAD_NAME.match(lines[at].strip()):
                at += 1  # after earlier padding: names stay in order
            lines[at:at] = pads
            break
    return "\n".join(lines)


PASS = DeltaPass("functions-to-padding", _paddable_chunks, _functions_to_padding)
