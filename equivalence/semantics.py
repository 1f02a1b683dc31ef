"""Z3 semantics of the `arith` ops Ember emits, in one place.

A value is a pair (bit-vector, poison). Undefined behaviour is a path condition that
each op returns next to its value; callers OR it into the condition of the path that
executes the op. Everything follows the MLIR `arith` documentation:

* `addi`/`subi`/`muli`/`shli` with `nsw`/`nuw`: signed/unsigned overflow -> poison.
* shifts: an amount >= the bit width -> poison; `exact` right shifts that shift out a
  non-zero bit -> poison.
* `divsi`/`ceildivsi`/`floordivsi`: division by zero or INT_MIN / -1 -> UB;
  `divui`/`ceildivui`/`remui`/`remsi`: division by zero -> UB; `exact` division with a
  non-zero remainder -> poison. A poison divisor is UB (it may be zero), a poison
  dividend with divisor -1 is UB for signed division (it may be INT_MIN).
* `remsi(INT_MIN, -1)`: the documentation does not say; the LLVM lowering (`srem`)
  makes it UB, and so does this model (on both sides of a refinement: a single meaning
  is needed so that an unchanged function refines itself). A rewrite that introduces a
  `remsi` where its source is defined at INT_MIN, -1 is rejected (see known_bad).
* `select`: a poison condition is poison; the poison of the arm not picked is ignored.
* `trunci` with `nuw`/`nsw`: dropping bits that are not zeros / copies of the new sign
  bit -> poison. `extsi`/`extui`/`index_cast`/`index_castui` are total.
* Floats (`f16`/`f32`/`f64`, no fast-math flags): IEEE-754 with round-to-nearest-even;
  all NaNs are one value (NaN payloads are not modelled).

`refines(src, tgt)` is Alive's refinement: `ub_src or (not ub_tgt and (poison_src or
(not poison_tgt and equal)))`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import z3

from compiler.midend.arith_ops import CMPF_PREDICATES, INT_BINARY_OPS

#: Float kinds Ember models, with (exponent bits, significand bits incl. the hidden bit).
FLOAT_SORTS: dict[str, tuple[int, int]] = {"f16": (5, 11), "f32": (8, 24), "f64": (11, 53)}



class Side(enum.Enum):
    """Which side of a refinement an op is on. Every op now means the same on both sides;
    the parameter stays so that a side-dependent reading can be modelled."""

    SOURCE = "source"
    TARGET = "target"


class Unsupported(Exception):
    """An op, type or attribute the semantics do not model."""


@dataclass(frozen=True)
class Val:
    """An SSA value: its bits (bit-vector or float term) and whether it is poison."""

    term: z3.ExprRef
    poison: z3.BoolRef


@dataclass(frozen=True)
class Res:
    """The result of one op: its value and the condition under which executing it is UB."""

    val: Val
    ub: z3.BoolRef


FALSE = z3.BoolVal(False)
TRUE = z3.BoolVal(True)


def any_of(*conds: z3.BoolRef) -> z3.BoolRef:
    kept = [c for c in conds if not z3.is_false(c)]
    if not kept:
        return FALSE
    if any(z3.is_true(c) for c in kept):
        return TRUE
    return kept[0] if len(kept) == 1 else z3.Or(*kept)


def all_of(*conds: z3.BoolRef) -> z3.BoolRef:
    kept = [c for c in conds if not z3.is_true(c)]
    if not kept:
        return TRUE
    if any(z3.is_false(c) for c in kept):
        return FALSE
    return kept[0] if len(kept) == 1 else z3.And(*kept)


def _width(v: z3.ExprRef) -> int:
    return int(v.sort().size())


def bv(value: int, width: int) -> z3.BitVecNumRef:
    """A bit-vector constant; `value` is taken modulo 2**width (so -1 is all ones)."""
    return z3.BitVecVal(value % (1 << width), width)


def int_min(width: int) -> z3.BitVecNumRef:
    return bv(1 << (width - 1), width)


def _bool_to_bv(cond: z3.BoolRef) -> z3.BitVecRef:
    return z3.If(cond, bv(1, 1), bv(0, 1))


def _flag(flags: Mapping[str, z3.BoolRef | bool], name: str) -> z3.BoolRef:
    value = flags.get(name, False)
    return z3.BoolVal(value) if isinstance(value, bool) else value


# ----------------------------------------------------------------------------- integer ops


def _add(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    r = x + y
    sov = z3.SignExt(1, x) + z3.SignExt(1, y) != z3.SignExt(1, r)
    uov = z3.ZeroExt(1, x) + z3.ZeroExt(1, y) != z3.ZeroExt(1, r)
    poison = any_of(a.poison, b.poison, all_of(_flag(flags, "nsw"), sov), all_of(_flag(flags, "nuw"), uov))
    return Res(Val(r, poison), FALSE)


def _sub(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    r = x - y
    sov = z3.SignExt(1, x) - z3.SignExt(1, y) != z3.SignExt(1, r)
    uov = z3.ULT(x, y)
    poison = any_of(a.poison, b.poison, all_of(_flag(flags, "nsw"), sov), all_of(_flag(flags, "nuw"), uov))
    return Res(Val(r, poison), FALSE)


def _mul(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    r = x * y
    nsw, nuw = _flag(flags, "nsw"), _flag(flags, "nuw")
    poison = any_of(a.poison, b.poison)
    if not z3.is_false(nsw):
        sov = z3.Not(z3.And(z3.BVMulNoOverflow(x, y, True), z3.BVMulNoUnderflow(x, y)))
        poison = any_of(poison, all_of(nsw, sov))
    if not z3.is_false(nuw):
        poison = any_of(poison, all_of(nuw, z3.Not(z3.BVMulNoOverflow(x, y, False))))
    return Res(Val(r, poison), FALSE)


def _abs(x: z3.BitVecRef) -> z3.BitVecRef:
    return z3.If(x < 0, -x, x)


def sdiv(x: z3.BitVecRef, y: z3.BitVecRef) -> z3.BitVecRef:
    """`bvsdiv` spelled out as SMT-LIB defines it (an unsigned division of the magnitudes):
    the same function, but Z3 simplifies a constant power-of-two divisor to a shift."""
    q = z3.UDiv(_abs(x), _abs(y))
    return z3.If((x < 0) == (y < 0), q, -q)


def srem(x: z3.BitVecRef, y: z3.BitVecRef) -> z3.BitVecRef:
    """`bvsrem` as SMT-LIB defines it: the remainder has the dividend's sign."""
    r = z3.URem(_abs(x), _abs(y))
    return z3.If(x < 0, -r, r)


def _div_ub_unsigned(b: Val) -> z3.BoolRef:
    return any_of(b.poison, b.term == 0)


def _div_ub_signed(a: Val, b: Val) -> z3.BoolRef:
    w = _width(a.term)
    minus_one = b.term == bv(-1, w)
    return any_of(b.poison, b.term == 0, all_of(minus_one, any_of(a.poison, a.term == int_min(w))))


def _divui(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    r = z3.UDiv(x, y)
    inexact = all_of(_flag(flags, "exact"), z3.URem(x, y) != 0)
    return Res(Val(r, any_of(a.poison, inexact)), _div_ub_unsigned(b))


def _divsi(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    r = sdiv(x, y)  # rounds towards zero
    inexact = all_of(_flag(flags, "exact"), srem(x, y) != 0)
    return Res(Val(r, any_of(a.poison, inexact)), _div_ub_signed(a, b))


def _ceildivui(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    q = z3.UDiv(x, y)
    r = z3.If(z3.URem(x, y) != 0, q + 1, q)
    return Res(Val(r, a.poison), _div_ub_unsigned(b))


def _ceildivsi(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    q, rem = sdiv(x, y), srem(x, y)
    # the truncated quotient is rounded up when the remainder is non-zero and the exact
    # quotient is positive (the remainder has the dividend's sign).
    up = z3.And(rem != 0, (rem < 0) == (y < 0))
    return Res(Val(z3.If(up, q + 1, q), a.poison), _div_ub_signed(a, b))


def _floordivsi(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, y = a.term, b.term
    q, rem = sdiv(x, y), srem(x, y)
    down = z3.And(rem != 0, (rem < 0) != (y < 0))
    return Res(Val(z3.If(down, q - 1, q), a.poison), _div_ub_signed(a, b))


def _remui(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    return Res(Val(z3.URem(a.term, b.term), a.poison), _div_ub_unsigned(b))


def _remsi(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    # the sign follows the dividend; INT_MIN % -1 is UB as in LLVM's srem (module docstring)
    return Res(Val(srem(a.term, b.term), a.poison), _div_ub_signed(a, b))


def floormodsi(a: Val, b: Val) -> Res:
    """Python's `%` (the result has the divisor's sign): the spec of Ember's floor-mod helper.

    Written as SMT-LIB defines `bvsmod` (an unsigned remainder of the magnitudes, then a
    sign fix-up) so that an implementation built the same way shares its divider; the
    tests check it against Z3's own `bvsmod` and against Python's `%`.
    """
    x, y = a.term, b.term
    u = z3.URem(_abs(x), _abs(y))
    r = z3.If(u == 0, u, z3.If(y < 0, z3.If(x < 0, -u, u + y), z3.If(x < 0, y - u, u)))
    return Res(Val(r, a.poison), _div_ub_unsigned(b))


def _shift_poison(a: Val, b: Val) -> z3.BoolRef:
    w = _width(a.term)
    return any_of(a.poison, b.poison, z3.UGE(b.term, bv(w, w)) if w > 1 else b.term != 0)


def _shli(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, k = a.term, b.term
    r = x << k
    nsw = all_of(_flag(flags, "nsw"), (r >> k) != x)
    nuw = all_of(_flag(flags, "nuw"), z3.LShR(r, k) != x)
    return Res(Val(r, any_of(_shift_poison(a, b), nsw, nuw)), FALSE)


def _shrui(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, k = a.term, b.term
    r = z3.LShR(x, k)
    inexact = all_of(_flag(flags, "exact"), (r << k) != x)
    return Res(Val(r, any_of(_shift_poison(a, b), inexact)), FALSE)


def _shrsi(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
    x, k = a.term, b.term
    r = x >> k  # arithmetic
    inexact = all_of(_flag(flags, "exact"), (r << k) != x)
    return Res(Val(r, any_of(_shift_poison(a, b), inexact)), FALSE)


def _bitwise(fn: Callable[[z3.BitVecRef, z3.BitVecRef], z3.BitVecRef]) -> BinaryEncoder:
    def enc(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
        return Res(Val(fn(a.term, b.term), any_of(a.poison, b.poison)), FALSE)

    return enc


def _minmax(fn: Callable[[z3.BitVecRef, z3.BitVecRef], z3.BoolRef]) -> BinaryEncoder:
    def enc(a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool], side: Side) -> Res:
        return Res(Val(z3.If(fn(a.term, b.term), a.term, b.term), any_of(a.poison, b.poison)), FALSE)

    return enc


BinaryEncoder = Callable[[Val, Val, Mapping[str, "z3.BoolRef | bool"], Side], Res]


@dataclass(frozen=True)
class IntBinOp:
    """A two-operand integer op: same type in and out."""

    name: str
    encode: BinaryEncoder
    flags: tuple[str, ...] = ()
    commutative: bool = False
    may_ub: bool = False


#: each op's encoding; its flags, commutativity and UB come from compiler/midend/arith_ops.py
_ENCODERS: dict[str, BinaryEncoder] = {
    "addi": _add, "subi": _sub, "muli": _mul,
    "divui": _divui, "divsi": _divsi, "ceildivui": _ceildivui, "ceildivsi": _ceildivsi,
    "floordivsi": _floordivsi, "remui": _remui, "remsi": _remsi,
    "shli": _shli, "shrui": _shrui, "shrsi": _shrsi,
    "andi": _bitwise(lambda x, y: x & y), "ori": _bitwise(lambda x, y: x | y), "xori": _bitwise(lambda x, y: x ^ y),
    "maxsi": _minmax(lambda x, y: x > y), "minsi": _minmax(lambda x, y: x < y),
    "maxui": _minmax(z3.UGT), "minui": _minmax(z3.ULT),
}  # fmt: skip
INT_BINOPS: dict[str, IntBinOp] = {
    name: IntBinOp(name, _ENCODERS[name], op.flags, op.commutative, op.may_ub) for name, op in INT_BINARY_OPS.items()
}


def binop(name: str, a: Val, b: Val, flags: Mapping[str, z3.BoolRef | bool] | None = None,
          side: Side = Side.SOURCE) -> Res:
    """Apply the integer op `name` (e.g. "addi") to two values of the same width."""
    op = INT_BINOPS.get(name)
    if op is None:
        raise Unsupported(f"arith.{name}")
    flags = flags or {}
    unknown = [f for f, v in flags.items() if f not in op.flags and not (isinstance(v, bool) and not v)]
    if unknown:
        raise Unsupported(f"arith.{name} flag {unknown[0]}")
    return op.encode(a, b, flags, side)


def cmpi(predicate: str, a: Val, b: Val) -> Res:
    """`arith.cmpi`: an i1 result (1 = true)."""
    x, y = a.term, b.term
    conds: dict[str, Callable[[], z3.BoolRef]] = {
        "eq": lambda: x == y, "ne": lambda: x != y,
        "slt": lambda: x < y, "sle": lambda: x <= y, "sgt": lambda: x > y, "sge": lambda: x >= y,
        "ult": lambda: z3.ULT(x, y), "ule": lambda: z3.ULE(x, y),
        "ugt": lambda: z3.UGT(x, y), "uge": lambda: z3.UGE(x, y),
    }  # fmt: skip
    if predicate not in conds:
        raise Unsupported(f"arith.cmpi predicate {predicate}")
    return Res(Val(_bool_to_bv(conds[predicate]()), any_of(a.poison, b.poison)), FALSE)


def select(c: Val, t: Val, f: Val) -> Res:
    """`arith.select`: poison iff the condition or the picked arm is poison."""
    pick = c.term == bv(1, 1)
    poison = any_of(c.poison, z3.If(pick, t.poison, f.poison))
    return Res(Val(z3.If(pick, t.term, f.term), poison), FALSE)


def extsi(a: Val, width: int) -> Res:
    w = _width(a.term)
    if width <= w:
        raise Unsupported(f"arith.extsi from i{w} to i{width}")
    return Res(Val(z3.SignExt(width - w, a.term), a.poison), FALSE)


def extui(a: Val, width: int) -> Res:
    w = _width(a.term)
    if width <= w:
        raise Unsupported(f"arith.extui from i{w} to i{width}")
    return Res(Val(z3.ZeroExt(width - w, a.term), a.poison), FALSE)


def trunci(a: Val, width: int, flags: Mapping[str, z3.BoolRef | bool] | None = None) -> Res:
    w = _width(a.term)
    if width >= w:
        raise Unsupported(f"arith.trunci from i{w} to i{width}")
    flags = flags or {}
    r = z3.Extract(width - 1, 0, a.term)
    nuw = all_of(_flag(flags, "nuw"), z3.ZeroExt(w - width, r) != a.term)
    nsw = all_of(_flag(flags, "nsw"), z3.SignExt(w - width, r) != a.term)
    return Res(Val(r, any_of(a.poison, nuw, nsw)), FALSE)


def index_cast(a: Val, width: int, *, unsigned: bool = False) -> Res:
    """`arith.index_cast` (sign-extend or truncate) / `index_castui` (zero-extend or truncate)."""
    w = _width(a.term)
    if width == w:
        return Res(a, FALSE)
    if width < w:
        return Res(Val(z3.Extract(width - 1, 0, a.term), a.poison), FALSE)
    ext = z3.ZeroExt if unsigned else z3.SignExt
    return Res(Val(ext(width - w, a.term), a.poison), FALSE)


def constant(value: int, width: int) -> Val:
    return Val(bv(value, width), FALSE)


# ----------------------------------------------------------------------------- float ops

_RNE = z3.RNE()


def float_sort(kind: str) -> z3.FPSortRef:
    if kind not in FLOAT_SORTS:
        raise Unsupported(f"float type {kind}")
    e, s = FLOAT_SORTS[kind]
    return z3.FPSort(e, s)


def float_constant(value: float, kind: str) -> Val:
    return Val(z3.FPVal(value, float_sort(kind)), FALSE)


def float_from_bits(bits: int, kind: str) -> Val:
    e, s = FLOAT_SORTS[kind]
    return Val(z3.fpBVToFP(bv(bits, e + s), float_sort(kind)), FALSE)


def float_binop(name: str, a: Val, b: Val) -> Res:
    fns: dict[str, Callable[[z3.FPRef, z3.FPRef], z3.FPRef]] = {
        "addf": lambda x, y: z3.fpAdd(_RNE, x, y),
        "subf": lambda x, y: z3.fpSub(_RNE, x, y),
        "mulf": lambda x, y: z3.fpMul(_RNE, x, y),
        "divf": lambda x, y: z3.fpDiv(_RNE, x, y),
    }
    if name not in fns:
        raise Unsupported(f"arith.{name}")
    return Res(Val(fns[name](a.term, b.term), any_of(a.poison, b.poison)), FALSE)


def negf(a: Val) -> Res:
    return Res(Val(z3.fpNeg(a.term), a.poison), FALSE)


def cmpf(predicate: str, a: Val, b: Val) -> Res:
    x, y = a.term, b.term
    unordered = z3.Or(z3.fpIsNaN(x), z3.fpIsNaN(y))
    base: dict[str, z3.BoolRef] = {
        "eq": z3.fpEQ(x, y), "gt": z3.fpGT(x, y), "ge": z3.fpGEQ(x, y),
        "lt": z3.fpLT(x, y), "le": z3.fpLEQ(x, y), "ne": z3.Not(z3.fpEQ(x, y)),
    }  # fmt: skip
    if predicate == "false":
        cond: z3.BoolRef = FALSE
    elif predicate == "true":
        cond = TRUE
    elif predicate == "ord":
        cond = z3.Not(unordered)
    elif predicate == "uno":
        cond = unordered
    elif predicate in CMPF_PREDICATES and predicate[1:] in base:
        rel = base[predicate[1:]]
        if predicate == "one":
            rel = z3.And(z3.Not(unordered), z3.Not(z3.fpEQ(x, y)))
        cond = z3.And(z3.Not(unordered), rel) if predicate[0] == "o" else z3.Or(unordered, rel)
    else:
        raise Unsupported(f"arith.cmpf predicate {predicate}")
    return Res(Val(_bool_to_bv(cond), any_of(a.poison, b.poison)), FALSE)


# ----------------------------------------------------------------------------- refinement


def values_equal(a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
    """Equality of two results; for floats every NaN equals every NaN and +0 != -0."""
    return a == b  # SMT-LIB `=`: one NaN, signed zeros distinct


def refines(src: Sequence[Val], src_ub: z3.BoolRef, tgt: Sequence[Val], tgt_ub: z3.BoolRef) -> z3.BoolRef:
    """`ub_src or (not ub_tgt and all(poison_src or (not poison_tgt and equal)))`."""
    if len(src) != len(tgt):
        raise ValueError("source and target have different numbers of results")
    per_value = [any_of(s.poison, all_of(z3.Not(t.poison), values_equal(s.term, t.term))) for s, t in zip(src, tgt, strict=True)]
    return any_of(src_ub, all_of(z3.Not(tgt_ub), *per_value))


@dataclass
class Failure:
    """Which check of the refinement a model violates, in Alive's words."""

    kind: str  # "UB", "poison" or "value"
    index: int = 0
    message: str = ""


def classify(model: z3.ModelRef, src: Sequence[Val], src_ub: z3.BoolRef,
             tgt: Sequence[Val], tgt_ub: z3.BoolRef) -> Failure:
    """Name the check that fails under `model` (the source is neither UB nor ...)."""
    def holds(cond: z3.BoolRef) -> bool:
        return z3.is_true(model.eval(cond, model_completion=True))

    if holds(tgt_ub):
        return Failure("UB", 0, "Source is more defined than target: target has undefined behavior")
    for i, (s, t) in enumerate(zip(src, tgt, strict=True)):
        if holds(s.poison):
            continue
        if holds(t.poison):
            return Failure("poison", i, "Target is more poisonous than source")
        if not holds(values_equal(s.term, t.term)):
            return Failure("value", i, "Value mismatch")
    return Failure("value", 0, "Value mismatch")


# ----------------------------------------------------------------------------- concrete evaluation


@dataclass
class Concrete:
    """A concrete result: `value` is an unsigned int (None when poison), `ub` a flag."""

    value: int | None
    ub: bool
    poison: bool = field(default=False)


def evaluate(res: Res) -> Concrete:
    """Evaluate a closed (all-constant) integer result by simplification."""
    ub = z3.simplify(res.ub)
    poison = z3.simplify(res.val.poison)
    term = z3.simplify(res.val.term)
    if not (z3.is_bool(ub) and (z3.is_true(ub) or z3.is_false(ub))):
        raise ValueError(f"result is not closed: ub = {ub}")
    if not (z3.is_true(poison) or z3.is_false(poison)):
        raise ValueError(f"result is not closed: poison = {poison}")
    if z3.is_true(ub) or z3.is_true(poison):
        return Concrete(None, z3.is_true(ub), z3.is_true(poison))
    if not z3.is_bv_value(term):
        raise ValueError(f"result is not closed: {term}")
    return Concrete(term.as_long(), False, False)


def to_signed(value: int, width: int) -> int:
    value %= 1 << width
    return value - (1 << width) if value >> (width - 1) else value


def format_int(value: int, width: int) -> str:
    """`#x80 (128, -128)` style: hex, then unsigned and signed readings."""
    value %= 1 << width
    digits = max(1, (width + 3) // 4)
    return f"0x{value:0{digits}x} (u {value}, s {to_signed(value, width)})"
