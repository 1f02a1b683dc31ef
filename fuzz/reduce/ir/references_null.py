"""references-null: a reference to a global value as a pointer operand (`ptr @g` in an
instruction or in a variable's initialiser) becomes `ptr null`, so what only it named can go:
a vtable's methods, a constant passed as an argument (llvm-reduce's operands-zero covers
every operand; operands-zero here covers locals). Callees, `define`/`declare` lines,
personalities, aliases and the `llvm.*` arrays are left alone (null is not allowed there)."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass

#: `ptr @name` not followed by `(` (a callee, a function's own name)
_REF = re.compile(r'(?<!personality )(?<=ptr )@([-\w.$]+|"[^"]*")(?![-\w.$]*\()')
_SKIP = re.compile(r"^(?:define |declare |@llvm\.|@[-\w.$\"]+ = [^\n]*\b(?:alias|ifunc) )")


def _sites(text: str) -> list[tuple[int, int, int, str]]:
    """(line, start, end, name) of each pointer operand naming a global value."""
    sites: list[tuple[int, int, int, str]] = []
    for i, line in enumerate(text.split("\n")):
        if line and not _SKIP.match(line) and "@" in line:
            sites.extend((i, m.start(), m.end(), m.group(0)) for m in _REF.finditer(line))
    return sites


def _chunks(text: str) -> list[str]:
    """Labels: the name and its occurrence (a name referenced twice is two chunks)."""
    seen: dict[str, int] = {}
    labels = []
    for _i, _a, _b, name in _sites(text):
        seen[name] = seen.get(name, 0) + 1
        labels.append(f"{name}#{seen[name]}")
    return labels


def _apply(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    # right to left within a line, so earlier offsets stay valid
    for k, (i, a, b, _name) in sorted(enumerate(_sites(text)), key=lambda kv: (kv[1][0], -kv[1][1])):
        if k not in keep:
            lines[i] = lines[i][:a] + "null" + lines[i][b:]
    return "\n".join(lines)


PASS = DeltaPass("references-null", _chunks, _apply)
