"""branches-to-true, branches-to-false: a conditional branch's condition becomes a constant
(then LLVM's simplifycfg folds the branch and drops the dead blocks): one delta, both ways."""

from __future__ import annotations

import re
from collections.abc import Callable

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import with_llvm_passes

_COND_BR = re.compile(r"^(\s*br i1 )(%[-a-zA-Z$._0-9]+|%\"[^\"]*\")(, label .*)$")


def _cond_branch_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if _COND_BR.match(line)]


def _cond_branch_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i].strip() for i in _cond_branch_lines(text)]


def simplify_cfg(text: str) -> str:
    """LLVM's simplifycfg on the module: folds constant branches, drops dead blocks, fixes phis."""
    return with_llvm_passes(text, lambda pm: pm.add_simplify_cfg_pass(), None)  # type: ignore[attr-defined]


def _branches_to(value: str) -> Callable[[str, set[int]], str]:
    """Conditional branches outside `keep` always go one way (`true`: then-edge); loops that
    no longer loop and arms never taken disappear in the simplifycfg clean-up."""

    def apply(text: str, keep: set[int]) -> str:
        lines = text.split("\n")
        for k, i in enumerate(_cond_branch_lines(text)):
            if k not in keep:
                lines[i] = _COND_BR.sub(lambda m: f"{m.group(1)}{value}{m.group(3)}", lines[i])
        return simplify_cfg("\n".join(lines))

    return apply


TO_TRUE = DeltaPass("branches-to-true", _cond_branch_chunks, _branches_to("true"))
TO_FALSE = DeltaPass("branches-to-false", _cond_branch_chunks, _branches_to("false"))
