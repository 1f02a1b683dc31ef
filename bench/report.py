"""The one table and JSON writer of the benchmarks, and the line that says where a figure
was measured (the docs quote it above each table; the raw rows go to `docs/bench/`)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def table(head: Sequence[str], rows: Sequence[Sequence[object]], *, numeric: Sequence[bool] | None = None) -> str:
    """A markdown table; `numeric[i]` right-aligns column i (default: every column after the first
    whose cells are all numbers). A `|` or a line break inside a cell is made harmless."""
    cells = [[_cell(c) for c in row] for row in rows]
    if numeric is None:
        numeric = [i > 0 and all(_is_number(r[i]) for r in rows if i < len(r)) for i in range(len(head))]
    rule = "|" + "|".join("---:" if n else "---" for n in numeric) + "|"
    lines = ["| " + " | ".join(map(_cell, head)) + " |", rule]
    lines += ["| " + " | ".join(row + [""] * (len(head) - len(row))) + " |" for row in cells]
    return "\n".join(lines)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        value = f"{value:.2f}"
    return " ".join(str(value).split()).replace("|", "/")


#: a cell that reads as a figure: 1,234 / 0.52 / 1.38x / 12.5% (a trailing * or ! marks it)
_FIGURE = re.compile(r"^-?[0-9][0-9,]*(\.[0-9]+)?(x|%)?[*!]?$")


def _is_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int | float) or (isinstance(value, str) and _FIGURE.match(value) is not None)


def machine() -> str:
    """CPU model, cores, load, date and LLVM version: the line above a table."""
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} cores (load average {load}); {time.strftime('%Y-%m-%d %H:%M %Z')}; "
            f"LLVM {llvm_version()}")


def llvm_version() -> str:
    from compiler.backend import engine

    try:
        said = subprocess.run([str(engine.tools_dir() / "llc"), "--version"], capture_output=True, text=True).stdout
    except OSError:
        return "?"
    m = re.search(r"LLVM version (\S+)", said)
    return m.group(1) if m else "?"


def write_json(path: str | Path | None, record: dict[str, Any]) -> None:
    """The raw rows as one JSON document (atomically; nothing when `path` is None), with the
    machine line and the command that made them unless the record has its own."""
    if path is None:
        return
    from compiler import outputs

    record = {"machine": machine(), "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d"), **record}
    outputs.write_output(str(path), json.dumps(record, indent=2, default=str) + "\n")


def arguments(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """A benchmark's parser: its docstring as the description, and `--json FILE` for the raw rows."""
    parser = argparse.ArgumentParser(prog=f"python -m {prog}", description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", metavar="FILE", default=None, help="also write the raw rows here as JSON")
    return parser
