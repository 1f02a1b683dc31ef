"""Validate PTX with NVIDIA's `ptxas` when it is installed (CI machines have none)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


def find_ptxas() -> str | None:
    """Path of `ptxas`, or None when the CUDA toolkit is absent."""
    return shutil.which("ptxas")


def check(ptx: str, arch: str) -> str:
    """Assemble `ptx` for `arch`; returns ptxas's error text ('' when it is valid)."""
    exe = find_ptxas()
    if exe is None:
        raise FileNotFoundError("ptxas is not installed")
    with tempfile.TemporaryDirectory(prefix="ember-ptxas-") as tmp:
        src = Path(tmp) / "k.ptx"
        src.write_text(ptx)
        proc = subprocess.run(
            [exe, f"-arch={arch}", str(src), "-o", str(Path(tmp) / "k.cubin")], capture_output=True, text=True
        )
    return "" if proc.returncode == 0 else (proc.stderr or proc.stdout or f"ptxas exit {proc.returncode}")
