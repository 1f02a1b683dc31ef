"""entry-labels: the label of an entry block that no phi names goes (LLVM numbers the block)."""

from __future__ import annotations

import re

from fuzz.reduce.ir.common import LABEL, function_bodies, line_pass


def _entry_label_lines(text: str) -> list[int]:
    """The label line of each entry block that no phi names (nothing can branch to an
    entry block, so phis are its only users); unlabelled, LLVM numbers the block."""
    lines = text.split("\n")
    out = []
    for start, end in function_bodies(lines):
        m = LABEL.match(lines[start + 1]) if start + 1 < end else None
        if m is None:
            continue
        name = "%" + m.group(0)[:-1]
        if not any(re.search(re.escape(name) + r"(?![-\w.$\"])", lines[j]) for j in range(start + 2, end)):
            out.append(start + 1)
    return out


PASS = line_pass("entry-labels", _entry_label_lines, label=lambda line: line.split(":")[0])
