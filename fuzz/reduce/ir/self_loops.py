"""self-loops: a block's edge back to itself goes (`br label %b` in `%b` returns zero; a
conditional self-edge takes its other edge); phis of the block forget that edge.

basic-blocks cannot drop a loop block that holds what the test needs (a call), and
branches-to-true/false fold the *condition*, which leaves `br label %loop` when the
loop edge is the one taken: this delta removes the edge itself."""

from __future__ import annotations

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    BR,
    CBR,
    PHI,
    PHI_ENTRY,
    editable_functions,
    ret_zero,
    split_blocks,
    zero_def,
)


def _sites(text: str) -> list[tuple[int, str]]:
    """(define line, block name) of every block with an edge to itself."""
    lines = text.split("\n")
    out = []
    for start, end in editable_functions(lines):
        for b in split_blocks(lines[start + 1 : end]):
            if b.name is not None and b.name in b.successors():
                out.append((start, b.name))
    return out


def _chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [f"{lines[s].split('@', 1)[1].split('(', 1)[0]}{name}" for s, name in _sites(text)]


def _drop_self_edge(line: str, name: str, ret: str) -> str:
    if (m := BR.match(line)) and m.group(1) == name:
        return ret
    if (m := CBR.match(line)) and name in (m.group(2), m.group(3)):
        other = m.group(3) if m.group(2) == name else m.group(2)
        return ret if other == name else f"  br label {other}"
    return line


def _drop_phi_entries(line: str, name: str) -> str:
    phi = PHI.match(line)
    if phi is None:
        return line
    entries = [e.group(0) for e in PHI_ENTRY.finditer(phi.group(3)) if e.group(2) != name]
    if not entries:
        return f"  {phi.group(1)} = {zero_def(phi.group(2))}"
    return f"  {phi.group(1)} = phi {phi.group(2)} {', '.join(entries)}"


def _apply(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    dropped: dict[int, set[str]] = {}
    for k, (start, name) in enumerate(_sites(text)):
        if k not in keep:
            dropped.setdefault(start, set()).add(name)
    ends = dict(editable_functions(lines))
    for start, names in dropped.items():
        ret = ret_zero(lines[start])
        body = split_blocks(lines[start + 1 : ends[start]])
        new: list[str] = []
        for b in body:
            if b.name in names:
                term = b.terminator()
                b.body = [_drop_phi_entries(ln, b.name) for ln in b.body]
                i = max(i for i, ln in enumerate(b.body) if ln == term)
                b.body[i] = _drop_self_edge(term, b.name, ret)
            new.extend(b.lines())
        lines[start + 1 : ends[start]] = new + [None] * (ends[start] - start - 1 - len(new))  # type: ignore[list-item]
    return "\n".join(ln for ln in lines if ln is not None)


PASS = DeltaPass("self-loops", _chunks, _apply)
