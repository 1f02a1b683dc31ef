"""unused-types-metadata: named struct types, metadata nodes nothing refers to, and named
metadata (`!llvm.ident`, `!llvm.module.flags`, ...) go.

A slice of a real program (`fuzz.reduce.evidence`) keeps every struct type and the whole
TBAA tree of the module it came from: on Lua, 740 of a 771-line slice whose only
definition was one constant array."""

from __future__ import annotations

import re
from collections import Counter

from fuzz.reduce.ir.common import line_pass

_TYPE_DEF = re.compile(r'^(%[-\w.$]+|%"[^"]*") = type ')
_NODE_DEF = re.compile(r"^(![0-9]+) = ")
_NAMED_MD = re.compile(r"^![A-Za-z_.$][-\w.$]* = !\{")
_TOKENS = re.compile(r'%[-\w.$]+|%"[^"]*"|![0-9]+(?![0-9])')


def _unused_lines(text: str) -> list[int]:
    lines = text.split("\n")
    uses = Counter(_TOKENS.findall(text))
    out = []
    for i, line in enumerate(lines):
        if _NAMED_MD.match(line):
            out.append(i)
            continue
        m = _TYPE_DEF.match(line) or _NODE_DEF.match(line)
        if m and uses[m.group(1)] == line.count(m.group(1)):  # named only by its own definition
            out.append(i)
    return out


PASS = line_pass("unused-types-metadata", _unused_lines, label=lambda line: line.split(" = ", 1)[0])
