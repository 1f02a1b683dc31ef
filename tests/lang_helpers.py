"""Helpers for the language tests: run one program through the interpreter and compiled code.

Each program is built once per -O level and run once (results are memoised per process),
and the C runtime is compiled to an object once per process instead of at every link.
"""

from __future__ import annotations

import functools
import signal
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from compiler import driver
from compiler.link import link_executable
from oracle import interp, runner


@dataclass(frozen=True)
class Outcome:
    stdout: str
    exit_status: int
    stderr: str = ""


@functools.cache
def _workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="ember-lang-"))


@functools.cache
def interpret(source: str, *, fuel: int = 2_000_000) -> Outcome:
    r = interp.run_source(source, "prog.em", fuel=fuel)
    assert not r.exhausted, f"interpreter ran out of resources: {r.stderr!r}"
    return Outcome(r.stdout.decode(), r.exit_status, r.stderr.decode())


#: A build that takes longer is hung (e.g. an MLIR pass that never terminates).
BUILD_TIMEOUT_S = 300


def build_object(source: str, opt_level: int) -> bytes:
    """Compile Ember source to an object file (serial back end).

    A hang inside MLIR's C++ code cannot be interrupted from Python, so the default
    SIGALRM action ends the (xdist worker) process instead: the test fails, CI does not hang.
    """
    guard = threading.current_thread() is threading.main_thread()
    if guard:
        previous = signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(BUILD_TIMEOUT_S)
    try:
        with tempfile.TemporaryDirectory(prefix="ember-lang-") as tmp:
            src = Path(tmp) / "prog.em"
            src.write_text(source)
            result = driver.build(str(src), driver.BuildOptions(opt_level=opt_level))
    finally:
        if guard:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    assert isinstance(result.output, bytes)
    return result.output


def run_built(obj: bytes) -> Outcome:
    """Link an object with the prebuilt runtime and run it."""
    with tempfile.TemporaryDirectory(prefix="ember-lang-") as tmp:
        o = Path(tmp) / "prog.o"
        o.write_bytes(obj)
        exe = link_executable([o], Path(tmp) / "prog")
        run = runner.run_executable(exe, limits=runner.Limits(timeout_s=20))
    assert not run.timed_out and run.signal is None, run.outcome
    return Outcome(run.stdout.decode(), run.exit_status, run.stderr.decode())


@functools.cache
def compile_and_run(source: str, opt_level: int) -> Outcome:
    return run_built(build_object(source, opt_level))


def assert_same(source: str, levels: tuple[int, ...] = (0, 2), *, fuel: int = 2_000_000) -> Outcome:
    """The interpreter and compiled code (at each -O level) agree on stdout, status and stderr."""
    expected = interpret(source, fuel=fuel)
    for level in levels:
        got = compile_and_run(source, level)
        assert got == expected, f"-O{level} differs from the interpreter:\n{got}\nvs\n{expected}"
    return expected
