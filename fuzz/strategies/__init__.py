"""Hypothesis strategies for the differential harness: call graphs, linkage modules, Ember programs.

Every strategy yields a `FuzzCase`: an LLVM IR module (or, with origin `ember`, Ember
source) whose `main` prints a checksum of everything it computed, plus (rarely) a
support module that must be linked next to it. All programs are UB-free and terminate
at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st

from fuzz.strategies.callgraph import (
    GRAPH_FEATURES,
    OP_KINDS,
    CallGraph,
    apply_swarm,
    call_graphs,
    graph_features,
    swarm_off,
)
from fuzz.strategies.ember import LANES, EmberProgram, ember_programs
from fuzz.strategies.kernels import KernelProgram, kernel_programs
from fuzz.strategies.linkage import FEATURES, LinkageModule, linkage_modules

STRATEGIES = ("callgraph", "linkage", "ember", "kernels", "llvm-ir", "corpus", "mixed")


@dataclass(frozen=True)
class FuzzCase:
    """One generated program: the module, an optional support module, and where it came from."""

    module: str
    support: str | None = None
    origin: str = "llvm-ir"
    #: the generator features the program uses (per-feature coverage of a campaign)
    features: tuple[str, ...] = ()

    @property
    def is_ember(self) -> bool:
        """`module` is Ember source (judged against the reference interpreter), not LLVM IR."""
        return self.origin == "ember"

    @property
    def runnable(self) -> bool:
        """Linked and run (a corpus slice, or a `library` module with no `main`, is judged on
        its symbols and on building at all)."""
        return self.origin not in ("corpus", "library")

    @property
    def input_name(self) -> str:
        """The file name the module is compiled from (its suffix tells the driver the kind)."""
        return "input.em" if self.is_ember else "input.ll"

    def __repr__(self) -> str:  # what Hypothesis prints for a falsifying example: readable IR or source
        extra = f"\n; ---- support module ----\n{self.support}" if self.support else ""
        what = "source" if self.is_ember else "module"
        return f"FuzzCase(origin={self.origin!r}, {what}=\n{self.module}{extra})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # Hypothesis' pretty printer
        p.text(repr(self))


@st.composite
def callgraph_cases(draw: st.DrawFn, max_functions: int = 10, min_functions: int = 1) -> FuzzCase:
    """Call-graph programs (see `fuzz.strategies.callgraph`), with a swarm of features switched off."""
    graph = draw(call_graphs(max_functions, min_functions))
    graph = apply_swarm(graph, draw(swarm_off(OP_KINDS + GRAPH_FEATURES), label="swarm off"))
    return FuzzCase(graph.render(), None, "callgraph", graph_features(graph))


@st.composite
def linkage_cases(draw: st.DrawFn, max_fragments: int = 6, features: tuple[str, ...] | None = None) -> FuzzCase:
    """Linkage modules (see `fuzz.strategies.linkage`), with their support module when one is needed;
    without `features`, a swarm: each program draws which features are switched off."""
    if features is None:
        off = draw(swarm_off(tuple(FEATURES)), label="swarm off")
        features = tuple(f for f in FEATURES if f not in off) or tuple(FEATURES)
    module: LinkageModule = draw(linkage_modules(max_fragments, features))
    used = tuple(sorted({f.feature.split(":")[0] for f in module.fragments}))
    return FuzzCase(module.render(), module.support(), "linkage", used)


@st.composite
def ember_cases(draw: st.DrawFn, max_functions: int = 10, min_functions: int = 1) -> FuzzCase:
    """Ember programs over call graphs (see `fuzz.strategies.ember`), with a swarm of features off."""
    prog = draw(ember_programs(max_functions, min_functions))
    off = draw(swarm_off(OP_KINDS + GRAPH_FEATURES + LANES[1:]), label="swarm off")
    graph = apply_swarm(prog.graph, off)
    flavours = tuple(replace(f, lane="Int") if f.lane in off else f for f in prog.flavours)
    prog = replace(prog, graph=graph, flavours=flavours)
    lanes = {prog.flavour(f.index).lane for f in graph.functions} - {"Int"}
    used = {*graph_features(graph), *lanes} - {"ctor"}  # Ember programs have no constructor
    return FuzzCase(prog.render(), None, "ember", tuple(sorted(used)))


@st.composite
def kernel_cases(draw: st.DrawFn, max_kernels: int = 3) -> FuzzCase:
    """Ember programs with `@kernel` launches (see `fuzz.strategies.kernels`): the CPU grid
    emulator, split or not, against the interpreter."""
    return FuzzCase(draw(kernel_programs(max_kernels)).render(), None, "ember")


@st.composite
def corpus_cases(draw: st.DrawFn, max_anchors: int = 6) -> FuzzCase:
    """Slices of the real-world corpus (see `fuzz.strategies.corpus_slices`): clang's IR shapes."""
    from fuzz.strategies.corpus_slices import corpus_slices

    _name, module = draw(corpus_slices(max_anchors))
    return FuzzCase(module, None, "corpus")


def cases(kind: str = "mixed", max_functions: int = 10, min_functions: int = 1) -> st.SearchStrategy[FuzzCase]:
    """`callgraph`, `linkage`, `ember`, `kernels`, `llvm-ir` (call graphs or linkage modules),
    `corpus` (slices of the real-world corpus; needs `bash ci/fetch_corpus.sh`) or
    `mixed` (call graphs, linkage modules or Ember programs; call graphs first so shrinking
    prefers them)."""
    if kind == "callgraph":
        return callgraph_cases(max_functions, min_functions)
    if kind == "linkage":
        return linkage_cases()
    if kind == "ember":
        return ember_cases(max_functions, min_functions)
    if kind == "kernels":
        return kernel_cases()
    if kind == "corpus":
        return corpus_cases()
    if kind == "llvm-ir":
        return st.one_of(callgraph_cases(max_functions, min_functions), linkage_cases())
    if kind == "mixed":
        return st.one_of(
            callgraph_cases(max_functions, min_functions), linkage_cases(), ember_cases(max_functions, min_functions)
        )
    raise ValueError(f"unknown strategy '{kind}' (choose from {', '.join(STRATEGIES)})")


__all__ = [
    "FEATURES",
    "STRATEGIES",
    "CallGraph",
    "EmberProgram",
    "FuzzCase",
    "KernelProgram",
    "LinkageModule",
    "call_graphs",
    "callgraph_cases",
    "cases",
    "corpus_cases",
    "ember_cases",
    "ember_programs",
    "kernel_cases",
    "kernel_programs",
    "linkage_cases",
    "linkage_modules",
]
