"""Parse Ember source with Python's `ast`; syntax errors become located EmberErrors."""

from __future__ import annotations

import ast

from compiler.diagnostics import EmberError, Location


class SourceMap:
    """Converts `ast` positions (1-based lines, 0-based UTF-8 byte columns) to 1-based characters."""

    def __init__(self, source: str, path: str) -> None:
        self.path = path
        self.lines = source.splitlines()

    def column(self, line: int, byte_col: int) -> int:
        if 1 <= line <= len(self.lines):
            text = self.lines[line - 1]
            prefix = text.encode("utf-8")[:byte_col]
            return len(prefix.decode("utf-8", errors="replace")) + 1
        return byte_col + 1

    def location(self, node: ast.AST) -> Location:
        line = getattr(node, "lineno", None)
        col = getattr(node, "col_offset", None)
        if line is None:
            return Location(self.path)
        return Location(self.path, line, self.column(line, col or 0))


def parse(source: str, path: str) -> ast.Module:
    """Parse `source` as a Python module; a syntax error is reported at its position."""
    try:
        return ast.parse(source, filename=path, mode="exec")
    except SyntaxError as exc:
        msg = exc.msg or "invalid syntax"
        if exc.lineno is None:
            raise EmberError(f"syntax error: {msg}", Location(path)) from None
        col = exc.offset if exc.offset and exc.offset > 0 else 1
        raise EmberError(f"syntax error: {msg}", Location(path, exc.lineno, col)) from None
    except ValueError as exc:  # e.g. null bytes in the source
        raise EmberError(f"syntax error: {exc}", Location(path)) from None
    except (RecursionError, MemoryError):
        raise EmberError("syntax error: program is nested too deeply", Location(path)) from None
