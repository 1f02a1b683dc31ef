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

from compiler import cli
from compiler.midend import pipeline
from equivalence import tv
from equivalence.tv_programs import DIVISION_FUNCTION, arith_functions

EXAMPLES = int(os.environ.get("EMBER_EQUIV_EXAMPLES", "0"))
#: every pass of Ember's midend pipelines, plus upstream passes worth checking
EMBER_PASSES = sorted({p for lv in (1, 2, 3) for p in pipeline.split_pipeline(pipeline.MIDEND_PIPELINES[lv])})
UPSTREAM = ["canonicalize", "cse", "sccp", "arith-expand", "int-range-optimizations"]

# Divisions at i32: arith-expand rewrites ceildivsi/floordivsi into divsi, muli and
# compares; TV proves it at full width (shared division terms, division abstracted).
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
func.func @div(%a: i32, %b: i32) -> i32 {
  %q = arith.ceildivsi %a, %b : i32
  %r = arith.floordivsi %q, %b : i32
  return %r : i32
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

_WIDTHS = (1, 4, 8, 32, 64) if EXAMPLES else (1, 4, 8)
_MAX_OPS = 16 if EXAMPLES else 8


@pytest.mark.parametrize("pass_name", EMBER_PASSES + ["arith-expand", "int-range-optimizations"])
@settings(max_examples=EXAMPLES or 8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=arith_functions(_WIDTHS, _MAX_OPS))
def test_each_pipeline_pass_refines_random_arith_functions(pass_name: str, text: str) -> None:
    (r,) = tv.validate_text(text, "gen.mlir", pass_name, timeout_s=10)
    _assert_answered(pass_name, r, text)


def _assert_answered(passes: str, r: tv.FunctionResult, text: str) -> None:
    """ok, or (the solver's limit, never a wrong answer) unknown at full width with the
    narrower widths i1.. proven."""
    if r.status == "unknown" and "proven at i1" in r.detail and "WRONG" not in r.detail:
        return
    assert r.status == "ok", f"{passes}: {r.status}\n{r.detail}\n{text}"


@pytest.mark.parametrize("pass_name", UPSTREAM)
@settings(max_examples=EXAMPLES or 6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=arith_functions((8, 16, 32, 64), _MAX_OPS, loops=True))
def test_upstream_passes_refine_random_arith_scf_functions(pass_name: str, text: str) -> None:
    """arith-expand, canonicalize, sccp, cse, int-range-optimizations at up to 64 bits,
    with scf.if and constant-bound scf.for (wall times: bench/tv.py)."""
    (r,) = tv.validate_text(text, "gen.mlir", f"builtin.module(func.func({pass_name}))", timeout_s=30)
    _assert_answered(pass_name, r, text)


# ----------------------------------------------------------------------------- division at full width

DIVISIONS = DIVISION_FUNCTION
EXPAND = "builtin.module(func.func(arith-expand))"


@pytest.mark.parametrize("width", [32, 64])
def test_division_expansion_is_proved_at_full_width(width: int) -> None:
    (r,) = tv.validate_text(DIVISIONS.replace("iW", f"i{width}"), "d.mlir", EXPAND, timeout_s=60)
    assert (r.status, r.detail) == ("ok", "")


@pytest.mark.parametrize("mutation", [
    ("arith.cmpi eq, %3, %4 : i1", "arith.cmpi ne, %3, %4 : i1"),  # ceil rounds the wrong way
    ("%10 = arith.muli %9, %arg1", "%10 = arith.muli %9, %arg0"),  # not (a / b) * b
    ("%c-1_i32 = arith.constant -1", "%c-1_i32 = arith.constant 1"),  # floor adds one
])  # fmt: skip
def test_a_wrong_division_expansion_is_caught_at_full_width(mutation: tuple[str, str]) -> None:
    """The abstraction of division never hides a bug: the full query finds a real counterexample."""
    source = DIVISIONS.replace("iW", "i32")
    with pipeline.mlir_context():
        module = pipeline.parse_module(source, "d.mlir")
        pipeline.run_pipeline(module, EXPAND, "d.mlir")
        expanded = str(module)
    assert mutation[0] in expanded
    (r,) = tv.validate_text(source, "d.mlir", "", target_text=expanded.replace(*mutation), timeout_s=60)
    assert r.status == "fail" and "Value mismatch" in r.detail, r.detail


def test_product_of_a_quotient_is_rewritten_only_for_its_own_divisor() -> None:
    """`(a / b) * b` shares the division; `(a / b) * c` is an ordinary product."""
    same = (
        "func.func @f(%a: i64, %b: i64) -> i64 {\n  %q = arith.divui %a, %b : i64\n  %p = arith.muli %q, %b : i64\n"
        "  %r = arith.remui %a, %b : i64\n  %s = arith.addi %p, %r : i64\n  return %s : i64\n}\n"
    )
    ident = "func.func @f(%a: i64, %b: i64) -> i64 {\n  %q = arith.divui %a, %b : i64\n  return %a : i64\n}\n"
    (r,) = tv.validate_text(same, "s.mlir", "", target_text=ident, timeout_s=60)
    assert r.status == "ok", r.detail
    other = same.replace("arith.muli %q, %b", "arith.muli %q, %a")
    (r,) = tv.validate_text(other, "s.mlir", "", target_text=ident, timeout_s=60)
    assert r.status == "fail", r.detail


HARD = """
func.func @h(%a: i32, %b: i32, %c: i32) -> i32 {
  %0 = arith.ori %b, %c : i32
  %1 = arith.andi %b, %c : i32
  %2 = arith.muli %a, %0 : i32
  %3 = arith.muli %a, %1 : i32
  %4 = arith.addi %2, %3 : i32
  return %4 : i32
}
"""
HARD_TARGET = """
func.func @h(%a: i32, %b: i32, %c: i32) -> i32 {
  %0 = arith.muli %a, %b : i32
  %1 = arith.muli %a, %c : i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}
"""


def test_undecided_full_width_says_which_narrower_widths_were_proven() -> None:
    """a*(b|c) + a*(b&c) == a*b + a*c: Z3 cannot relate the multipliers at i32 in 2 s; the
    narrower widths from i1 up are proven and the answer names them."""
    (r,) = tv.validate_text(HARD, "h.mlir", "", target_text=HARD_TARGET, timeout_s=2)
    assert r.status == "unknown"
    assert "proven at i1" in r.detail and "i32 not decided" in r.detail, r.detail
