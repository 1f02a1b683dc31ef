"""The Ember program strategy: well-typed, terminating, trap-free programs; interpreter == compiled; small shrinks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings

from compiler.backend import split_mode
from compiler.frontend.checker import check_source
from fuzz import findings, properties
from fuzz.properties import BuildConfig, CheckPlan, build_runner
from fuzz.strategies import FuzzCase, cases, ember_cases
from fuzz.strategies.callgraph import Call, CallGraph, Function, GlobalUse, Op
from fuzz.strategies.ember import EmberProgram, Flavour, ember_programs, uses_ticks
from oracle import interp

MANY = settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@MANY
@given(prog=ember_programs())
def test_generated_programs_type_check_and_the_interpreter_runs_them_to_exit_0(
    prog: EmberProgram,
) -> None:
    source = prog.render()
    check_source(source, "gen.em")  # raises MultipleErrors/EmberError on any diagnostic
    result = interp.run_source(source, "gen.em", fuel=properties.INTERP_FUEL)
    assert result.outcome == "exit" and result.exit_status == 0, (result, source)
    lines = result.stdout.decode().splitlines()
    assert [ln.split()[0] for ln in lines] == [
        *(f.name for f in prog.graph.anchors),
        *(f"g{n}" for n in range(len(prog.graph.globals))),
        *(["ticks"] if uses_ticks(prog) else []),
        "narrow",
        "checksum",
    ]


def test_every_flavour_and_feature_renders_valid_source() -> None:
    """One hand-built program using every lane, loop form, inline mode, op kind and call kind."""
    ops = tuple(
        Op(kind, operand, value)
        for kind, operand, value in [
            ("add", "c", -(2**63)),
            ("sub", "x", 0),
            ("mul", "i", 0),
            ("xor", "d", 0),
            ("and", "c", 12),
            ("or", "c", -1),
            ("shl", "c", 70),
            ("lshr", "c", 3),
            ("ashr", "c", 63),
            ("udiv", "c", 0),
            ("urem", "c", -7),
            ("sdiv", "c", -1),
            ("srem", "c", 5),
            ("udivx", "x", 0),
            ("uremx", "d", 0),
            ("smin", "c", -3),
            ("umax", "c", -5),
        ]
    )
    fns = tuple(
        Function(
            i,
            "external" if i == 0 else "internal",
            ops,
            (Call((i + 1) % 4, None), Call(0, 7, indirect=True, combine="mul")),
            (GlobalUse(0, "rmw"), GlobalUse(1, "read"), GlobalUse(1, "write")),
            3,
            i == 1,
            i,
        )
        for i in range(4)
    )
    graph = CallGraph(fns, (5, -9), (1, 2), True, False, (41,))
    flavours = tuple(
        Flavour(lane, 7, loop, inline)
        for lane, loop, inline in [
            ("Int32", "for", "noinline"),
            ("Int8", "while", "always_inline"),
            ("Float64", "for", ""),
            ("Float32", "while", ""),
        ]
    )
    edges = (Flavour("Widths", 99), Flavour("FloatEdge", 5), Flavour("Cond", 8), Flavour("Int"))
    for extra in (flavours, (Flavour("UInt64"), Flavour("Bool"), Flavour("Int")), edges):
        source = EmberProgram(graph, extra).render()
        check_source(source, "all.em")
        result = interp.run_source(source, "all.em", fuel=properties.INTERP_FUEL)
        assert result.outcome == "exit", (result, source)
        assert "tab(" in source and "global " in source
        assert ("while j < 3" in source) == (extra is flavours)


def test_shrinking_gives_a_small_readable_program() -> None:
    # any program where a function writes a global and calls through the table: the minimal one is tiny
    prog = find(
        ember_programs(),
        lambda p: "global g" in p.render() and "tab(acc" in p.render(),
        settings=settings(
            database=None,
            max_examples=500,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )
    text = prog.render()
    # one function doing both, or one writing the global and one calling through the
    # table (shrinking deletes, it cannot merge two functions): which one depends on the
    # first example found, i.e. on every draw the generator makes before it
    assert len(prog.graph.functions) <= 2, text
    assert len(text.splitlines()) < 45, text
    check_source(text, "small.em")


@settings(
    max_examples=3,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(case=ember_cases(max_functions=6))
def test_interpreter_equals_compiled_at_O0_O2_and_every_split_mode(case: FuzzCase) -> None:
    configs = tuple(BuildConfig(mode, 1, 2, 1) for mode in split_mode.SPLITTING)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(build_runner, "EMBER_BUILD_TIMEOUT", 10.0)  # these compile in about a second
        report = properties.check(case, CheckPlan(2, 1, configs, opt_check=True))
    assert report.ok, report.diff_text()
    assert properties.INTERP_LABEL in report.builds
    labels = set(report.builds)
    assert {"--split none -O2", "--split none -O0"} <= labels, labels


def test_a_compiled_program_that_differs_from_the_interpreter_is_wrong_output(tmp_path: Path) -> None:
    # a deliberately broken back end (an internal global duplicated per subgraph) on a program where
    # two anchors share one global: the split build's output differs from the interpreter's
    source = "\n".join(
        [
            "g0: Int = 1",
            "@export",
            "def f0(x: Int, d: Int) -> Int:",
            "    global g0",
            "    g0 = g0 + x",
            "    return g0",
            "@export",
            "def f1(x: Int, d: Int) -> Int:",
            "    return g0 * 3",
            "def main() -> Int:",
            '    print("f0", f0(5, 1))',
            '    print("f1", f1(0, 1))',
            "    return 0",
            "",
        ]
    )
    case = FuzzCase(source, None, "ember")
    plan = CheckPlan(0, 1, (BuildConfig("subgraph", 1, 0, 1),), opt_check=False)
    assert properties.check(case, plan).ok
    broken = properties.check(case, plan, faults=frozenset({"duplicate-internal-global"}))
    assert broken.classification == "wrong-output", broken.diff_text()
    # saved as an Ember finding: the source, the interpreter's output, every build, a reproduce script
    saved = findings.save(broken, root=tmp_path, seed=1, test="ember")
    assert (saved / "input.em").read_text() == source and not (saved / "input.ll").exists()
    assert (saved / "builds" / "interpreter" / "stdout.txt").read_bytes() == b"f0 6\nf1 18\n"
    assert (saved / "builds" / "interpreter" / "command.txt").read_text() == "ember interp input.em\n"
    assert "ember interp input.em" in (saved / "reproduce.sh").read_text()
    assert findings.load_report_inputs(saved)[0] == case
    # the reference (and the interpreter) say f1 = (1 + 5) * 3; the split build read a zeroed copy
    assert re.search(r"^-f1 18$", broken.diff_text(), re.M) and re.search(
        r"^\+f1 0$", broken.diff_text(), re.M
    ), broken.diff_text()


def test_mixed_strategy_includes_ember_programs() -> None:
    seen = find(
        cases("mixed"), lambda c: c.is_ember, settings=settings(database=None, max_examples=500)
    )
    assert seen.input_name == "input.em"


@pytest.mark.parametrize("kind", ["lshr", "umax", "sdiv", "udivx", "uremx"])
def test_loop_counter_operand_outside_a_loop_is_a_valid_literal(kind: str) -> None:
    """Regression: swarm testing switches loops off, so `i` becomes the literal `(-5119)`,
    which `UInt64((-5119))` rejected (a false crash at `--strategy ember --seed 2`)."""
    fn = Function(0, "external", (Op(kind, "i", -5119),), (), (), 0, False, 0)
    source = EmberProgram(CallGraph((fn,), (), (), False, False, (7,))).render()
    check_source(source, "lit.em")


@pytest.mark.parametrize("kind", ["sdiv", "srem"])
@pytest.mark.parametrize("divisor", [-(2**63), -(2**63) + 1, -7, -2, -1, 1, 2**63 - 1])
def test_signed_division_by_any_constant_type_checks_and_never_traps(kind: str, divisor: int) -> None:
    """Regression: `max(2, abs(INT64_MIN))` rendered `acc % 9223372036854775808`, rejected by the checker."""
    fn = Function(0, "external", (Op(kind, "c", divisor),), (), (), 0, False, 0)
    source = EmberProgram(CallGraph((fn,), (), (), False, False, (-(2**63),))).render()
    check_source(source, "div.em")
    result = interp.run_source(source, "div.em", fuel=properties.INTERP_FUEL)
    assert result.outcome == "exit" and result.exit_status == 0, (result, source)


@MANY
@given(case=ember_cases())
def test_swarmed_programs_type_check_and_run_to_exit_0(case: FuzzCase) -> None:
    """Swarm configurations (loops, globals, lanes ... switched off) still give valid, trap-free programs."""
    check_source(case.module, "swarm.em")
    result = interp.run_source(case.module, "swarm.em", fuel=properties.INTERP_FUEL)
    assert result.outcome == "exit" and result.exit_status == 0, (result, case.module)
