"""User-facing errors: one line `file:line:col: error: message`, never a traceback."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Exit status for bad input (malformed source, invalid IR, unreadable file).
EXIT_INPUT_ERROR = 1
#: Exit status for bad usage (unknown flags, impossible option combinations).
EXIT_USAGE_ERROR = 2
#: Exit status for an internal compiler error (a bug in Ember).
EXIT_INTERNAL_ERROR = 70


@dataclass(frozen=True)
class Location:
    """A source position; `line`/`col` are 1-based and optional."""

    path: str
    line: int | None = None
    col: int | None = None

    def __str__(self) -> str:
        if self.line is None:
            return self.path
        if self.col is None:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.col}"


class EmberError(Exception):
    """An error in the user's input, rendered as `loc: error: message` (exit 1)."""

    exit_status = EXIT_INPUT_ERROR

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message.strip().splitlines()[0] if message.strip() else "unknown error"
        self.location = location

    def render(self) -> str:
        prefix = f"{self.location}: " if self.location is not None else "ember: "
        return f"{prefix}error: {self.message}"

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle with the location (a guarded child hands its errors to the parent)."""
        return (type(self), (self.message, self.location))


class UsageError(EmberError):
    """Bad command-line usage (exit 2)."""

    exit_status = EXIT_USAGE_ERROR


class MultipleErrors(EmberError):
    """Several diagnostics from one run (e.g. every type error of a program)."""

    def __init__(self, errors: list[EmberError]) -> None:
        super().__init__(errors[0].message if errors else "errors", errors[0].location if errors else None)
        self.errors = errors

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.errors,))


_MLIR_LOC = re.compile(r'loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)')


def location_from_mlir(loc_text: str, path: str) -> Location:
    """Turn an MLIR `loc("-":3:5)` string into a Location inside `path`."""
    m = _MLIR_LOC.search(loc_text)
    if m is None:
        return Location(path)
    file = m.group("file")
    shown = path if file in ("-", "", "<stdin>") else file
    return Location(shown, int(m.group("line")), int(m.group("col")))


def error_from_mlir(exc: Exception, path: str, what: str = "") -> EmberError:
    """Convert an MLIRError (parse, verify or pass failure) into a located EmberError."""
    diags = list(getattr(exc, "error_diagnostics", []) or [])
    if diags:
        errors = [
            EmberError(f"{what}{d.message}", location_from_mlir(str(d.location), path))
            for d in diags
        ]
        return errors[0] if len(errors) == 1 else MultipleErrors(errors)
    text = str(exc)
    m = re.search(r'error: "(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)', text)
    if m:
        file = m.group("file")
        loc = Location(path if file in ("-", "") else file, int(m.group("line")), int(m.group("col")))
        return EmberError(what + m.group("msg"), loc)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return EmberError(what + (lines[-1] if lines else "MLIR error"), Location(path))


_LLVM_LOC = re.compile(r"^(?:<string>|[^:\n]*):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.M)


def error_from_llvm(exc: Exception, path: str) -> EmberError:
    """Convert an llvmlite RuntimeError (IR/bitcode parse or verifier) into an EmberError."""
    text = str(exc)
    m = _LLVM_LOC.search(text)
    if m:
        return EmberError(m.group("msg"), Location(path, int(m.group("line")), int(m.group("col"))))
    lines = [
        ln.strip()
        for ln in text.splitlines()
        if ln.strip() and ln.strip() not in ("LLVM IR parsing error", "LLVM bitcode parsing error")
    ]
    kind = "invalid bitcode: " if "bitcode" in text else ""
    return EmberError(kind + (lines[0] if lines else "invalid LLVM IR"), Location(path))
