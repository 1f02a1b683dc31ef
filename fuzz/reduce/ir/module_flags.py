"""module-flags: entries of `!llvm.module.flags` go one by one (unused-types-metadata then
drops their nodes); the whole list only goes with its last entry. Which flags a difference
needs is the build's business: "PIC Level" decides how a thread-local is reached
(`__tls_get_addr`), "Dwarf Version" nothing a build without -g shows."""

from __future__ import annotations

import re

from fuzz.reduce.engine import DeltaPass

_FLAGS = re.compile(r"^!llvm\.module\.flags = !\{(.*)\}$", re.M)
_NODE = re.compile(r'^(![0-9]+) = !\{i32 [0-9]+, !"([^"]*)"', re.M)


def _entries(text: str) -> list[str]:
    m = _FLAGS.search(text)
    return [e.strip() for e in m.group(1).split(",") if e.strip()] if m else []


def _chunks(text: str) -> list[str]:
    keys = {m.group(1): m.group(2) for m in _NODE.finditer(text)}
    return [keys.get(e, e) for e in _entries(text)]


def _apply(text: str, keep: set[int]) -> str:
    kept = [e for k, e in enumerate(_entries(text)) if k in keep]
    if kept:
        return _FLAGS.sub(lambda _m: "!llvm.module.flags = !{" + ", ".join(kept) + "}", text, count=1)
    return _FLAGS.sub("", text, count=1).replace("\n\n\n", "\n\n")


PASS = DeltaPass("module-flags", _chunks, _apply)
