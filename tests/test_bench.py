"""The bench package's runner (bench/runner.py) and writer (bench/report.py), and that each
benchmark module is a small command on top of them."""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from pathlib import Path

import pytest

from bench import report, runner

MODULES = ("power", "throughput", "fleet", "reduce", "reduce_cache", "triage", "verify", "tv", "offload")


def test_run_children_captures_stdout_and_gives_each_command_its_environment() -> None:
    envs = [{**os.environ, "WHO": "first"}, {**os.environ, "WHO": "second"}]
    step = runner.run_children([["sh", "-c", "echo $WHO"], ["sh", "-c", "sleep 0.2; echo $WHO"]], envs, capture_stdout=True)
    assert not step.failed and step.returncodes == (0, 0), step
    assert step.stdout.split() == ["first", "second"]
    quiet = runner.run_children([["echo", "hidden"]])
    assert quiet.stdout == "" and not quiet.failed


def test_run_children_counts_the_cpu_of_grandchildren() -> None:
    burn = f"{sys.executable} -c 'sum(range(4_000_000))'"
    step = runner.run_children([["sh", "-c", f"{burn} & {burn} & wait"]])
    alone = runner.run_children([["sh", "-c", "true"]])
    assert not step.failed and step.cpu > alone.cpu and step.cpu > 0.05, (step, alone)


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except (OSError, IndexError):
        return True
    return state == "Z"


def test_a_timeout_kills_the_whole_tree(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = f"sleep 60 & echo $! > {pidfile}; wait"
    burn = f"{sys.executable} -c 'sum(range(3_000_000))'"
    step = runner.run_children([["sh", "-c", f"{burn}; {script}"]], timeout=3.0)
    assert step.timed_out and not step.failed, step
    assert step.cpu > 0 and step.peak_mb > 1, "the tree's figures up to the kill"
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 10
    while not _gone(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(grandchild), "the measured command's own child outlived the timeout"


def test_measure_counts_this_process_and_reaped_children() -> None:
    with runner.measure() as used:
        sum(range(3_000_000))
        runner.checked([sys.executable, "-c", "sum(range(3_000_000))"])
    assert used.cpu > 0 and used.wall > 0 and used.peak_mb > 10


def test_checked_says_which_command_failed() -> None:
    with pytest.raises(RuntimeError, match="exited 4"):
        runner.checked(["sh", "-c", "exit 4"])


def test_ember_env_puts_this_tree_first_and_removes_what_is_asked() -> None:
    env = runner.ember_env(EMBER_CHECK_LANES="1", HOME=None)
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(runner.ROOT)
    assert (runner.ROOT / "bench" / "runner.py").exists()
    assert env["EMBER_CHECK_LANES"] == "1" and "HOME" not in env


def test_table_every_line_has_every_cell_and_figures_align_right() -> None:
    text = report.table(["name", "wall s", "ratio", "note"],
                        [["a|b", 1.5, "1.38x", "two\nlines"], ["c", 2, "0.90x"]])
    lines = text.splitlines()
    assert len({ln.count("|") for ln in lines}) == 1, text
    assert lines[1] == "|---|---:|---:|---|"
    assert lines[2] == "| a/b | 1.50 | 1.38x | two lines |"
    assert lines[3] == "| c | 2 | 0.90x |  |"


def test_write_json_adds_the_machine_line(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    report.write_json(out, {"rows": [1, 2]})
    record = json.loads(out.read_text())
    assert record["rows"] == [1, 2] and record["cpus"] == os.cpu_count()
    assert "cores" in record["machine"] and "LLVM" in record["machine"]
    report.write_json(None, {"rows": []})  # no path: nothing written, no error
    kept = tmp_path / "own.json"
    report.write_json(kept, {"machine": "as measured"})
    assert json.loads(kept.read_text())["machine"] == "as measured"


@pytest.mark.parametrize("name", MODULES)
def test_each_benchmark_is_a_command_on_the_runner(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = importlib.import_module(f"bench.{name}")
    with pytest.raises(SystemExit) as done:
        module.main(["--help"])
    assert done.value.code == 0
    said = capsys.readouterr().out
    assert f"bench.{name}" in said
    if name != "reduce_cache":  # it prints its one JSON row on stdout
        assert "--json FILE" in said
    source = Path(module.__file__ or "").read_text()
    assert "getrusage" not in source and "subprocess.run(" not in source and "subprocess.Popen(" not in source, (
        f"bench/{name}.py measures on its own instead of through bench.runner")
