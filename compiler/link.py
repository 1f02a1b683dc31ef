"""Linking a program: the Ember C runtime (compiled once per process) and the system `cc` as
the linker driver. `ember run` and the harness both link through here.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from compiler.diagnostics import EmberError, Location


def runtime_sources() -> list[Path]:
    """The C runtime linked into every Ember program (print helpers, traps)."""
    root = resources.files("compiler") / "runtime"
    return sorted(Path(str(p)) for p in root.iterdir() if str(p).endswith(".c"))


@functools.cache
def runtime_objects() -> tuple[Path, ...]:
    """The runtime compiled once per process (`cc -c -O2`; compiling it at every link costs ~100 ms)."""
    tmp = Path(tempfile.mkdtemp(prefix="ember-rt-"))
    atexit.register(shutil.rmtree, tmp, True)
    objects = []
    for src in runtime_sources():
        out = tmp / (src.stem + ".o")
        subprocess.run([find_cc(), "-c", "-O2", "-fPIC", "-o", str(out), str(src)], check=True)
        objects.append(out)
    return tuple(objects)


def find_cc() -> str:
    """The system C compiler used as the linker driver."""
    for name in (os.environ.get("CC", ""), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise EmberError("no C compiler (cc) found to link the program; install gcc")


def link_executable(
    objects: Sequence[str | Path],
    out: str | Path,
    *,
    with_runtime: bool = True,
    extra_args: Sequence[str] = (),
    shared: bool = False,
) -> Path:
    """Link objects (plus the Ember runtime) into an executable with the system `cc`, or
    into a shared library (`shared`: what the GPU host loads, compiler/offload/gpu_host.py)."""
    # -Bsymbolic: the program's own functions win over same-named ones already loaded in
    # the host process (libc's `log`, `round`, ...), as they do in an executable
    cmd = [find_cc(), *(["-shared", "-fPIC", "-Wl,-Bsymbolic"] if shared else []), "-o", str(out), *map(str, objects)]
    if with_runtime:
        cmd += [str(p) for p in runtime_objects()]  # compiled once per process
    cmd += [*extra_args, "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        lines = proc.stderr.splitlines()
        # the linker's own complaint (undefined/multiple definition) beats collect2's summary
        first = next(
            (ln for ln in lines if "undefined reference" in ln or "multiple definition" in ln),
            next((ln for ln in lines if "error" in ln), proc.stderr.strip()),
        )
        first = re.sub(r"^.*?: (?=(undefined reference|multiple definition))", "", first)
        raise EmberError(f"link failed: {first}", Location(str(objects[0]) if objects else str(out)))
    return Path(out)
