"""Run an in-process LLVM stage in a forked child, so that a crash inside LLVM becomes a
one-line error with the input saved instead of killing `ember` without a word.

The serial build optimises and generates code in the `ember` process itself (no pickling, no
second parse: the child shares the parsed module copy-on-write). A fork costs a few
milliseconds even for a large module, against seconds of LLVM work. LLVM's own fatal errors
(`LLVM ERROR: ...`, which exit the process) are quoted from the child's standard error.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from compiler.diagnostics import EmberError, Location

T = TypeVar("T")

#: the child's exit status when it could not even report (pickling failed, out of memory)
_UNREPORTED = 70
#: how a child marks the stage it enters on its standard error (`progress`)
_STAGE_MARK = "ember-guard-stage: "
_in_child = False


def progress(doing: str) -> None:
    """Say, inside a guarded child, what it does next (a crash report names it); else nothing."""
    if _in_child:
        os.write(2, f"{_STAGE_MARK}{doing}\n".encode())


def forked(
    fn: Callable[[], T], *, doing: str, save: Callable[[str], Path], explain: Callable[[str], EmberError | None] | None = None
) -> T:
    """`fn()` computed in a forked child and returned here (its exceptions re-raised here).

    If the child dies (a signal, or LLVM exiting on a fatal error), `save(what)` keeps the
    input and an EmberError names what happened, located at the saved file; unless
    `explain`, given what the child wrote to its standard error, returns the error to raise
    (a bad asm line in the input is the input's fault, not a crash to save). Where `fork`
    is missing, `fn` runs in this process."""
    if not hasattr(os, "fork"):
        return fn()
    with tempfile.TemporaryDirectory(prefix="ember-guard-") as tmp:
        stderr_path = os.path.join(tmp, "stderr.txt")
        read_fd, write_fd = os.pipe()
        for stream in (sys.stdout, sys.stderr):  # None where the descriptor was closed at start
            if stream is not None:
                stream.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read_fd)
            _child(fn, write_fd, stderr_path)
        os.close(write_fd)
        try:
            with os.fdopen(read_fd, "rb") as reader:
                payload = reader.read()
            _, status = os.waitpid(pid, 0)
        except BaseException:  # Ctrl-C or SIGTERM while waiting: the child goes too
            _kill(pid)
            raise
        if payload and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            ok, value = pickle.loads(payload)
            if ok:
                return value
            raise value
        explained = explain(_read(stderr_path)) if explain is not None and os.WIFEXITED(status) else None
        if explained is not None:
            raise explained
        said, stage = _llvm_said(stderr_path)
        doing = stage or doing
        if os.WIFSIGNALED(status):
            what = f"LLVM crashed ({signal.Signals(os.WTERMSIG(status)).name}) while {doing}"
        else:
            what = f"LLVM stopped (exit status {os.WEXITSTATUS(status)}) while {doing}"
        if said:
            what += f": {said}"
        saved = save(what)
        raise EmberError(f"{what}; input saved", Location(str(saved)))


def _child(fn: Callable[[], object], write_fd: int, stderr_path: str) -> None:
    global _in_child
    _in_child = True
    status = _UNREPORTED
    try:
        fd = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 2)
        os.close(fd)
        try:
            payload = pickle.dumps((True, fn()))
        except BaseException as exc:  # noqa: BLE001 - every exception goes back to the parent
            payload = pickle.dumps((False, exc))
        with os.fdopen(write_fd, "wb") as writer:
            writer.write(payload)
        status = 0
    finally:
        os._exit(status)  # no atexit handlers: the parent's pool and files are not the child's


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _read(path: str) -> str:
    try:
        return Path(path).read_text(errors="replace")
    except OSError:
        return ""


def first_error(said: str) -> str:
    """The first `error:` line in what LLVM wrote, as `message (where)`, or ''."""
    line = next((ln.strip() for ln in said.splitlines() if "error:" in ln), "")
    if not line:
        return ""
    where, _, message = line.partition("error:")[2].strip().rpartition(": ")
    return f"{message} ({where})" if where else message


def _llvm_said(stderr_path: str) -> tuple[str, str]:
    """The first line LLVM wrote before dying (`LLVM ERROR: ...` first), or '', and the last
    stage the child announced (`progress`), or ''."""
    lines = [ln.strip() for ln in _read(stderr_path).splitlines() if ln.strip()]
    if not lines:
        return "", ""
    stages = [ln[len(_STAGE_MARK) :] for ln in lines if ln.startswith(_STAGE_MARK)]
    lines = [ln for ln in lines if not ln.startswith(_STAGE_MARK)]
    fatal = next((ln.split("LLVM ERROR:", 1)[1].strip() for ln in lines if "LLVM ERROR:" in ln), "")
    return fatal or (lines[0] if lines else ""), stages[-1] if stages else ""
