"""module-data: `source_filename`, `target datalayout`/`triple` lines and attribute groups
nothing refers to go."""

from __future__ import annotations

import re

from fuzz.reduce.ir.common import line_pass

_MODULE_DATA = re.compile(r"^(?:source_filename|target datalayout|target triple) = ")
_ATTR_GROUP = re.compile(r"^attributes (#[0-9]+) = ")


def _module_data_lines(text: str) -> list[int]:
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if _MODULE_DATA.match(line):
            out.append(i)
            continue
        m = _ATTR_GROUP.match(line)
        if m and not re.search(re.escape(m.group(1)) + r"(?![0-9])", "\n".join(lines[:i] + lines[i + 1 :])):
            out.append(i)
    return out


PASS = line_pass("module-data", _module_data_lines, label=lambda line: line)
