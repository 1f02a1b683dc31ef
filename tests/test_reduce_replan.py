"""The triage's polish goes on with other boundaries at its fixpoint (fuzz/reduce/split_triage.py,
`replanned`): the plan a reduction keeps was made for a larger module, and candidates it rejects
show the difference under the result's own plan."""

from __future__ import annotations

from pathlib import Path

from fuzz import buildserver, faults
from fuzz.reduce import split_triage
from fuzz.reduce.engine import lines_of

#: 113 lines of rust-regex where the polish, judged with this module's plan, stops at 35
INPUT = Path(__file__).parent / "reduce_inputs" / "rust_regex_writev_113.ll"


def test_the_polish_goes_on_with_the_results_own_plan(tmp_path: Path) -> None:
    said: list[str] = []
    try:
        result = split_triage.triage(INPUT.read_text(), split="subgraph", split_jobs=2, opt=2, cost=1, jobs=2,
                                     time_budget=300, task_cache=tmp_path, say=said.append, keep_plan=True,
                                     faults=(faults.SKIP_WHOLE_MODULE_PREFIX,))
    finally:
        buildserver.stop_all()
    assert result is not None and "writev" in result.difference.symbols
    assert any(line.startswith("re-planned at ") for line in said), said
    assert lines_of(result.text) <= 20, result.text  # 35 without the re-plan


def test_replanned_keeps_only_the_differences_symbols(tmp_path: Path) -> None:
    """A re-plan keeps the symbols the difference had, as they were; another difference is none."""
    text = INPUT.read_text()
    diff = split_triage.Difference("added", {"writev": (None, "GLOBAL NOTYPE DEFAULT UND")}, "subgraph", 2, 2, 1,
                                   faults=(faults.SKIP_WHOLE_MODULE_PREFIX,))
    other = split_triage.Difference("added", {"fork": (None, "GLOBAL NOTYPE DEFAULT UND")}, "subgraph", 2, 2, 1,
                                    faults=(faults.SKIP_WHOLE_MODULE_PREFIX,))
    try:
        again = split_triage.replanned(text, diff, tmp_path, None, parallel=True)
        assert split_triage.replanned(text, other, tmp_path, None, parallel=True) is None
    finally:
        buildserver.stop_all()
    assert again is not None and set(again.symbols) == {"writev"} and again.assignment


def test_a_small_module_is_replanned_at_split_cost_1(tmp_path: Path) -> None:
    """At the default cost the 33-line result is one subgraph and shows nothing; at cost 1 it does
    (the rust-regex run kept the first candidate's plan, at the default cost, to the end)."""
    text = (Path(__file__).parents[1] / "fuzz" / "reduce" / "reproducers" / "rust_regex_writev.ll").read_text()
    diff = split_triage.Difference("added", {"writev": (None, "GLOBAL NOTYPE DEFAULT UND")}, "subgraph", 2, 2, None,
                                   assignment={"main": 0}, faults=(faults.SKIP_WHOLE_MODULE_PREFIX,))
    try:
        again = split_triage.replanned(text, diff, tmp_path, None, parallel=True)
    finally:
        buildserver.stop_all()
    assert again is not None and again.cost == 1 and set(again.symbols) == {"writev"}
