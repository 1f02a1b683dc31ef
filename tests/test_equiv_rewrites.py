"""Ember's rewrite table: the DSL, the proofs, and the `ember-rewrites` pass that applies it.

Default run: every pattern proved at a sample of widths (narrow, odd, 32/33, 64, index);
EMBER_EQUIV_FULL=1 proves every width 1..64 (`ember verify` does the same, and
bench/verify.py times it).
"""

from __future__ import annotations

import os

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.midend import pipeline, rewrites
from compiler.midend.rewrites import dsl
from compiler.midend.rewrites.table import Rewrite
from equivalence import semantics as sem
from equivalence import tv, verify
from tests import equiv_support as es

FULL = os.environ.get("EMBER_EQUIV_FULL") == "1"
SAMPLE_LABELS = ("1", "2", "3", "5", "8", "13", "32", "33", "64", "index32", "index64")
MATCHED = rewrites.patterns(("simplify", "lower"))


# ----------------------------------------------------------------------------- the DSL


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("addi(x, 0) => y", "unbound value 'y'"),
        ("addi(x, 0) => C", "unbound constant 'C'"),
        ("frob(x, 0) => x", "unknown op or function 'frob'"),
        ("addi(x) => x", "addi takes 2 operands"),
        ("addi[exact](x, 0) => x", "addi has no attribute 'exact'"),
        ("cmpi(x, x) => 1", "cmpi needs a predicate"),
        ("addi(x, C0 + C1) => x", "constant expressions are not allowed in the source"),
        ("floormodsi(x, y) => x", "floormodsi exists only in specs"),
        ("addi(x, C) => x if is_pow2(x)", "preconditions may only use constants"),
        ("addi(x, 1) => addi[?nuw](x, 1)", "is not optional in the source"),
        ("addi(x, 0) => x if frob(C)", "unknown precondition 'frob'"),
    ],
)
def test_malformed_patterns_are_rejected_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(dsl.PatternError, match=message.replace("(", r"\(").replace("[", r"\[")):
        rewrites.load([Rewrite("p", text, "")])


def test_types_are_inferred() -> None:
    p = rewrites.pattern("select-eq")
    assert not p.i1_only
    assert p.source.args[0].ty == dsl.I1  # the cmpi result
    assert p.source.args[1].ty == dsl.W
    assert rewrites.pattern("select-bool").i1_only
    assert rewrites.pattern("select-bool").widths() == [1]


def test_duplicate_names_are_rejected() -> None:
    with pytest.raises(dsl.PatternError, match="declared twice"):
        rewrites.load([Rewrite("p", "addi(x, 0) => x", ""), Rewrite("p", "subi(x, 0) => x", "")])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 64), st.data())
def test_constant_functions_mean_the_same_in_python_and_z3(w: int, data: st.DataObject) -> None:
    """dsl.CONST_EVAL / PRED_EVAL (used when a rewrite fires) agree with verify.CONST_Z3 /
    PRED_Z3 (used in the proofs)."""
    m = (1 << w) - 1
    value = st.one_of(st.integers(0, m), st.sampled_from(es.edge_values(w)))
    a, b = data.draw(value), data.draw(value)
    for name, arity in dsl.CONST_FUNCS.items():
        args = (a, b)[:arity]
        py = dsl.CONST_EVAL[name](w, *args) & m
        zt = z3.simplify(verify.CONST_Z3[name](w, *[sem.bv(v, w) for v in args]))
        assert py == zt.as_long(), (name, w, args)
    for name, arity in dsl.PREDICATES.items():
        if name == "not":
            continue
        args = (a, b)[:arity]
        py_b = dsl.PRED_EVAL[name](w, *args)
        z_b = z3.is_true(z3.simplify(verify.PRED_Z3[name](w, *[sem.bv(v, w) for v in args])))
        assert py_b == z_b, (name, w, args)


# ----------------------------------------------------------------------------- the proofs


def _labels(p: dsl.Pattern) -> list[str]:
    labels = verify.width_labels(p)
    return labels if FULL else [lb for lb in labels if lb in SAMPLE_LABELS]


@pytest.mark.parametrize("pattern", rewrites.patterns(), ids=lambda p: p.name)
def test_every_pattern_is_proved(pattern: dsl.Pattern) -> None:
    results = [verify.check_width(pattern, label) for label in _labels(pattern)]
    assert results
    bad = [r for r in results if r.status != "ok"]
    assert not bad, bad[0].counterexample or f"{bad[0].status} at {bad[0].width}"


def test_a_wrong_pattern_is_not_proved() -> None:
    """The prover can fail: a plausible-looking slip (x - 0 -> 0) gets a counterexample."""
    (p,) = rewrites.load([Rewrite("slip", "subi(x, 0) => 0", "")])
    r = verify.check_width(p, "8")
    assert r.status == "fail" and r.check == "value"
    assert "Source value:" in r.counterexample and "Target value: 0x00 (u 0, s 0)" in r.counterexample


# ----------------------------------------------------------------------------- the pass


def test_ember_rewrites_is_in_the_optimising_pipelines() -> None:
    for level in (1, 2, 3):
        assert "ember-rewrites" in pipeline.split_pipeline(pipeline.MIDEND_PIPELINES[level])
    assert "ember-rewrites" not in pipeline.MIDEND_PIPELINES[0]


def _apply(text: str) -> str:
    with pipeline.mlir_context():
        module = pipeline.parse_module(text, "<test>")
        before = str(module)
        pipeline.run_pipeline(module, "ember-rewrites", "<test>")
        after = str(module)
    return before + "\n// -----\n" + after


@pytest.mark.parametrize("pattern", MATCHED, ids=lambda p: p.name)
def test_the_pass_applies_each_pattern_and_tv_accepts_the_result(pattern: dsl.Pattern) -> None:
    width = 1 if pattern.i1_only else 8
    consts = es.pattern_constants(pattern, width)
    assert consts is not None, "no constants satisfy the precondition"
    text = es.source_function(pattern, width, consts)
    before, after = _apply(text).split("\n// -----\n")
    assert before != after, f"ember-rewrites did not change\n{before}"
    if pattern.name.endswith("-expand"):  # a lowering: the source op must be gone
        assert f"arith.{pattern.source.name}" not in after
    results = tv.validate_text(text, "<test>", "ember-rewrites")
    assert [r.status for r in results] == ["ok"], results


def test_the_pass_respects_flags_and_preconditions() -> None:
    text = """
    func.func @keep(%x: i8) -> i8 {
      %c100 = arith.constant 100 : i8
      %a = arith.addi %x, %c100 overflow<nsw> : i8
      %b = arith.addi %a, %c100 overflow<nsw> : i8
      return %b : i8
    }
    func.func @fold(%x: i8) -> i8 {
      %c3 = arith.constant 3 : i8
      %a = arith.addi %x, %c3 overflow<nsw> : i8
      %b = arith.addi %a, %c3 overflow<nsw> : i8
      return %b : i8
    }
    """
    after = _apply(text).split("\n// -----\n")[1]
    keep, fold = after.split("func.func @fold")
    # 100 + 100 overflows i8: add-of-add (flags dropped) fires, never the nsw form
    assert "arith.constant -56 : i8" in keep and "overflow<nsw>" not in keep.split("return")[0].split("-56")[1]
    assert "arith.constant 6 : i8" in fold and "overflow<nsw>" in fold
    assert [r.status for r in tv.validate_text(text, "<test>", "ember-rewrites")] == ["ok", "ok"]


def test_index_constants_fire_only_when_32_and_64_bits_agree() -> None:
    text = """
    func.func @f(%x: index) -> index {
      %c = arith.constant 4294967296 : index
      %r = arith.muli %x, %c : index
      return %r : index
    }
    func.func @g(%x: index) -> index {
      %c = arith.constant 8 : index
      %r = arith.muli %x, %c : index
      return %r : index
    }
    """
    after = _apply(text).split("\n// -----\n")[1]
    f, g = after.split("func.func @g")
    assert "arith.muli" in f  # 2**32 is a power of two at 64 bits but 0 at 32
    assert "arith.shli" in g and "arith.muli" not in g


def test_helper_floor_mod_is_python_modulo() -> None:
    """The verified helper the frontend can instantiate, executed through MLIR + LLVM."""
    import tempfile
    from pathlib import Path

    from mlir import ir
    from mlir.dialects import func

    with pipeline.mlir_context():
        module = ir.Module.create()
        i8 = ir.IntegerType.get_signless(8)
        with ir.InsertionPoint(module.body):
            f = func.FuncOp("fm", ir.FunctionType.get([i8, i8], [i8]))
            block = f.add_entry_block()
            with ir.InsertionPoint(block):
                func.ReturnOp([rewrites.build_helper("floor-mod", list(block.arguments))])
            helper = str(module).split("module {", 1)[1].rsplit("}", 1)[0]
    assert "arith.remui" in helper and "arith.remsi" not in helper
    case = es.OpCase("floor-mod.i8", 8, 2, "%o = func.call @fm(%x, %y) : (i8, i8) -> i8",
                     lambda v: sem.floormodsi(v[0], v[1]), (8, 8))
    with tempfile.TemporaryDirectory() as tmp:
        exe = es.build_program([case], Path(tmp), extra=helper)
        rows = [(0, a, b, 0) for a in range(256) for b in range(256) if b != 0]
        outputs = es.run_program(exe, rows)
    for (_, a, b, _), got in zip(rows, outputs, strict=True):
        assert got == (sem.to_signed(a, 8) % sem.to_signed(b, 8)) % 256, (a, b)
