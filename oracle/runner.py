"""Run compiled code in a sandboxed child process: link with `cc`, limit time, memory, CPU and output.

A crash, hang or runaway output of the program is reported in the result; it never
takes the caller down.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from compiler import children
from compiler.link import link_executable

#: Exit status reported for a program killed at its time limit (as GNU timeout does).
TIMEOUT_STATUS = 124


@dataclass(frozen=True)
class Limits:
    """Resource limits for one run."""

    timeout_s: float = 10.0
    #: address-space limit; None for a GPU run (the CUDA driver reserves far more address space)
    memory_mb: int | None = 2048
    cpu_s: int = 30
    output_mb: int = 64


@dataclass(frozen=True)
class RunResult:
    """What a run produced; `signal` is set when the program died of one."""

    stdout: bytes
    stderr: bytes
    exit_status: int
    signal: int | None = None
    timed_out: bool = False

    @property
    def outcome(self) -> str:
        """A short, comparable description: `exit 0`, `signal SIGSEGV`, `timeout`."""
        if self.timed_out:
            return "timeout"
        if self.signal is not None:
            return f"signal {signal.Signals(self.signal).name}"
        return f"exit {self.exit_status}"


def _limit(limits: Limits) -> Callable[[], None]:
    def apply() -> None:
        if limits.memory_mb is not None:
            mem = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 1))
        out = limits.output_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (out, out))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


#: util-linux's `prlimit` sets the limits and execs the program, so the child starts with
#: no `preexec_fn` and Python can vfork it instead of copying the caller's page tables
#: (a fork costs 12 ms at 300 MB of heap and 33 ms at 1 GB; the fuzzing harness runs a
#: few programs per check). Parent death is covered by `children.GroupGuard` either way.
#: Without prlimit the limits are set in a `preexec_fn`, as before.
PRLIMIT = shutil.which("prlimit")


def _prlimit_argv(limits: Limits) -> list[str]:
    assert PRLIMIT is not None
    out = limits.output_mb * 1024 * 1024
    argv = [PRLIMIT, f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}", f"--fsize={out}:{out}", "--core=0:0"]
    if limits.memory_mb is not None:
        mem = limits.memory_mb * 1024 * 1024
        argv.append(f"--as={mem}:{mem}")
    return [*argv, "--"]


def _runnable(program: str) -> bool:
    """Would exec find `program`? (If not, Popen itself must raise, as it always has.)"""
    if os.sep in program:
        return os.access(program, os.X_OK) and os.path.isfile(program)
    return shutil.which(program) is not None


def _resolved(program: str, cwd: str | Path | None) -> str:
    """A relative path with a directory part is relative to the child's working directory."""
    if cwd is not None and os.sep in program and not os.path.isabs(program):
        return os.path.join(cwd, program)
    return program


def run_executable(
    exe: str | Path, args: Sequence[str] = (), *, stdin: bytes = b"", limits: Limits | None = None
) -> RunResult:
    """Run `exe` in its own session with resource limits; output goes through size-capped files."""
    return run_command([str(exe), *args], stdin=stdin, limits=limits)


def run_command(
    cmd: Sequence[str], *, stdin: bytes = b"", limits: Limits | None = None, cwd: str | Path | None = None
) -> RunResult:
    """`run_executable` for any command line (the GPU host runs a program as a library)."""
    limits = limits or Limits()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp:
        inp.write(stdin)
        inp.seek(0)
        guard = children.GroupGuard()
        token = children.new_token()
        fast = PRLIMIT is not None and bool(cmd) and _runnable(_resolved(str(cmd[0]), cwd))
        proc = subprocess.Popen(
            [*_prlimit_argv(limits), *cmd] if fast else list(cmd),
            stdin=inp,
            stdout=out,
            stderr=err,
            start_new_session=True,
            preexec_fn=None if fast else children.child_setup(_limit(limits)),
            cwd=cwd,
            env=children.sandbox_env(token),
        )
        timed_out = False
        with children.killed_on_exit(proc, guard, token):  # nothing the program forked outlives it
            try:
                proc.wait(timeout=limits.timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    code = proc.returncode
    if timed_out:
        return RunResult(stdout, stderr, TIMEOUT_STATUS, None, True)
    if code < 0:
        return RunResult(stdout, stderr, 128 - code, -code, False)
    return RunResult(stdout, stderr, code, None, False)


def run_object(
    obj: bytes | str | Path,
    args: Sequence[str] = (),
    *,
    with_runtime: bool = True,
    stdin: bytes = b"",
    limits: Limits | None = None,
) -> RunResult:
    """Link an object (bytes or path) into a temporary executable and run it."""
    with tempfile.TemporaryDirectory(prefix="ember-run-") as tmp:
        if isinstance(obj, bytes):
            obj_path = Path(tmp) / "prog.o"
            obj_path.write_bytes(obj)
        else:
            obj_path = Path(obj)
        exe = link_executable([obj_path], Path(tmp) / "prog", with_runtime=with_runtime)
        return run_executable(exe, args, stdin=stdin, limits=limits)
