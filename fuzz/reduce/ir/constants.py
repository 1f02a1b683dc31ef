"""constants: an integer constant other than -1, 0, 1 becomes 1."""

from __future__ import annotations

import re

from fuzz.reduce.ir.common import match_pass

_BIG_CONST = re.compile(r"(?<=i64 |i32 |i16 )(-?[2-9]|-?[1-9][0-9]+)\b")

PASS = match_pass("constants", (_BIG_CONST,), "1")
