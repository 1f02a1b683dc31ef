"""The debug metadata one piece of a split module needs (`-g` builds).

A piece carrying every metadata node of the module would describe every compile unit that
has global variables, with every one of those variables, in every piece: the MC link's
object would hold each unit once per piece, and each piece would parse the whole
module's debug info. So a piece gets only the nodes its own IR reaches, `!llvm.dbg.cu`
lists only the units reached, and each unit's `globals:` list is cut to the variables the
piece itself defines (so a global is described once, with its location, by the piece
that emits it, and never by a piece that only declares it or holds an
`available_externally` copy).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from compiler.backend.irmodel import Entity, IRModule, split_head

_REF = re.compile(r"![0-9]+\b")
_DBG = re.compile(r"!dbg (![0-9]+)")
_GLOBALS = re.compile(r"\bglobals: (![0-9]+)")
_CU_LIST = "!llvm.dbg.cu"


@dataclass
class _Graph:
    """A module's metadata as a graph (built once per module, shared by its pieces)."""

    nodes: list[Entity]
    by_name: dict[str, Entity]
    units: list[str]  # `!llvm.dbg.cu`'s list, in order
    unit_globals: dict[str, str]  # a unit's `globals:` list node -> the unit
    named_roots: list[str]  # what the other named metadata (module flags, ident, ...) reach
    named: list[Entity]  # the named metadata (`!llvm.dbg.cu`, `!llvm.module.flags`, ...)
    position: dict[str, int]  # a node's index in the module
    refs: dict[str, list[str]] = field(default_factory=dict)

    def refs_of(self, name: str) -> list[str]:
        found = self.refs.get(name)
        if found is None:
            found = self.refs[name] = _REF.findall(self.by_name[name].text.split("=", 1)[-1])
        return found


def _graph(mod: IRModule) -> _Graph | None:
    cached = mod.derived.get("irdebug")
    if cached is None:
        nodes = mod.by_kind("metadata")
        cu_list = next((e for e in nodes if e.name == _CU_LIST), None)
        if cu_list is None:
            cached = False
        else:
            by_name = {e.name: e for e in nodes}
            unit_globals = {}
            for e in nodes:
                listed = _GLOBALS.search(e.text) if "DICompileUnit(" in e.text else None
                if listed:
                    unit_globals[listed.group(1)] = e.name
            roots = [r for e in nodes if not e.name[1:].isdigit() and e is not cu_list for r in _REF.findall(e.text)]
            named = [e for e in nodes if not e.name[1:].isdigit()]
            position = {e.name: i for i, e in enumerate(nodes)}
            cached = _Graph(nodes, by_name, _REF.findall(cu_list.text), unit_globals, roots, named, position)
        mod.derived["irdebug"] = cached
    return cached if isinstance(cached, _Graph) else None


def piece_metadata(mod: IRModule, parts: Iterable[str], defined: Iterable[Entity]) -> list[str]:
    """The metadata lines for a piece made of `parts` (its IR text) that defines the globals
    `defined`; all of the module's metadata, unchanged, when it has no debug info."""
    graph = _graph(mod)
    if graph is None:
        return [e.text for e in mod.by_kind("metadata")]
    own_variables = {m for g in defined for m in _DBG.findall(split_head(g.text)[1])}
    reached: set[str] = set()
    stack = [r for part in parts for r in _REF.findall(part)] + graph.named_roots
    while stack:
        name = stack.pop()
        if name in reached or name not in graph.by_name:
            continue
        reached.add(name)
        refs = graph.refs_of(name)
        if name in graph.unit_globals:  # a unit's globals: only those this piece defines
            refs = [r for r in refs if r in own_variables]
        stack.extend(r for r in refs if r not in reached)
    out = []
    for e in graph.named:
        if e.name == _CU_LIST:
            units = [u for u in graph.units if u in reached]
            if units:
                out.append(f"{_CU_LIST} = !{{{', '.join(units)}}}")
        else:
            out.append(e.text)
    for name in sorted(reached, key=graph.position.__getitem__):
        text = graph.by_name[name].text
        out.append(_cut_list(text, own_variables) if name in graph.unit_globals else text)
    return out


def _cut_list(text: str, keep: set[str]) -> str:
    """`!7 = !{!5, !0}` with only the entries in `keep`."""
    name, _, body = text.partition("=")
    kept = [r for r in _REF.findall(body) if r in keep]
    return f"{name.strip()} = !{{{', '.join(kept)}}}"
