"""`ember bench --corpus` (bench/corpus.py): the LLVM-tool columns, the measuring of child
processes (bench/runner.py), the table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench import corpus as cb
from bench import runner
from fuzz import corpus

TINY = """
@data = global i32 1
@cst = private constant [3 x i8] c"hi\\00"
@hidden_data = hidden global i32 2
@alias = alias i32, ptr @data
declare i32 @ext(i32)
define internal i32 @local(i32 %x) {
  %r = call i32 @ext(i32 %x)
  ret i32 %r
}
define weak i32 @weak_fn() {
  ret i32 0
}
define i32 @"quoted name"() {
  ret i32 3
}
define i32 @f(i32 %x) {
  %r = call i32 @local(i32 %x)
  ret i32 %r
}
"""


def _bitcode(tmp_path: Path) -> Path:
    (tmp_path / "tiny.ll").write_text(TINY)
    subprocess.run([str(corpus.LLVM_BIN / "llvm-as"), str(tmp_path / "tiny.ll"), "-o", str(tmp_path / "tiny.bc")],
                   check=True)
    return tmp_path / "tiny.bc"


def test_exported_symbols_are_the_defined_non_locals(tmp_path: Path) -> None:
    assert cb.exported_symbols(_bitcode(tmp_path)) == sorted(
        ["alias", "data", "f", "hidden_data", "quoted name", "weak_fn"])


def test_llvm_lto_keeps_every_exported_symbol_through_the_response_file(tmp_path: Path) -> None:
    """Quoting survives LLVM's @file expansion (a name with a space); nothing exported is internalised."""
    bc = _bitcode(tmp_path)
    names = cb.exported_symbols(bc)
    rsp = cb.response_file([f"--exported-symbol={n}" for n in names], tmp_path / "x.rsp")
    subprocess.run([str(corpus.LLVM_BIN / "llvm-lto"), "-O2", "--relocation-model=pic", rsp, str(bc),
                    "-o", str(tmp_path / "out.o")], check=True, capture_output=True)
    nm = subprocess.run([str(corpus.LLVM_BIN / "llvm-nm"), "--defined-only", "--extern-only", "--format=just-symbols",
                         str(tmp_path / "out.o")], capture_output=True, text=True, check=True).stdout
    assert set(names) <= set(nm.splitlines())


def test_run_children_measures_each_child_not_the_parent() -> None:
    """ru_maxrss of a child forked straight from a large process counts the parent's memory: the measuring
    process in between keeps a small child small; CPU and peak of a child that works are seen."""
    hog = bytearray(300 << 20)  # make this process large, in case the test run is not
    hog[:: 4096] = b"x" * len(hog[:: 4096])
    small = runner.run_children([["true"]])
    big = runner.run_children([[sys.executable, "-c", "b = b'x' * (200 << 20); sum(range(3_000_000))"]])
    assert not small.failed and small.peak_mb < 50, small
    assert not big.failed and big.peak_mb >= 200 and big.cpu > 0.01 and big.wall >= big.cpu * 0.5, big
    both = runner.run_children([["sleep", "0.3"], ["sleep", "0.3"]])
    assert 0.25 < both.wall < 0.55, both  # concurrent, not one after the other
    del hog


def test_run_children_says_why_a_child_failed() -> None:
    failed = runner.run_children([["true"], ["sh", "-c", "echo boom >&2; exit 3"]])
    assert "exited 3" in failed.failed and "boom" in failed.failed
    missing = runner.run_children([["/nonexistent/tool"]])
    assert missing.failed and "tool" in missing.failed


def test_versus_says_faster_or_slower() -> None:
    assert cb.versus(1.0, 1.52) == "1.52x faster"
    assert cb.versus(1.1, 1.0) == "1.10x slower"
    assert cb.versus(None, 1.0) == "?"


def test_render_one_line_per_column_failures_with_their_reason() -> None:
    row = cb.ProgramRow("tiny", 3, [
        cb.Column("ember --split none", 2.0, 1.9, 100, 1.5, run_cpu=0.5, instructions=1000, llvm_cpu=1.6),
        cb.Column("ember two-level -j2", 1.0, 1.9, 120, 0.7, "clean vs serial", run_cpu=0.51, instructions=1010, llvm_cpu=1.76,
                  code="-0.21% .text, 3.10% moved"),
        cb.Column(cb.BASELINE, 1.52, 1.5, 90),
        cb.Column("llvm-lto -O2 -j2", failed="llvm-lto exited 1: error | no\nsymbol"),
    ])
    lines = cb.render([row]).splitlines()
    assert len(lines) == 2 + 4 and len({ln.count("|") for ln in lines}) == 1  # every line has every cell
    assert "1.32x slower" in lines[2] and "1.52x faster" in lines[3] and "baseline" in lines[4]
    assert "+1.00% instr" in lines[3] and "clean vs serial" in lines[3] and "1,000 instr" in lines[2]
    assert lines[3].rstrip(" |").endswith("-0.21% .text, 3.10% moved")  # the code column, last
    assert "failed: llvm-lto exited 1: error / no symbol" in lines[5]
    assert "| 1.00x |" in lines[2] and "| 1.10x |" in lines[3]  # LLVM work against the serial build's


def test_llvm_work_reads_workers_cpu_split_and_the_stages_serially() -> None:
    split = "optimise+codegen  2.7\nworker CPU: optimise 3.297s, codegen 1.951s, largest task 0.774s\n"
    serial = "llvm parse  0.10\noptimise  3.3140  56.4%\ncodegen  2.4624  41.9%\ntotal  5.88\n"
    assert cb.llvm_work(split) == pytest.approx(3.297 + 1.951)
    assert cb.llvm_work(serial) == pytest.approx(3.314 + 2.4624)


def test_list_schedule_hands_the_longest_task_out_first() -> None:
    assert cb.list_schedule([3.0, 3.0, 2.0, 2.0, 2.0], 2) == pytest.approx(7.0)  # {3,2,2} and {3,2}
    assert cb.list_schedule([5.0, 1.0, 1.0], 16) == pytest.approx(5.0)  # the largest task bounds it
    assert cb.list_schedule([1.0] * 8, 4) == pytest.approx(2.0)
    assert cb.list_schedule([], 4) == 0.0


def test_projected_wall_replaces_only_the_worker_stage() -> None:
    report = ("llvm parse  0.50\nsplit  0.30\noptimise+codegen  6.00\nlink  0.20\n"
              "task CPU: 4.000s, 2.000s, 2.000s, 2.000s, 1.000s\n")
    # measured 8 s: 2 s outside the worker stage stay; the stage becomes the schedule's makespan
    assert cb.projected_wall(8.0, report, 2) == pytest.approx(2.0 + 6.0)
    assert cb.projected_wall(8.0, report, 4) == pytest.approx(2.0 + 4.0)
    assert cb.projected_wall(8.0, "optimise  3.0\ncodegen  2.0\n", 4) is None  # a serial build


def _cjson_missing() -> str | None:
    return corpus.missing(corpus.BY_NAME["cjson"])


@pytest.mark.skipif(_cjson_missing() is not None, reason=str(_cjson_missing()))
def test_bench_program_on_cjson_fills_every_column(tmp_path: Path) -> None:
    row = cb.bench_program(corpus.BY_NAME["cjson"], [1], tmp_path, runs=1)
    labels = [c.label for c in row.columns]
    assert labels == ["ember --split none", "ember two-level -j1", "ember default -j1", cb.BASELINE, "llvm-lto -O2 -j1",
                      "opt -O2 + llvm-split -j1 + llc x1 + ld -r"]
    for c in row.columns:
        assert c.failed or (c.wall and c.cpu and c.peak_mb), c
        assert not c.failed or len(c.failed) > 10, c
    serial, split = row.columns[0], row.columns[1]
    assert not serial.failed and not split.failed and serial.llvm_wall and split.symdiff == "clean vs serial"
    assert serial.llvm_cpu and split.llvm_cpu  # the LLVM work column: both sides measured
    assert serial.run_cpu is not None and split.run_cpu is not None
    assert row.columns[2].symdiff == "clean vs serial"  # the default build
    assert split.code.endswith("% moved") and not serial.code  # a split build's code against serial's
    assert sorted(split.projected) == [4, 8, 16] and 0 < split.projected[16] <= split.projected[4] <= split.wall * 1.01
    assert row.columns[4].symdiff or row.columns[4].failed  # llvm-lto: compared with opt + llc, or why not
    assert row.functions > 100 and row.work_ratio > 0


def test_every_column_runs_at_the_level_asked() -> None:
    configs = cb.configurations(Path("m.bc"), [1, 2], Path("/tmp"), level=0)
    assert cb.baseline(0) == "opt -O0 + llc -O0" and cb.baseline(0) in [c.label for c in configs]
    for c in configs:
        for step in c.steps:
            for cmd in step:
                if cmd[0] != "ld" and "llvm-split" not in cmd[0]:
                    assert "-O0" in cmd and "-O2" not in cmd, cmd


def test_run_steps_stops_at_the_first_failing_step(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    steps = [[["true"]], [["sh", "-c", "echo no such module >&2; exit 1"], ["true"]], [["touch", str(marker)]]]
    result = runner.run_steps(steps, {})
    assert "no such module" in result.failed and not marker.exists()
