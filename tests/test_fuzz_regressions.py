"""Reproducers of back-end bugs the fuzzer found (fuzz/regressions/): split == unsplit on each.

Open bugs (`fuzz.regressions.KNOWN_BUGS`) are strict xfails: once the back end is fixed
the test XPASSes, which fails the run; then delete the bug's entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.backend import split_mode
from fuzz import properties
from fuzz.properties import BuildConfig, CheckPlan, build_runner
from fuzz.regressions import EMBER_REPRODUCERS, KNOWN_BUGS, REPRODUCERS, known_bug
from fuzz.strategies import FuzzCase

OPEN = {bug.reproducer: bug for bug in KNOWN_BUGS}
PARAMS = [
    pytest.param(
        path, level,
        marks=pytest.mark.xfail(strict=True, reason=f"open back-end bug: {OPEN[path].description}"),
        id=f"{level}-{path.stem}",
    )
    if path in OPEN and level in OPEN[path].levels
    else pytest.param(path, level, id=f"{level}-{path.stem}")
    for path in REPRODUCERS
    for level in (0, 1, 2)
]


EMBER_PARAMS = [
    pytest.param(path, marks=pytest.mark.xfail(strict=True, reason=f"open bug: {OPEN[path].description}"))
    if path in OPEN
    else path
    for path in EMBER_REPRODUCERS
]


def test_there_are_reproducers() -> None:
    assert REPRODUCERS, "fuzz/regressions/ holds no .ll reproducers"


@pytest.mark.parametrize(("reproducer", "level"), PARAMS)
def test_reproducer_split_equals_unsplit(reproducer: Path, level: int) -> None:
    case = FuzzCase(reproducer.read_text(), None, reproducer.stem)
    configs = tuple(BuildConfig(mode, 1, level, 1) for mode in split_mode.SPLITTING)
    report = properties.check(case, CheckPlan(level, 1, configs, opt_check=False))
    if reproducer in OPEN and level in OPEN[reproducer].levels:
        assert known_bug(report) in (None, OPEN[reproducer].name)  # the recogniser knows it while it is open
    assert report.ok, report.diff_text()


def test_private_name_in_string_prints_its_own_name_when_split() -> None:
    """The fixed MC-link bug, checked by value: the split build prints "msg hello", not ".Lmsg hello"."""
    reproducer = next(p for p in REPRODUCERS if p.stem == "private_name_in_string")
    assert reproducer not in OPEN
    case = FuzzCase(reproducer.read_text(), None, reproducer.stem)
    report = properties.check(case, CheckPlan(0, 1, (BuildConfig("two-level", 1, 0, 1),), opt_check=False))
    assert report.ok, report.diff_text()
    split_build = report.builds["--split two-level -j1 -O0 --split-cost 1"]
    assert split_build.run is not None and split_build.run.stdout == b"msg hello\n"


@pytest.mark.parametrize("reproducer", EMBER_PARAMS, ids=[p.stem for p in EMBER_REPRODUCERS])
def test_ember_reproducer_interpreter_equals_compiled(reproducer: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build_runner, "EMBER_BUILD_TIMEOUT", 15.0)  # an open hang costs 15 s, not 30
    case = FuzzCase(reproducer.read_text(), None, "ember")
    report = properties.check(case, CheckPlan(2, 1, (BuildConfig("two-level", 1, 2, 1),), opt_check=True))
    if reproducer in OPEN:
        assert known_bug(report) in (None, OPEN[reproducer].name)
    assert report.ok, report.diff_text()


def _extra_undefined(name: str, module: str) -> properties.Report:
    detail = f"+ GLOBAL NOTYPE DEFAULT UND {name}  (new in candidate)"
    failure = properties.Failure("symbol-difference", "--split none -O2", "--split subgraph -O2", "symbols differ", detail)
    return properties.Report(FuzzCase(module), CheckPlan(), frozenset(), failures=[failure])


def test_dead_external_ref_recogniser_covers_only_the_programs_own_symbols() -> None:
    """An extra `UND realloc` the module names is the known limitation; an extra
    `UND __tls_get_addr` (a thread-local that lost its access model) is a finding."""
    module = "declare ptr @realloc(ptr, i64)\n@k0_tls = internal thread_local(localexec) global i64 7\n"
    assert known_bug(_extra_undefined("realloc", module)) == "dead-external-ref"
    assert known_bug(_extra_undefined("__tls_get_addr", module)) is None
    assert known_bug(_extra_undefined("memcpy", module + "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n")) == "dead-external-ref"
