"""The triage's fixed cost before the regions (fuzz/reduce/split_triage.py): the first candidate
(what no root reaches dropped) is built beside the input, its own plan kept where it shows the
difference, and a candidate judged alone runs both builds at once. Fake builds: no compiler."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from fuzz.reduce import regions, split_triage
from fuzz.reduce.engine import lines_of
from oracle.symtab import Symbol

MODULE = """\
define i32 @main() {
  %r = call i32 @helper(i32 1)
  ret i32 %r
}

define internal i32 @helper(i32 %x) {
  %n = call i64 @writev(i32 2, ptr null, i32 1)
  ret i32 %x
}

define internal void @dead() {
  call void @flush()
  ret void
}

define internal void @flush() {
  ret void
}

declare i64 @writev(i32, ptr, i32)
"""

WRITEV = {"writev": (None, "GLOBAL NOTYPE DEFAULT UND")}


def _sym(name: str, defined: bool = False) -> Symbol:
    return Symbol(name, "GLOBAL", "NOTYPE", "DEFAULT", ".text" if defined else "UND", 0)


def _table(check: str, text: str) -> list[Symbol]:
    """The serial build never has `writev`; the split build has it while the text names it."""
    return [_sym("main", True)] + ([_sym("writev")] if check == "split" and "@writev" in text else [])


def test_the_first_candidate_is_built_beside_the_input_and_its_own_plan_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    first = regions.remove(regions.graph(MODULE), set())
    assert "@dead" not in first and "@dead" in MODULE
    builds: list[tuple[str, str, bool]] = []  # (input or first or other, check, with a fixed plan)
    lock = threading.Lock()

    def build(path: Path, check: str, diff: split_triage.Difference, _cache: Path | None,
              plan: dict[str, int] | None = None) -> Sequence[Symbol]:
        text = path.read_text()
        which = "input" if text == MODULE else "first" if text == first else "other"
        with lock:
            if diff.cost is None:  # not the checks at split cost 1 after the regions
                builds.append((which, check, diff.assignment is not None))
        if plan is not None:  # the build's own plan, printed
            plan.update({"main": 0, "helper": 1, "flush": 1} if which == "first" else {"main": 0, "helper": 1, "dead": 1})
        # a slice around @helper (no @main: `evidence.user_slices`) shows nothing: the regions start
        # from the whole module, where this test looks
        return _table(check, text) if "@main" in text else [_sym("helper", True)]

    monkeypatch.setattr(split_triage, "build_symbols", build)
    said: list[str] = []
    result = split_triage.triage(MODULE, split="subgraph", split_jobs=2, opt=2, cost=None, jobs=2, time_budget=20,
                                 task_cache=None, say=said.append, keep_plan=True)
    assert result is not None and "@writev" in result.text
    # the input twice and the first candidate twice, each once; the input's plan never checked on it
    assert sorted(b for b in builds if b[0] != "other") == [
        ("first", "serial", False), ("first", "split", False), ("input", "serial", False), ("input", "split", False)]
    assert any("first candidate's own plan" in line for line in said), said
    # every later split build keeps the first candidate's plan
    assert all(fixed for which, check, fixed in builds if which == "other" and check == "split")
    assert result.regions.lines[:2] == [lines_of(MODULE), lines_of(first)]
    assert result.judge.checks["split"].runs >= 1  # the first candidate's builds count as its judgement


def test_a_planted_fault_is_established_beside_the_first_candidate_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a planted fault (the benchmark's cases) the input's split build without it runs beside
    the other four, and the first candidate's own plan is kept as for a real difference: before,
    the three builds of the input ran first and the first candidate waited for them."""
    first = regions.remove(regions.graph(MODULE), set())
    builds: list[tuple[str, str, tuple[str, ...], bool]] = []  # (which, check, faults, with a fixed plan)
    lock = threading.Lock()
    running = [0, 0]  # builds running now, the most at once

    def build(path: Path, check: str, diff: split_triage.Difference, _cache: Path | None,
              plan: dict[str, int] | None = None) -> Sequence[Symbol]:
        text = path.read_text()
        which = "input" if text == MODULE else "first" if text == first else "other"
        with lock:
            if diff.cost is None:
                builds.append((which, check, diff.faults, diff.assignment is not None))
            running[0] += 1
            running[1] = max(running)
        time.sleep(0.2 if which != "other" else 0)
        with lock:
            running[0] -= 1
        if plan is not None:
            plan.update({"main": 0, "helper": 1, "flush": 1} if which == "first" else {"main": 0, "helper": 1, "dead": 1})
        # only the faulty split build keeps `writev`
        return [_sym("main", True)] + ([_sym("writev")] if check == "split" and diff.faults and "@writev" in text else [])

    monkeypatch.setattr(split_triage, "build_symbols", build)
    said: list[str] = []
    result = split_triage.triage(MODULE, split="subgraph", split_jobs=2, opt=2, cost=None, jobs=2, time_budget=20,
                                 task_cache=None, say=said.append, keep_plan=True, faults=("keep-dead-across-subgraphs",))
    assert result is not None and "@writev" in result.text
    assert set(result.difference.symbols) == {"writev"} and result.difference.faults == ("keep-dead-across-subgraphs",)
    fault = ("keep-dead-across-subgraphs",)
    assert sorted(b for b in builds if b[0] != "other") == sorted([
        ("input", "serial", fault, False), ("input", "split", fault, False), ("input", "split", (), False),
        ("first", "serial", fault, False), ("first", "split", fault, False)])
    assert running[1] == 5  # all at once
    assert any("first candidate's own plan" in line for line in said), said
    assert all(fixed for which, check, _f, fixed in builds if which == "other" and check == "split")


def test_where_the_first_candidate_loses_it_the_inputs_plan_is_checked_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    first = regions.remove(regions.graph(MODULE), set())
    builds: list[tuple[str, str, bool]] = []
    lock = threading.Lock()

    def build(path: Path, check: str, diff: split_triage.Difference, _cache: Path | None,
              plan: dict[str, int] | None = None) -> Sequence[Symbol]:
        text = path.read_text()
        which = "input" if text == MODULE else "first" if text == first else "other"
        with lock:
            builds.append((which, check, diff.assignment is not None))
        if plan is not None:
            plan.update({"main": 0, "helper": 1} if which == "first" else {"main": 0, "helper": 1, "dead": 1})
        # the split build keeps `writev` only while @dead is there (a difference that needs dead code)
        return [_sym("main", True)] + ([_sym("writev")] if check == "split" and "@dead" in text else [])

    monkeypatch.setattr(split_triage, "build_symbols", build)
    result = split_triage.triage(MODULE, split="subgraph", split_jobs=2, opt=2, cost=None, jobs=2, time_budget=20,
                                 task_cache=None, keep_plan=True)
    assert result is not None and "@dead" in result.text and result.regions.kept_unreachable
    assert ("input", "split", True) in builds  # the input's own plan, checked on it
    assert builds.count(("first", "serial", False)) == 1  # the serial build of the first candidate is reused
    assert ("first", "split", True) in builds  # judged again with the input's plan


def test_a_candidate_judged_alone_runs_both_builds_at_once(tmp_path: Path) -> None:
    started = {"split": threading.Event(), "serial": threading.Event()}

    class Judge(split_triage.SymbolJudge):
        def _build(self, path: Path, check: str) -> list[Symbol] | None:
            started[check].set()
            other = "serial" if check == "split" else "split"
            # each build waits for the other to start: one after the other, both would time out
            together = started[other].wait(timeout=5)
            return _table(check, path.read_text()) if together else None

    judge = Judge(split_triage.Difference("added", WRITEV, "subgraph", 2, 2), {"writev"}, None, tmp_path, slots=2)
    judge.stats.checks["split"].runs = 3  # the split build passed its last three candidates
    text = "declare i64 @writev(i32, ptr, i32)\n"
    assert judge.alone(text)
    judge.close()
    assert judge.stats.together == 1 and judge.stats.spare == 0


def test_one_build_at_a_time_unless_alone_and_the_first_check_likely_passes(tmp_path: Path) -> None:
    order: list[str] = []
    lock = threading.Lock()

    class Judge(split_triage.SymbolJudge):
        def _build(self, path: Path, check: str) -> list[Symbol] | None:
            with lock:
                order.append(check)
            return _table(check, path.read_text())

    diff = split_triage.Difference("added", WRITEV, "subgraph", 2, 2)
    judge = Judge(diff, {"writev"}, None, tmp_path, slots=2)
    assert judge("declare i64 @writev(i32, ptr, i32) ; 1\n")  # not alone: one after the other
    assert judge.stats.together == 0 and order == ["split", "serial"]
    judge.stats.checks["split"].rejects = 5  # a first check that rejects most candidates: the second waits
    judge.stats.checks["split"].runs = 6
    assert judge.alone("declare i64 @writev(i32, ptr, i32) ; 2\n")
    assert judge.stats.together == 0
    # a preloaded build is used as it is
    text = "declare i64 @writev(i32, ptr, i32) ; 3\n"
    judge.preload(text, "split", _table("split", text), 1.0)
    judge.preload(text, "serial", _table("serial", text), 1.0)
    order.clear()
    assert judge.alone(text) and order == []
    single = Judge(diff, {"writev"}, None, tmp_path, slots=1)  # -j 1: never both at once
    single.stats.checks["split"].runs = 3
    assert single.alone("declare i64 @writev(i32, ptr, i32) ; 4\n") and single.stats.together == 0
    judge.close()


def test_the_checks_after_the_regions_keep_to_the_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks at split cost 1 and without the plan each rebuild the whole result; with less
    budget left than the input's first check took, they are not run (they ran 230-470 s past a
    600 s budget on rust-regex), and the result says it was not built without the plan."""
    cost_one: list[str] = []
    delay = [0.4]  # every build: the input's first check takes ~0.8 s, its budget 1 s

    def build(path: Path, check: str, diff: split_triage.Difference, _cache: Path | None,
              plan: dict[str, int] | None = None) -> Sequence[Symbol]:
        if diff.cost == 1:
            cost_one.append(check)
        if plan is not None:
            plan.update({"main": 0, "helper": 1, "dead": 1, "flush": 1})
        time.sleep(delay[0])
        return _table(check, path.read_text())

    monkeypatch.setattr(split_triage, "build_symbols", build)
    said: list[str] = []
    result = split_triage.triage(MODULE, split="subgraph", split_jobs=2, opt=2, cost=None, jobs=1, time_budget=1.0,
                                 task_cache=None, say=said.append, keep_plan=True)
    assert result is not None and "@writev" in result.text
    assert cost_one == [], said
    assert any("split cost 1: not checked, the time budget is spent" in line for line in said), said
    assert result.difference.assignment is not None and result.needs_plan and not result.plan_checked
    # with budget to spare, both checks run
    delay[0] = 0.0
    roomy = split_triage.triage(MODULE, split="subgraph", split_jobs=2, opt=2, cost=None, jobs=1, time_budget=600,
                                task_cache=None, keep_plan=True)
    assert roomy is not None and roomy.plan_checked and cost_one
