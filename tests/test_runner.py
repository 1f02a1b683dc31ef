"""The runner: crashes, hangs, memory hogs and output floods come back as results."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from compiler.backend import llvm_stage
from oracle import runner


@pytest.fixture(autouse=True, params=["prlimit", "preexec_fn"])
def spawn(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs both ways limits can be set: through util-linux prlimit (no fork of
    this process) and in a preexec_fn (where prlimit is missing)."""
    if request.param == "prlimit" and runner.PRLIMIT is None:
        pytest.skip("util-linux prlimit is not installed")
    if request.param == "preexec_fn":
        monkeypatch.setattr(runner, "PRLIMIT", None)
    return str(request.param)


def _object(ir: str) -> bytes:
    target = llvm_stage.native_target(None, 0)
    with llvm_stage.native(ir, "t.ll") as module:
        module.prepare(target, force_triple=False)
        return llvm_stage.emit_object(module, target)


def test_exit_status_and_stdout() -> None:
    obj = _object(
        '@s = private constant [4 x i8] c"hi\\0A\\00"\n'
        "declare i32 @printf(ptr, ...)\n"
        "define i32 @main() { call i32 (ptr, ...) @printf(ptr @s)\n ret i32 42 }"
    )
    result = runner.run_object(obj)
    assert result.stdout == b"hi\n"
    assert result.exit_status == 42 and result.outcome == "exit 42"


def test_segfault_is_a_signal() -> None:
    obj = _object("define i32 @main() { store volatile i32 1, ptr null\n ret i32 0 }")
    result = runner.run_object(obj)
    assert result.signal == signal.SIGSEGV
    assert result.outcome == "signal SIGSEGV"


def test_hang_is_killed_at_the_timeout() -> None:
    obj = _object("define i32 @main() {\nentry:\n br label %l\nl:\n br label %l\n}")
    result = runner.run_object(obj, limits=runner.Limits(timeout_s=0.5))
    assert result.timed_out and result.outcome == "timeout"
    assert result.exit_status == runner.TIMEOUT_STATUS


def test_memory_limit_stops_a_hog() -> None:
    obj = _object(
        "declare ptr @malloc(i64)\n"
        "define i32 @main() { %p = call ptr @malloc(i64 4000000000)\n"
        " %ok = icmp eq ptr %p, null\n %r = select i1 %ok, i32 9, i32 0\n ret i32 %r }"
    )
    result = runner.run_object(obj, limits=runner.Limits(memory_mb=256))
    assert result.exit_status == 9  # malloc failed under RLIMIT_AS


def test_output_flood_is_capped() -> None:
    obj = _object(
        '@s = private constant [33 x i8] c"0123456789012345678901234567890\\0A\\00"\n'
        "declare i32 @puts(ptr)\n"
        "define i32 @main() {\nentry:\n br label %l\nl:\n call i32 @puts(ptr @s)\n br label %l\n}"
    )
    result = runner.run_object(obj, limits=runner.Limits(output_mb=1, timeout_s=20))
    assert result.signal == signal.SIGXFSZ
    assert len(result.stdout) <= 1024 * 1024


def test_trap_runtime_is_linked() -> None:
    obj = _object("declare void @ember_trap(i64)\ndefine i32 @main() { call void @ember_trap(i64 1)\n ret i32 0 }")
    result = runner.run_object(obj)
    assert result.exit_status == 3
    assert b"division by zero" in result.stderr


def test_the_program_runs_under_its_limits() -> None:
    result = runner.run_command(
        ["/bin/sh", "-c", "ulimit -t; ulimit -c; ulimit -v"], limits=runner.Limits(cpu_s=7, memory_mb=512)
    )
    cpu, core, memory = result.stdout.decode().split()
    assert (cpu, core, memory) == ("7", "0", str(512 * 1024)), result


def test_cpu_limit_stops_a_spinner() -> None:
    result = runner.run_command(["/bin/sh", "-c", "while :; do :; done"], limits=runner.Limits(cpu_s=1, timeout_s=20))
    assert result.signal in (signal.SIGXCPU, signal.SIGKILL) and not result.timed_out, result


def test_a_missing_program_is_still_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        runner.run_command([str(tmp_path / "no-such-program")])
