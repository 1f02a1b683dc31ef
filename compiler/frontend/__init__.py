"""Ember compiler: the language frontend (parse with `ast`, type check, emit MLIR)."""

from __future__ import annotations

from compiler.diagnostics import EmberError, Location


def emit_mlir_text(source: str, path: str) -> str:
    """Compile Ember source to MLIR text (func/arith/scf/cf/memref/math)."""
    raise EmberError("the Ember language frontend is not available in this build yet", Location(path))
