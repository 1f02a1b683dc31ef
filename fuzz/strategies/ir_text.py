"""Small pieces of LLVM IR text the generators share."""

from __future__ import annotations


def cstring(text: str) -> tuple[str, int]:
    """`text` NUL-terminated as an LLVM IR `c"..."` constant, and its length in bytes
    (quotes, backslashes and non-printable bytes escaped as `\\XX`)."""
    data = text.encode() + b"\0"
    body = "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}" for b in data)
    return f'c"{body}"', len(data)
