"""Ember compiler: the language frontend (parse with `ast`, type check, emit MLIR)."""

from __future__ import annotations

from compiler.diagnostics import EmberError, Location


def emit_mlir_text(source: str, path: str) -> str:
    """Compile Ember source to MLIR text (func/arith/cf/memref/math).

    Bad input raises EmberError (one diagnostic) or MultipleErrors (several).
    """
    from compiler.frontend.checker import check_source
    from compiler.frontend.emit import emit_module

    program = check_source(source, path)
    try:
        return emit_module(program)
    except RecursionError:
        raise EmberError("program is nested too deeply", Location(path)) from None
