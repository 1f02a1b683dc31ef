"""attributes-metadata: an attribute-group reference (`#0`) or a metadata attachment
(`, !dbg !12`) goes."""

from __future__ import annotations

import re

from fuzz.reduce.ir.common import match_pass

_ATTR_REF = re.compile(r"(?<!^attributes) #[0-9]+(?= |\{|$)", re.M)
_MD_ATTACH = re.compile(r", ![-a-zA-Z_.0-9]+ ![0-9]+")

PASS = match_pass("attributes-metadata", (_ATTR_REF, _MD_ATTACH), "")
