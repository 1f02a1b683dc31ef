"""functions-to-declarations: a function definition becomes a declaration (`main` too: a
symbol-table difference may not need a program that runs)."""

from __future__ import annotations

from compiler.backend import irmodel
from fuzz.reduce.ir.common import entities, entity_pass


def _declaration(e: irmodel.Entity) -> str:
    # a declaration cannot be local: local functions become plain external declarations
    return irmodel.declaration_of(e, "default" if e.is_local else None)


PASS = entity_pass("functions-to-declarations", lambda text: entities(text, ("function",)), _declaration)
