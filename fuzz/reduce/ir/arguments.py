"""arguments: an unused parameter of a function whose every use is a direct call goes, with
the matching argument at every call site (llvm-reduce's arguments)."""

from __future__ import annotations

import re

from compiler.backend import irmodel
from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import (
    CALL_OF,
    HEAD,
    SIMPLE_TYPE,
    direct_call_only,
    function_bodies,
    zero_literal,
)


def _split_top(args: str) -> list[str]:
    """`a, b(c, d), e` -> ['a', 'b(c, d)', 'e'] (commas outside brackets)."""
    parts, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*parts, cur.strip()] if cur.strip() else parts


def _paren_span(line: str, open_at: int) -> int:
    """Index of the `)` closing the `(` at `open_at`."""
    depth = 0
    for i in range(open_at, len(line)):
        depth += line[i] == "("
        depth -= line[i] == ")"
        if depth == 0:
            return i
    return -1


def _params(line: str) -> tuple[int, int, list[str]] | None:
    """(open, close, parameters) of a define/declare line; None unless every parameter is a
    simple type with an optional named (not numbered) value."""
    m = HEAD.match(line)
    if m is None:
        return None
    close = _paren_span(line, m.end() - 1)
    params = _split_top(line[m.end() : close])
    for prm in params:
        words = prm.split()
        if not words or not SIMPLE_TYPE.fullmatch(words[0]) or words[0] == "void":
            return None
        if m.group(1) == "define" and (len(words) < 2 or not re.fullmatch(r"%[-A-Za-z_.$][-\w.$]*", words[-1])):
            return None
    return m.end() - 1, close, params


def _argument_sites(text: str) -> list[tuple[str, int]]:
    """(function, parameter index) for each parameter of a direct-call-only function."""
    lines = text.split("\n")
    sites: list[tuple[str, int]] = []
    for name, i in direct_call_only(text).items():
        if name.startswith("llvm."):  # an intrinsic's signature is LLVM's: a changed one breaks the module
            continue
        parsed = _params(lines[i])
        if parsed is not None:
            sites.extend((name, k) for k in range(len(parsed[2])))
    return sites


def _argument_chunks(text: str) -> list[str]:
    return [f"{f}#{k}" for f, k in _argument_sites(text)]


def _drop_call_args(line: str, drops: dict[str, set[int]]) -> str:
    """A call line without the dropped arguments of its callee."""
    m = CALL_OF.match(line)
    if m is None or irmodel.unquote(m.group(6)[1:]) not in drops:
        return line
    gone = drops[irmodel.unquote(m.group(6)[1:])]
    close = _paren_span(line, m.end() - 1)
    args = [a for k, a in enumerate(_split_top(line[m.end() : close])) if k not in gone]
    return line[: m.end()] + ", ".join(args) + line[close:]


def _remove_arguments(text: str, keep: set[int]) -> str:
    """Parameters outside `keep` go from their function, its body (uses become zeros) and
    every call site (llvm-reduce's reduce-arguments)."""
    drops: dict[str, set[int]] = {}
    for k, (name, idx) in enumerate(_argument_sites(text)):
        if k not in keep:
            drops.setdefault(name, set()).add(idx)
    if not drops:
        return text
    lines = text.split("\n")
    heads = direct_call_only(text)
    bodies = dict(function_bodies(lines))
    for name, gone in drops.items():
        at = heads[name]
        parsed = _params(lines[at])
        assert parsed is not None
        open_at, close, params = parsed
        zeros = {prm.split()[-1]: zero_literal(prm.split()[0]) for k, prm in enumerate(params) if k in gone and len(prm.split()) > 1}
        kept = [prm for k, prm in enumerate(params) if k not in gone]
        lines[at] = lines[at][: open_at + 1] + ", ".join(kept) + lines[at][close:]
        if zeros and at in bodies:
            use = re.compile("(" + "|".join(re.escape(n) for n in zeros) + r")(?![-\w.$])")
            for j in range(at + 1, bodies[at]):
                lines[j] = use.sub(lambda m, z=zeros: z[m.group(1)], lines[j])  # type: ignore[misc]
    return "\n".join(_drop_call_args(line, drops) for line in lines)


PASS = DeltaPass("arguments", _argument_chunks, _remove_arguments)
