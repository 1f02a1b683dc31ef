"""unused-globals: a global definition nothing refers to goes (a declaration would be no
shorter)."""

from __future__ import annotations

from compiler.backend import irmodel
from fuzz.reduce.ir.common import entity_pass, parsed, referenced_by_others


def _unused_globals(text: str) -> list[irmodel.Entity]:
    """Global variable definitions no other entity refers to (`llvm.*` arrays excepted)."""
    mod = parsed(text)
    referenced = referenced_by_others(mod)
    return [e for e in mod.entities if e.kind == "global" and e.is_definition
            and e.name not in referenced and not e.name.startswith("llvm.")]


PASS = entity_pass("unused-globals", _unused_globals, lambda _e: None)
