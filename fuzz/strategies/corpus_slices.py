"""Slices of the real-world corpus: clang's and rustc's IR shapes, which no generator of ours writes.

A slice is a few exported functions of one corpus program (fuzz/corpus.py; of a Rust
program, whose fat-LTO module exports only `main`, a few of its own functions, exported
hidden in the slice: `CorpusModule.exported_anchors`) with every local they reach (static
helpers, static callback tables, string constants, atoms kept whole) and everything else
declared: jump tables, function-pointer tables in constant
globals, static callbacks passed as arguments, varargs, struct types, intrinsics,
`switch` and `select` chains. A slice rarely has `main`, so it is judged on its symbols
and on whether every split build compiles at all; with `main` it runs too.

Swarm feature `shared-local` (one slice in two): the anchors after the first are drawn
among those that name a local the first names (a static helper, a static global such
as cJSON's `global_hooks`), so a small split cost puts the users of one local in
different subgraphs: the shapes of the split's known faults (a helper the serial build inlines everywhere,
a global with a field nobody reads, a libcall folded after inlining) on real code.

Debug info: a `-g` plan (the configuration dimension of the swarm, `fuzz.strategies.plans`)
builds the same slice of the program's `-g` module (`corpus.module_path(debug=True)`, one
compile unit per source file) instead: its functions' `DISubprogram`s, their compile units,
`!llvm.dbg.cu` and `!llvm.module.flags`, with only the metadata the slice reaches
(`compiler.backend.cutdebug`: the cut of `fuzz.slicing`), so the debug-info oracle sees clang's own:
many files (headers, and functions of other source files the optimiser inlines), lexical
blocks, column 0 rows (`debug_slice`, called by `fuzz.campaign.configured`).
"""

from __future__ import annotations

import functools
import re
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
    #: exported function definitions, in input order; a Rust module's: every function
    #: definition whose slice fits MAX_SLICE_LINES (its locals, as `exported_anchors` says)
    anchors: tuple[str, ...]
    #: the anchors are the module's own locals: a slice exports them (hidden), or the serial
    #: build would delete them unused (a Rust fat-LTO module exports only `main`)
    exported_anchors: bool = False


class CorpusUnavailable(RuntimeError):
    """No corpus program is built or buildable here."""


def _module_text(name: str, debug: bool = False) -> str:
    """The program's module as text (`debug`: its `-g` build, compiled once and cached like
    the other), unnamed values named as the planner names them."""
    from compiler.backend import engine, names
    from fuzz import corpus

    path = corpus.module_path(corpus.BY_NAME[name], debug=debug)
    with engine.Module(path.read_bytes(), str(path)) as module:
        names.name_unnamed(module)
        return module.text()


@functools.lru_cache(maxsize=16)  # every program of the corpus (12 C, 2 Rust)
def _text(name: str) -> str:
    return _module_text(name)


@functools.lru_cache(maxsize=16)
def load(name: str) -> CorpusModule:
    """The program's module as text, with its anchors: a C module's exported functions; a Rust
    module's function definitions (nearly all local) whose slice fits MAX_SLICE_LINES (about
    half of them: the rest reach most of std)."""
    from compiler.backend import irmodel
    from fuzz import corpus

    text = _text(name)
    if corpus.BY_NAME[name].front_end == "rustc":
        slicer = _slicer(name)
        functions = [e.name for e in slicer.mod.by_kind("function") if e.is_definition]
        fitting = tuple(n for n in functions if slicer.lines(slicer.reach(n)) <= MAX_SLICE_LINES)
        return CorpusModule(name, text, fitting, exported_anchors=True)
    mod = irmodel.parse_module(text)
    anchors = tuple(e.name for e in mod.by_kind("function") if not e.is_local and e.linkage == "external")
    return CorpusModule(name, text, anchors)


@functools.lru_cache(maxsize=1)
def available() -> tuple[str, ...]:
    """Corpus programs whose module can be had here: the C programs (sources present and
    clang-19 installed) and the Rust ones (cargo and their crates; `corpus.missing`), C first."""
    from fuzz import corpus

    names = tuple(p.name for p in corpus.PROGRAMS if p.front_end in ("clang", "rustc") and corpus.missing(p) is None)
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


#: slicers kept per process: every C program of the corpus, with and without debug info
#: (14 programs, 1.2 GB with ten C programs of each; a Rust module adds about 0.5 GB, its -g one 1 GB;
#: parsing SQLite's `-g` module again costs 10-20 s)
SLICERS_KEPT = 24


@functools.lru_cache(maxsize=SLICERS_KEPT)
def _slicer(name: str, debug: bool = False) -> Slicer:
    from compiler.backend import irmodel

    text = _module_text(name, True) if debug else _text(name)
    return Slicer(irmodel.parse_module(text), text)


def slice_members(name: str, anchors: list[str], max_lines: int | None = MAX_SLICE_LINES, debug: bool = False) -> list[str]:
    """Anchors (in the order drawn, while the slice fits) plus the locals they reach, atoms whole."""
    return _slicer(name, debug).members(anchors, max_lines)


def render_slice(name: str, members: list[str], debug: bool = False, anchors: tuple[str, ...] = ()) -> str:
    """The slice as a module: members defined, everything they name declared (metadata too;
    `debug`: cut from the `-g` module, with the debug info the members reach); the `anchors`
    exported hidden where the program's anchors are its locals (`exported_anchors`)."""
    exported = anchors if load(name).exported_anchors else ()
    return _slicer(name, debug).render(members, exported=exported)


_FILE = re.compile(r'^(![0-9]+) = !DIFile\(filename: "((?:[^"\\]|\\.)*)"', re.M)
_SUBPROGRAM_FILE = re.compile(r"^![0-9]+ = distinct !DISubprogram\(.*?\bfile: (![0-9]+).*\bunit: ", re.M)


def debug_features(module: str) -> tuple[str, ...]:
    """The `dbg-*` features (`debuginfo.DEBUG_FEATURES`) of a slice's own debug info:
    `dbg-headers` when its functions come from more than one file (a header's `static
    inline` helper, another source file's function: the line table switches file where the
    optimiser inlines one), `dbg-blocks` with a lexical block, `dbg-discriminators` with one."""
    from fuzz.strategies.debuginfo import DEBUG_FEATURES

    files = dict(_FILE.findall(module))
    found = set()
    if len({files.get(f, f) for f in _SUBPROGRAM_FILE.findall(module)}) > 1:
        found.add("dbg-headers")
    if "!DILexicalBlock(" in module:
        found.add("dbg-blocks")
    if "discriminator: " in module:
        found.add("dbg-discriminators")
    return tuple(f for f in DEBUG_FEATURES if f in found)


def debug_slice(name: str, anchors: tuple[str, ...]) -> str:
    """The slice around `anchors` (those a drawn slice kept) cut from the program's `-g`
    module: the same functions with their debug info. Its members are found again in that
    module (its size limit was met by the drawn slice). A Rust program's `-g` build names its
    own crates' functions differently (the crate hash in each symbol changes with `-g`; std's,
    prebuilt, do not): only the anchors that module has are kept, and where it has none the
    slice is the one drawn, without debug info."""
    values = _slicer(name, True).mod.values
    kept = tuple(a for a in anchors if a in values and values[a].is_definition)
    if not kept:
        return render_slice(name, slice_members(name, list(anchors)), anchors=anchors)
    return render_slice(name, slice_members(name, list(kept), max_lines=None, debug=True), debug=True, anchors=kept)


#: the swarm feature a slice records when its anchors share a local
SHARED_LOCAL = "shared-local"


@dataclass(frozen=True)
class DrawnSlice:
    """A slice the strategy drew: the program, the anchors it kept, the module, its features."""

    name: str
    anchors: tuple[str, ...]
    module: str
    features: tuple[str, ...]

    def with_debug_info(self) -> str:
        """The same slice cut from the program's `-g` module (`debug_slice`)."""
        return debug_slice(self.name, self.anchors)


@st.composite
def corpus_slices(draw: st.DrawFn, max_anchors: int = 6, programs: tuple[str, ...] | None = None) -> DrawnSlice:
    """A slice of one of the corpus programs available here (or of `programs`); with the
    `shared-local` swarm feature on, the anchors share locals (`sharers`)."""
    name = draw(st.sampled_from(programs or available()), label="corpus program")
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
    return DrawnSlice(name, tuple(kept), render_slice(name, members, anchors=tuple(kept)), features)
