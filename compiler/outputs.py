"""Writing a command's output: never onto an input, atomically for regular files, straight
through to stdout (`-`), devices and FIFOs, through symlinks to their target, with the
permissions the umask gives (not the 0600 of a temporary file).

Every command that takes `-o` (build, reduce, ...) checks it with `check_output` before
any work and writes with `write_output`.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from compiler.diagnostics import EmberError, Location, UsageError

STDOUT = "-"


def current_umask() -> int:
    """The process umask, read without changing it (Linux `/proc`), else set-and-restore."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def default_mode(executable: bool = False) -> int:
    """The mode a newly created file gets under the current umask (0666 or 0777 minus umask)."""
    return (0o777 if executable else 0o666) & ~current_umask()


def same_file(a: str, b: str) -> bool:
    """Whether paths `a` and `b` name the same existing file (same device and inode)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output(out: str | None, inputs: Iterable[str], option: str = "-o") -> None:
    """Refuse an empty output path, a directory, and any output that is (the same file as) an input."""
    if out is None or out == STDOUT:
        return
    if out == "":
        raise UsageError(f"{option} needs a path (got an empty string; use '-' for stdout)")
    if os.path.isdir(out):
        raise UsageError(f"{option} {out}: is a directory")
    for inp in inputs:
        if inp and same_file(out, inp):
            raise UsageError(f"{option} {out}: is the input {inp} (refusing to overwrite it)")


def write_output(path: str, data: bytes | str) -> None:
    """Write `data` to `path`: `-` is stdout; a device or FIFO (also behind a symlink) is written
    through; a regular file is replaced atomically, at the symlink's target when `path` is one."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if path == STDOUT or _own_descriptor(path) == 1:
        write_stdout(payload)
        return
    fd = _own_descriptor(path)
    if fd is not None:
        _write_descriptor(fd, payload, path)
        return
    try:
        st = os.stat(path)  # follows symlinks
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise EmberError(f"cannot write output: {exc.strerror}", Location(path)) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise EmberError("cannot write output: is a directory", Location(path))
    if (st is not None and not stat.S_ISREG(st.st_mode)) or (st is None and os.path.islink(path)):
        _write_through(path, payload)
        return
    target = os.path.realpath(path) if os.path.islink(path) else path
    mode = stat.S_IMODE(st.st_mode) if st is not None else default_mode()
    _replace_atomically(target, payload, mode, shown=path)


def _own_descriptor(path: str) -> int | None:
    """The descriptor number `/dev/stdout`, `/dev/fd/N` or `/proc/self/fd/N` names in this
    process, or None: such an output is written to that descriptor (re-opening it would
    truncate a `>>` redirection or detach the shell's)."""
    m = re.match(r"^/(?:dev/(stdout|stderr|fd/(\d+))|proc/(self|\d+)/fd/(\d+))$", os.path.normpath(path))
    if m is None or (m.group(3) not in (None, "self") and int(m.group(3)) != os.getpid()):
        return None
    if m.group(1) in ("stdout", "stderr"):
        return 1 if m.group(1) == "stdout" else 2
    return int(m.group(2) or m.group(4))


def write_stdout(payload: bytes) -> None:
    """Write bytes to stdout; a closed or failing stdout is a one-line error, not a traceback."""
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError, AttributeError) as exc:
        reason = getattr(exc, "strerror", None) or "standard output is closed"
        raise EmberError(f"cannot write output: {reason}", Location("<stdout>")) from None


def write_stderr(payload: bytes) -> None:
    """Pass a child's stderr bytes through (a closed stderr drops them: there is nowhere to say so)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
        sys.stderr.buffer.write(payload)
        sys.stderr.buffer.flush()


def _write_descriptor(fd: int, payload: bytes, shown: str) -> None:
    """Write all of `payload` to an open descriptor of ours."""
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise EmberError(f"cannot write output: {exc.strerror}", Location(shown)) from None


def _write_through(path: str, payload: bytes) -> None:
    """Open and write in place (devices, FIFOs, dangling symlinks): never replace the node."""
    try:
        with open(path, "wb") as fh:
            fh.write(payload)
    except OSError as exc:
        raise EmberError(f"cannot write output: {exc.strerror}", Location(path)) from None


def _replace_atomically(target: str, payload: bytes, mode: int, shown: str) -> None:
    """A temporary file next to `target`, given `mode`, renamed over it: never half a file."""
    directory = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", dir=directory)
    except OSError as exc:
        raise EmberError(f"cannot write output: {exc.strerror}", Location(shown)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(payload)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise EmberError(f"cannot write output: {exc.strerror}", Location(shown)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
