"""A split plan that keeps the boundaries of a failing build's plan (`PlanPolicy.assignment`,
`BuildHooks.plan_assignment`): what the whole-module triage builds every candidate with
(docs/reducer.md, "Whole-module differences")."""

from __future__ import annotations

from pathlib import Path

from compiler import driver
from compiler.backend import planner, split
from compiler.hooks import BuildHooks
from fuzz import buildserver
from fuzz.reduce import split_triage
from tests.test_planner import _fn

#: eight exported functions of about 300 instructions, one with a local callee, one with an alias
FUNCTIONS = {
    "la": _fn("la", 300, linkage="internal "),
    "a": _fn("a", 300, ("la",)),
    **{n: _fn(n, 300 + 10 * i) for i, n in enumerate("bcdefg")},
    "h": _fn("h", 300, ("b",)),
}
ALIAS = "@al = alias i64 (i64), ptr @b"


def _module(names: list[str], extra: str = "") -> str:
    return "\n".join([*(FUNCTIONS[n] for n in names), ALIAS, extra]) + "\n"


def _together(p: planner.SplitPlan) -> dict[str, frozenset[str]]:
    """Each member (copies aside) -> the members of its subgraph."""
    out = {}
    for sg in p.subgraphs:
        members = frozenset(n for n in sg.members if planner.COPY_SUFFIX not in n)
        for n in members:
            out[n] = members
    return out


def _fixed(text: str, assignment: dict[str, int]) -> planner.SplitPlan:
    return split.plan_module(text, planner.PlanPolicy(target_cost=400, merge_exported=False, assignment=assignment))


def test_a_plan_read_back_and_fixed_is_the_same_plan() -> None:
    text = _module(list(FUNCTIONS))
    p = split.plan_module(text, planner.PlanPolicy(target_cost=400, merge_exported=False))
    assignment = buildserver.plan_assignment_of(p.describe())
    assert set(FUNCTIONS) <= assignment.keys() and len(set(assignment.values())) == len(p.subgraphs) > 3
    again = _fixed(text, assignment)
    assert [sg.members for sg in again.subgraphs] == [sg.members for sg in p.subgraphs]
    assert [sg.text for sg in again.subgraphs] == [sg.text for sg in p.subgraphs]  # the task cache's hits


def test_deleting_functions_moves_nothing_else_and_empty_subgraphs_go() -> None:
    names = list(FUNCTIONS)
    p = split.plan_module(_module(names), planner.PlanPolicy(target_cost=400, merge_exported=False))
    assignment = buildserver.plan_assignment_of(p.describe())
    before = _together(p)
    gone = {"c", "e", "f"}
    left = [n for n in names if n not in gone]
    fixed = _fixed(_module(left), assignment)
    after = _together(fixed)
    for n in left:
        assert after[n] == before[n] - gone, n
    # subgraphs are numbered 0.. again, by their first member
    assert [sg.index for sg in fixed.subgraphs] == list(range(len(fixed.subgraphs)))
    assert len(fixed.subgraphs) == len({before[n] - gone for n in left})
    # the planner's own packing moves functions as the module shrinks (which is why the triage keeps the plan)
    plain = _together(split.plan_module(_module(left), planner.PlanPolicy(target_cost=400, merge_exported=False)))
    assert any(plain[n] != before[n] - gone for n in left)


def test_new_functions_follow_their_caller_and_atoms_their_first_member() -> None:
    names = list(FUNCTIONS)
    p = split.plan_module(_module(names), planner.PlanPolicy(target_cost=400, merge_exported=False))
    assignment = buildserver.plan_assignment_of(p.describe())
    # a local a delta created, called from d; and the alias placed apart from its aliasee
    text = _module([n for n in names if n != "d"], _fn("d", 300, ("fresh",)) + "\n" + _fn("fresh", 300, linkage="internal "))
    assignment = {**assignment, "al": (assignment["b"] + 1) % len(p.subgraphs)}
    fixed = _together(_fixed(text, assignment))
    assert "fresh" in fixed["d"] and "al" in fixed["b"]
    # a function nobody names or calls goes to the assignment's subgraph 0 (numbered anew by
    # its first member in the module's order: not necessarily 0 in the plan)
    lone = _together(_fixed(_module(names, _fn("lone", 300)), assignment))
    alone_at_0 = {n for n, k in assignment.items() if k == 0 and n not in ("b", "al")}  # (b goes with al)
    assert alone_at_0 and alone_at_0 | {"lone"} <= lone["lone"]
    assert not any(lone["lone"] == lone[n] for n, k in assignment.items() if k != 0 and n not in ("b", "al"))


def test_a_build_keeps_the_assignment_by_the_modules_own_names(tmp_path: Path) -> None:
    """Names the split spells synthetically (`$`, quotes) are assigned by their own spelling."""
    text = (_module(list(FUNCTIONS)).replace("@g(", '@"g$odd"(')
            + "define i64 @main() {\n  %r = call i64 @a(i64 1)\n  ret i64 %r\n}\n")
    src = tmp_path / "m.ll"
    src.write_text(text)
    options = driver.BuildOptions(opt_level=1, split="subgraph", jobs=1, subgraph_cost=400, print_split_plan=True)
    first = driver.build(str(src), options)
    printed = next(n for n in first.times.notes if "\nsubgraph 0 (cost " in n)
    assignment = buildserver.plan_assignment_of(printed)
    assert "g$odd" in assignment
    # everything in one subgraph but g$odd, and b with its alias: three subgraphs
    wanted = {n: 0 for n in assignment} | {"g$odd": 5, "b": 3, "al": 3}
    second = driver.build(str(src), driver.BuildOptions(
        opt_level=1, split="subgraph", jobs=1, subgraph_cost=400, print_split_plan=True,
        hooks=BuildHooks(plan_assignment=wanted)))
    again = buildserver.plan_assignment_of(next(n for n in second.times.notes if "\nsubgraph 0 (cost " in n))
    assert len(set(again.values())) == 3
    assert again["g$odd"] != again["a"] and again["b"] == again["al"] != again["a"]
    assert {n for n, k in again.items() if k == again["a"]} >= {"a", "c", "main"}


def test_establish_records_the_split_builds_plan(tmp_path: Path) -> None:
    text = _module(list(FUNCTIONS))
    plan: dict[str, int] = {}
    # split cost 1: the whole-module prefix folds each function's chain of constant multiplies
    # to a few instructions, which at 400 would all fit in one subgraph
    diff = split_triage.establish(text, "subgraph", 1, 1, 1, tmp_path, None, parallel=False, plan=plan)
    assert diff is None  # no difference here: the plan is recorded all the same
    assert set(FUNCTIONS) <= plan.keys() and len(set(plan.values())) > 1
