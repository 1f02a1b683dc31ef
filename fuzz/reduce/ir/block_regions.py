"""block-regions: a block and every block it dominates go at once (the block ends in
`unreachable`, the blocks it dominates are deleted, phis forget them), then LLVM's
simplifycfg folds the branches into it.

The function-level regions of `fuzz.reduce.regions`, inside one function: what the
whole-module triage leaves are a few huge needed functions (a Rust `main` with its
callees inlined, 8,000 lines), where one conditional branch at a time is too slow. Chunks
are the blocks in the dominator tree's preorder, function by function, so a run of them
is mostly whole subtrees. Unlike basic-blocks this handles `switch` and `invoke` (a
landing pad keeps its `landingpad` before the `unreachable`); functions with funclet
pads, `indirectbr`, `callbr` or `blockaddress` are left alone.
"""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.branches import simplify_cfg
from fuzz.reduce.ir.common import PHI_ENTRY, Block, function_bodies, split_blocks

_UNSUPPORTED = re.compile(r"\b(?:indirectbr|callbr|blockaddress|catchswitch|catchpad|cleanuppad)\b")
_SUCC = re.compile(r"\blabel (%[-\w.$]+|%\"[^\"]*\")")
_ENTRY = "%<entry>"
#: a phi whatever its type (`common.PHI` reads one-word types only)
_PHI = re.compile(r"^  (%[-\w.$]+|%\"[^\"]*\") = phi (.+?) (\[ .*)$")


def _name(b: Block) -> str:
    return b.name if b.name is not None else _ENTRY


def _preorder(blocks: list[Block]) -> tuple[list[str], dict[str, str]]:
    """Non-entry blocks reachable from the entry in dominator-tree preorder, and the immediate dominators."""
    from fuzz.reduce.regions import ROOT, dominators

    root = ROOT
    succ: dict[str, list[str]] = {root: [_name(blocks[0])]}
    for b in blocks:
        succ[_name(b)] = list(dict.fromkeys(m.group(1) for ln in b.body for m in _SUCC.finditer(ln)
                                            if not _PHI.match(ln)))
    idom, order = dominators(succ)
    return [n for n in order if n not in (root, _name(blocks[0]))], idom


def _sites(text: str) -> list[tuple[int, int, str]]:
    """(define line, `}` line, block name) of every block the delta may remove, in order."""
    lines = text.split("\n")
    out = []
    for start, end in function_bodies(lines):
        body = lines[start + 1 : end]
        if _UNSUPPORTED.search("\n".join(body)):
            continue
        blocks = split_blocks(body)
        if len(blocks) < 2:
            continue
        order, _idom = _preorder(blocks)
        out += [(start, end, n) for n in order]
    return out


def _chunks(text: str) -> list[str]:
    return [f"{text.split(chr(10))[s].split('(')[0]} {n}" for s, _e, n in _sites(text)]


def _remove(body: list[str], removed: set[str]) -> list[str]:
    """The body with the regions of `removed` gone (see the module docstring)."""
    blocks = split_blocks(body)
    order, idom = _preorder(blocks)
    from fuzz.reduce.regions import children, subtree

    kids = children(idom)
    region: set[str] = set()
    heads = set()
    for n in order:  # preorder: a head's region is marked before any block inside it is looked at
        if n in removed and n not in region:
            heads.add(n)
            region |= subtree(n, kids)
    out: list[str] = []
    for b in blocks:
        name = _name(b)
        if name in region and name not in heads:
            continue
        if name in heads:  # a landing pad keeps its `landingpad` (and its clauses)
            rest = [ln for ln in b.body if ln.strip() and not _PHI.match(ln)]
            keep: list[str] = []
            if rest and re.match(r"^  (?:%[-\w.$]+ = )?landingpad ", rest[0]):
                keep = [rest[0]]
                for ln in rest[1:]:
                    if not ln.lstrip().startswith(("cleanup", "catch ", "filter ")):
                        break
                    keep.append(ln)
            out += ([b.label_line] if b.label_line is not None else []) + keep + ["  unreachable"]
            continue
        out += [b.label_line] if b.label_line is not None else []
        for ln in b.body:
            m = _PHI.match(ln)
            if m is not None:
                entries = [e for e in PHI_ENTRY.finditer(m.group(3)) if e.group(2) not in region]
                ln = f"  {m.group(1)} = phi {m.group(2)} " + ", ".join(e.group(0) for e in entries)
            out.append(ln)
    return out


def _apply(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    by_function: dict[tuple[int, int], set[str]] = {}
    for k, (start, end, name) in enumerate(_sites(text)):
        if k not in keep:
            by_function.setdefault((start, end), set()).add(name)
    for (start, end), removed in sorted(by_function.items(), reverse=True):
        lines[start + 1 : end] = _remove(lines[start + 1 : end], removed)
    return simplify_cfg("\n".join(lines))


PASS = DeltaPass("block-regions", _chunks, _apply)
