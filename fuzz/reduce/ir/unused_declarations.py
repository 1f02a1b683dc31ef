"""unused-declarations: a function or external global declaration nothing refers to goes."""

from __future__ import annotations

from compiler.backend import irmodel
from fuzz.reduce.ir.common import entity_pass, parsed


def _unused_declarations(text: str) -> list[irmodel.Entity]:
    """Function declarations and external global declarations nothing refers to."""
    mod = parsed(text)
    used = {r for e in mod.entities for r in e.refs}
    return [
        e
        for e in mod.entities
        if (e.kind == "declaration" or (e.kind == "global" and not e.is_definition)) and e.name not in used
    ]


PASS = entity_pass("unused-declarations", _unused_declarations, lambda _e: None)
