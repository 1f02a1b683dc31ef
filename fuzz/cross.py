"""Cross-target runs for the harness: building, linking and running AArch64 programs on an
x86-64 machine with Debian's cross tools (`gcc-aarch64-linux-gnu`, `libc6-dev-arm64-cross`)
and user-mode QEMU (`qemu-user`). `ci/system-deps.sh` installs them; without them the
callers skip with `missing()`'s reason.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

AARCH64 = "aarch64-linux-gnu"
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


def link(objects: list[Path], exe: Path) -> Path:
    """Link AArch64 objects (libc and libm) into an executable with the cross gcc."""
    proc = subprocess.run([_GCC, "-o", str(exe), *map(str, objects), "-lm"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{_GCC} failed: {proc.stderr.strip()[:500]}")
    return exe


def runner_prefix() -> list[str]:
    """The command words that run an AArch64 executable here (`qemu-aarch64 -L SYSROOT`)."""
    return [_QEMU, "-L", str(SYSROOT)]
