"""Hypothesis strategies for the differential harness: call graphs, linkage modules, Ember programs.

Every strategy yields a `FuzzCase`: an LLVM IR module (or, with origin `ember`, Ember
source) whose `main` prints a checksum of everything it computed, plus (rarely) a
support module that must be linked next to it. All programs are UB-free and terminate
at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import strategies as st

from fuzz.strategies.callgraph import (
    GRAPH_FEATURES,
    OP_KINDS,
    CallGraph,
    apply_swarm,
    call_graphs,
    graph_features,
    swarm_choice,
    swarm_graph_off,
    swarm_off,
    swarm_on,
)
from fuzz.strategies.debuginfo import DEBUG_FEATURES
from fuzz.strategies.ember import LANES, EmberProgram, ember_programs
from fuzz.strategies.kernels import KernelProgram, kernel_programs
from fuzz.strategies.linkage import FEATURES, LinkageModule, linkage_modules
from fuzz.strategies.names import NAME_FEATURES, name_swarm, renamed
from fuzz.strategy_names import STRATEGIES


@dataclass(frozen=True)
class FuzzCase:
    """One generated program: the module, an optional support module, and where it came from."""

    module: str
    support: str | None = None
    origin: str = "llvm-ir"
    #: the generator features the program uses (per-feature coverage of a campaign)
    features: tuple[str, ...] = ()
    #: the same program with debug info of its own, for a `-g` plan (`fuzz.campaign.configured`):
    #: a corpus slice cut from the program's `-g` build; made only when a plan asks
    debug_twin: Callable[[], FuzzCase] | None = field(default=None, compare=False, repr=False)

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
    off = draw(swarm_graph_off(), label="swarm off")
    names_on = draw(name_swarm())
    graph = apply_swarm(draw(call_graphs(max_functions, min_functions)), off)
    module, names = renamed(graph.render(), names_on)
    return FuzzCase(module, None, "callgraph", graph_features(graph) + names)


#: each linkage feature is switched on in one program of this many (swarm testing); the
#: program then has a fragment of every feature switched on, and a few more of them
LINKAGE_SWARM_ONE_IN = 4
LINKAGE_SWARM_FILL = 3


@st.composite
def linkage_cases(draw: st.DrawFn, max_fragments: int = 6, features: tuple[str, ...] | None = None) -> FuzzCase:
    """Linkage modules (see `fuzz.strategies.linkage`), with their support module when one is needed;
    without `features`, a swarm: each program first draws which features it has (at least one)."""
    every = features is None
    names_on = draw(name_swarm())
    if features is None:
        features = draw(swarm_on(tuple(FEATURES), LINKAGE_SWARM_ONE_IN), label="swarm on")
        features = features or (draw(st.sampled_from(tuple(FEATURES)), label="the one feature"),)
    # with a swarm, extra fragments only fill small modules up to LINKAGE_SWARM_FILL
    fragments = LINKAGE_SWARM_FILL if every else max_fragments
    module: LinkageModule = draw(linkage_modules(fragments, features, every=every))
    used = tuple(sorted({f.feature.split(":")[0] for f in module.fragments}))
    text, names = renamed(module.render(), names_on)
    return FuzzCase(text, module.support(), "linkage", used + names)


#: graph features the Ember renderer has no form for: a constructor, the padded LLVM helper
EMBER_WITHOUT = frozenset({"ctor", "helper"})
#: an Ember lane is off in one program of this many (lanes share a program's few functions)
LANE_OFF_ONE_IN = 4


@st.composite
def ember_cases(draw: st.DrawFn, max_functions: int = 10, min_functions: int = 1) -> FuzzCase:
    """Ember programs over call graphs (see `fuzz.strategies.ember`), with a swarm of features off."""
    off = draw(swarm_graph_off(), label="swarm off") | draw(swarm_off(LANES[1:], LANE_OFF_ONE_IN), label="lanes off")
    prog = draw(ember_programs(max_functions, min_functions))
    graph = apply_swarm(prog.graph, off)
    # `Int` is always on; a lane that is off becomes one of the typed lanes left on
    lanes_on = tuple(lane for lane in LANES[1:] if lane not in off) or LANES[:1]
    flavours = tuple(replace(f, lane=swarm_choice(f.lane, LANES, ("Int", *lanes_on))) for f in prog.flavours)
    prog = replace(prog, graph=graph, flavours=flavours)
    lanes = {prog.flavour(f.index).lane for f in graph.functions} - {"Int"}
    used = {*graph_features(graph), *lanes} - EMBER_WITHOUT
    return FuzzCase(prog.render(), None, "ember", tuple(sorted(used)))


@st.composite
def kernel_cases(draw: st.DrawFn, max_kernels: int = 3) -> FuzzCase:
    """Ember programs with `@kernel` launches (see `fuzz.strategies.kernels`): the CPU grid
    emulator, split or not, against the interpreter."""
    return FuzzCase(draw(kernel_programs(max_kernels)).render(), None, "ember")


@st.composite
def corpus_cases(draw: st.DrawFn, max_anchors: int = 6, programs: tuple[str, ...] | None = None) -> FuzzCase:
    """Slices of the real-world corpus (see `fuzz.strategies.corpus_slices`): clang's and rustc's
    IR shapes (of `programs` only, if given); a `-g` plan builds the same slice of the program's
    `-g` module (`debug_twin`)."""
    from fuzz.strategies.corpus_slices import corpus_slices

    names_on = draw(name_swarm())
    drawn = draw(corpus_slices(max_anchors, programs))
    module, names = renamed(drawn.module, names_on)

    def debug_twin() -> FuzzCase:
        from fuzz.strategies.corpus_slices import debug_features

        text, dbg_names = renamed(drawn.with_debug_info(), names_on)  # the same names: same locals, same order
        return FuzzCase(text, None, "corpus", drawn.features + dbg_names + debug_features(text))

    return FuzzCase(module, None, "corpus", drawn.features + names, debug_twin)


@st.composite
def mixed_cases(draw: st.DrawFn, max_functions: int = 10, min_functions: int = 1) -> FuzzCase:
    """A call-graph program (a quarter), a linkage module (half: 20 features, and they cost
    about half an Ember program to check) or an Ember program; shrinks towards call graphs."""
    branch = draw(st.integers(0, 3), label="kind of program")
    if branch == 0:
        return draw(callgraph_cases(max_functions, min_functions))
    if branch < 3:
        return draw(linkage_cases())
    return draw(ember_cases(max_functions, min_functions))


#: program-level features `graph_features` derives (besides op kinds and graph features)
DERIVED_FEATURES = ("select-call", "large-functions", "many-functions")
#: configurations as swarm features (`plans.DEBUG_ONE_IN`, `plans.CROSS_ONE_IN`): a `-g` plan, the
#: debug info it gave an LLVM IR program (`debuginfo.DEBUG_FEATURES`), a plan built for AArch64
CONFIG_FEATURES = ("cfg-g", *DEBUG_FEATURES, "cfg-aarch64")


def config_features(kind: str) -> tuple[str, ...]:
    """The configuration features a default campaign of `kind` can record on this machine
    (`cfg-aarch64` only where the cross tools and QEMU are installed)."""
    from fuzz import cross

    if kind == "kernels":
        return ()
    debug = ("cfg-g", *(DEBUG_FEATURES if kind != "ember" else ()))
    if kind == "corpus":  # host only (x86-64 bitcode); a -g plan slices the -g build
        return debug
    return debug + (("cfg-aarch64",) if cross.missing() is None else ())


def known_features(kind: str = "mixed") -> tuple[str, ...]:
    """Every feature a strategy's programs can record in `FuzzCase.features` (kernel
    programs record none)."""
    graph = OP_KINDS + GRAPH_FEATURES + DERIVED_FEATURES
    ember = tuple(f for f in graph if f not in EMBER_WITHOUT) + LANES[1:]
    per_kind = {
        "callgraph": graph + NAME_FEATURES,
        "linkage": tuple(FEATURES) + NAME_FEATURES,
        "ember": ember,
        "llvm-ir": graph + tuple(FEATURES) + NAME_FEATURES,
        "mixed": tuple(dict.fromkeys(graph + tuple(FEATURES) + ember + NAME_FEATURES)),
        "corpus": ("shared-local", *NAME_FEATURES),  # = corpus_slices.SHARED_LOCAL (imported lazily: it loads the corpus)
    }
    return per_kind.get(kind, ()) + config_features(kind)


def cases(kind: str = "mixed", max_functions: int = 10, min_functions: int = 1) -> st.SearchStrategy[FuzzCase]:
    """`callgraph`, `linkage`, `ember`, `kernels`, `llvm-ir` (call graphs or linkage modules),
    `corpus` (slices of the real-world corpus; needs `bash ci/fetch_corpus.sh`) or
    `mixed` (`mixed_cases`: call graphs, linkage modules or Ember programs)."""
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
        return mixed_cases(max_functions, min_functions)
    raise ValueError(f"unknown strategy '{kind}' (choose from {', '.join(STRATEGIES)})")


__all__ = [
    "DERIVED_FEATURES",
    "FEATURES",
    "NAME_FEATURES",
    "STRATEGIES",
    "CONFIG_FEATURES",
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
    "known_features",
    "linkage_cases",
    "linkage_modules",
]
