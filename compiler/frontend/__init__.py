"""Ember compiler: the language frontend (parse with `ast`, type check, emit MLIR)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from compiler.diagnostics import EmberError, Location

T = TypeVar("T")

#: recursion limit and thread stack of the recursive frontend stages: a flat sum of a few
#: thousand terms is a left-nested tree as deep as it is long
DEEP_RECURSION_LIMIT = 30_000
DEEP_STACK_BYTES = 512 * 1024 * 1024
#: held while the process-wide recursion limit and thread stack size are raised (the
#: front end and the reference interpreter both raise them; one must not lower them under the other)
DEEP_RECURSION_LOCK = threading.Lock()


def deep_call(fn: Callable[[], T]) -> T:
    """Run `fn` in a thread with a big stack and a high recursion limit; its exception is re-raised here."""
    box: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            box.append(fn())
        except BaseException as exc:  # re-raised in the caller
            failure.append(exc)

    with DEEP_RECURSION_LOCK:  # the stack size and the recursion limit are process-wide settings
        old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
        sys.setrecursionlimit(max(old_limit, DEEP_RECURSION_LIMIT))
        try:
            threading.stack_size(DEEP_STACK_BYTES)
            thread = threading.Thread(target=target, name="ember-frontend")
            thread.start()
        finally:
            threading.stack_size(old_stack)
        thread.join()
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
    return box[0]


def emit_mlir_text(source: str, path: str, *, debug: bool = False) -> str:
    """Compile Ember source to MLIR text (func/arith/cf/memref/math); with `debug` (`-g`),
    every op carries the `loc("path":line:col)` of its statement.

    Bad input raises EmberError (one diagnostic) or MultipleErrors (several).
    """
    from compiler.frontend.checker import check_source
    from compiler.frontend.emit import emit_module

    program = check_source(source, path)
    try:
        return deep_call(lambda: emit_module(program, os.path.abspath(path) if debug else None))
    except RecursionError:
        raise EmberError("program is nested too deeply", Location(path)) from None
