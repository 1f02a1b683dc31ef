"""tests/shared_build_cache.py: a key is built once across processes; the others read the stored value."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from tests import shared_build_cache


def _ask(folder: str, log: str, start: object, results: object) -> None:
    """One process: wait for the other at the barrier, then ask for the key; the builder logs each build."""

    def build() -> tuple[bytes, str]:
        with open(log, "a") as f:
            f.write("built\n")
        time.sleep(0.5)  # long enough that an unlocked cache would let the other process build too
        return b"\x7fELF object", "workload"

    start.wait()  # type: ignore[attr-defined]
    results.put(shared_build_cache.get_or_build(Path(folder), "serial-x-O2", build))  # type: ignore[attr-defined]


def test_two_processes_build_a_key_once(tmp_path: Path) -> None:
    """Two processes asking for the same key at the same moment: one build, both get its value."""
    ctx = multiprocessing.get_context("spawn")
    start, results = ctx.Barrier(2), ctx.Queue()
    log = tmp_path / "builds.log"
    procs = [ctx.Process(target=_ask, args=(str(tmp_path), str(log), start, results)) for _ in range(2)]
    for p in procs:
        p.start()
    got = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert log.read_text() == "built\n"
    assert got == [(b"\x7fELF object", "workload")] * 2


def test_a_failed_build_stores_nothing(tmp_path: Path) -> None:
    """A builder's exception reaches the caller and stores nothing: the next caller builds."""

    def fail() -> int:
        raise RuntimeError("compile failed")

    with pytest.raises(RuntimeError):
        shared_build_cache.get_or_build(tmp_path, "k", fail)
    assert shared_build_cache.get_or_build(tmp_path, "k", lambda: 1) == 1
    assert shared_build_cache.get_or_build(tmp_path, "k", lambda: 2) == 1  # stored: not built again


class _Factory:
    """A stand-in for pytest's TempPathFactory with a given base temp."""

    def __init__(self, base: Path) -> None:
        self.base = base

    def getbasetemp(self) -> Path:
        """The given base temp, created."""
        self.base.mkdir(parents=True, exist_ok=True)
        return self.base


def test_shared_folder_is_the_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under xdist the parent of the worker's base temp (one session's), else the base temp itself."""
    worker = _Factory(tmp_path / "pytest-7" / "popen-gw1")
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert shared_build_cache.shared_folder(worker) == tmp_path / "pytest-7" / "shared-builds"  # type: ignore[arg-type]
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    alone = _Factory(tmp_path / "pytest-8")
    assert shared_build_cache.shared_folder(alone) == tmp_path / "pytest-8" / "shared-builds"  # type: ignore[arg-type]
