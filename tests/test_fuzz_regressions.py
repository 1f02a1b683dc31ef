"""Reproducers of back-end bugs the fuzzer found (fuzz/regressions/): split == unsplit on each.

Open bugs (`fuzz.regressions.KNOWN_BUGS`) are strict xfails: once the back end is fixed
the test XPASSes, which fails the run; then delete the bug's entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import split_mode
from fuzz import properties, regressions
from fuzz.properties import BuildConfig, CheckPlan, build_runner
from fuzz.regressions import EMBER_REPRODUCERS, KNOWN_BUGS, REPRODUCERS, KnownBug, known_bug
from fuzz.strategies import FuzzCase
from oracle import calls

OPEN = {bug.reproducer: bug for bug in KNOWN_BUGS if bug.check == "symbols"}
#: open bugs the code shows (a call the serial build inlined), by reproducer
OPEN_INLINING = {bug.reproducer: bug for bug in KNOWN_BUGS if bug.check == "inlining"}


def _params(paths: list[Path] | tuple[Path, ...], levels: tuple[int, ...], open_bugs: dict[Path, KnownBug]) -> list[object]:
    """(reproducer, level) test parameters: a strict xfail where an open bug shows."""
    return [
        pytest.param(
            path, level,
            marks=pytest.mark.xfail(strict=True, reason=f"open back-end bug: {open_bugs[path].description}"),
            id=f"{level}-{path.stem}",
        )
        if path in open_bugs and level in open_bugs[path].levels
        else pytest.param(path, level, id=f"{level}-{path.stem}")
        for path in paths
        for level in levels
    ]


PARAMS = _params(REPRODUCERS, (0, 1, 2), OPEN)


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


#: Ember reproducers of -O0 inlining parity: every function the same size split and serially
ALWAYS_INLINE = [p for p in EMBER_REPRODUCERS if p.stem.startswith("always_inline")]


@pytest.mark.parametrize("reproducer", ALWAYS_INLINE, ids=[p.stem for p in ALWAYS_INLINE])
@pytest.mark.parametrize("cost", [1])
def test_always_inline_reproducer_inlines_as_serially_at_O0(reproducer: Path, cost: int) -> None:
    """At -O0 every function is compiled alone, so its size split must be its size serially
    (the full symbol check); an @always_inline callee left a call shows as a size change."""
    case = FuzzCase(reproducer.read_text(), None, "ember")
    configs = tuple(BuildConfig(mode, 1, 0, cost) for mode in ("subgraph", "two-level"))
    report = properties.check(case, CheckPlan(0, cost, configs, opt_check=False))
    assert report.ok, report.diff_text()


def test_there_are_always_inline_reproducers() -> None:
    assert len(ALWAYS_INLINE) == 2


def _extra_undefined(name: str, module: str) -> properties.Report:
    detail = f"+ GLOBAL NOTYPE DEFAULT UND {name}  (new in candidate)"
    failure = properties.Failure("symbol-difference", "--split none -O2", "--split subgraph -O2", "symbols differ", detail)
    return properties.Report(FuzzCase(module), CheckPlan(), frozenset(), failures=[failure])


def test_extra_undefined_recogniser_covers_only_the_programs_own_symbols(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered for an open bug, an extra `UND realloc` the module names is that bug; an
    extra `UND __tls_get_addr` (a thread-local that lost its access model) is a finding."""
    bug = KnownBug("extra-undefined-bug", REPRODUCERS[0], "test", regressions.RECOGNISERS["extra-undefined"])
    monkeypatch.setattr(regressions, "KNOWN_BUGS", (bug,))
    module = "declare ptr @realloc(ptr, i64)\n@k0_tls = internal thread_local(localexec) global i64 7\n"
    assert known_bug(_extra_undefined("realloc", module)) == "extra-undefined-bug"
    assert known_bug(_extra_undefined("__tls_get_addr", module)) is None
    memcpy = module + "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
    assert known_bug(_extra_undefined("memcpy", memcpy)) == "extra-undefined-bug"
    monkeypatch.setattr(regressions, "KNOWN_BUGS", ())
    assert known_bug(_extra_undefined("realloc", module)) is None  # fixed: a finding again


def _symbol_change(line: str, module: str) -> properties.Report:
    failure = properties.Failure("symbol-difference", "--split none -O2", "--split subgraph -O2", "symbols differ", line)
    return properties.Report(FuzzCase(module), CheckPlan(), frozenset(), failures=[failure])


# ------------------------------------------------------------------ inlining parity
#: reproducers whose header names a function the serial build inlines everywhere (`; inlined: NAME`)
INLINED = {p: line.split(":", 1)[1].strip() for p in REPRODUCERS for line in p.read_text().splitlines()
           if line.startswith("; inlined:")}
#: the small split cost that puts every anchor in a subgraph of its own
FINE_COST = 1
INLINING_PARAMS = _params(sorted(INLINED), (1, 2), OPEN_INLINING)


def _object(path: Path, level: int, split: str) -> bytes:
    """The object `ember build path -O<level> --split <split> -j 2 [--split-cost 1]` makes."""
    options = driver.BuildOptions(opt_level=level, split=split, jobs=2, subgraph_cost=FINE_COST if split != "none" else None)
    out = driver.build(str(path), options).output
    assert isinstance(out, bytes)
    return out


def test_inlining_reproducers_are_registered() -> None:
    assert INLINED, "no reproducer names a helper the serial build inlines (`; inlined: NAME`)"
    assert set(OPEN_INLINING) <= set(INLINED), "an open inlining bug's reproducer has no `; inlined:` line"


@pytest.mark.parametrize(("reproducer", "level"), INLINING_PARAMS)
def test_split_inlines_what_serial_inlines(reproducer: Path, level: int) -> None:
    """The helper is inlined at every call site in the serial object (the reproducer is
    valid), and no function of the split object (`--split two-level -j2 --split-cost 1`)
    still calls it: split code is the serial build's code, not just its symbols."""
    helper = INLINED[reproducer]
    assert calls.calls_to(_object(reproducer, level, "none"), helper) == set(), "the serial build no longer inlines it"
    out_of_line = calls.calls_to(_object(reproducer, level, "two-level"), helper)
    assert out_of_line == set(), f"the split object still calls {helper} from {', '.join(sorted(out_of_line))}"


@pytest.mark.parametrize("level", [1, 2])
def test_generated_module_helper_is_inlined_in_every_function(level: int, tmp_path: Path) -> None:
    """The same class on a 40-function generated module whose every loop calls one padded
    internal helper (`ModuleShape.helper_steps`): no function calls it, split or not."""
    from fuzz.genmodule import ModuleShape, generate

    src = tmp_path / "gen.ll"
    src.write_text(generate(3, ModuleShape(functions=40, helper_steps=16)))
    assert calls.calls_to(_object(src, level, "none"), "helper") == set(), "the serial build no longer inlines it"
    out_of_line = calls.calls_to(_object(src, level, "two-level"), "helper")
    assert out_of_line == set(), f"{len(out_of_line)} functions of the split object still call the helper"


def test_the_o3_dead_branch_recogniser_is_narrow() -> None:
    """The open -O3 bug explains extra undefined symbols of a module with the output capture's
    `try_set`, at -O3 only; a dead caller's `+ UND sysconf` elsewhere is a finding."""
    capture = "declare i64 @sysconf(i32)\ndefine internal i64 @k0_try_set(i64 %v) {\n  ret i64 0\n}\n"
    line = "+ GLOBAL NOTYPE DEFAULT UND sysconf  (new in candidate)"

    def report(module: str, level: int) -> properties.Report:
        failure = properties.Failure("symbol-difference", f"--split none -O{level}", f"--split subgraph -j1 -O{level}",
                                     "symbols differ", line)
        return properties.Report(FuzzCase(module), CheckPlan(), frozenset(), failures=[failure])

    assert known_bug(report(capture, 3)) == "ipsccp-dead-branch-across-subgraphs-O3"
    assert known_bug(report(capture, 2)) is None
    assert known_bug(report(capture.replace("k0_try_set", "k0_gate"), 3)) is None
    # the fragment as a campaign renames it (found by the README's main job: `@ld2d`, and with
    # `-g` `@v17.2h` with attachments), and a function of another shape under such a name
    shaped = ("declare i64 @sysconf(i32)\ndefine internal i64 @ld2d(i64 %v) !dbg !7 {\nentry:\n"
              "  %isz = icmp eq i64 %v, 0, !dbg !8\n  br i1 %isz, label %check, label %set\n}\n")
    assert known_bug(report(shaped, 3)) == "ipsccp-dead-branch-across-subgraphs-O3"
    assert known_bug(report(shaped.replace("@ld2d", '@"v17.2h"'), 3)) == "ipsccp-dead-branch-across-subgraphs-O3"
    assert known_bug(report(shaped, 2)) is None
    assert known_bug(report(shaped.replace("icmp eq i64 %v, 0", "icmp ne i64 %v, 0"), 3)) is None
