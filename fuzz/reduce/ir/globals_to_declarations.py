"""globals-to-declarations: a global variable loses its initialiser (becomes a
declaration); `llvm.*` arrays (ctors, dtors, used) go."""

from __future__ import annotations

from compiler.backend import irmodel
from fuzz.reduce.ir.common import entities, entity_pass


def _declaration(e: irmodel.Entity) -> str | None:
    if e.name.startswith("llvm."):
        return None  # ctors/dtors/used arrays: just drop them
    return irmodel.declaration_of(e, "default" if e.is_local else None)


PASS = entity_pass(
    "globals-to-declarations", lambda text: entities(text, ("global",), lambda e: e.is_definition), _declaration
)
