"""A file-locked cache that builds each key once per pytest session, across pytest-xdist workers.

tests/test_corpus.py's serial reference builds (the slowest build of a row) go through it: the
first worker to ask for a key builds it under an exclusive `fcntl.flock` on the key's lock file
and stores the value (pickled, written to a temporary name and renamed into place); a worker
asking meanwhile waits on the lock, then reads the stored value. The folder is the session's own
(`shared_folder`), so nothing outlives the session or crosses into another one.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def shared_folder(factory: pytest.TempPathFactory) -> Path:
    """This session's folder shared by its xdist workers (the parent of a worker's base temp; without xdist, the base temp)."""
    base = factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-builds"
    folder.mkdir(exist_ok=True)
    return folder


def get_or_build(folder: Path, key: str, build: Callable[[], T]) -> T:
    """The value stored under `key` in `folder`; built (and stored) by the first caller of any process, under the key's lock."""
    data = folder / f"{key}.pickle"
    with open(folder / f"{key}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also on an exception
        if data.exists():
            value: T = pickle.loads(data.read_bytes())
            return value
        value = build()  # an exception stores nothing: the next caller builds again
        partial = data.with_name(f"{data.name}.{os.getpid()}.partial")
        partial.write_bytes(pickle.dumps(value))
        os.replace(partial, data)
        return value
