"""Compare PTX from the two offload flows (test code: tests/test_offload_*.py and launch_probe.py): normalised text and `.entry` signatures.

The flows differ only in naming: the all-kernel flow's split planner renames copies of a
callee outside its home subgraph (`helper.ember.<k>`, in PTX `helper_$_ember_$_<k>`), and
comments (`// callseq N`) number call sequences per module. Normalising removes exactly
those, so any other difference (an instruction, a register count) is reported.
"""

from __future__ import annotations

import re

_COPY_SUFFIX = re.compile(r"_\$_ember_\$_\d+")
_ENTRY = re.compile(r"\.entry\s+([\w$]+)\s*\(([^)]*)\)", re.S)
_PARAM = re.compile(r"\.param\s+(\.\w+)(\s+\.ptr)?(?:\s+\.\w+)*(?:\s+\.align\s+\d+)?\s+[\w$]+")


def normalise_ptx(ptx: str) -> str:
    """PTX without comments, blank lines and split-copy suffixes."""
    lines = []
    for line in ptx.splitlines():
        line = line.split("//", 1)[0].rstrip()
        if line.strip():
            lines.append(_COPY_SUFFIX.sub("", line))
    return "\n".join(lines) + "\n"


def entry_signatures(ptx: str) -> dict[str, list[str]]:
    """`.entry` name -> parameter types, e.g. `['.f64', '.u64 .ptr', '.u64']`."""
    out: dict[str, list[str]] = {}
    for name, params in _ENTRY.findall(ptx):
        out[name] = [t + (" .ptr" if ptr else "") for t, ptr in _PARAM.findall(params)]
    return out
