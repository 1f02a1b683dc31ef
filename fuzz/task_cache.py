"""A reduction's cache of split back-end tasks: a subgraph compiled for one candidate is not
compiled again for the next.

Consecutive candidates of a reduction differ in a few functions, so most of a split build's
subgraphs are the same text as in an earlier candidate. A build server given this cache (as
`BuildHooks.tasks`, compiler/hooks.py) looks each subgraph task up by `split.task_key`, a
digest of everything the task reads, and sends only the misses to its workers. The results
are files in one folder (the reduction's work directory), so the build servers of parallel
candidates share them; a file is written whole or not at all. The folder lives as long as
one reduction, with one compiler: the key does not name the compiler's version.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import tempfile
import threading
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compiler.backend.split import Optimised, TaskResult


class TaskFiles:
    """`BuildHooks.tasks` kept as one compressed pickle per task key in `directory`."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()

    def _file(self, key: str) -> Path:
        return self.directory / f"task-{key}.pickle.z"

    def get(self, key: str) -> TaskResult | Optimised | None:
        """The stored result of the task `key`, or None (absent or unreadable: then it is compiled)."""
        try:
            result: TaskResult | Optimised | None = pickle.loads(zlib.decompress(self._file(key).read_bytes()))
        except (OSError, ValueError, EOFError, pickle.UnpicklingError, AttributeError, TypeError, zlib.error):
            result = None
        with self._lock:
            if result is None:
                self.misses += 1
            else:
                self.hits += 1
        return result

    def put(self, key: str, result: TaskResult | Optimised) -> None:
        """Store a finished task's result (atomically: a reader sees all of it or nothing).
        Pickled: the folder is the reduction's own, written and read by one compiler."""
        blob = zlib.compress(pickle.dumps(result), 1)
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".task-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, self._file(key))
        except OSError:  # a full disk costs the reuse, never the build
            with contextlib.suppress(OSError):
                os.unlink(tmp)
