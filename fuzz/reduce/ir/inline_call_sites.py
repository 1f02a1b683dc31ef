"""inline-call-sites: a function's callees are inlined into it (LLVM's always-inline)."""

from __future__ import annotations

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
    for i, line in enumerate(lines):
        m = DEFINE_HEAD.match(line)
        if m and irmodel.unquote(m.group(2)[1:]) in names:
            head = m.group(3).replace(" noinline", "")
            lines[i] = f"define {m.group(1)}{m.group(2)}{head.rstrip()} alwaysinline {{"
    def passes(pm: object) -> None:
        pm.add_always_inliner_pass()  # type: ignore[attr-defined]
        pm.add_global_dead_code_eliminate_pass()  # type: ignore[attr-defined]  # callees left without callers

    return with_llvm_passes("\n".join(lines), passes, None)


PASS = DeltaPass("inline-call-sites", defined_function_chunks, _inline_callees)
