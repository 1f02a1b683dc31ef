"""The reference interpreter: runs a checked Ember program by the spec (docs/language.md).

It shares the parser and type checker with the compiler (the typed AST) but none of
its lowering: every operation is implemented again in `semantics.py` on Python values.
Its stdout and exit status are the ground truth for compiled code.

Outcomes: `exit` (main returned; status = result mod 256, 0 for None), `trap` (status
3, message on stderr), `out of fuel` / `call depth` (the interpreter's resource limits;
status 124, like a timed-out compiled program; such a run proves nothing).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from compiler.diagnostics import EmberError, Location
from compiler.frontend import DEEP_RECURSION_LOCK, tast
from oracle.interp import semantics
from oracle.interp.machine import CallDepthExceeded, Machine, OutOfFuel, run_main

#: Steps (statements, loop iterations, buffer elements) a run may take by default.
DEFAULT_FUEL = 10_000_000
#: Deepest call nesting the interpreter allows.
DEFAULT_MAX_DEPTH = 5_000
#: deepest --max-depth the interpreter's thread stack (512 MiB) holds (1,000,000 levels: ~1 GiB resident)
MAX_DEPTH = 1_000_000
#: Exit status of a trap (same as compiled code).
EXIT_TRAP = 3
#: Exit status when the interpreter's fuel or call-depth limit is exhausted.
EXIT_EXHAUSTED = 124

__all__ = ["DEFAULT_FUEL", "EXIT_EXHAUSTED", "EXIT_TRAP", "InterpResult", "interpret", "run_source", "semantics"]


@dataclass(frozen=True)
class InterpResult:
    stdout: bytes
    stderr: bytes
    exit_status: int
    outcome: str  # "exit", "trap", "out of fuel", "call depth"

    @property
    def exhausted(self) -> bool:
        """True when a resource limit stopped the run (its outcome is unknown)."""
        return self.outcome in ("out of fuel", "call depth")


class StreamedOutput:
    """A print sink that passes text on to `write` in chunks instead of keeping it all
    (`ember interp` on a program printing gigabytes stays small); `flush` at the end."""

    CHUNK = 1 << 16

    def __init__(self, write: Callable[[bytes], None]) -> None:
        self._write = write
        self._parts: list[str] = []
        self._size = 0

    def append(self, text: str) -> None:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= self.CHUNK:
            self.flush()

    def flush(self) -> None:
        if self._parts:
            data, self._parts, self._size = "".join(self._parts).encode("utf-8"), [], 0
            self._write(data)


def _execute(program: tast.Program, fuel: int, max_depth: int, stream: StreamedOutput | None = None) -> InterpResult:
    machine = Machine(program, fuel, max_depth, out=stream)
    try:
        status = run_main(machine)
        outcome, err = "exit", ""
    except semantics.Trap as trap:
        status, outcome, err = EXIT_TRAP, "trap", f"ember: trap: {trap}\n"
    except OutOfFuel:
        status, outcome = EXIT_EXHAUSTED, "out of fuel"
        err = f"ember: interpreter: out of fuel after {fuel} steps\n"
    except (CallDepthExceeded, RecursionError):
        status, outcome = EXIT_EXHAUSTED, "call depth"
        err = f"ember: interpreter: call depth limit ({max_depth}) exceeded\n"
    if stream is not None:
        stream.flush()
        stdout = b""  # already written
    else:
        stdout = "".join(cast(list[str], machine.out)).encode("utf-8")
    return InterpResult(stdout, err.encode("utf-8"), status, outcome)


def interpret(
    program: tast.Program, *, fuel: int = DEFAULT_FUEL, max_depth: int = DEFAULT_MAX_DEPTH,
    stream: StreamedOutput | None = None,
) -> InterpResult:
    """Run `program`'s main in a thread with a deep stack (deep Ember recursion is fine);
    with `stream`, stdout goes there as it is printed (the result's stdout is then empty)."""
    if program.main is None:
        raise EmberError("the program has no 'main' function", Location(program.path))
    box: list[InterpResult | BaseException] = []

    def target() -> None:
        try:
            box.append(_execute(program, fuel, max_depth, stream))
        except BaseException as exc:  # re-raised in the caller
            box.append(exc)

    with DEEP_RECURSION_LOCK:  # the recursion limit is process-wide: a parallel run must not lower it mid-run
        old_limit = sys.getrecursionlimit()
        old_stack = threading.stack_size()
        sys.setrecursionlimit(max(old_limit, 60 * max_depth + 10_000))
        try:
            threading.stack_size(512 * 1024 * 1024)
            thread = threading.Thread(target=target, name="ember-interp")
            thread.start()
        finally:
            threading.stack_size(old_stack)
        thread.join()
        sys.setrecursionlimit(old_limit)
    result = box[0]
    if isinstance(result, BaseException):
        raise result
    return result


def run_source(
    source: str, path: str = "<source>", *, fuel: int = DEFAULT_FUEL, max_depth: int = DEFAULT_MAX_DEPTH,
    stream: StreamedOutput | None = None,
) -> InterpResult:
    """Check and run Ember source (raises EmberError for bad programs)."""
    from compiler.frontend.checker import check_source

    return interpret(check_source(source, path), fuel=fuel, max_depth=max_depth, stream=stream)
