"""Slices of the real-world corpus: clang's IR shapes, which no generator of ours writes.

A slice is a few exported functions of one corpus program (fuzz/corpus.py) with every
local they reach (static helpers, static callback tables, string constants, atoms kept
whole) and everything else declared: jump tables, function-pointer tables in constant
globals, static callbacks passed as arguments, varargs, struct types, intrinsics,
`switch` and `select` chains. A slice rarely has `main`, so it is judged on its symbols
and on whether every split build compiles at all; with `main` it runs too.

Swarm feature `shared-local` (one slice in two): the anchors after the first are drawn
among those that name a local the first names (a static helper, a static global such
as cJSON's `global_hooks`), so a small split cost puts the users of one local in
different subgraphs: the shapes of the split's known faults (a helper the serial build inlines everywhere,
a global with a field nobody reads, a libcall folded after inlining) on real code.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hypothesis import strategies as st

from fuzz.slicing import Slicer

#: a slice stops growing past this many lines (keeps one check to a second or two)
MAX_SLICE_LINES = 6000


@dataclass(frozen=True)
class CorpusModule:
    """One corpus program's module, parsed once per process."""

    name: str
    text: str
    anchors: tuple[str, ...]  # exported function definitions, in input order


class CorpusUnavailable(RuntimeError):
    """No corpus program is built or buildable here."""


@functools.lru_cache(maxsize=8)
def load(name: str) -> CorpusModule:
    """The program's module as text, with its exported functions."""
    from compiler.backend import irmodel, llvm_stage, planner
    from fuzz import corpus

    path = corpus.module_path(corpus.BY_NAME[name])
    text = planner.name_unnamed(str(llvm_stage.parse_bitcode(path.read_bytes(), str(path))))
    mod = irmodel.parse_module(text)
    anchors = tuple(e.name for e in mod.by_kind("function") if not e.is_local and e.linkage == "external")
    return CorpusModule(name, text, anchors)


@functools.lru_cache(maxsize=1)
def available() -> tuple[str, ...]:
    """Corpus programs whose module can be had here (sources present and clang-19 installed).
    The C programs only: a Rust program's fat-LTO module exports just `main` and
    `rust_eh_personality`, so any slice is nearly the whole 500-700k-line module (slicing
    its internal functions is open work)."""
    from fuzz import corpus

    names = tuple(p.name for p in corpus.PROGRAMS if p.front_end == "clang" and corpus.missing(p) is None)
    if not names:
        raise CorpusUnavailable("the corpus strategy needs corpus sources and clang-19: bash ci/fetch_corpus.sh")
    return names


@functools.lru_cache(maxsize=8)
def sharers(name: str) -> dict[str, tuple[str, ...]]:
    """For each anchor of the program, the other anchors that name (call, read, take the
    address of) a local it names, in anchor order."""
    mod = _slicer(name).mod
    anchors = load(name).anchors
    named = {a: [r for r in mod.values[a].refs if r in mod.values and mod.values[r].is_local] for a in anchors}
    users: dict[str, list[str]] = {}
    for a in anchors:
        for r in named[a]:
            users.setdefault(r, []).append(a)
    out = {}
    for a in anchors:
        others = {u: None for r in named[a] for u in users[r] if u != a}
        out[a] = tuple(others)
    return out


@functools.lru_cache(maxsize=8)
def _slicer(name: str) -> Slicer:
    from compiler.backend import irmodel

    return Slicer(irmodel.parse_module(load(name).text))


def slice_members(name: str, anchors: list[str], max_lines: int = MAX_SLICE_LINES) -> list[str]:
    """Anchors (in the order drawn, while the slice fits) plus the locals they reach, atoms whole."""
    return _slicer(name).members(anchors, max_lines)


def render_slice(name: str, members: list[str]) -> str:
    """The slice as a module: members defined, everything they name declared (metadata too)."""
    return _slicer(name).render(members)


#: the swarm feature a slice records when its anchors share a local
SHARED_LOCAL = "shared-local"


@st.composite
def corpus_slices(draw: st.DrawFn, max_anchors: int = 6) -> tuple[str, str, tuple[str, ...]]:
    """(program name, slice module text, features) drawn from the corpus programs available
    here; with the `shared-local` swarm feature on, the anchors share locals (`sharers`)."""
    name = draw(st.sampled_from(available()), label="corpus program")
    anchors = load(name).anchors
    shared = draw(st.integers(0, 1), label="swarm: shared-local") == 1
    if shared:
        first = draw(st.sampled_from(anchors), label="first anchor")
        pool = sharers(name)[first]
        rest = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_anchors - 1, unique=True), label="sharers") if pool else []
        picked = [first, *rest]
    else:
        picked = draw(st.lists(st.sampled_from(anchors), min_size=1, max_size=max_anchors, unique=True), label="anchors")
    members = slice_members(name, picked)
    kept = [a for a in picked if a in members]
    features = (SHARED_LOCAL,) if shared and len(kept) > 1 else ()
    return name, render_slice(name, members), features
