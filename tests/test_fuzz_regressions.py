"""Reproducers of back-end bugs the fuzzer found (fuzz/regressions/): split == unsplit on each.

Open bugs (`fuzz.regressions.KNOWN_BUGS`) are strict xfails: once the back end is fixed
the test XPASSes, which fails the run; then delete the bug's entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz import properties
from fuzz.properties import BuildConfig, CheckPlan
from fuzz.regressions import KNOWN_BUGS, REPRODUCERS, known_bug
from fuzz.strategies import FuzzCase

OPEN = {bug.reproducer: bug for bug in KNOWN_BUGS}
PARAMS = [
    pytest.param(path, marks=pytest.mark.xfail(strict=True, reason=f"open back-end bug: {OPEN[path].description}"))
    if path in OPEN
    else path
    for path in REPRODUCERS
]


def test_there_are_reproducers() -> None:
    assert REPRODUCERS, "fuzz/regressions/ holds no .ll reproducers"


@pytest.mark.parametrize("reproducer", PARAMS, ids=[p.stem for p in REPRODUCERS])
@pytest.mark.parametrize("level", [0, 2])
def test_reproducer_split_equals_unsplit(reproducer: Path, level: int) -> None:
    case = FuzzCase(reproducer.read_text(), None, reproducer.stem)
    configs = tuple(BuildConfig(mode, 1, level, 1) for mode in properties.SPLIT_MODES)
    report = properties.check(case, CheckPlan(level, 1, configs, opt_check=False))
    if reproducer in OPEN:
        assert known_bug(report) in (None, OPEN[reproducer].name)  # the recogniser knows it while it is open
    assert report.ok, report.diff_text()
