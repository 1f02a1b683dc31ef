"""Helpers for the language tests: run one program through the interpreter and compiled code."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from compiler import driver
from oracle import interp, runner


@dataclass(frozen=True)
class Outcome:
    stdout: str
    exit_status: int
    stderr: str = ""


def interpret(source: str, *, fuel: int = 2_000_000) -> Outcome:
    r = interp.run_source(source, "prog.em", fuel=fuel)
    assert not r.exhausted, f"interpreter ran out of resources: {r.stderr!r}"
    return Outcome(r.stdout.decode(), r.exit_status, r.stderr.decode())


def compile_and_run(source: str, opt_level: int) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="ember-lang-") as tmp:
        src = Path(tmp) / "prog.em"
        src.write_text(source)
        result = driver.build(str(src), driver.BuildOptions(opt_level=opt_level))
        assert isinstance(result.output, bytes)
        run = runner.run_object(result.output, limits=runner.Limits(timeout_s=20))
    assert not run.timed_out and run.signal is None, run.outcome
    return Outcome(run.stdout.decode(), run.exit_status, run.stderr.decode())


def assert_same(source: str, levels: tuple[int, ...] = (0, 2)) -> Outcome:
    """The interpreter and compiled code (at each -O level) agree on stdout, status and stderr."""
    expected = interpret(source)
    for level in levels:
        got = compile_and_run(source, level)
        assert got == expected, f"-O{level} differs from the interpreter:\n{got}\nvs\n{expected}"
    return expected
