"""The fuzzing build servers' lowering cache: a program is lowered (front end and midend)
once per -O level, not once per split configuration.

A build server builds each program in about six split configurations at one or two -O
levels; the front end and midend depend only on the text, the path and the options in
the driver's key, so the server keeps the last few lowerings in memory, and, when the
builds of one program are spread over several servers, as files in a folder they share
(`shared_in`), so the servers lower it once between them. The driver knows nothing of
this: the server passes the cache in `BuildOptions.hooks.lowering` (compiler/hooks.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path


class LoweringCache:
    """The last `entries` lowerings of this process, optionally shared through a folder."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._memory: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self._lock = threading.Lock()

    def shared_in(self, directory: str | Path | None) -> SharedLowerings:
        """This cache, also keeping and reusing lowerings as files in `directory` (None: memory only)."""
        return SharedLowerings(self, Path(directory) if directory is not None else None)

    def remembered(self, key: tuple[object, ...]) -> str | None:
        with self._lock:
            hit = self._memory.get(key)
            if hit is not None:
                self._memory.move_to_end(key)
            return hit

    def remember(self, key: tuple[object, ...], text: str) -> None:
        with self._lock:
            self._memory[key] = text
            while len(self._memory) > self.entries:
                self._memory.popitem(last=False)


class SharedLowerings:
    """A `LoweringCache` seen through one shared folder: what a build gets as its `lowering` hook."""

    def __init__(self, cache: LoweringCache, directory: Path | None) -> None:
        self.cache = cache
        self.directory = directory

    def lower(self, key: tuple[object, ...], produce: Callable[[], str], notes: list[str]) -> str:
        """The lowering for `key`: from memory, from the shared folder, or `produce()`d."""
        hit = self.cache.remembered(key)
        if hit is not None:
            notes.append("front end and midend: reused this process's earlier lowering of the same input")
            return hit
        shared = self._file(key)
        if shared is not None and shared.is_file():
            with contextlib.suppress(OSError, UnicodeDecodeError):
                hit = shared.read_text()
        if hit is not None:
            notes.append(f"front end and midend: reused the lowering of the same input in {shared}")
            text = hit
        else:
            text = produce()
            if shared is not None:
                _write_whole(shared, text)
        self.cache.remember(key, text)
        return text

    def _file(self, key: tuple[object, ...]) -> Path | None:
        if self.directory is None:
            return None
        return self.directory / f".ember-lowered-{hashlib.sha256(repr(key).encode()).hexdigest()[:32]}.ll"


def _write_whole(path: Path, text: str) -> None:
    """Whole or not at all (another process may be reading it): a temporary file, then rename."""
    temporary: str | None = None
    try:
        with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=".ember-lowering-", delete=False) as f:
            temporary = f.name
            f.write(text)
        os.replace(temporary, path)
    except OSError:  # a read-only or vanished folder: the cache is an optimisation only
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
