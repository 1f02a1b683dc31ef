"""attributes-metadata: an attribute-group reference (`#0`), a metadata attachment
(`, !dbg !12`) or a function's personality (`personality ptr @rust_eh_personality`, which
every Rust function carries; a function with a landing pad keeps it: the verifier says so)
goes."""

from __future__ import annotations

import re

from fuzz.reduce.ir.common import match_pass

_ATTR_REF = re.compile(r"(?<!^attributes) #[0-9]+(?= |\{|$)", re.M)
_MD_ATTACH = re.compile(r", ![-a-zA-Z_.0-9]+ ![0-9]+")
_PERSONALITY = re.compile(r' personality ptr @(?:[-\w.$]+|"[^"]*")(?=[ {])')

PASS = match_pass("attributes-metadata", (_ATTR_REF, _MD_ATTACH, _PERSONALITY), "")
