"""How alike two objects' code is, function by function: a split build's `.text` against the
serial build's.

A total can agree while the code does not. A function inlined into one caller in one build
and left out of line in the other moves bytes between two functions and leaves the sum
alone; the per-function difference counts both moves. A split build's copies and clones
(`f.ember.3`) count as their home function (`symtab.home_name`), as the symbol oracle
compares them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from oracle.symtab import Symbol, home_name


@dataclass(frozen=True)
class CodeParity:
    """One object's function bytes against a reference object's (the serial build's)."""

    reference_bytes: int
    bytes: int
    #: the sum over every function name of |its bytes here - its bytes in the reference|
    moved: int

    @property
    def total_change(self) -> float:
        """Percent more (or fewer, negative) function bytes than the reference."""
        return 100 * (self.bytes / self.reference_bytes - 1) if self.reference_bytes else 0.0

    @property
    def per_function(self) -> float:
        """`moved` as a percent of the reference's function bytes (0: the same sizes throughout)."""
        return 100 * self.moved / self.reference_bytes if self.reference_bytes else 0.0

    def render(self) -> str:
        return f"{self.total_change:+.2f}% .text, {self.per_function:.2f}% moved"


def function_sizes(symbols: Iterable[Symbol]) -> Counter[str]:
    """Bytes of the defined functions in `.text`, by home name (two local functions of one
    name, from two translation units, are summed: as they are in the other build)."""
    sizes: Counter[str] = Counter()
    for s in symbols:
        if s.type in ("FUNC", "IFUNC") and s.defined and s.section == ".text":
            sizes[home_name(s.name)] += s.size
    return sizes


def code_parity(reference: Iterable[Symbol], other: Iterable[Symbol]) -> CodeParity:
    """`other`'s function bytes against `reference`'s, in total and function by function."""
    a, b = function_sizes(reference), function_sizes(other)
    moved = sum(abs(b[name] - a[name]) for name in a.keys() | b.keys())
    return CodeParity(sum(a.values()), sum(b.values()), moved)
