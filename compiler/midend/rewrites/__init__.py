"""Ember's rewrite patterns: the DSL (`dsl`), the table (`table`), and MLIR matching (`apply`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from compiler.midend.rewrites.dsl import Pattern, PatternError, parse_pattern
from compiler.midend.rewrites.table import REWRITES, Rewrite

if TYPE_CHECKING:
    from mlir import ir

PHASES = ("simplify", "lower", "helper")

__all__ = ["PHASES", "Pattern", "PatternError", "REWRITES", "Rewrite", "build_helper", "load", "patterns", "pattern"]


def load(rows: Iterable[Rewrite]) -> list[Pattern]:
    """Parse and type-check table rows; a bad row raises PatternError naming it."""
    out: list[Pattern] = []
    seen: set[str] = set()
    for row in rows:
        if row.phase not in PHASES:
            raise PatternError(f"pattern {row.name!r}: unknown phase {row.phase!r}")
        if row.name in seen:
            raise PatternError(f"pattern {row.name!r} is declared twice")
        seen.add(row.name)
        out.append(parse_pattern(row.name, row.text, phase=row.phase, doc=row.doc, spec=row.phase == "helper"))
    return out


@functools.cache
def _ember_patterns() -> tuple[Pattern, ...]:
    return tuple(load(REWRITES))


def patterns(phases: Sequence[str] = PHASES) -> list[Pattern]:
    """Ember's own patterns (parsed once), in table order, restricted to `phases`."""
    return [p for p in _ember_patterns() if p.phase in phases]


def pattern(name: str) -> Pattern:
    for p in _ember_patterns():
        if p.name == name:
            return p
    raise KeyError(name)


def build_helper(name: str, operands: Sequence[ir.Value]) -> ir.Value:
    """Emit a verified helper expansion (e.g. `floor-mod`: Python's `a % b`) at the current
    insertion point and return its result. UB only where the helper's spec has UB (a zero
    divisor): the caller guards that case."""
    from compiler.midend.rewrites.apply import instantiate

    p = pattern(name)
    if p.phase != "helper":
        raise ValueError(f"{name} is a {p.phase} pattern, not a helper")
    return instantiate(p, operands)
