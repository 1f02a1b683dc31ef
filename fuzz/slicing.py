"""Call-graph slices of an LLVM module: some definitions with every local they reach (atoms
kept whole), everything else declared. The corpus strategy draws slices of real programs
this way (`fuzz.strategies.corpus_slices`); the reducer starts from the slice around the
symbols a failure names (`fuzz.reduce.evidence`). A slice is cut from the module in memory
by the split back end's own cut (compiler/backend/cut.py) and printed."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compiler.backend.irmodel import IRModule
    from compiler.backend.planner import UnionFind

#: a `\XX` escape in a quoted IR name (irmodel keeps names as the text spells them)
_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2})")


def llvm_name(name: str) -> str:
    """A name as irmodel reads it from the text (`q\\22uote`) as LLVM holds it (`q"uote`;
    bytes that are no UTF-8 kept as surrogates, as `facts.value_name` reads them)."""
    if "\\" not in name:
        return name
    raw = bytearray()
    at = 0
    for m in _ESCAPE.finditer(name):
        raw += name[at : m.start()].encode("utf-8", "surrogateescape")
        raw.append(int(m.group(1), 16))
        at = m.end()
    raw += name[at:].encode("utf-8", "surrogateescape")
    return raw.decode("utf-8", "surrogateescape")


class Slicer:
    """One parsed module (`mod`, read from `text`) and its atoms (what must stay together:
    comdats, aliases with their targets, blockaddress users), ready to cut slices from."""

    def __init__(self, mod: IRModule, text: str) -> None:
        from compiler.backend import planner

        self.mod = mod
        self.text = text
        #: the module as bitcode without its asm, and the asm (made on the first slice)
        self._bitcode: tuple[bytes, str] | None = None
        self.atoms: UnionFind = planner.atoms_of(mod)
        self.partners: dict[str, list[str]] = {}
        for e in mod.entities:
            if e.is_value and e.is_definition:
                self.partners.setdefault(self.atoms.find(e.name), []).append(e.name)

    def reach(self, anchor: str) -> dict[str, None]:
        """`anchor` (a defined value) with the locals it reaches and their atoms, in discovery order."""
        values = self.mod.values
        added: dict[str, None] = {}
        stack = [anchor]
        while stack:
            cur = stack.pop()
            if cur in added or cur not in values or not values[cur].is_definition:
                continue
            added[cur] = None
            stack.extend(self.partners.get(self.atoms.find(cur), ()))
            stack.extend(r for r in values[cur].refs if r in values and values[r].is_local)
        return added

    def lines(self, names: Iterable[str]) -> int:
        return sum(self.mod.values[n].text.count("\n") + 1 for n in names)

    def members(self, anchors: Iterable[str], max_lines: int | None = None) -> list[str]:
        """Anchors in order (while the slice fits in `max_lines`; the first always) with what
        they reach, in module order."""
        members: dict[str, None] = {}
        lines = 0
        for anchor in anchors:
            added = {n: None for n in self.reach(anchor) if n not in members}
            size = self.lines(added)
            if members and max_lines is not None and lines + size > max_lines:
                break
            members.update(added)
            lines += size
        return sorted(members, key=lambda n: self.mod.values[n].index)

    def render(self, members: list[str], exported: Iterable[str] = ()) -> str:
        """The slice as a module: members defined, everything they name declared (metadata
        too; debug info: the units and variables the members reach), the module asm kept;
        `exported` locals among the members made `external hidden` (roots of the slice)."""
        from compiler.backend import cut, engine, names, planner, split

        if self._bitcode is None:
            with engine.Module(self.text, "<sliced module>") as module:
                names.name_unnamed(module, "")  # `@0` is "0" to irmodel: named so, the cut finds it
                self._bitcode = split.whole_module_bitcode(module)
        local = {n for n in exported if self.mod.values[n].is_local}
        spec = planner.cut_spec(self.mod, planner.PieceLayout(members, local, include_asm=True))
        spec = dataclasses.replace(
            spec, keep={llvm_name(n): how for n, how in spec.keep.items()},
            declared=frozenset(llvm_name(n) for n in spec.declared))
        with cut.cut(self._bitcode[0], spec, "<slice>", self._bitcode[1]) as piece:
            return piece.text()
