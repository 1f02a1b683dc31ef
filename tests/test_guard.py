"""The fork guard of in-process LLVM stages (compiler/backend/guard.py): results and errors come
back, a crash or a fatal exit becomes one located error with the input saved."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from compiler.backend import guard
from compiler.diagnostics import EmberError, Location


def _saver(tmp_path: Path) -> tuple[list[str], Callable[[str], Path]]:
    said: list[str] = []

    def save(what: str) -> Path:
        said.append(what)
        path = tmp_path / "module.ll"
        path.write_text("; the input\n")
        return path

    return said, save


def test_the_result_and_a_large_one_come_back(tmp_path: Path) -> None:
    _, save = _saver(tmp_path)
    assert guard.forked(lambda: ("obj", {"optimise": 1.5}), doing="x", save=save) == ("obj", {"optimise": 1.5})
    blob = os.urandom(5 << 20)  # more than a pipe buffer holds
    assert guard.forked(lambda: blob, doing="x", save=save) == blob


def test_an_error_in_the_child_is_raised_here_with_its_location(tmp_path: Path) -> None:
    said, save = _saver(tmp_path)

    def fail() -> None:
        raise EmberError("bad thing", Location("in.ll", 3, 4))

    with pytest.raises(EmberError) as caught:
        guard.forked(fail, doing="x", save=save)
    assert caught.value.render() == "in.ll:3:4: error: bad thing"
    assert said == []  # not a crash: nothing saved


def test_a_crash_is_one_line_naming_the_stage_with_the_input_saved(tmp_path: Path) -> None:
    said, save = _saver(tmp_path)

    def crash() -> None:
        guard.progress("generating code")
        os.kill(os.getpid(), signal.SIGSEGV)

    with pytest.raises(EmberError) as caught:
        guard.forked(crash, doing="optimising", save=save)
    assert caught.value.render() == f"{tmp_path / 'module.ll'}: error: LLVM crashed (SIGSEGV) while generating code; input saved"
    assert said == ["LLVM crashed (SIGSEGV) while generating code"]


def test_a_fatal_llvm_exit_is_quoted(tmp_path: Path) -> None:
    said, save = _saver(tmp_path)

    def fatal() -> None:
        os.write(2, b"LLVM ERROR: Cannot select: some node\n")
        os._exit(1)

    with pytest.raises(EmberError, match=r"LLVM stopped \(exit status 1\) while optimising: Cannot select: some node; input saved"):
        guard.forked(fatal, doing="optimising", save=save)
    assert len(said) == 1


def test_progress_outside_a_child_writes_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    guard.progress("anything")
    assert capfd.readouterr().err == ""
