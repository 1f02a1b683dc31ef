"""Child processes that never outlive Ember: each runs in its own session (process group),
dies with the driver (PR_SET_PDEATHSIG), and its whole group is killed when it exits,
times out, or the driver is interrupted or terminated.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

_PR_SET_PDEATHSIG = 1
try:  # loaded here, in the parent: a forked child before exec must not dlopen
    _LIBC: ctypes.CDLL | None = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - not Linux/glibc
    _LIBC = None


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask the kernel to send `sig` to this process when its parent (thread) dies (Linux)."""
    if _LIBC is not None:
        with contextlib.suppress(AttributeError, OSError):
            _LIBC.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)


def kill_group(pgid: int) -> None:
    """SIGKILL every process of group `pgid` (gone already is fine)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def child_setup(extra: Callable[[], None] | None = None) -> Callable[[], None]:
    """A `preexec_fn`: die with the driver when it is the main thread that starts us, then `extra`."""
    deathsig = threading.current_thread() is threading.main_thread()

    def setup() -> None:
        if deathsig:
            die_with_parent()
        if extra is not None:
            extra()

    return setup


_GUARD_SCRIPT = 'read g || exit 0; read done; [ "$done" = done ] || kill -9 -"$g" 2>/dev/null; exit 0'


class GroupGuard:
    """A tiny watcher (`sh`, its own session) that SIGKILLs a process group once this process
    dies, however it dies (even SIGKILL): it waits for EOF on a pipe only we hold."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        with contextlib.suppress(OSError):
            self._proc = subprocess.Popen(
                ["/bin/sh", "-c", _GUARD_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True,
            )

    def watch(self, pgid: int) -> None:
        """Kill group `pgid` if this process dies before `release`."""
        self._send(f"{pgid}\n")

    def release(self) -> None:
        """The group is dealt with: let the watcher go without killing anything."""
        self._send("done\n")
        if self._proc is not None:
            with contextlib.suppress(OSError):
                if self._proc.stdin is not None:
                    self._proc.stdin.close()
            self._proc.wait()

    def _send(self, line: str) -> None:
        if self._proc is not None and self._proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                self._proc.stdin.write(line.encode())
                self._proc.stdin.flush()


_ACTIVE: set[int] = set()
_ACTIVE_LOCK = threading.Lock()


def kill_all_groups() -> None:
    """Kill every process group started here that is still running (Ctrl-C, SIGTERM: threads
    waiting on them, e.g. `reduce -j` scripts, then return at once)."""
    with _ACTIVE_LOCK:
        groups = list(_ACTIVE)
    for pgid in groups:
        kill_group(pgid)


@contextlib.contextmanager
def killed_on_exit(proc: subprocess.Popen[bytes], guard: GroupGuard) -> Iterator[None]:
    """Whatever happens in the block (exit, timeout, Ctrl-C, SIGTERM), `proc`'s process group is
    killed and `proc` reaped after it; `guard` covers this process being killed outright."""
    guard.watch(proc.pid)
    with _ACTIVE_LOCK:
        _ACTIVE.add(proc.pid)
    try:
        yield
    finally:
        with _ACTIVE_LOCK:
            _ACTIVE.discard(proc.pid)
        kill_group(proc.pid)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        guard.release()


@dataclass(frozen=True)
class Completed:
    """What a command run by `run_captured` did."""

    returncode: int
    stdout: bytes
    stderr: bytes
    timed_out: bool


def run_captured(
    cmd: Sequence[str],
    *,
    timeout: float | None,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    stdin: int | None = subprocess.DEVNULL,
) -> Completed:
    """Run `cmd` in its own process group with stdout/stderr captured; on timeout, on exit and
    on any exception (Ctrl-C, SIGTERM) the whole group is killed, so nothing it forked survives
    or keeps the pipes open. OSError (not found, not executable) propagates to the caller."""
    guard = GroupGuard()
    proc = subprocess.Popen(
        list(cmd), stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env,
        start_new_session=True, preexec_fn=child_setup(),
    )
    timed_out = False
    with killed_on_exit(proc, guard):
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(proc.pid)
            out, err = proc.communicate()
    return Completed(proc.returncode, out or b"", err or b"", timed_out)
