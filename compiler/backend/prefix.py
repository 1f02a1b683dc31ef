"""The serial whole-module prefix a split build runs before planning (-O1 and up).

Each subgraph is optimised without the facts only the whole module has: which arguments are
dead everywhere, which internal globals nobody reads or writes, which constants reach a
function from every caller. LLVM's interprocedural passes find those in one cheap linear
sweep over the whole module (ThinLTO computes the same kind of facts once, before its
parallel back ends). Measured in docs/performance.md: about 3% of the serial build's CPU.

Tried and dropped: SROA + EarlyCSE per function in the prefix halve the instructions every
worker parses and let the plan size functions as the inliner sees them, but running them
ahead of the pipeline changes its later decisions: zlib's hot `longest_match` ran 9.3% more
instructions (Lua 9.1%) than in the serial build.
"""

from __future__ import annotations

from compiler.backend import engine

#: IPSCCP (constants across calls), dead-argument elimination, GlobalOpt (globals nobody
#: reads, fields nobody reads), GlobalDCE
PIPELINE = "ipsccp,deadargelim,globalopt,globaldce"


def applies(opt_level: int, mode: str) -> bool:
    """Whether a build runs the prefix: level-1 split modes at -O1 and up (at -O0 the serial
    build runs no such pass, and `function` mode optimises the module whole anyway)."""
    return opt_level >= 1 and mode in ("two-level", "subgraph")


def run(module: engine.Module, target: engine.Target) -> None:
    """Run the prefix on the whole module in place."""
    module.run_passes(PIPELINE, target)
