"""inline-call-sites: a function's callees are inlined into it (LLVM's always-inline)."""

from __future__ import annotations

import re

from compiler.backend import irmodel
from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import DEFINE_HEAD, defined_function_chunks, with_llvm_passes


def _inline_callees(text: str, keep: set[int]) -> str:
    """Calls to the functions outside `keep` are inlined (alwaysinline + the always-inliner);
    local functions left without callers go (globaldce)."""
    names = {n for i, n in enumerate(defined_function_chunks(text)) if i not in keep and n != "main"}
    if not names:
        return text
    lines = text.split("\n")
    groups = {m.group(1): m.group(2) for m in map(_GROUP.match, lines) if m}
    for i, line in enumerate(lines):
        m = DEFINE_HEAD.match(line)
        if m and irmodel.unquote(m.group(2)[1:]) in names:
            # `noinline` (and the `optnone` that needs it) also comes through an attribute group
            # (`#1 = { noinline }`): that group's words are written out on the line without it,
            # else the module is broken and LLVM ends the reducer
            head = _GROUP_REF.sub(lambda g: _without_noinline(g.group(0), groups), m.group(3))
            head = head.replace(" noinline", "").replace(" optnone", "")
            lines[i] = f"define {m.group(1)}{m.group(2)}{_with_attribute(head.rstrip(), 'alwaysinline')} {{"
    def passes(pm: object) -> None:
        pm.add_always_inliner_pass()  # type: ignore[attr-defined]
        pm.add_global_dead_code_eliminate_pass()  # type: ignore[attr-defined]  # callees left without callers

    return with_llvm_passes("\n".join(lines), passes, None)


#: what may follow a function's attributes on its `define` line (LLVM's grammar), or a metadata attachment
_AFTER_ATTRIBUTES = re.compile(r" (?:(?:section|partition|comdat|align|gc|prefix|prologue|personality)\b|!)")


def _with_attribute(head: str, word: str) -> str:
    """A `define` line's text after the name, `(params) ...`, with a function attribute added
    where the grammar takes it: after the parameters and before `section`, `comdat`,
    `personality`... (after `personality ptr @p` it was a parse error)."""
    close = len(irmodel.parenthesised(head, 0)) + 1
    found = _AFTER_ATTRIBUTES.search(head, close + 1)
    at = found.start() if found else len(head)
    return f"{head[:at]} {word}{head[at:]}"


#: `attributes #N = { words }`
_GROUP = re.compile(r"^attributes (#\d+) = \{ (.*) \}$")
#: a function's reference to an attribute group on its `define` line
_GROUP_REF = re.compile(r" #\d+\b")


def _without_noinline(ref: str, groups: dict[str, str]) -> str:
    """` #N`, or its words spelled out where the group says `noinline`/`optnone`."""
    words = groups.get(ref.strip(), "")
    if not re.search(r"(?:^| )(?:noinline|optnone)(?: |$)", words):
        return ref
    return " " + words


PASS = DeltaPass("inline-call-sites", defined_function_chunks, _inline_callees)
