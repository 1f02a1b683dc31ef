"""`ember reduce` on Ember source and on findings directories: each delta pass, validation, real failures."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fuzz.reduce import em_deltas, engine, interestingness, reduce_command

PROGRAM = """\
total: Int = 0
scale: Int = 3

def square(x: Int) -> Int:
    return x * x

def weird(x: Int) -> Int:
    if x > 10:
        return x // 3
    else:
        return x % 7

def accumulate(n: Int) -> Int:
    global total
    for i in range(0, n):
        total += square(i) + weird(i)
    return total

def unrelated(a: Int, b: Int) -> Int:
    c: Int = a
    while c < b:
        c += 2
    return c

def main() -> Int:
    print(accumulate(20))
    print(unrelated(1, 9))
    if scale > 2:
        print(scale * 2)
    return 0
"""


def _pass(name: str) -> em_deltas.DeltaPass:
    return next(d for d in em_deltas.EM_DELTAS if d.name == name)


def _apply_all(name: str, text: str = PROGRAM) -> str:
    """The pass applied to every chunk at once (keep nothing)."""
    return _pass(name).apply(text, set())


def test_program_is_valid_and_invalid_candidates_are_rejected() -> None:
    assert em_deltas.valid_source(PROGRAM)
    assert not em_deltas.valid_source(PROGRAM.replace("return x * x", "return y * x"))
    assert not em_deltas.valid_source("def main() -> Int:\n    return 1.5\n")


def test_functions_pass_drops_everything_but_main() -> None:
    out = _apply_all("functions")
    names = [n.name for n in ast.parse(out).body if isinstance(n, ast.FunctionDef)]
    assert names == ["main"]
    keep_square = _pass("functions").apply(PROGRAM, {0})
    assert [n.name for n in ast.parse(keep_square).body if isinstance(n, ast.FunctionDef)] == ["square", "main"]


def test_branch_passes_take_one_arm() -> None:
    then = _apply_all("branches-then")
    assert "if " not in then and "return x // 3" in then and "return x % 7" not in then
    other = _apply_all("branches-else")
    assert "return x % 7" in other and "return x // 3" not in other


def test_loop_is_unrolled_once_with_the_loop_variable_bound() -> None:
    out = _apply_all("loops-unroll-once")
    assert "for " not in out and "while " not in out
    assert "i = 0" in out  # `for i in range(0, n)` starts at 0
    assert em_deltas.valid_source(out)


def test_inline_calls_substitutes_arguments() -> None:
    out = _apply_all("inline-calls")
    assert "square(i)" not in out and "i * i" in out
    assert "def square" not in out  # its only call was inlined
    assert em_deltas.valid_source(out)


def test_operations_shrink_to_one_operand() -> None:
    left, right = _apply_all("operations-to-left"), _apply_all("operations-to-right")
    assert "return x // 3" not in left and "print(scale)\n" in left and "total += square(i)\n" in left
    assert "return 3\n" in right and "return 7\n" in right and "print(2)\n" in right


def test_shrink_constants_halves_towards_zero() -> None:
    out = _apply_all("shrink-constants")
    assert "accumulate(10)" in out and "unrelated(1, 4)" in out


def test_expressions_to_constants_keep_statement_forms() -> None:
    out = _apply_all("expressions-to-0")
    assert "print(0)" in out and "return 0" in out and "range(0, n)" in out
    assert not em_deltas.valid_source(out)  # `if 0:` needs a Bool: the validator rejects it
    ints_only = "def f(x: Int) -> Int:\n    return x * 2 + 1\n\ndef main() -> Int:\n    print(f(3) + 4)\n    return 0\n"
    out = _apply_all("expressions-to-0", ints_only)
    assert "print(0)" in out and em_deltas.valid_source(out)
    assert not em_deltas.valid_source(_apply_all("expressions-to-0.0", ints_only))  # Float where Int is due


def test_in_process_property_reduces_to_the_interesting_statement() -> None:
    from oracle import interp

    def prints_nine(text: str) -> bool:
        r = interp.run_source(text, "<c>", fuel=1_000_000)
        return r.exit_status == 0 and b"\n9\n" in b"\n" + r.stdout

    text = em_deltas.normalise(PROGRAM)
    assert prints_nine(text)
    reduced, stats = engine.reduce_text(
        text, prints_nine, em_deltas.EM_DELTAS, jobs=2, validate=em_deltas.valid_source, measure=em_deltas.source_lines
    )
    assert prints_nine(reduced) and em_deltas.valid_source(reduced)
    assert stats.final_lines <= 8 < stats.initial_lines
    assert "accumulate" not in reduced and "total" not in reduced


def test_cli_reduces_source_with_a_test_script(tmp_path: Path, ember) -> None:
    src = tmp_path / "prog.em"
    src.write_text(PROGRAM)
    script = tmp_path / "keep.sh"
    script.write_text('#!/bin/sh\ngrep -q "x // 3" "$1"\n')
    script.chmod(0o755)
    out = tmp_path / "small.em"
    r = ember("reduce", str(src), "-o", str(out), "--test", str(script), "-j", "2")
    assert r.status == 0, r.stderr
    reduced = out.read_text()
    assert "x // 3" in reduced and em_deltas.valid_source(reduced)
    assert em_deltas.source_lines(reduced) < 10
    assert "reproduce:" in Path(str(out) + ".report.txt").read_text()


SHARED_GLOBAL = """\
counter: Int = 0
limit: Int = 50

def bump(k: Int) -> Int:
    global counter
    counter += k
    return counter

def helper(x: Int) -> Int:
    return x * 3 + 1

@export
def first(n: Int) -> Int:
    s: Int = 0
    for i in range(0, n):
        s += helper(i)
    return bump(s)

@export
def second(n: Int) -> Int:
    if n > limit:
        return bump(n)
    return helper(n) + bump(1)

def main() -> Int:
    print(first(5))
    print(second(7))
    return 0
"""


def test_split_mismatch_of_a_program_keeps_its_signature(tmp_path: Path) -> None:
    """A real split-linkage failure (a power-check fault) on Ember source, reduced by the built-in property."""
    src = tmp_path / "prog.em"
    src.write_text(SHARED_GLOBAL)
    settings = interestingness.Settings(subgraph_cost=1, opt_level=0, faults=frozenset({"skip-linkage-restore"}))
    # the private global shared by two anchors stays global hidden under the fault: serially
    # an assembler temporary (no symbol), split a symbol more (kind "added")
    wanted = interestingness.signature(src, "split-mismatch", settings)
    assert wanted is not None
    assert wanted.startswith("symbol-difference: --split none -O0 vs --split two-level") and wanted.endswith("(added)")
    out = tmp_path / "small.em"
    stats = reduce_command.reduce_file(
        str(src), str(out), prop="split-mismatch", test=None, settings=settings, jobs=2, time_budget=120, quiet=True
    )
    assert interestingness.signature(out, "split-mismatch", settings) == wanted
    assert "counter" in out.read_text()
    assert stats.final_lines <= 13 < stats.initial_lines


@pytest.mark.parametrize("faults", [frozenset({"skip-linkage-restore"})])
def test_findings_directory_is_reduced_by_its_recorded_check(tmp_path: Path, faults: frozenset[str]) -> None:
    from fuzz import findings, properties
    from fuzz.genmodule import ModuleShape, generate
    from fuzz.reduce import evidence
    from fuzz.strategies import FuzzCase

    config = properties.BuildConfig(split="two-level", jobs=1, opt=0, cost=1)
    plan = properties.CheckPlan(opt=0, cost=1, configs=(config,), opt_check=False)
    report = properties.check(FuzzCase(generate(3, ModuleShape(functions=4))), plan, faults=faults)
    assert not report.ok
    finding = findings.save(report, root=tmp_path / "findings")
    out = tmp_path / "small.ll"
    with pytest.raises(Exception, match="deliberate back-end faults"):
        reduce_command.reduce_finding(str(finding), str(out), jobs=2, time_budget=5, quiet=True)
    stats = reduce_command.reduce_finding(str(finding), str(out), jobs=2, time_budget=30, quiet=True, allow_faults=True)
    assert stats.final_lines < stats.initial_lines
    # triage keeps the classes and kinds of failure under the finest split (the recorded check
    # at piece cost 1 shows the same kinds here), not under the recorded plan: how far the
    # reduction gets in its budget decides whether the recorded plan still fails
    said = Path(str(out) + ".report.txt").read_text()
    assert "checked with: the finding's check at split cost 1 and piece cost 1" in said
    again = properties.check(FuzzCase(out.read_text()), evidence.finest_plan(plan), faults=faults)
    assert evidence.kinds(properties.signature(again)) == evidence.kinds(properties.signature(report)) == {
        ("symbol-difference", "leaked-local")
    }
    assert "preserved: " + report.failures[0].classification in said


def test_interp_mismatch_property_sees_a_wrong_compiled_output(tmp_path: Path) -> None:
    src = tmp_path / "prog.em"
    src.write_text(SHARED_GLOBAL)
    fine = interestingness.Settings(subgraph_cost=1, opt_level=0)
    assert interestingness.signature(src, "interp-mismatch", fine) is None
    broken = interestingness.Settings(subgraph_cost=1, opt_level=0, faults=frozenset({"duplicate-internal-global"}))
    assert interestingness.signature(src, "interp-mismatch", broken) == (
        "wrong-output: --split none -O0 vs --split two-level -j1 -O0 --split-cost 1"
    )
