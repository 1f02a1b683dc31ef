"""values-to-return: a function returns a value it computed and the rest of its body goes
(llvm-reduce's values-to-return)."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    LABEL,
    SIMPLE_TYPE,
    VALUE_DEF,
    function_bodies,
    parsed,
    referenced_by_others,
    result_type,
    returning,
    signature,
)

_RETURNS_VALUE = re.compile(r"^  ret \S+ %")


def _return_sites(text: str) -> list[tuple[int, int, str]]:
    """(define line, value line, type) for each value computed in the entry block of a
    function that returns only constants and that nothing else refers to (so its return
    type can change without touching callers)."""
    mod = parsed(text)
    referenced = referenced_by_others(mod)
    lines = text.split("\n")
    sites = []
    for start, end in function_bodies(lines):
        head = signature(lines[start])
        if head is None or head[1] in referenced or "..." in head[2] or not SIMPLE_TYPE.fullmatch(head[0]):
            continue
        if any(_RETURNS_VALUE.match(lines[j]) for j in range(start + 1, end)):
            continue  # already returns a computed value: once per function, or it would trade values forever
        for j in range(start + 1, end):
            if LABEL.match(lines[j]) and j > start + 1:
                break  # the entry block ends at the first label after its own
            d = VALUE_DEF.match(lines[j])
            if d and " = phi " not in lines[j]:
                ty = result_type(d.group(2))
                if ty is not None:
                    sites.append((start, j, ty))
    return sites[::-1]  # last values first: they keep the most computation for later passes to cut


def _return_site_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[j].strip() for _start, j, _ty in _return_sites(text)]


def _values_to_return(text: str, keep: set[int]) -> str:
    """A function returns its last entry-block value outside `keep` right after computing
    it. Everything after it goes: the other blocks are unreachable from an entry block that
    ends in `ret` (nothing branches to the entry block), and none of their values can be
    used in it."""
    lines = text.split("\n")
    ends = dict(function_bodies(lines))
    chosen: dict[int, tuple[int, str]] = {}
    for k, (start, j, ty) in enumerate(_return_sites(text)):
        if k not in keep:
            chosen.setdefault(start, (j, ty))
    drop: set[int] = set()
    for start, (j, ty) in chosen.items():
        lines[start] = returning(lines[start], ty)
        value = lines[j].split(" = ", 1)[0].strip()
        lines[j] += f"\n  ret {ty} {value}"
        drop.update(range(j + 1, ends[start]))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


PASS = DeltaPass("values-to-return", _return_site_chunks, _values_to_return)
