"""The generators: valid, terminating, UB-free programs whose output is the same at -O0 and -O2; small shrinks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings

from compiler import driver
from compiler.link import link_executable
from fuzz.strategies import FEATURES, FuzzCase, callgraph_cases, linkage_cases
from fuzz.strategies.callgraph import MAX_CALLS, Call, CallGraph, Function, Op, call_graphs
from fuzz.strategies.linkage import linkage_modules, number_unnamed
from oracle import runner

FAST = settings(max_examples=6, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _behaviour(case: FuzzCase, tmp: Path, level: int) -> tuple[str, bytes]:
    src = tmp / "m.ll"
    src.write_text(case.module)
    obj = driver.build(str(src), driver.BuildOptions(opt_level=level)).output
    assert isinstance(obj, bytes)
    objects = [tmp / "m.o"]
    objects[0].write_bytes(obj)
    if case.support:
        (tmp / "s.ll").write_text(case.support)
        support = driver.build(str(tmp / "s.ll"), driver.BuildOptions()).output
        assert isinstance(support, bytes)
        (tmp / "s.o").write_bytes(support)
        objects.append(tmp / "s.o")
    exe = link_executable(objects, tmp / "prog", with_runtime=False)
    result = runner.run_executable(exe, limits=runner.Limits(timeout_s=10))
    return result.outcome, result.stdout


@FAST
@given(case=callgraph_cases(max_functions=8))
def test_callgraph_programs_terminate_and_agree_across_opt_levels(case: FuzzCase, tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("cg")
    o0, o2 = _behaviour(case, tmp, 0), _behaviour(case, tmp, 2)
    assert o0[0] == "exit 0", o0
    assert o0 == o2
    anchors = len(re.findall(r"^define (hidden )?i64 @f\d+", case.module, re.M))
    assert len([ln for ln in o0[1].splitlines() if ln.startswith(b"f")]) == anchors


@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_every_linkage_feature_builds_runs_and_agrees(feature: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    @settings(max_examples=2, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=linkage_cases(max_fragments=1, features=(feature,)))
    def check(case: FuzzCase) -> None:
        tmp = tmp_path_factory.mktemp("lk")
        o0, o2 = _behaviour(case, tmp, 0), _behaviour(case, tmp, 2)
        assert o0[0] == "exit 0", (o0, case)
        assert o0 == o2, case
        assert b"k0_a=" in o0[1] and b"k0_b=" in o0[1]

    check()


UB_PATTERNS = [
    r"\b(nsw|nuw|exact)\b",  # no poison-generating flags
    r"\b[us](div|rem) i64 [^,]+, (-1|0)\b",  # no division by zero or (signed) by -1
    r"\bsdiv i64 [^,]+, %",  # signed division only by constants
    r"\b(shl|lshr|ashr) i64 [^,]+, (%|6[4-9]|[7-9]\d|\d{3})",  # shift amounts are constants < 64
]


@FAST
@given(graph=call_graphs())
def test_callgraph_programs_are_ub_free_by_construction(graph: CallGraph) -> None:
    text = graph.render()
    for pattern in UB_PATTERNS:
        assert not re.search(pattern, text), pattern
    for m in re.finditer(r"= [us](?:div|rem) i64 [^,]+, (%\w+)", text):
        assert m.group(1).startswith("%nz"), m.group(0)  # variable divisors are `x | 1`


def _calls(graph: CallGraph, f: int, depth: int) -> int:
    """Brute force: the calls one call of f makes (itself included), taking the worst table entry."""
    if depth == 0:
        return 1
    total = 1
    for c in graph.functions[f].calls:
        if c.indirect:
            total += max(_calls(graph, t, depth - 1) for t in graph.table)
        else:
            total += _calls(graph, c.callee, depth - 1)
    return total


def _fn(i: int, calls: list[Call], linkage: str = "internal") -> Function:
    return Function(i, linkage, (Op("add", "x", 1),), tuple(calls), (), 0, False, 0)


def test_depth_budget_bounds_the_number_of_calls() -> None:
    # f0 calls itself twice and f1; f1 calls f0 through the table: exponential without the budget
    graph = CallGraph(
        functions=(_fn(0, [Call(0, None), Call(0, 3), Call(1, None)], "external"), _fn(1, [Call(0, None, indirect=True)])),
        globals=(),
        table=(0, 1),
        table_mutable=False,
        ctor=False,
        main_args=(1,),
    )
    depth = graph.depth()
    assert depth >= 2
    assert _calls(graph, 0, depth) <= MAX_CALLS < _calls(graph, 0, depth + 1)


def test_unnamed_placeholders_are_numbered_in_definition_order() -> None:
    text = (
        "@__unnamed_k1_0 = private global i64 1\n@__unnamed_k0_0 = private global i64 2\n"
        "define internal i64 @__unnamed_k0_1(i64 %x) {\n  %g = load i64, ptr @__unnamed_k1_0\n  ret i64 %g\n}\n"
    )
    out = number_unnamed(text)
    assert out.startswith("@0 = private global i64 1\n@1 = private global i64 2\ndefine internal i64 @2(")
    assert "load i64, ptr @0" in out


def test_shrinking_gives_a_small_readable_call_graph() -> None:
    # any program where an anchor writes an internal global: the minimal one is tiny
    graph = find(
        call_graphs(),
        lambda g: any(u.kind == "write" for f in g.anchors for u in f.uses),
        settings=settings(database=None, max_examples=2000, suppress_health_check=list(HealthCheck)),
    )
    text = graph.render()
    assert len(graph.functions) == 1 and len(graph.globals) == 1
    assert len(text.splitlines()) < 30, text


def test_shrinking_gives_a_one_fragment_linkage_module() -> None:
    module = find(
        linkage_modules(),
        lambda m: "thread_local" in m.render(),
        settings=settings(database=None, max_examples=2000, suppress_health_check=list(HealthCheck)),
    )
    assert [f.feature.split(":")[0] for f in module.fragments] == ["tls"]
    assert len(module.render().splitlines()) < 40


@pytest.mark.parametrize("size", ["large", "many-small"])
def test_callgraph_programs_come_in_large_and_many_small_sizes(size: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Some programs have a few long functions, some many tiny ones; both build split and run like serial."""
    from fuzz.strategies.callgraph import LARGE_OPS, MANY_SMALL, graph_features

    if size == "large":
        graph = find(call_graphs(), lambda g: max(len(f.ops) for f in g.functions) > LARGE_OPS // 2)
        assert len(graph.functions) <= 3 and "large-functions" in graph_features(graph)
    else:
        graph = find(call_graphs(), lambda g: len(g.functions) >= MANY_SMALL[0])
        assert all(len(f.ops) <= 1 for f in graph.functions) and "many-functions" in graph_features(graph)
    tmp = tmp_path_factory.mktemp(size)
    src = tmp / "m.ll"
    src.write_text(graph.render())
    outputs = []
    for split in ("none", "two-level"):
        obj = driver.build(str(src), driver.BuildOptions(opt_level=2, split=split, jobs=1, subgraph_cost=8, piece_cost=8)).output
        assert isinstance(obj, bytes)
        (tmp / f"{split}.o").write_bytes(obj)
        exe = link_executable([tmp / f"{split}.o"], tmp / split)
        outputs.append(runner.run_executable(exe, limits=runner.Limits(timeout_s=20)).stdout)
    assert outputs[0] == outputs[1]
