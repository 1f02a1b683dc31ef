"""Support for the equivalence tests: arith ops compiled through Ember's own MLIR + LLVM
pipeline into one executable, driven from stdin, next to the Z3 model of each op."""

from __future__ import annotations

import itertools
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compiler import driver
from compiler.link import link_executable
from compiler.midend import arith_ops
from equivalence import semantics as sem
from equivalence.semantics import Res, Side, Val

ALL_WIDTHS = tuple(range(1, 65))


@dataclass(frozen=True)
class OpCase:
    """One op at one width: MLIR that computes it from i64 arguments, and its Z3 model."""

    key: str
    width: int
    arity: int
    body: str  # MLIR lines; %x %y %c are the operands at the op's width, %r the i64 result
    model: Callable[[list[Val]], Res]
    operand_widths: tuple[int, ...]


def _binop(name: str, w: int) -> OpCase:
    def model(v: list[Val]) -> Res:
        return sem.binop(name, v[0], v[1], {}, Side.TARGET)

    return OpCase(f"{name}.i{w}", w, 2, f"%o = arith.{name} %x, %y : i{w}", model, (w, w))


def _cmpi(pred: str, w: int) -> OpCase:
    return OpCase(f"cmpi_{pred}.i{w}", w, 2, f"%o = arith.cmpi {pred}, %x, %y : i{w}",
                  lambda v: sem.cmpi(pred, v[0], v[1]), (w, w))


def cases_for_width(w: int) -> list[OpCase]:
    """Every modelled integer op at width w (casts where the width allows them)."""
    out = [_binop(name, w) for name in sem.INT_BINOPS]
    out += [_cmpi(p, w) for p in arith_ops.CMPI_PREDICATES]
    out.append(OpCase(f"select.i{w}", w, 3, f"%o = arith.select %c, %x, %y : i{w}",
                      lambda v: sem.select(v[2], v[0], v[1]), (w, w, 1)))
    if w < 64:
        out.append(OpCase(f"extsi.i{w}", 64, 1, f"%o = arith.extsi %x : i{w} to i64",
                          lambda v: sem.extsi(v[0], 64), (w,)))
        out.append(OpCase(f"extui.i{w}", 64, 1, f"%o = arith.extui %x : i{w} to i64",
                          lambda v: sem.extui(v[0], 64), (w,)))
        out.append(OpCase(f"trunci.i{w}", w, 1, f"%o = arith.trunci %a : i64 to i{w}",
                          lambda v: sem.trunci(v[0], w), (64,)))
    out.append(OpCase(f"index_cast_to_index.i{w}", 64, 1,
                      f"%o = arith.index_cast %x : i{w} to index",
                      lambda v: sem.index_cast(v[0], 64), (w,)))
    out.append(OpCase(f"index_castui_to_index.i{w}", 64, 1,
                      f"%o = arith.index_castui %x : i{w} to index",
                      lambda v: sem.index_cast(v[0], 64, unsigned=True), (w,)))
    out.append(OpCase(f"index_cast_from_index.i{w}", w, 1,
                      f"%ix = arith.index_cast %a : i64 to index\n  %o = arith.index_cast %ix : index to i{w}",
                      lambda v: sem.index_cast(v[0], w), (64,)))
    return out


def _function(i: int, case: OpCase) -> str:
    lines = [f"func.func @t{i}(%a: i64, %b: i64, %cc: i64) -> i64 {{"]
    names = ["%x", "%y", "%c"]
    raw = ["%a", "%b", "%cc"]
    for k, ow in enumerate(case.operand_widths):
        if ow == 64:
            lines.append(f"  {names[k]} = arith.addi {raw[k]}, %zero{k} : i64")
            lines.insert(1, f"  %zero{k} = arith.constant 0 : i64")
        else:
            lines.append(f"  {names[k]} = arith.trunci {raw[k]} : i64 to i{ow}")
    lines.append(f"  {case.body}")
    result_index = case.body.split("\n")[-1].split()[-1] == "index"
    out_w = 1 if case.key.startswith("cmpi") else case.width
    if result_index:
        lines.append("  %r = arith.index_cast %o : index to i64")
    elif out_w < 64:
        lines.append(f"  %r = arith.extui %o : i{out_w} to i64")
    else:
        lines.append("  %r = arith.addi %o, %zero_r : i64")
        lines.insert(1, "  %zero_r = arith.constant 0 : i64")
    lines.append("  return %r : i64")
    lines.append("}")
    return "\n".join(lines)


_MAIN_C = r"""
#include <stdio.h>
#include <stdint.h>
typedef uint64_t (*fn)(uint64_t, uint64_t, uint64_t);
%(decls)s
static const fn table[] = { %(names)s };
int main(void) {
  unsigned long long id, a, b, c;
  while (scanf("%%llu %%llu %%llu %%llu", &id, &a, &b, &c) == 4) {
    printf("%%llu\n", (unsigned long long)table[id](a, b, c));
    fflush(stdout);
  }
  return 0;
}
"""


def build_program(cases: Sequence[OpCase], workdir: Path, opt_level: int = 0, extra: str = "") -> Path:
    """Compile every case into one object with `ember build`'s driver and link a C main;
    `extra` is more MLIR (functions the cases call)."""
    mlir = workdir / "ops.mlir"
    mlir.write_text("\n".join(_function(i, c) for i, c in enumerate(cases)) + "\n" + extra + "\n")
    result = driver.build(str(mlir), driver.BuildOptions(opt_level=opt_level, emit="obj"))
    obj = workdir / "ops.o"
    assert isinstance(result.output, bytes)
    obj.write_bytes(result.output)
    main = workdir / "main.c"
    decls = "\n".join(f"uint64_t t{i}(uint64_t, uint64_t, uint64_t);" for i in range(len(cases)))
    main.write_text(_MAIN_C % {"decls": decls, "names": ", ".join(f"t{i}" for i in range(len(cases)))})
    return link_executable([obj, main], workdir / "ops", with_runtime=False)


def run_program(exe: Path, rows: Sequence[tuple[int, int, int, int]]) -> list[int]:
    """Feed `id a b c` lines; one unsigned result per line. A crash raises."""
    text = "".join(f"{i} {a} {b} {c}\n" for i, a, b, c in rows)
    proc = subprocess.run([str(exe)], input=text, capture_output=True, text=True, timeout=120)
    outputs = [int(x) for x in proc.stdout.split()]
    if proc.returncode != 0:
        bad = rows[len(outputs)] if len(outputs) < len(rows) else None
        raise AssertionError(f"program died with status {proc.returncode} at input {bad}")
    return outputs


def model_result(case: OpCase, raw: Sequence[int]) -> sem.Concrete:
    """The Z3 model evaluated on concrete inputs (truncated to the operand widths)."""
    vals = [sem.constant(r, w) for r, w in zip(raw, case.operand_widths, strict=False)]
    return sem.evaluate(case.model(vals))


def edge_values(w: int) -> list[int]:
    """Values around the corners of a w-bit integer, as u64 whose low w bits matter."""
    m = (1 << w) - 1
    vals = {0, 1, 2, m, m - 1, 1 << (w - 1), (1 << (w - 1)) - 1, ((1 << (w - 1)) + 1) & m, w, w - 1}
    return sorted(v & m for v in vals)


# ----------------------------------------------------------------------------- patterns as MLIR

_CANDIDATES = (0, 1, 2, 3, 4, 5, 7, 8, 16, 30, -1, -2, -8)


def pattern_constants(pattern: Any, width: int) -> dict[str, int] | None:
    """Small values for the pattern's constants that satisfy its precondition at `width`,
    preferring ones that are not 0/1 (so that identities do not hide the pattern)."""
    from compiler.midend.rewrites import dsl

    names = [c.name for c in pattern.constants()]
    mask = (1 << width) - 1
    ordered = sorted(_CANDIDATES, key=lambda v: (v in (0, 1, -1), abs(v)))
    for values in itertools.product(ordered, repeat=len(names)):
        consts = {n: v & mask for n, v in zip(names, values, strict=True)}
        if all(dsl.pred_eval(p, width, consts) for p in pattern.pre):
            return consts
    return None


def source_function(pattern: Any, width: int, consts: dict[str, int], name: str = "f") -> str:
    """The pattern's source as one MLIR function at integer width `width`: values are
    arguments, constants `arith.constant`s, every op carries its required flags."""
    from compiler.midend.rewrites import dsl

    def ty(node: Any) -> str:
        return "i1" if node.ty == dsl.I1 else f"i{width}"

    args = [f"%{v.name}: {ty(v)}" for v in pattern.variables()]
    lines: list[str] = []
    names: dict[Any, str] = {}

    def emit(node: Any) -> str:
        if node in names:
            return names[node]
        if isinstance(node, dsl.Var):
            out = f"%{node.name}"
        elif isinstance(node, (dsl.Const, dsl.Lit)):
            value = consts[node.name] if isinstance(node, dsl.Const) else node.value
            bits = 1 if node.ty == dsl.I1 else width
            out = f"%k{len(lines)}"
            lines.append(f"  {out} = arith.constant {sem.to_signed(value, bits)} : {ty(node)}")
        else:
            operands = [emit(a) for a in node.args]
            out = f"%v{len(lines)}"
            flags = [f for f in node.flags if f in ("nsw", "nuw")]
            attr = f" overflow<{', '.join(flags)}>" if flags else ""
            exact = " exact" if "exact" in node.flags else ""
            if node.name == "cmpi":
                lines.append(f"  {out} = arith.cmpi {node.predicate}, {', '.join(operands)} : {ty(node.args[0])}")
            elif node.name == "select":
                lines.append(f"  {out} = arith.select {', '.join(operands)} : {ty(node)}")
            elif node.name in ("extsi", "extui", "trunci"):
                lines.append(f"  {out} = arith.{node.name} {operands[0]} : {ty(node.args[0])} to {ty(node)}")
            else:
                lines.append(f"  {out} = arith.{node.name}{exact} {', '.join(operands)}{attr} : {ty(node)}")
        names[node] = out
        return out

    root = emit(pattern.source)
    body = "\n".join(lines)
    return (f"func.func @{name}({', '.join(args)}) -> {ty(pattern.source)} {{\n{body}\n"
            f"  return {root} : {ty(pattern.source)}\n}}\n")
