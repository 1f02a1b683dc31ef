"""merge-blocks: a block whose only predecessor ends in `br label %it` joins that
predecessor (simplifycfg's merge-block-into-predecessor): the branch and the label go,
its phis (one entry each) become their incoming value, and successors' phis name the
predecessor instead. Two lines fewer per merge, and a loop left straight-line by the
other deltas (`entry: br label %loop` / `loop: ...`) becomes one block."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import BR, PHI, PHI_ENTRY, Block, editable_functions, split_blocks

_NUMBERED = re.compile(r"%[0-9]+$")


def _mergeable(blocks: list[Block]) -> list[str]:
    """Names of the blocks that may join their only predecessor."""
    preds: dict[str, list[Block]] = {}
    for b in blocks:
        for s in b.successors():
            preds.setdefault(s, []).append(b)
    out = []
    for b in blocks[1:]:
        if b.name is None or _NUMBERED.match(b.name):  # a numbered label: dropping it renumbers values
            continue
        ps = preds.get(b.name, [])
        if len(ps) != 1 or ps[0] is b or not BR.match(ps[0].terminator()):
            continue
        # an unlabelled entry block cannot be named by the phis of b's successors
        if ps[0].name is None and any(PHI.match(ln) for s in blocks for ln in s.body if b.name in ln):
            continue
        out.append(b.name)
    return out


def _sites(text: str) -> list[tuple[int, str]]:
    lines = text.split("\n")
    return [(s, name) for s, e in editable_functions(lines) for name in _mergeable(split_blocks(lines[s + 1 : e]))]


def _chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [f"{lines[s].split('@', 1)[1].split('(', 1)[0]}{name}" for s, name in _sites(text)]


def _merge(blocks: list[Block], name: str) -> list[Block]:
    """`name` joined to its only predecessor (still checked: earlier merges change blocks)."""
    if name not in _mergeable(blocks):
        return blocks
    b = next(x for x in blocks if x.name == name)
    p = next(x for x in blocks if name in x.successors())
    values: dict[str, str] = {}
    body = []
    for ln in b.body:
        phi = PHI.match(ln)
        if phi:
            entry = PHI_ENTRY.search(phi.group(3))
            if entry is None:
                raise ValueError("a phi without entries")
            values[phi.group(1)] = entry.group(1)
        else:
            body.append(ln)
    term = p.terminator()
    p.body.pop(max(i for i, ln in enumerate(p.body) if ln == term))
    p.body.extend(body)
    rest = [x for x in blocks if x is not b]
    use = re.compile("(" + "|".join(re.escape(v) for v in values) + r")(?![-\w.$])") if values else None
    incoming = re.compile(re.escape(name) + r"(\s*\])")
    for x in rest:
        if use is not None:
            x.body = [use.sub(lambda m: values[m.group(1)], ln) for ln in x.body]
        x.body = [incoming.sub(lambda m: f"{p.name}{m.group(1)}", ln) if PHI.match(ln) else ln for ln in x.body]
    return rest


def _apply(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    merged: dict[int, list[str]] = {}
    for k, (start, name) in enumerate(_sites(text)):
        if k not in keep:
            merged.setdefault(start, []).append(name)
    ends = dict(editable_functions(lines))
    for start in sorted(merged, reverse=True):  # from the end: earlier line numbers stay valid
        blocks = split_blocks(lines[start + 1 : ends[start]])
        for name in merged[start]:
            blocks = _merge(blocks, name)
        lines[start + 1 : ends[start]] = [ln for b in blocks for ln in b.lines()]
    return "\n".join(lines)


PASS = DeltaPass("merge-blocks", _chunks, _apply)
