"""Translation validation: pass pipelines must refine their input, function by function.

The property test generates arith-only functions (Hypothesis) and validates each pass of
Ember's midend pipeline on them. Small by default; EMBER_EQUIV_EXAMPLES=N runs N examples
per pass (e.g. 500) with wider types.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler import cli
from compiler.midend import pipeline
from equivalence import tv

EXAMPLES = int(os.environ.get("EMBER_EQUIV_EXAMPLES", "0"))
#: every pass of Ember's midend pipelines, plus upstream passes worth checking
EMBER_PASSES = sorted({p for lv in (1, 2, 3) for p in pipeline.split_pipeline(pipeline.MIDEND_PIPELINES[lv])})
UPSTREAM = ["canonicalize", "cse", "sccp", "arith-expand", "int-range-optimizations"]

# Divisions are at i8: arith-expand rewrites ceildivsi/floordivsi into a division of a
# different dividend, which Z3 does not prove within a minute from 16 bits up.
SAMPLE = """
func.func @arith(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c8 overflow<nsw> : i32
  %z = arith.floordivsi %y, %c8 : i32
  %m = arith.maxsi %z, %b : i32
  return %m : i32
}
func.func @div(%a: i8, %b: i8) -> i8 {
  %q = arith.ceildivsi %a, %b : i8
  %r = arith.floordivsi %q, %b : i8
  return %r : i8
}
func.func @branches(%a: i8, %b: i8) -> i8 {
  %c = arith.cmpi ult, %a, %b : i8
  %r = scf.if %c -> i8 {
    %d = arith.subi %b, %a overflow<nuw> : i8
    scf.yield %d : i8
  } else {
    %s = arith.select %c, %a, %b : i8
    scf.yield %s : i8
  }
  return %r : i8
}
func.func @loop(%a: i16) -> i16 {
  %lb = arith.constant 0 : index
  %ub = arith.constant 5 : index
  %st = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %a) -> i16 {
    %k = arith.index_cast %i : index to i16
    %t = arith.addi %acc, %k : i16
    scf.yield %t : i16
  }
  return %r : i16
}
func.func @calls(%a: i32) -> i32 {
  %r = func.call @arith(%a, %a) : (i32, i32) -> i32
  return %r : i32
}
"""


@pytest.mark.parametrize("passes", [*UPSTREAM, "ember-rewrites", pipeline.MIDEND_PIPELINES[2]])
def test_passes_refine_the_sample(passes: str) -> None:
    results = {r.name: r for r in tv.validate_text(SAMPLE, "sample.mlir", passes)}
    assert {n: r.status for n, r in results.items() if n != "calls"} == {"arith": "ok", "div": "ok", "branches": "ok", "loop": "ok"}
    assert results["calls"].status == "skipped" and "func.call" in results["calls"].detail


def test_a_miscompile_is_caught_with_a_counterexample() -> None:
    target = SAMPLE.replace("%d = arith.subi %b, %a overflow<nuw>", "%d = arith.subi %a, %b overflow<nuw>")
    results = {r.name: r for r in tv.validate_text(SAMPLE, "s.mlir", "", target_text=target)}
    bad = results["branches"]
    assert bad.status == "fail" and bad.check == "poison"  # a < b: a -nuw b is poison
    assert "i8 %arg0 = 0x" in bad.detail and "Target result #0: poison" in bad.detail
    assert results["arith"].status == "ok"


def test_dropping_ub_is_fine_but_adding_it_is_not() -> None:
    plain = "func.func @f(%a: i8, %b: i8) -> i8 {\n  return %a : i8\n}\n"
    # a + (a/b - a/b): a as well, but UB when b = 0
    divided = ("func.func @f(%a: i8, %b: i8) -> i8 {\n  %q = arith.divui %a, %b : i8\n"
               "  %z = arith.subi %q, %q : i8\n  %r = arith.addi %a, %z : i8\n  return %r : i8\n}\n")
    (dropped,) = tv.validate_text(divided, "s.mlir", "", target_text=plain)
    (added,) = tv.validate_text(plain, "t.mlir", "", target_text=divided)
    assert dropped.status == "ok"
    assert added.status == "fail" and added.check == "UB"
    assert "i8 %arg1 = 0x00 (u 0, s 0)" in added.detail and "UB triggered" in added.detail


def test_loops_beyond_the_unroll_bound_are_skipped_with_a_reason() -> None:
    (r,) = [r for r in tv.validate_text(SAMPLE, "s.mlir", "canonicalize", unroll=3) if r.name == "loop"]
    assert r.status == "skipped" and "5 iterations (unroll bound 3)" in r.detail


def test_cli_tv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.mlir"
    f.write_text(SAMPLE)
    assert cli.main(["verify", "--tv", "--pass-pipeline", "canonicalize,cse", str(f)]) == 0
    out = capsys.readouterr().out
    assert "ok       @arith" in out and "skipped  @calls: unsupported: func.call" in out
    assert "4 functions validated" in out
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f(%a: i8) -> i8 {\n  %r = arith.frob %a : i8\n  return %r : i8\n}\n")
    assert cli.main(["verify", "--tv", "--pass-pipeline", "cse", str(bad)]) != 0
    err = capsys.readouterr().err
    assert f"{bad}:2:" in err and "error:" in err and "Traceback" not in err
    assert cli.main(["verify", "--tv", str(f)]) != 0
    assert "exactly one of --pass-pipeline and --target" in capsys.readouterr().err


# ----------------------------------------------------------------------------- the property

_BINOPS = ["addi", "subi", "muli", "andi", "ori", "xori", "shli", "shrui", "shrsi",
           "divui", "divsi", "remui", "remsi", "ceildivsi", "floordivsi", "maxsi", "minui"]  # fmt: skip
_FLAGS = {"addi": ("nsw", "nuw"), "subi": ("nsw", "nuw"), "muli": ("nsw", "nuw"), "shli": ("nsw", "nuw")}
_PREDS = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


@st.composite
def arith_functions(draw: st.DrawFn, widths: tuple[int, ...], max_ops: int) -> str:
    """A random function of arith ops (and one scf.if sometimes) on one integer type."""
    w = draw(st.sampled_from(widths))
    ty = f"i{w}"
    vals = ["%a", "%b", "%c"]
    conds: list[str] = []
    lines: list[str] = []
    consts = st.one_of(st.integers(-2, 8), st.sampled_from([(1 << (w - 1)) - 1, -(1 << (w - 1)), w, w - 1]))
    for i in range(draw(st.integers(1, max_ops))):
        name = f"%v{i}"
        kind = draw(st.sampled_from(["bin"] * 6 + ["const", "cmp", "select", "if"]))
        if kind == "const":
            value = draw(consts) % (1 << w)
            lines.append(f"{name} = arith.constant {value - (1 << w) if value >> (w - 1) else value} : {ty}")
        elif kind == "cmp":
            x, y = draw(st.sampled_from(vals)), draw(st.sampled_from(vals))
            lines.append(f"{name} = arith.cmpi {draw(st.sampled_from(_PREDS))}, {x}, {y} : {ty}")
            conds.append(name)
            continue
        elif kind in ("select", "if") and conds:
            c, x, y = draw(st.sampled_from(conds)), draw(st.sampled_from(vals)), draw(st.sampled_from(vals))
            if kind == "select":
                lines.append(f"{name} = arith.select {c}, {x}, {y} : {ty}")
            else:
                lines.append(f"{name} = scf.if {c} -> {ty} {{\n  scf.yield {x} : {ty}\n}} else {{\n  scf.yield {y} : {ty}\n}}")
        else:
            op = draw(st.sampled_from(_BINOPS))
            x, y = draw(st.sampled_from(vals)), draw(st.sampled_from(vals))
            flags = draw(st.sets(st.sampled_from(_FLAGS.get(op, ("nsw",))))) if op in _FLAGS else set()
            attr = f" overflow<{', '.join(sorted(flags))}>" if flags else ""
            lines.append(f"{name} = arith.{op} {x}, {y}{attr} : {ty}")
        vals.append(name)
    body = "\n".join(f"  {line}" for text in lines for line in text.splitlines())
    return f"func.func @f(%a: {ty}, %b: {ty}, %c: {ty}) -> {ty} {{\n{body}\n  return {vals[-1]} : {ty}\n}}\n"


_WIDTHS = (1, 4, 8, 32, 64) if EXAMPLES else (1, 4, 8)
_MAX_OPS = 16 if EXAMPLES else 8


@pytest.mark.parametrize("pass_name", EMBER_PASSES + ["arith-expand", "int-range-optimizations"])
@settings(max_examples=EXAMPLES or 8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=arith_functions(_WIDTHS, _MAX_OPS))
def test_each_pipeline_pass_refines_random_arith_functions(pass_name: str, text: str) -> None:
    (r,) = tv.validate_text(text, "gen.mlir", pass_name, timeout_s=10)
    if r.status == "unknown" and _hard_division(text):
        return  # a known limit of the solver (see SAMPLE); never a wrong answer
    assert r.status == "ok", f"{pass_name}: {r.status}\n{r.detail}\n{text}"


def _hard_division(text: str) -> bool:
    """Signed/ceil/floor divisions wider than 8 bits: Z3 may time out on rewritten ones."""
    wide = not any(f"%a: i{w}," in text for w in (1, 4, 8))
    return wide and any(f"arith.{op} " in text for op in ("ceildivsi", "floordivsi", "divsi", "remsi", "divui", "remui"))
