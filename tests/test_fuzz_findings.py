"""The findings store: complete, atomic, deduplicated reproducers, and `ember findings list|show|reproduce`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fuzz import findings, properties
from fuzz.properties import BuildConfig, CheckPlan
from fuzz.strategies import FuzzCase
from tests.test_fuzz_properties import LLC, PRINTS_42

WRONG = f"sh -c \"sed 's/i64 40/i64 41/' {{in}} > m.ll && {LLC} m.ll -o {{out}}\""


@pytest.fixture(scope="module")
def wrong_report() -> properties.Report:
    plan = CheckPlan(opt=2, cost=1, configs=(BuildConfig("two-level", 1, 2, 1), BuildConfig(opt=2, candidate=WRONG)))
    report = properties.check(FuzzCase(PRINTS_42, None, "test"), plan)
    assert report.classification == "wrong-output"
    return report


def test_saved_finding_is_complete(tmp_path: Path, wrong_report: properties.Report) -> None:
    path = findings.save(wrong_report, root=tmp_path, seed=7, test="unit")
    assert path.parent == tmp_path and path.name.endswith(findings.digest_of(wrong_report))
    meta = json.loads((path / "finding.json").read_text())
    assert meta["classification"] == "wrong-output" and meta["seed"] == 7 and meta["faults"] == []
    assert meta["reproduce"] == f"ember findings reproduce {path}"
    assert (path / "input.ll").read_text() == PRINTS_42
    assert "v=43" in (path / "diff.txt").read_text()
    builds = {p.name for p in (path / "builds").iterdir()}
    assert builds == {"none-O2", "two-level-j1-O2-cost-1", "candidate-O2", "none-O0"}
    for name in builds:
        d = path / "builds" / name
        assert (d / "out.o").is_file() and (d / "symtab.txt").is_file() and (d / "stdout.txt").is_file()
        assert (d / "command.txt").read_text().strip()
    assert (path / "builds" / "candidate-O2" / "stdout.txt").read_bytes() == b"v=43\n"
    assert os.access(path / "reproduce.sh", os.X_OK)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "temporary directory left behind"


def test_same_failure_is_saved_once(tmp_path: Path, wrong_report: properties.Report) -> None:
    first = findings.save(wrong_report, root=tmp_path)
    assert findings.save(wrong_report, root=tmp_path) == first
    assert len(findings.list_findings(tmp_path)) == 1


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path, wrong_report: properties.Report, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(tmp: Path, *args: object, **kwargs: object) -> None:
        (tmp / "input.ll").write_text("half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(findings, "_write", broken)
    with pytest.raises(Exception, match="No space left"):
        findings.save(wrong_report, root=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_reproduce_script_shows_the_difference(tmp_path: Path, wrong_report: properties.Report) -> None:
    path = findings.save(wrong_report, root=tmp_path)
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    proc = subprocess.run(["sh", str(path / "reproduce.sh")], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "-v=42" in proc.stdout and "+v=43" in proc.stdout


def test_env_var_chooses_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wrong_report: properties.Report) -> None:
    monkeypatch.setenv(findings.ENV, str(tmp_path / "store"))
    assert findings.default_root() == tmp_path / "store"
    assert findings.save(wrong_report).parent == tmp_path / "store"


def test_ember_findings_list_show_reproduce(tmp_path: Path, wrong_report: properties.Report, ember) -> None:
    r = ember("findings", "list", "--findings", str(tmp_path))
    assert r.status == 0 and "no findings" in r.stdout
    path = findings.save(wrong_report, root=tmp_path)
    r = ember("findings", "list", "--findings", str(tmp_path))
    assert r.status == 0 and path.name in r.stdout and "wrong-output" in r.stdout
    r = ember("findings", "show", path.name[-12:], "--findings", str(tmp_path))
    assert r.status == 0
    assert "class     wrong-output" in r.stdout and "reproduce ember findings reproduce" in r.stdout
    assert "+v=43" in r.stdout and "builds/candidate-O2/out.o" in r.stdout
    r = ember("findings", "reproduce", str(path))
    assert r.status == 1 and "+v=43" in r.stdout
    r = ember("findings", "show", "nope", "--findings", str(tmp_path))
    assert r.status == 2 and "no finding 'nope'" in r.stderr


#: PRINTS_42 with `main` also reading the internal global: used from two subgraphs, it is
#: exported while compiling, which is what the skip-linkage-restore fault then leaks
# `@counter`, read in main and in bump, is exported while compiling (its address escapes into
# `@counter_ref`: a variable only loaded and stored would stay internal in its owner)
SHARED_GLOBAL = PRINTS_42.replace(
    "  %v = call i64 @anchor(i64 2)\n",
    "  %w = call i64 @anchor(i64 2)\n  %c = load i64, ptr @counter\n  %v = add i64 %w, %c\n",
).replace("declare i32 @printf", "@counter_ref = global ptr @counter\ndeclare i32 @printf")


def test_fault_findings_are_not_reproduced_by_the_cli(tmp_path: Path, ember) -> None:
    plan = CheckPlan(opt=2, cost=1, configs=(BuildConfig("two-level", 1, 2, 1),), opt_check=False)
    assert SHARED_GLOBAL != PRINTS_42
    report = properties.check(FuzzCase(SHARED_GLOBAL), plan, faults=frozenset({"skip-linkage-restore"}))
    assert report.classification == "symbol-difference"
    path = findings.save(report, root=tmp_path)
    meta = json.loads((path / "finding.json").read_text())
    assert meta["faults"] == ["skip-linkage-restore"]
    assert meta["reproduce"].startswith("python -m fuzz.findings reproduce ")
    r = ember("findings", "reproduce", str(path))
    assert r.status == 2 and "never enables them" in r.stderr
    assert findings.main(["reproduce", str(path)]) == 1  # the test-side twin still reproduces it
