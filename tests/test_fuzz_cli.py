"""`ember fuzz`: a short campaign on built-in defaults; exit 0 when nothing is found, 1 when a finding was saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz import findings


def test_ember_fuzz_clean_run_exits_0(tmp_path: Path, ember) -> None:
    r = ember("fuzz", "--examples", "3", "--seed", "1", "--findings", str(tmp_path), "--no-database", "--strategy", "callgraph")
    assert r.status == 0, r.stdout + r.stderr
    assert "seed 1" in r.stdout and "no failures in 3 programs" in r.stdout
    assert "checks/s" in r.stdout and "compile" in r.stdout
    assert findings.list_findings(tmp_path) == []


def test_ember_fuzz_saves_a_finding_and_exits_1(tmp_path: Path, ember) -> None:
    # a candidate that always fails to compile: every program is a crash finding
    r = ember(
        "fuzz", "--examples", "5", "--seed", "2", "--findings", str(tmp_path), "--no-database",
        "--strategy", "callgraph", "--modes", "two-level", "--candidate", "sh -c 'exit 9' {in} {out}",
        "--shrink-seconds", "5",
    )
    assert r.status == 1, r.stdout + r.stderr
    assert "FAILED after 1 programs" in r.stdout
    saved = findings.list_findings(tmp_path)
    assert saved and all(i.classification == "crash" for i in saved)
    assert str(saved[0].path) in r.stdout
    assert f"ember findings show {saved[-1].id}" in r.stdout


def test_ember_fuzz_rejects_bad_usage(ember) -> None:
    assert ember("fuzz", "--modes", "none").status == 2
    assert ember("fuzz", "--jobs", "0").status == 2
    assert ember("fuzz", "--examples", "0").status == 2
    r = ember("fuzz", "--candidate", "llc {in}")
    assert r.status == 2 and "{out}" in r.stderr


def test_cli_offers_every_strategy_and_each_name_has_a_generator() -> None:
    """The names are spelled once (fuzz/strategy_names.py): the parser offers exactly them and
    `cases` maps every one to a strategy."""
    from compiler import cli
    from fuzz import strategies

    fuzz_parser = next(a for a in cli.make_parser()._subparsers._group_actions if "fuzz" in a.choices).choices["fuzz"]
    offered = next(a.choices for a in fuzz_parser._actions if "--strategy" in a.option_strings)
    assert tuple(offered) == strategies.STRATEGIES
    for name in strategies.STRATEGIES:
        assert strategies.cases(name) is not None
    with pytest.raises(ValueError, match="unknown strategy"):
        strategies.cases("bogus")


def test_ember_fuzz_on_ember_programs(tmp_path: Path, ember) -> None:
    r = ember("fuzz", "--examples", "2", "--seed", "3", "--findings", str(tmp_path), "--no-database", "--strategy", "ember")
    assert r.status == 0, r.stdout + r.stderr
    assert "(ember)" in r.stdout and "no failures in 2 programs" in r.stdout
