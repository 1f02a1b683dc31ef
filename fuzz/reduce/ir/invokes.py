"""invokes-to-calls: an `invoke` becomes a plain call (its unwind edge goes, and with it the
landing pads nothing else reaches).

The call site is marked `nounwind` and LLVM's simplifycfg turns an invoke that cannot
unwind into a `call` and a branch to its normal destination, fixing the landing pad's phis:
a Rust function is half cleanup blocks, which the branch and block deltas, written for
plain `br`s, leave alone."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.branches import simplify_cfg

_INVOKE = re.compile(r"^  (?:%[-\w.$]+ = )?invoke ")


def _invoke_lines(text: str) -> list[int]:
    lines = text.split("\n")
    return [i for i, line in enumerate(lines) if _INVOKE.match(line) and i + 1 < len(lines)
            and lines[i + 1].lstrip().startswith("to label ") and not line.endswith(" nounwind")]


def _chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i].strip() for i in _invoke_lines(text)]


def _apply(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    for k, i in enumerate(_invoke_lines(text)):
        if k not in keep:
            lines[i] += " nounwind"
    return simplify_cfg("\n".join(lines))


PASS = DeltaPass("invokes-to-calls", _chunks, _apply)
