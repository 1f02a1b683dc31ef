"""functions-to-roots: an internal or private function becomes external, a root of the
reference graph: the callers that only kept it alive (a chain of wrappers from some other
root down to it) become regions the triage's regions can remove. Lines stay; the `define`
line gets shorter, which counts as smaller. A function that must stay internal (one the
serial build deletes as dead, or whose internal linkage lets it prove a fact) is kept so
by the test."""

from __future__ import annotations

import re

from compiler.backend import irmodel
from fuzz.reduce.ir.common import entities, entity_pass

_LOCAL = re.compile(r"^define (internal|private) ")


def _local_functions(text: str) -> list[irmodel.Entity]:
    return entities(text, ("function",), lambda e: e.name != "main" and bool(_LOCAL.match(e.text)))


PASS = entity_pass("functions-to-roots", _local_functions, lambda e: _LOCAL.sub("define ", e.text, count=1))
