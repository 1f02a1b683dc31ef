"""The Z3 semantics are themselves tested.

1. Values: the encoding evaluated on concrete inputs equals the op compiled through
   Ember's MLIR + LLVM pipeline and executed, at every width 1..64 (edge values at a set
   of widths, random ones at all widths). Inputs the model calls UB or poison are not run
   (they have no defined result); a model that wrongly calls an input defined either
   gives a different value or crashes the program, and both fail the test.
2. UB and poison: the model's conditions equal a Python restatement of the MLIR arith
   documentation (unbounded integers, no Z3), for every op and flag.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.midend import arith_ops
from compiler.midend.rewrites import dsl
from equivalence import semantics as sem
from equivalence import tv_programs
from equivalence.semantics import Side
from tests import equiv_support as es

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GRID_WIDTHS = (1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 63, 64)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[es.OpCase], Path]:
    cases = [c for w in es.ALL_WIDTHS for c in es.cases_for_width(w)]
    exe = es.build_program(cases, tmp_path_factory.mktemp("ops"))
    return cases, exe


def _compare(cases: list[es.OpCase], exe: Path, rows: list[tuple[int, int, int, int]]) -> int:
    """Run the defined rows; assert the program agrees with the model. Returns rows run."""
    defined = []
    expected = []
    for row in rows:
        case = cases[row[0]]
        r = es.model_result(case, row[1:])
        if r.value is not None:
            defined.append(row)
            expected.append(r.value)
    outputs = es.run_program(exe, defined)
    mismatches = [
        f"{cases[row[0]].key}{tuple(row[1:1 + cases[row[0]].arity])}: model {exp}, compiled {got}"
        for row, exp, got in zip(defined, expected, outputs, strict=True)
        if exp != got
    ]
    assert not mismatches, "\n".join(mismatches[:20])
    return len(defined)


def test_edge_values_match_compiled_code(program: tuple[list[es.OpCase], Path]) -> None:
    cases, exe = program
    rows = []
    for i, case in enumerate(cases):
        w = max(case.operand_widths)
        if w not in GRID_WIDTHS:
            continue
        edges = es.edge_values(w)
        if case.arity == 1:
            rows += [(i, a, 0, 0) for a in es.edge_values(case.operand_widths[0])]
        elif case.arity == 2:
            rows += [(i, a, b, 0) for a in edges for b in edges]
        else:
            rows += [(i, a, b, c) for a in edges[::2] for b in edges[::3] for c in (0, 1)]
    assert _compare(cases, exe, rows) > 0.8 * len(rows) * 0.5


@st.composite
def _rows(draw: st.DrawFn, n_cases: int) -> tuple[int, int, int, int]:
    i = draw(st.integers(0, n_cases - 1))
    w = (i * 64) // n_cases + 1  # roughly the case's width; the values are truncated anyway
    corner = st.builds(lambda k, d: ((1 << k) + d) % (1 << 64), st.integers(0, 64), st.integers(-2, 2))
    near_w = st.builds(lambda d: max(w + d, 0), st.integers(-2, 2))
    value = st.one_of(st.integers(0, (1 << 64) - 1), corner, near_w, st.integers(0, 3))
    return i, draw(value), draw(value), draw(value)


@SETTINGS
@given(data=st.data())
def test_random_values_match_compiled_code(program: tuple[list[es.OpCase], Path], data: st.DataObject) -> None:
    cases, exe = program
    rows = data.draw(st.lists(_rows(len(cases)), min_size=50, max_size=200))
    _compare(cases, exe, rows)


def test_a_wrong_model_is_caught(program: tuple[list[es.OpCase], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: model shrsi as a logical shift and run the edge grid."""
    cases, exe = program
    monkeypatch.setitem(sem.INT_BINOPS, "shrsi", sem.INT_BINOPS["shrui"])
    rows = [(i, a, b, 0) for i, c in enumerate(cases) if c.key == "shrsi.i8" for a in es.edge_values(8) for b in (1, 3)]
    with pytest.raises(AssertionError, match="shrsi.i8"):
        _compare(cases, exe, rows)


# ----------------------------------------------------------------------------- UB/poison vs the docs


def _s(v: int, w: int) -> int:
    return sem.to_signed(v, w)


def _fits_s(v: int, w: int) -> bool:
    return -(1 << (w - 1)) <= v < (1 << (w - 1))


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def reference(name: str, w: int, a: int, b: int, flags: frozenset[str]) -> str | int:
    """What the MLIR arith docs say: 'ub', 'poison' or the unsigned result."""
    m = 1 << w
    sa, sb = _s(a, w), _s(b, w)
    int_min = -(1 << (w - 1))
    if name in ("divui", "remui", "ceildivui") and b == 0:
        return "ub"
    if name in ("divsi", "ceildivsi", "floordivsi") and (b == 0 or (sa == int_min and sb == -1)):
        return "ub"
    if name == "remsi" and (b == 0 or (sa == int_min and sb == -1)):  # UB once lowered to srem
        return "ub"
    if name in ("shli", "shrui", "shrsi") and b >= w:
        return "poison"
    exact: int
    if name == "addi":
        exact, signed = a + b, sa + sb
    elif name == "subi":
        exact, signed = a - b, sa - sb
    elif name == "muli":
        exact, signed = a * b, sa * sb
    elif name == "shli":
        exact, signed = a << b, sa << b
    else:
        signed = 0
        if name == "divui":
            if "exact" in flags and a % b:
                return "poison"
            return a // b
        if name == "divsi":
            if "exact" in flags and sa % sb:
                return "poison"
            return _trunc_div(sa, sb) % m
        if name == "ceildivui":
            return -(-a // b) % m
        if name == "ceildivsi":
            return math.ceil(sa / sb) % m if abs(sa) < 2**52 else -(-sa // sb) % m
        if name == "floordivsi":
            return (sa // sb) % m
        if name == "remui":
            return a % b
        if name == "remsi":
            return (sa - _trunc_div(sa, sb) * sb) % m
        if name in ("shrui", "shrsi"):
            if "exact" in flags and a % (1 << b):
                return "poison"
            return (a >> b) if name == "shrui" else (sa >> b) % m
        return {
            "andi": a & b, "ori": a | b, "xori": a ^ b,
            "maxsi": max(sa, sb) % m, "minsi": min(sa, sb) % m, "maxui": max(a, b), "minui": min(a, b),
        }[name]  # fmt: skip
    if "nuw" in flags and not 0 <= exact < m:
        return "poison"
    if "nsw" in flags and not _fits_s(signed, w):
        return "poison"
    return exact % m


def _classify(r: sem.Concrete) -> str | int:
    if r.ub:
        return "ub"
    if r.poison:
        return "poison"
    assert r.value is not None
    return r.value


@st.composite
def _op_inputs(draw: st.DrawFn) -> tuple[str, int, int, int, frozenset[str]]:
    name = draw(st.sampled_from(sorted(sem.INT_BINOPS)))
    w = draw(st.integers(1, 64))
    m = (1 << w) - 1
    corner = st.sampled_from(es.edge_values(w))
    small = st.integers(0, min(m, w + 1))
    a = draw(st.one_of(st.integers(0, m), corner, small))
    b = draw(st.one_of(st.integers(0, m), corner, small))
    flags = draw(st.sets(st.sampled_from(sem.INT_BINOPS[name].flags))) if sem.INT_BINOPS[name].flags else set()
    return name, w, a, b, frozenset(flags)


@settings(max_examples=600, deadline=None)
@given(_op_inputs())
def test_binops_follow_the_docs(case: tuple[str, int, int, int, frozenset[str]]) -> None:
    name, w, a, b, flags = case
    res = sem.binop(name, sem.constant(a, w), sem.constant(b, w), {f: True for f in flags}, Side.TARGET)
    assert _classify(sem.evaluate(res)) == reference(name, w, a, b, flags)


def test_remsi_int_min_by_minus_one_is_ub_on_both_sides() -> None:
    """One meaning on both sides (an unchanged function must refine itself), that of
    LLVM's srem, which the compiled code executes."""
    for w in (1, 8, 64):
        a, b = sem.constant(1 << (w - 1), w), sem.constant(-1, w)
        for side in Side:
            assert sem.evaluate(sem.binop("remsi", a, b, side=side)).ub


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 64), st.data())
def test_trunci_flags_follow_the_docs(w: int, data: st.DataObject) -> None:
    to = data.draw(st.integers(1, w - 1))
    a = data.draw(st.one_of(st.integers(0, (1 << w) - 1), st.sampled_from(es.edge_values(w))))
    for flags in (frozenset(), frozenset({"nuw"}), frozenset({"nsw"}), frozenset({"nsw", "nuw"})):
        r = sem.evaluate(sem.trunci(sem.constant(a, w), to, {f: True for f in flags}))
        lost_u = a >= (1 << to)
        lost_s = not _fits_s(_s(a, w), to)
        assert r.poison == (("nuw" in flags and lost_u) or ("nsw" in flags and lost_s))
        if not r.poison:
            assert r.value == a % (1 << to)


def test_poison_propagates_and_select_ignores_the_other_arm() -> None:
    w = 8
    poison = sem.Val(sem.bv(3, w), z3.BoolVal(True))
    one = sem.constant(1, w)
    assert sem.evaluate(sem.binop("addi", poison, one)).poison
    assert sem.evaluate(sem.binop("divui", one, poison)).ub  # a poison divisor may be zero
    assert sem.evaluate(sem.binop("divsi", poison, sem.constant(-1, w))).ub  # may be INT_MIN
    assert sem.evaluate(sem.binop("divsi", poison, sem.constant(2, w))).poison
    true, false = sem.constant(1, 1), sem.constant(0, 1)
    assert sem.evaluate(sem.select(true, one, poison)).value == 1
    assert sem.evaluate(sem.select(false, one, poison)).poison
    assert sem.evaluate(sem.select(sem.Val(sem.bv(1, 1), z3.BoolVal(True)), one, one)).poison


@pytest.mark.parametrize("w", [1, 2, 3, 5, 8])
def test_division_expansions_equal_z3_builtins(w: int) -> None:
    """sdiv/srem/floormodsi are SMT-LIB's definitions spelled out; prove them equal to Z3's
    own bvsdiv/bvsrem/bvsmod (divisor non-zero)."""
    x, y = z3.BitVecs("x y", w)
    s = z3.Solver()
    floormod = sem.floormodsi(sem.Val(x, sem.FALSE), sem.Val(y, sem.FALSE)).val.term
    s.add(y != 0, z3.Or(sem.sdiv(x, y) != x / y, sem.srem(x, y) != z3.SRem(x, y), floormod != x % y))
    assert s.check() == z3.unsat


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 64), st.data())
def test_floormod_spec_is_pythons_modulo(w: int, data: st.DataObject) -> None:
    a = data.draw(st.integers(-(1 << (w - 1)), (1 << (w - 1)) - 1))
    b = data.draw(st.integers(-(1 << (w - 1)), (1 << (w - 1)) - 1).filter(lambda v: v != 0))
    r = sem.evaluate(sem.floormodsi(sem.constant(a, w), sem.constant(b, w)))
    assert r.value == (a % b) % (1 << w)


def test_every_reader_of_the_arith_table_agrees_with_it() -> None:
    """One table (compiler/midend/arith_ops.py): the semantics model exactly its ops with its
    flags, the DSL types them the same, and the TV generator draws only ops it has."""
    table = arith_ops.INT_BINARY_OPS
    assert set(sem.INT_BINOPS) == set(table)
    for name, op in table.items():
        assert (sem.INT_BINOPS[name].flags, sem.INT_BINOPS[name].commutative, sem.INT_BINOPS[name].may_ub) == (
            op.flags, op.commutative, op.may_ub)
        assert (dsl.OPS[name].flags, dsl.OPS[name].commutative) == (op.flags, op.commutative)
    assert set(tv_programs.BINOPS) <= set(table) and set(tv_programs.FLAGS) <= set(table)
    assert list(arith_ops.CMPI_PREDICATES) == tv_programs.PREDS
