"""The split modes of the LLVM back end (`ember build --split`): the one place their names are spelled.

- `none`: one module, optimised and compiled serially;
- `subgraph`: level 1 only, each optimised subgraph is one codegen piece;
- `function`: no level 1, the unoptimised module is cut per function;
- `two-level`: level 1 for optimisation, level 2 per function for codegen;
- `auto`: `none` or the policy's mode, whichever pays for this build (compiler/backend/policy.py).
"""

from __future__ import annotations

from enum import StrEnum


class SplitMode(StrEnum):
    """A split mode; a member equals its command-line spelling (`SplitMode.TWO_LEVEL == "two-level"`)."""

    NONE = "none"
    SUBGRAPH = "subgraph"
    FUNCTION = "function"
    TWO_LEVEL = "two-level"
    AUTO = "auto"


#: every mode `--split` accepts, in the order help text lists them
ALL: tuple[SplitMode, ...] = tuple(SplitMode)
#: the modes that split the module (what the harness compares with `none`)
SPLITTING: tuple[SplitMode, ...] = (SplitMode.SUBGRAPH, SplitMode.FUNCTION, SplitMode.TWO_LEVEL)


def names(modes: tuple[SplitMode, ...]) -> tuple[str, ...]:
    """The modes as plain strings (argparse `choices`, messages)."""
    return tuple(str(m) for m in modes)
