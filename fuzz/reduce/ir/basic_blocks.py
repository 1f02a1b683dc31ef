"""basic-blocks: a basic block goes; branches to it go to a `ret` instead, phis forget it
(llvm-reduce's basic-blocks)."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    LABEL,
    NO_BLOCK_EDITS,
    SIMPLE_TYPE,
    VALUE_DEF,
    function_bodies,
    result_type,
    signature,
    zero_def,
    zero_literal,
)

_BR = re.compile(r"^  br label (%[-\w.$]+)$")
_CBR = re.compile(r"^  br i1 ([^,]+), label (%[-\w.$]+), label (%[-\w.$]+)$")
_PHI = re.compile(r"^  (%[-\w.$]+) = phi (\S+) (.*)$")


def _block_sites(text: str) -> list[tuple[int, int, int]]:
    """(define line, label line, last line) of each non-entry block of a function whose
    control flow is plain `br`s and `ret`s."""
    lines = text.split("\n")
    sites = []
    for start, end in function_bodies(lines):
        if NO_BLOCK_EDITS.search("\n".join(lines[start + 1 : end])):
            continue
        labels = [j for j in range(start + 2, end) if LABEL.match(lines[j])]
        for k, j in enumerate(labels):
            sites.append((start, j, (labels[k + 1] if k + 1 < len(labels) else end) - 1))
    return sites


def _block_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[j].split(":")[0] for _s, j, _e in _block_sites(text)]


def _dead_block_values(lines: list[str], first: int, last: int) -> dict[str, str]:
    """Values a block defines -> a zero of their type (for uses left in other blocks)."""
    zeros = {}
    for j in range(first, last + 1):
        d = VALUE_DEF.match(lines[j])
        if d:
            phi = _PHI.match(lines[j])
            ty = phi.group(2) if phi else result_type(d.group(2))
            if ty is not None and SIMPLE_TYPE.fullmatch(ty):
                zeros[d.group(1)] = zero_literal(ty)
    return zeros


def _retarget(line: str, dead: set[str], ret: str) -> str:
    """A terminator without its edges to dead blocks (`ret` when none is left)."""
    if (m := _BR.match(line)) and m.group(1) in dead:
        return ret
    if m := _CBR.match(line):
        live = [t for t in (m.group(2), m.group(3)) if t not in dead]
        if len(live) == 2:
            return line
        return f"  br label {live[0]}" if live else ret
    if phi := _PHI.match(line):
        entries = [e for e in re.findall(r"\[[^\]]*\]", phi.group(3)) if e.rsplit(",", 1)[1].strip(" ]") not in dead]
        if not entries:
            return f"  {phi.group(1)} = {zero_def(phi.group(2))}"
        return f"  {phi.group(1)} = phi {phi.group(2)} {', '.join(entries)}"
    return line


def _drop_blocks(text: str, keep: set[int]) -> str:
    """Blocks outside `keep` go: a branch to one returns zero (or takes its other edge), phis
    lose its entries, uses of its values become zeros; a dead loop goes with its blocks."""
    lines = text.split("\n")
    by_function: dict[int, list[tuple[int, int]]] = {}
    for k, (start, first, last) in enumerate(_block_sites(text)):
        if k not in keep:
            by_function.setdefault(start, []).append((first, last))
    ends = dict(function_bodies(lines))
    drop: set[int] = set()
    for start, blocks in by_function.items():
        head = signature(lines[start])
        if head is None:
            continue
        ret = "  ret void" if head[0] == "void" else f"  ret {head[0]} {zero_literal(head[0])}"
        dead = {"%" + lines[first].split(":")[0] for first, _last in blocks}
        zeros: dict[str, str] = {}
        for first, last in blocks:
            zeros.update(_dead_block_values(lines, first, last))
            drop.update(range(first, last + 1))
        use = re.compile("(" + "|".join(re.escape(n) for n in zeros) + r")(?![-\w.$])") if zeros else None
        for j in range(start + 1, ends[start]):
            if j not in drop:
                lines[j] = _retarget(lines[j], dead, ret)
                if use is not None:
                    lines[j] = use.sub(lambda m, z=zeros: z[m.group(1)], lines[j])  # type: ignore[misc]
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


PASS = DeltaPass("basic-blocks", _block_chunks, _drop_blocks)
