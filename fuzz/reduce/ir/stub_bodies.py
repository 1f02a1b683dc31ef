"""stub-bodies: a function body becomes `ret` of a zero (a stub still links, where a
declaration would leave its callers with an undefined reference)."""

from __future__ import annotations

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import SIMPLE_TYPE, function_bodies, returning, signature, zero_literal


def _stub_sites(text: str) -> list[tuple[int, int, str]]:
    """(define line, `}` line, return type) of each function but `main` whose body is more
    than a `ret` and whose return type has a zero literal."""
    lines = text.split("\n")
    sites = []
    for start, end in function_bodies(lines):
        head = signature(lines[start])
        if head is None or head[1] == "main" or end - start <= 2:
            continue
        if SIMPLE_TYPE.fullmatch(head[0]):
            sites.append((start, end, head[0]))
    return sites


def _stub_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[start] for start, _end, _ty in _stub_sites(text)]


def _stub_bodies(text: str, keep: set[int]) -> str:
    """Functions outside `keep` return zero (or nothing) at once. Unlike a declaration, a
    stub still links, so a runnable program stays runnable after a large cut; callees it
    no longer calls go in later passes."""
    lines = text.split("\n")
    for k, (start, end, ty) in reversed(list(enumerate(_stub_sites(text)))):
        if k in keep:
            continue
        lines[start] = returning(lines[start], ty)  # without return attributes (`nonnull`...)
        ret = "ret void" if ty == "void" else f"ret {ty} {zero_literal(ty)}"
        lines[start + 1 : end] = [f"  {ret}"]
    return "\n".join(lines)


PASS = DeltaPass("stub-bodies", _stub_chunks, _stub_bodies)
