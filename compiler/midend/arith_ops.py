"""The integer `arith` ops and comparison predicates Ember reasons about, spelled once.

Three readers: the rewrite DSL types its patterns with it (compiler/midend/rewrites/dsl.py),
the SMT semantics give each op its meaning (equivalence/semantics.py, which checks that it
models every op here), and the translation-validation generator draws ops from it
(equivalence/tv_programs.py). compiler/ is the ground floor, so the table lives here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IntBinaryOp:
    """A two-operand integer op: same type in and out."""

    name: str
    #: the unit attributes it accepts: `nsw`/`nuw` (overflow) or `exact`
    flags: tuple[str, ...] = ()
    commutative: bool = False
    #: undefined behaviour for some operands (a zero divisor, INT_MIN / -1)
    may_ub: bool = False


_OVERFLOW = ("nsw", "nuw")
_EXACT = ("exact",)

INT_BINARY_OPS: dict[str, IntBinaryOp] = {
    op.name: op
    for op in (
        IntBinaryOp("addi", _OVERFLOW, commutative=True),
        IntBinaryOp("subi", _OVERFLOW),
        IntBinaryOp("muli", _OVERFLOW, commutative=True),
        IntBinaryOp("shli", _OVERFLOW),
        IntBinaryOp("divsi", _EXACT, may_ub=True),
        IntBinaryOp("divui", _EXACT, may_ub=True),
        IntBinaryOp("shrsi", _EXACT),
        IntBinaryOp("shrui", _EXACT),
        IntBinaryOp("ceildivsi", may_ub=True),
        IntBinaryOp("ceildivui", may_ub=True),
        IntBinaryOp("floordivsi", may_ub=True),
        IntBinaryOp("remsi", may_ub=True),
        IntBinaryOp("remui", may_ub=True),
        IntBinaryOp("andi", commutative=True),
        IntBinaryOp("ori", commutative=True),
        IntBinaryOp("xori", commutative=True),
        IntBinaryOp("maxsi", commutative=True),
        IntBinaryOp("minsi", commutative=True),
        IntBinaryOp("maxui", commutative=True),
        IntBinaryOp("minui", commutative=True),
    )
}

#: `arith.cmpi` predicates in their MLIR enum order (the `predicate` attribute's integer value)
CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")

#: `arith.cmpf` predicates in their MLIR enum order
CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip
