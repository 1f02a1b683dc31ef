"""return-types: a function whose result no call uses returns void (llvm-reduce's
return types)."""

from __future__ import annotations

import re

from compiler.backend import irmodel
from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    CALL_OF,
    HEAD,
    RETURN_ATTRS,
    SIMPLE_TYPE,
    direct_call_only,
    function_bodies,
)


def _void_return_sites(text: str) -> list[str]:
    """Direct-call-only functions returning a value that no call site uses."""
    lines = text.split("\n")
    candidates = {}
    for name, i in direct_call_only(text).items():
        m = HEAD.match(lines[i])
        assert m is not None
        ret = RETURN_ATTRS.sub("", " " + m.group(2)).split()
        if ret and ret[-1] != "void" and SIMPLE_TYPE.fullmatch(ret[-1]):
            candidates[name] = ret[-1]
    for start, end in function_bodies(lines):
        body = "\n".join(lines[start : end + 1])
        for j in range(start + 1, end):
            m = CALL_OF.match(lines[j])
            callee = irmodel.unquote(m.group(6)[1:]) if m else ""
            if m and m.group(2) and callee in candidates and len(re.findall(re.escape(m.group(2)) + r"(?![-\w.$])", body)) > 1:
                candidates.pop(callee)
    return list(candidates)


def _returns_to_void(text: str, keep: set[int]) -> str:
    """Functions outside `keep` return void: `ret T v` becomes `ret void`, call sites drop
    their (unused) result (llvm-reduce's return-type reduction)."""
    names = {n for k, n in enumerate(_void_return_sites(text)) if k not in keep}
    if not names:
        return text
    lines = text.split("\n")
    heads = direct_call_only(text)
    bodies = dict(function_bodies(lines))
    for name in names:
        at = heads[name]
        m = HEAD.match(lines[at])
        assert m is not None
        words = RETURN_ATTRS.sub("", " " + m.group(2)).split()
        lines[at] = f"{m.group(1)} {' '.join([*words[:-1], 'void'])} {lines[at][len(m.group(1)) + 1 + len(m.group(2)):]}"
        for j in range(at + 1, bodies.get(at, at)):
            if lines[j].startswith("  ret "):
                lines[j] = "  ret void"
    for j, line in enumerate(lines):
        c = CALL_OF.match(line)
        if c and irmodel.unquote(c.group(6)[1:]) in names:
            lines[j] = f"{c.group(1)}{c.group(3)}void {c.group(6)}(" + line[c.end() :]
    return "\n".join(lines)


PASS = DeltaPass("return-types", _void_return_sites, _returns_to_void)
