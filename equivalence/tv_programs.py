"""Hypothesis strategy for translation validation: functions of `arith` ops with `scf.if`
and constant-bound `scf.for` on one integer type (tests/test_equiv_tv.py, bench/tv.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from compiler.midend.arith_ops import CMPI_PREDICATES, INT_BINARY_OPS

#: the ops drawn (a selection from the one table, in the order the property test has always drawn them)
BINOPS = ["addi", "subi", "muli", "andi", "ori", "xori", "shli", "shrui", "shrsi",
          "divui", "divsi", "remui", "remsi", "ceildivsi", "floordivsi", "maxsi", "minui"]  # fmt: skip
#: the overflow flags the generator writes as `overflow<...>` (exact ops are drawn without `exact`)
FLAGS = {n: op.flags for n, op in INT_BINARY_OPS.items() if op.flags and set(op.flags) <= {"nsw", "nuw"}}
PREDS = list(CMPI_PREDICATES)
#: the kinds of line the generator writes, weighted (loops only when asked)
_KINDS = ["bin"] * 6 + ["const", "cmp", "select", "if"]


def _constant(name: str, value: int, w: int) -> str:
    """`name = arith.constant V : iW` with V written signed, as MLIR prints it."""
    value %= 1 << w
    return f"{name} = arith.constant {value - (1 << w) if value >> (w - 1) else value} : i{w}"


def _for_loop(name: str, trips: int, init: str, step_op: str, ty: str) -> str:
    """A `scf.for` of `trips` iterations folding the induction variable into `init`."""
    return "\n".join([
        f"{name}_lb = arith.constant 0 : index",
        f"{name}_ub = arith.constant {trips} : index",
        f"{name}_st = arith.constant 1 : index",
        f"{name} = scf.for {name}_iv = {name}_lb to {name}_ub step {name}_st iter_args({name}_acc = {init}) -> {ty} {{",
        f"  {name}_k = arith.index_cast {name}_iv : index to {ty}",
        f"  {name}_t = arith.{step_op} {name}_acc, {name}_k : {ty}",
        f"  scf.yield {name}_t : {ty}",
        "}",
    ])  # fmt: skip


@st.composite
def arith_functions(draw: st.DrawFn, widths: tuple[int, ...], max_ops: int, loops: bool = False) -> str:
    """A random function `@f(%a, %b, %c)` of arith ops (and `scf.if`, `scf.for` with
    constant bounds when `loops`) on one integer type."""
    w = draw(st.sampled_from(widths))
    ty = f"i{w}"
    vals = ["%a", "%b", "%c"]
    conds: list[str] = []
    lines: list[str] = []
    consts = st.one_of(st.integers(-2, 8), st.sampled_from([(1 << (w - 1)) - 1, -(1 << (w - 1)), w, w - 1]))
    kinds = _KINDS + (["for"] if loops else [])
    for i in range(draw(st.integers(1, max_ops))):
        name = f"%v{i}"
        kind = draw(st.sampled_from(kinds))
        if kind == "const":
            lines.append(_constant(name, draw(consts), w))
        elif kind == "cmp":
            x, y = draw(st.sampled_from(vals)), draw(st.sampled_from(vals))
            lines.append(f"{name} = arith.cmpi {draw(st.sampled_from(PREDS))}, {x}, {y} : {ty}")
            conds.append(name)
            continue
        elif kind == "for":
            op = draw(st.sampled_from(["addi", "xori", "muli", "subi"]))
            lines.append(_for_loop(name, draw(st.integers(0, 4)), draw(st.sampled_from(vals)), op, ty))
        elif kind in ("select", "if") and conds:
            c, x, y = draw(st.sampled_from(conds)), draw(st.sampled_from(vals)), draw(st.sampled_from(vals))
            if kind == "select":
                lines.append(f"{name} = arith.select {c}, {x}, {y} : {ty}")
            else:
                lines.append(f"{name} = scf.if {c} -> {ty} {{\n  scf.yield {x} : {ty}\n}} else {{\n  scf.yield {y} : {ty}\n}}")
        else:
            op = draw(st.sampled_from(BINOPS))
            x, y = draw(st.sampled_from(vals)), draw(st.sampled_from(vals))
            flags = draw(st.sets(st.sampled_from(FLAGS[op]))) if op in FLAGS else set()
            attr = f" overflow<{', '.join(sorted(flags))}>" if flags else ""
            lines.append(f"{name} = arith.{op} {x}, {y}{attr} : {ty}")
        vals.append(name)
    body = "\n".join(f"  {line}" for text in lines for line in text.splitlines())
    return f"func.func @f(%a: {ty}, %b: {ty}, %c: {ty}) -> {ty} {{\n{body}\n  return {vals[-1]} : {ty}\n}}\n"


#: The division expansions' TV inputs, `iW` standing for the width: the test and
#: bench/tv.py validate these (`arith-expand` at i32 and i64).
DIVISION_FUNCTION = """
func.func @divs(%a: iW, %b: iW) -> iW {
  %0 = arith.ceildivsi %a, %b : iW
  %1 = arith.floordivsi %a, %b : iW
  %2 = arith.remsi %a, %b : iW
  %3 = arith.addi %0, %1 : iW
  %4 = arith.addi %3, %2 : iW
  return %4 : iW
}
"""
NESTED_DIVISION_FUNCTION = """
func.func @nested(%a: iW, %b: iW) -> iW {
  %q = arith.ceildivsi %a, %b : iW
  %r = arith.floordivsi %q, %b : iW
  return %r : iW
}
"""
