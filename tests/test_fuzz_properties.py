"""The differential checks classify each kind of disagreement, and never invent one."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.backend import split_mode
from compiler.diagnostics import EmberError
from fuzz import faults, properties
from fuzz.properties import BuildConfig, CheckPlan, Report, build_runner
from fuzz.strategies import FuzzCase
from oracle import runner

PRINTS_42 = """@.fmt = private unnamed_addr constant [7 x i8] c"v=%ld\\0A\\00"
@counter = internal global i64 40
declare i32 @printf(ptr, ...)

define internal i64 @bump(i64 %x) noinline {
  %c = load i64, ptr @counter
  %n = add i64 %c, %x
  store i64 %n, ptr @counter
  ret i64 %n
}

define i64 @anchor(i64 %x) {
  %r = call i64 @bump(i64 %x)
  ret i64 %r
}

define i32 @main() {
  %v = call i64 @anchor(i64 2)
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %v)
  ret i32 0
}
"""
LLC = "llc -O2 -filetype=obj -relocation-model=pic"


def _candidate(template: str, *, opt: int = 2, limits: runner.Limits = properties.RUN_LIMITS) -> Report:
    plan = CheckPlan(opt=opt, configs=(BuildConfig(opt=opt, candidate=template),), opt_check=False)
    return properties.check(FuzzCase(PRINTS_42), plan, limits=limits)


def test_split_modes_agree_on_a_correct_back_end() -> None:
    configs = tuple(BuildConfig(mode, jobs, 2, 1) for mode in split_mode.SPLITTING for jobs in (1, 2))
    report = properties.check(FuzzCase(PRINTS_42), CheckPlan(2, 1, configs, opt_check=True))
    assert report.ok, report.diff_text()
    assert report.checks == len(configs) + 3 + 1  # each config, one -j pair per mode, -O0 vs -O2
    assert report.builds["--split none -O2"].run is not None
    assert report.builds["--split none -O2"].run.stdout == b"v=42\n"


def test_an_honest_external_candidate_agrees() -> None:
    report = _candidate(f'sh -c "opt -O2 {{in}} -o o.bc && {LLC} o.bc -o {{out}}"')
    assert report.ok, report.diff_text()


def test_wrong_output_is_classified() -> None:
    report = _candidate(f"sh -c \"sed 's/i64 40/i64 41/' {{in}} > m.ll && {LLC} m.ll -o {{out}}\"")
    assert report.classification == "wrong-output"
    assert "v=43" in report.failures[0].detail and "v=42" in report.failures[0].detail
    assert isinstance(properties.failure_exception(report), properties.WrongOutput)


def test_leaked_local_is_a_symbol_difference() -> None:
    report = _candidate(f"sh -c \"sed 's/@counter = internal/@counter = hidden/' {{in}} > m.ll && {LLC} m.ll -o {{out}}\"")
    assert report.classification == "symbol-difference"
    assert "counter: LOCAL in --split none -O2 became GLOBAL HIDDEN" in report.failures[0].detail
    assert {f.classification for f in report.failures} == {"symbol-difference"}  # behaviour is the same


def test_compiler_failure_is_a_crash() -> None:
    report = _candidate("sh -c 'echo boom >&2; exit 3' {in} {out}")
    assert report.classification == "crash"
    assert "exited 3: boom" in report.failures[0].summary + report.failures[0].detail


def test_runaway_program_is_a_hang() -> None:
    spin = "sed 's/^  ret i32 0$/  br label %spin\\nspin:\\n  br label %spin/'"
    report = _candidate(f'sh -c "{spin} {{in}} > m.ll && {LLC} -O0 m.ll -o {{out}}"', limits=runner.Limits(timeout_s=1.0))
    assert report.classification == "hang", report.diff_text()


def test_program_killed_by_a_signal_is_a_crash() -> None:
    trap = "sed 's/^  ret i32 0$/  call void @llvm.trap()\\n  unreachable/'"
    report = _candidate(f'sh -c "{trap} {{in}} > m.ll && {LLC} m.ll -o {{out}}"')
    assert report.classification == "crash"
    assert "SIGILL" in report.failures[0].summary or "SIGTRAP" in report.failures[0].summary


def test_different_bytes_across_jobs_are_nondeterminism(tmp_path: Path) -> None:
    builds = properties.BuildRunner(FuzzCase(PRINTS_42), tmp_path)
    a = builds.build(BuildConfig("two-level", 1, 2, 1))
    b = builds.build(BuildConfig("two-level", 2, 2, 1))
    assert a.obj is not None and builds.same_bytes(a, b) == []
    assert b.obj is not None
    b.obj = b.obj[:-1] + bytes([b.obj[-1] ^ 1])
    failures = builds.same_bytes(a, b)
    assert [f.classification for f in failures] == ["nondeterminism"]


def test_identical_objects_run_once(tmp_path: Path) -> None:
    stats = properties.Stats()
    builds = properties.BuildRunner(FuzzCase(PRINTS_42), tmp_path, stats=stats)
    ref = builds.build(BuildConfig())
    for jobs in (1, 2):
        assert builds.compare(ref, builds.build(BuildConfig("two-level", jobs, 2, 1)), symbols=True) == []
    assert stats.runs == 2 and stats.checks == 2  # the reference and ONE split object


def test_headline_classification_follows_priority() -> None:
    report = Report(FuzzCase(""), CheckPlan(), frozenset())
    report.failures = [
        properties.Failure("symbol-difference", "a", "b", "x"),
        properties.Failure("crash", "a", "c", "y"),
    ]
    assert report.classification == "crash"
    assert isinstance(properties.failure_exception(report), properties.Crash)


@pytest.mark.parametrize("bad", ["llc {in}", "cp in {out}", "sh -c 'unterminated {in} {out}"])
def test_candidate_template_must_name_in_and_out(bad: str) -> None:
    from compiler.diagnostics import UsageError
    from oracle.candidate import CandidateCommand

    with pytest.raises(UsageError):
        CandidateCommand(bad)


TWO_LOOPS = """define i64 @a(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  %j = add i64 %i, 1
  %c = icmp ult i64 %j, %n
  br i1 %c, label %loop, label %done
done:
  ret i64 %j
}

define i64 @b(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  %j = add i64 %i, 2
  %c = icmp ult i64 %j, %n
  br i1 %c, label %loop, label %done
done:
  ret i64 %j
}

define i32 @main() {
  %x = call i64 @a(i64 5)
  %y = call i64 @b(i64 %x)
  %r = trunc i64 %y to i32
  %s = sub i32 %r, 6
  ret i32 %s
}
"""


def test_compiler_that_exits_is_a_crash_and_the_harness_survives() -> None:
    # a truncated piece object makes the object link refuse it: the build fails with that
    # complaint (a crash, its cause the object link) and the harness goes on
    plan = CheckPlan(opt=0, cost=1, configs=(BuildConfig("subgraph", 1, 0, 1),), opt_check=False)
    report = properties.check(FuzzCase(TWO_LOOPS), plan, faults=frozenset({faults.CORRUPT_PIECE_OBJECT}))
    assert report.classification == "crash", report.diff_text()
    assert report.failures[0].cause == "object link"
    assert "not a relocatable ELF64 object" in report.failures[0].detail
    assert properties.check(FuzzCase(TWO_LOOPS), plan).ok  # the next build gets a fresh server


def test_build_past_its_deadline_is_a_hang(tmp_path: Path) -> None:
    from compiler import driver
    from fuzz import buildserver

    src = tmp_path / "hang.ll"
    src.write_text('define i32 @"ember.test.hang.worker"() {\n  ret i32 1\n}\n')
    server = buildserver.BuildServer()
    try:
        options = driver.BuildOptions(split="two-level", jobs=1, subgraph_cost=1, hooks=faults.hooks_for({"hang-worker"}))
        result = server.build(src, options, tmp_path / "out.o", timeout=3.0)
        assert result.hang and not result.ok and "within 3s" in (result.error or "")
        assert server.proc is None  # killed with its workers
        (tmp_path / "ok.ll").write_text("define i32 @main() {\n  ret i32 0\n}\n")
        assert server.build(tmp_path / "ok.ll", options, tmp_path / "ok.o", timeout=60.0).ok
    finally:
        server.close()


ORPHAN_SCRIPT = """
import json, os, sys
from pathlib import Path
from fuzz import buildserver
src = Path(sys.argv[1])
server = buildserver.BuildServer()
proc = server._start()
request = {"input": str(src), "output": str(src) + ".o", "split": "two-level", "jobs": 1, "subgraph_cost": 1, "faults": ["hang-worker"]}
proc.stdin.write(json.dumps(request).encode() + b"\\n")
proc.stdin.flush()
print(proc.pid, flush=True)
os._exit(0)  # the parent dies while the server is stuck in a hung build
"""


def test_build_server_dies_with_its_parent_even_mid_build(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    import time

    src = tmp_path / "hang.ll"
    src.write_text('define i32 @"ember.test.hang.worker"() {\n  ret i32 1\n}\n')
    out = subprocess.run([sys.executable, "-c", ORPHAN_SCRIPT, str(src)], capture_output=True, text=True, timeout=60)
    server_pid = int(out.stdout.strip())
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            return
        if Path(f"/proc/{server_pid}/stat").read_text().split()[2] == "Z":
            return  # exited; only the zombie entry is left for init to reap
        time.sleep(0.2)
    os.killpg(server_pid, 9)
    raise AssertionError("the build server outlived its parent")


def test_in_process_builds_still_survive_a_failed_object_link(tmp_path: Path) -> None:
    # a reducer's per-candidate script builds in its own process (BuildHooks.in_process); a
    # piece object the link refuses is an error the script sees, not an exit
    import dataclasses

    from compiler import driver
    from compiler.diagnostics import EmberError

    src = tmp_path / "two_loops.ll"
    src.write_text(TWO_LOOPS)
    hooks = faults.hooks_for({faults.CORRUPT_PIECE_OBJECT})
    assert hooks is not None
    options = driver.BuildOptions(opt_level=0, split="subgraph", jobs=1, subgraph_cost=1,
                                  hooks=dataclasses.replace(hooks, in_process=True))
    with pytest.raises(EmberError, match="object link: not a relocatable ELF64 object"):
        driver.build(str(src), options)
    assert driver.build(str(src), driver.BuildOptions(opt_level=0, split="subgraph", jobs=1, subgraph_cost=1)).output


EXPORTING = """@export
@noinline
def f0(x: Int) -> Int:
    return x + 1

@noinline
@export
def f1(x: Int) -> Int:
    return f2(x) * 2

def f2(x: Int) -> Int:
    return x - 3

def main() -> Int:
    print(f0(1), f1(2))
    return 0
"""


def test_an_ember_object_defines_exactly_its_exports_and_main() -> None:
    """Both builds share the front end, so a leaked helper is invisible to split-vs-unsplit;
    the program's own @export list is the reference for its non-local symbols."""
    from oracle import symtab

    assert properties.exported_names(EXPORTING) == {"f0", "f1"}
    report = properties.check(FuzzCase(EXPORTING, None, "ember"), properties.CheckPlan(2, 1, (), opt_check=False))
    assert report.ok, report.diff_text()
    ref = report.builds["--split none -O2"]
    assert ref.symbols is not None
    leaked = [*ref.symbols, symtab.Symbol("ember.f2", "GLOBAL", "FUNC", "DEFAULT", ".text", 8)]
    failures = properties.export_failures(EXPORTING, properties.BuildOutcome(ref.config, symbols=leaked))
    assert [f.classification for f in failures] == ["symbol-difference"]
    assert "+ ember.f2" in failures[0].summary
    hidden = [s for s in ref.symbols if s.name != "f1"]
    assert "- f1" in properties.export_failures(EXPORTING, properties.BuildOutcome(ref.config, symbols=hidden))[0].summary


def test_a_kernel_programs_object_may_also_define_the_embedded_ptx_table() -> None:
    source = (Path(__file__).resolve().parent.parent / "examples" / "gpu_kernels.em").read_text()
    report = properties.check(FuzzCase(source, None, "ember"), properties.CheckPlan(2, 1, (), opt_check=False))
    assert report.ok, report.diff_text()


def _verdicts(report: Report) -> list[tuple[str, str, str, str]]:
    return [(f.classification, f.reference, f.candidate, f.summary) for f in report.failures]


@pytest.mark.parametrize("fault", ["skip-linkage-restore", "duplicate-internal-global", "drop-ctors"])
def test_concurrent_lanes_give_the_sequential_verdicts(fault: str) -> None:
    """Builds in flight at once change only the timing: the same failures in the same order."""
    module = (Path(__file__).parent / "data" / "split_semantics.ll").read_text()
    # one -j per mode: no determinism pairs, whose verdicts depend on the compiler, not on the lanes
    configs = tuple(BuildConfig(mode, 1, 0, cost, piece_cost=1) for mode in split_mode.SPLITTING for cost in (1, 50))
    plan = CheckPlan(0, 1, configs, opt_check=True)
    reports = [properties.check(FuzzCase(module), plan, faults=frozenset({fault}), lanes=n) for n in (1, 3)]
    assert not reports[0].ok, "the fault should be caught"
    assert _verdicts(reports[1]) == _verdicts(reports[0])
    assert list(reports[1].builds) == list(reports[0].builds)  # the report lists builds in plan order


def test_a_harness_error_in_a_lane_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken link step in a background lane is raised from `check`, not lost or waited on forever."""

    def broken_link(*args: object, **kwargs: object) -> Path:
        raise RuntimeError("linker plumbing broke")

    monkeypatch.setattr(build_runner, "link_executable", broken_link)
    plan = CheckPlan(2, 1, (BuildConfig("two-level", 1, 2, 1), BuildConfig("subgraph", 2, 2, 1)), opt_check=True)
    with pytest.raises(RuntimeError, match="linker plumbing broke"):
        properties.check(FuzzCase(PRINTS_42), plan, lanes=3)


@pytest.mark.parametrize(
    ("env", "cpus", "expected"),
    [({}, 2, 2), ({}, 64, properties.MAX_LANES), ({"PYTEST_XDIST_WORKER_COUNT": "2"}, 2, 1),
     ({"PYTEST_XDIST_WORKER_COUNT": "4"}, 16, 4), ({"EMBER_CHECK_LANES": "5"}, 2, 5)],
)
def test_default_lanes_share_the_cpus(env: dict[str, str], cpus: int, expected: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("EMBER_CHECK_LANES", "PYTEST_XDIST_WORKER_COUNT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(build_runner.os, "sched_getaffinity", lambda pid: set(range(cpus)))
    assert properties.default_lanes() == expected


@pytest.mark.parametrize("bad", ["two", "0", "-3", "1.5"])
def test_a_bad_lane_count_is_a_clear_error(bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBER_CHECK_LANES", bad)
    with pytest.raises(EmberError, match="EMBER_CHECK_LANES must be a whole number of at least 1"):
        properties.default_lanes()


DEBUG_PROGRAM = """def twice(x: Int) -> Int:
    y = x + x
    return y


def main() -> None:
    total = 0
    for i in range(5):
        total += twice(i)
    print(total)
"""


def _debug_plan(opt: int) -> CheckPlan:
    configs = tuple(BuildConfig(mode, 2, opt, 1, piece_cost=1, debug=True) for mode in split_mode.SPLITTING)
    return CheckPlan(opt, 1, configs, opt_check=False, debug=True)


@pytest.mark.parametrize("opt", [0, 2])
def test_debug_plans_agree_on_a_correct_back_end(opt: int) -> None:
    report = properties.check(FuzzCase(DEBUG_PROGRAM, None, "ember"), _debug_plan(opt))
    assert report.ok, report.diff_text()
    assert f"--split none -O{opt} -g" in report.builds


def test_shifted_line_rows_are_a_debug_info_finding() -> None:
    from fuzz import faults

    report = properties.check(FuzzCase(DEBUG_PROGRAM, None, "ember"), _debug_plan(0), faults=frozenset({faults.SHIFT_LINE_ROWS}))
    assert report.classification == "debug-info", report.diff_text()
    assert all(f.classification == "debug-info" and f.cause == "lines" for f in report.failures), report.diff_text()


def test_debug_plans_round_trip_through_json() -> None:
    plan = _debug_plan(2)
    assert CheckPlan.from_json(plan.to_json()) == plan
    assert CheckPlan.from_json({"opt": 2, "cost": 1, "configs": []}).debug is False
    assert "-g" in plan.configs[0].command("in.em", "out.o").split()
