"""Slices of the real-world corpus: clang's IR shapes, which no generator of ours writes.

A slice is a few exported functions of one corpus program (fuzz/corpus.py) with every
local they reach (static helpers, static callback tables, string constants, atoms kept
whole) and everything else declared: jump tables, function-pointer tables in constant
globals, static callbacks passed as arguments, varargs, struct types, intrinsics,
`switch` and `select` chains. A slice rarely has `main`, so it is judged on its symbols
and on whether every split build compiles at all; with `main` it runs too.
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
    """Corpus programs whose module can be had here (sources present and clang-19 installed)."""
    from fuzz import corpus

    names = tuple(p.name for p in corpus.PROGRAMS if corpus.missing(p) is None)
    if not names:
        raise CorpusUnavailable("the corpus strategy needs corpus sources and clang-19: bash ci/fetch_corpus.sh")
    return names


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


@st.composite
def corpus_slices(draw: st.DrawFn, max_anchors: int = 6) -> tuple[str, str]:
    """(program name, slice module text) drawn from the corpus programs available here."""
    name = draw(st.sampled_from(available()), label="corpus program")
    anchors = load(name).anchors
    picked = draw(st.lists(st.sampled_from(anchors), min_size=1, max_size=max_anchors, unique=True), label="anchors")
    return name, render_slice(name, slice_members(name, picked))
