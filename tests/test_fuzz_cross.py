"""`ember fuzz --target aarch64-linux-gnu`: the differential properties for a cross target.

Every build of a plan is for AArch64 (`--target`); the programs are linked with the cross gcc
and run under `qemu-aarch64` (fuzz/cross.py). Without the cross tools the tests that build and
run skip with the reason; the usage checks and the plan's JSON need no tools.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.backend import split_mode
from fuzz import cross, findings, properties
from fuzz.properties import BuildConfig, CheckPlan
from fuzz.regressions import AARCH64_REPRODUCERS
from fuzz.regressions import HERE as REGRESSIONS
from fuzz.strategies import FuzzCase
from tests.test_fuzz_properties import PRINTS_42

TARGET = cross.AARCH64
EM_AARCH64 = 183
DATA = Path(__file__).parent / "data"


@pytest.fixture
def tools() -> None:
    reason = cross.missing()
    if reason:
        pytest.skip(reason)


def _plan(opt: int, *, cost: int = 1, piece_cost: int | None = None, jobs: tuple[int, ...] = (1, 2)) -> CheckPlan:
    configs = tuple(
        BuildConfig(mode, j, opt, cost, piece_cost=piece_cost, target=TARGET) for mode in split_mode.SPLITTING for j in jobs
    )
    return CheckPlan(opt, cost, configs, opt_check=True, target=TARGET)


@pytest.mark.usefixtures("tools")
def test_builds_are_aarch64_and_run_under_qemu() -> None:
    report = properties.check(FuzzCase(PRINTS_42), _plan(2, piece_cost=1))
    assert report.ok, report.diff_text()
    ref = report.builds[f"--split none -O2 --target {TARGET}"]
    assert ref.obj is not None and int.from_bytes(ref.obj[18:20], "little") == EM_AARCH64
    assert ref.run is not None and ref.run.stdout == b"v=42\n"
    assert all(o.obj is not None and int.from_bytes(o.obj[18:20], "little") == EM_AARCH64 for o in report.builds.values())
    assert f"--split none -O0 --target {TARGET}" in report.builds  # the -O0 vs -O2 check is for the target too


@pytest.mark.usefixtures("tools")
def test_ember_programs_link_the_aarch64_runtime() -> None:
    from tests.test_fuzz_properties import DEBUG_PROGRAM

    report = properties.check(FuzzCase(DEBUG_PROGRAM, None, "ember"), _plan(0))
    assert report.ok, report.diff_text()
    assert report.builds[f"--split none -O0 --target {TARGET}"].run is not None


@pytest.mark.usefixtures("tools")
@pytest.mark.parametrize(
    ("fault", "classification"), [("drop-ctors", "wrong-output"), ("skip-linkage-restore", "symbol-difference")]
)
def test_a_planted_difference_is_caught_on_aarch64(fault: str, classification: str) -> None:
    """A broken back end (fuzz/faults.py) is caught for the target: its behaviour under QEMU
    (constructors never run) or its symbols (a local left global)."""
    module = (DATA / "split_semantics.ll").read_text()
    plan = _plan(0, jobs=(1,))
    report = properties.check(FuzzCase(module), plan, faults=frozenset({fault}))
    assert classification in {f.classification for f in report.failures}, report.diff_text()
    assert all(f.candidate.endswith(f"--target {TARGET}") for f in report.failures)
    clean = properties.check(FuzzCase(module), plan)
    assert clean.ok, clean.diff_text()


@pytest.mark.usefixtures("tools")
def test_alias_and_variable_in_one_codegen_piece_on_aarch64() -> None:
    """data_alias_seen_as_two_globals.ll at level 2: AArch64's machine scheduler (alias
    analysis in codegen; x86-64's has none) moved the load of @g above the store through
    @ga while they were two declarations in f's piece."""
    case = FuzzCase((REGRESSIONS / "data_alias_seen_as_two_globals.ll").read_text())
    plan = CheckPlan(1, 1, (BuildConfig("function", 1, 1, 1, piece_cost=1, target=TARGET),), opt_check=False, target=TARGET)
    report = properties.check(case, plan)
    assert report.ok, report.diff_text()
    assert report.builds[f"--split none -O1 --target {TARGET}"].run.stdout == b"13\n"


def test_there_are_aarch64_reproducers() -> None:
    assert AARCH64_REPRODUCERS, "fuzz/regressions/aarch64/ holds no .ll reproducers"


@pytest.mark.usefixtures("tools")
@pytest.mark.parametrize("level", (1, 2, 3))
@pytest.mark.parametrize("reproducer", AARCH64_REPRODUCERS, ids=[p.stem for p in AARCH64_REPRODUCERS])
def test_aarch64_reproducer_split_equals_unsplit(reproducer: Path, level: int) -> None:
    """fuzz/regressions/aarch64/ built for AArch64 in every split mode (-O3 too: GlobalMerge
    runs on every function there): symbols, behaviour under QEMU."""
    case = FuzzCase(reproducer.read_text(), None, reproducer.stem)
    configs = tuple(BuildConfig(mode, 1, level, cost, target=TARGET) for mode in split_mode.SPLITTING for cost in (1, 93))
    report = properties.check(case, CheckPlan(level, 1, configs, opt_check=False, target=TARGET))
    assert report.ok, report.diff_text()


@pytest.mark.usefixtures("tools")
def test_a_tiny_aarch64_campaign_runs_clean(tmp_path: Path, ember) -> None:
    r = ember(
        "fuzz", "--target", TARGET, "--examples", "4", "--seed", "1", "--findings", str(tmp_path), "--no-database",
        "--strategy", "llvm-ir", "--lanes", "2",
    )
    assert r.status == 0, r.stdout + r.stderr
    assert f"vs --split none for {TARGET}" in r.stdout and "no failures in 4 programs" in r.stdout
    assert findings.list_findings(tmp_path) == []


@pytest.mark.usefixtures("tools")
def test_a_finding_reproduces_with_the_cross_tools(tmp_path: Path) -> None:
    module = (DATA / "split_semantics.ll").read_text()
    report = properties.check(FuzzCase(module), _plan(0, jobs=(1,)), faults=frozenset({"drop-ctors"}))
    saved = findings.save(report, root=tmp_path, seed=1, test="t")
    script = (saved / "reproduce.sh").read_text()
    assert f"--target {TARGET}" in script and "aarch64-linux-gnu-gcc -o repro/ref" in script
    assert " ".join(cross.runner_prefix()) + " ./repro/ref" in script


def test_target_plans_round_trip_through_json() -> None:
    plan = _plan(2)
    assert CheckPlan.from_json(plan.to_json()) == plan
    assert plan.reference.target == TARGET
    assert CheckPlan.from_json({"opt": 2, "configs": []}).target is None  # findings from before the field
    assert f"--target {TARGET}" in plan.configs[0].command("in.ll", "out.o")
    with pytest.raises(ValueError, match="plan.target: expected null or one of"):
        CheckPlan.from_json({"opt": 2, "configs": [], "target": "x86_64-apple-darwin"})
    with pytest.raises(ValueError, match=r"plan.configs\[0\].target"):
        CheckPlan.from_json({"opt": 2, "configs": [{"split": "none", "target": 3}]})


def test_fuzz_rejects_a_target_it_cannot_run(ember) -> None:
    r = ember("fuzz", "--target", "x86_64-apple-darwin", "--examples", "1")
    assert r.status == 2 and "links and runs aarch64-linux-gnu only" in r.stderr
    r = ember("fuzz", "--target", TARGET, "--strategy", "kernels", "--examples", "1")
    assert r.status == 2 and "host-only" in r.stderr
    r = ember("fuzz", "--target", TARGET, "--candidate", "llc {in} -o {out}", "--examples", "1")
    assert r.status == 2 and "--candidate" in r.stderr


def test_fuzz_without_the_cross_tools_says_which(ember, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cross, "missing", lambda run=True: "no qemu-aarch64 (apt-get install qemu-user)")
    r = ember("fuzz", "--target", TARGET, "--examples", "1")
    assert r.status == 1 and "no qemu-aarch64" in r.stderr and len(r.stderr.strip().splitlines()) == 1
