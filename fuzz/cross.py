"""Cross-target runs for the harness: building, linking and running AArch64 programs on an
x86-64 machine with Debian's cross tools (`gcc-aarch64-linux-gnu`, `libc6-dev-arm64-cross`)
and user-mode QEMU (`qemu-user`). `ci/system-deps.sh` installs them; without them the
callers skip with `missing()`'s reason (`ember fuzz --target` stops with it).
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from compiler.diagnostics import EmberError, Location

AARCH64 = "aarch64-linux-gnu"
#: the targets whose programs the harness can link and run here (`ember fuzz --target`)
RUNNABLE = (AARCH64,)
SYSROOT = Path("/usr/aarch64-linux-gnu")
_GCC = "aarch64-linux-gnu-gcc"
_QEMU = "qemu-aarch64"


def missing(*, run: bool = True) -> str | None:
    """Why AArch64 programs cannot be compiled (and, with `run`, linked and run) here, or None."""
    if not (SYSROOT / "include" / "stdio.h").exists():
        return "no AArch64 C headers (apt-get install libc6-dev-arm64-cross; ci/system-deps.sh)"
    if run and (shutil.which(_GCC) is None or shutil.which(_QEMU) is None):
        return f"no {_GCC} or {_QEMU} (apt-get install gcc-aarch64-linux-gnu qemu-user; ci/system-deps.sh)"
    return None


@functools.cache
def runtime_objects() -> tuple[Path, ...]:
    """The Ember C runtime compiled for AArch64, once per process (as `compiler.link.runtime_objects`
    does for the host)."""
    from compiler.link import runtime_sources

    tmp = Path(tempfile.mkdtemp(prefix="ember-rt-aarch64-"))
    atexit.register(shutil.rmtree, tmp, True)
    objects = []
    for src in runtime_sources():
        out = tmp / (src.stem + ".o")
        proc = subprocess.run([_GCC, "-c", "-O2", "-fPIC", "-o", str(out), str(src)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise EmberError(f"{_GCC} cannot compile the Ember runtime: {proc.stderr.strip()}", Location(str(src)))
        objects.append(out)
    return tuple(objects)


def link(objects: Sequence[Path], exe: Path, *, with_runtime: bool = False) -> Path:
    """Link AArch64 objects (libc and libm; with `with_runtime`, the Ember runtime) into an
    executable with the cross gcc; a failure is an EmberError naming the linker's complaint."""
    cmd = [_GCC, "-o", str(exe), *map(str, objects), *(map(str, runtime_objects()) if with_runtime else ()), "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        first = next((ln for ln in lines if "undefined reference" in ln or "multiple definition" in ln or "error" in ln), "")
        raise EmberError(f"{_GCC} failed: {first or proc.stderr.strip()[:500]}", Location(str(objects[0]) if objects else str(exe)))
    return exe


def runner_prefix() -> list[str]:
    """The command words that run an AArch64 executable here (`qemu-aarch64 -L SYSROOT`)."""
    return [_QEMU, "-L", str(SYSROOT)]


def shell_commands(target: str | None) -> tuple[str, str]:
    """The C compiler that links and the prefix that runs a `target` program, as words for a
    shell script (`reproduce.sh`): `cc` and nothing for the host."""
    if target is None:
        return "cc", ""
    assert target in RUNNABLE, target
    return _GCC, " ".join(runner_prefix()) + " "
