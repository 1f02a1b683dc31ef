"""Child processes that never outlive Ember: each runs in its own session (process group),
dies with the driver (PR_SET_PDEATHSIG), and its whole group is killed when it exits,
times out, or the driver is interrupted or terminated.

A descendant that leaves the group (`setsid`, a daemon's double fork) is still found: every
child starts with a fresh token in `EMBER_SANDBOX`, which its descendants inherit, and the
clean-up kills every process whose environment holds the token.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import threading
import time
import uuid
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


SANDBOX_VARIABLE = "EMBER_SANDBOX"


def new_token() -> str:
    """A fresh token marking one child and all its descendants."""
    return f"ember-{uuid.uuid4().hex}"


def sandbox_env(token: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """`env` (default: ours) with `token` added to EMBER_SANDBOX (nested runs keep the outer
    tokens, so an outer clean-up also finds what an inner Ember started)."""
    out = dict(os.environ if env is None else env)
    outer = out.get(SANDBOX_VARIABLE)
    out[SANDBOX_VARIABLE] = f"{outer}:{token}" if outer else token
    return out


def _holders(token: bytes) -> list[int]:
    """Live processes (not this one) whose environment holds `token` (zombies have none)."""
    me = os.getpid()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:  # pragma: no cover - no procfs: the group kill is all there is
        return []
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if token in f.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def kill_holders(token: str, rounds: int = 100) -> None:
    """SIGKILL every process carrying `token`, again until none is left (one may fork while
    we look; a killed parent's children are found in the next round)."""
    needle = token.encode()
    for _ in range(rounds):
        pids = _holders(needle)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)


def kill_direct_children() -> None:
    """SIGKILL every process whose parent is this one: for a driver about to leave after an
    interrupt (a worker caught half-started, the pool's resource tracker)."""
    me = os.getpid()
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:  # pragma: no cover - no procfs
        return
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and int(fields[1]) == me:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(int(entry), signal.SIGKILL)


# The watcher: on EOF without "done" it kills the group, then every process carrying the token.
_GUARD_SCRIPT = (
    'read g || exit 0; read t; read done; [ "$done" = done ] && exit 0; kill -9 -"$g" 2>/dev/null; '
    '[ -n "$t" ] || exit 0; for round in 1 2 3 4 5; do for e in /proc/[0-9]*/environ; do '
    'p=${e%/environ}; grep -qaF -e "$t" "$e" 2>/dev/null && kill -9 "${p#/proc/}" 2>/dev/null; done; sleep 0.05; done; exit 0'
)


class GroupGuard:
    """A tiny watcher (`sh`, its own session) that SIGKILLs a process group, and every process
    carrying its token, once this process dies, however it dies (even SIGKILL): it waits for
    EOF on a pipe only we hold."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        with contextlib.suppress(OSError):
            self._proc = subprocess.Popen(
                ["/bin/sh", "-c", _GUARD_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True,
            )

    def watch(self, pgid: int, token: str = "") -> None:
        """Kill group `pgid` (and the holders of `token`) if this process dies before `release`."""
        self._send(f"{pgid}\n{token}\n")

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
def killed_on_exit(proc: subprocess.Popen[bytes], guard: GroupGuard, token: str = "") -> Iterator[None]:
    """Whatever happens in the block (exit, timeout, Ctrl-C, SIGTERM), `proc`'s process group is
    killed and `proc` reaped after it, then every process carrying `token` (started with
    `sandbox_env(token)`); `guard` covers this process being killed outright."""
    guard.watch(proc.pid, token)
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
        if token:
            kill_holders(token)
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
    token = new_token()
    proc = subprocess.Popen(
        list(cmd), stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
        env=sandbox_env(token, env), start_new_session=True, preexec_fn=child_setup(),
    )
    timed_out = False
    with killed_on_exit(proc, guard, token):
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(proc.pid)
            out, err = proc.communicate()
    return Completed(proc.returncode, out or b"", err or b"", timed_out)
