"""dead-values: a value definition nothing uses goes (what the instruction passes leave
behind); calls and phis stay."""

from __future__ import annotations

import re

from fuzz.reduce.ir.common import function_bodies, line_pass

_DEF = re.compile(r"^  (%[-\w.$]+) = ")


def _dead_value_lines(text: str) -> list[int]:
    lines = text.split("\n")
    out: list[int] = []
    for start, end in function_bodies(lines):
        body = "\n".join(lines[start : end + 1])
        for j in range(start + 1, end):
            m = _DEF.match(lines[j])
            if m and " = phi " not in lines[j] and not lines[j].lstrip().startswith(m.group(1) + " = call"):
                uses = len(re.findall(re.escape(m.group(1)) + r"(?![-\w.$])", body))
                if uses == 1:
                    out.append(j)
    return out


PASS = line_pass("dead-values", _dead_value_lines)
