"""`--split auto`, the default: whether splitting pays for this build, from the module's size.

A split build pays fixed costs a serial one does not (worker start-up, printing and planning
the module, the object link: about 0.3-0.6 s on 2 cores) and gains
at most the LLVM time the extra workers take over. At -O0, with one job, or on a small
module the fixed costs win, so the default builds serially there; otherwise it splits.
The thresholds come from `ember bench --corpus` (docs/performance.md, "-O0 and small modules").
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from compiler.backend.split_mode import SplitMode

#: the split mode `auto` uses when splitting pays: each subgraph is optimised and compiled in
#: one worker either way, and `two-level`'s per-function codegen pieces only add a print and
#: re-parse of every optimised subgraph (Lua -O2 -j2: 5.3-5.5 s CPU against 6.0-6.2 s)
SPLIT_MODE = SplitMode.SUBGRAPH
#: basic blocks below which a -O2/-O3 split build cannot win back its fixed costs (blocks are
#: counted without printing the module; the corpus has 3-11 instructions per block, about 7)
MIN_SPLIT_COST = 3_000
#: -O1 runs a lighter pipeline: the same fixed costs need a bigger module
MIN_SPLIT_COST_O1 = 6_000
#: bytes of an input file per basic block (bitcode about 70, text about 280; measured on the corpus)
_BYTES_PER_BLOCK = {".bc": 70, ".ll": 280}


@dataclass(frozen=True)
class Choice:
    """The mode a build runs in and why (printed by `--time-report`)."""

    mode: SplitMode
    reason: str

    def render(self) -> str:
        return f"split auto: {self.mode} ({self.reason})"


def choose(*, opt_level: int, jobs: int, cost: int, splittable: bool, target: str = "") -> Choice:
    """Serial or split for a module of `cost` basic blocks built at `opt_level` with `jobs` workers."""
    if not splittable:
        return Choice(SplitMode.NONE, f"the split back end links x86-64 and AArch64 ELF64 only, not '{target}'")
    if opt_level == 0:
        return Choice(SplitMode.NONE, "-O0: code generation alone is too cheap to split")
    if jobs < 2:
        return Choice(SplitMode.NONE, "one job: splitting only adds work")
    least = MIN_SPLIT_COST_O1 if opt_level == 1 else MIN_SPLIT_COST
    if cost < least:
        return Choice(SplitMode.NONE, f"{cost} basic blocks < {least}: the fixed costs of splitting would not pay")
    return Choice(SPLIT_MODE, f"{cost} basic blocks, -O{opt_level}, -j{jobs}")


def estimated_cost(path: str) -> int | None:
    """A guess of a `.ll`/`.bc` input's basic blocks from its size, before parsing (None: unknown),
    so worker start-up can overlap parsing when the build will probably split."""
    ratio = _BYTES_PER_BLOCK.get(os.path.splitext(path)[1])
    if ratio is None:
        return None
    try:
        return os.path.getsize(path) // ratio
    except OSError:
        return None
