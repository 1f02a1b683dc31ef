"""Call-graph slices of an LLVM module: some definitions with every local they reach (atoms
kept whole), everything else declared. The corpus strategy draws slices of real programs
this way (`fuzz.strategies.corpus_slices`); the reducer starts from the slice around the
symbols a failure names (`fuzz.reduce.evidence`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compiler.backend.irmodel import IRModule
    from compiler.backend.planner import UnionFind


class Slicer:
    """One parsed module and its atoms (what must stay together: comdats, aliases with their
    targets, blockaddress users), ready to cut slices from."""

    def __init__(self, mod: IRModule) -> None:
        from compiler.backend import planner

        self.mod = mod
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

    def render(self, members: list[str]) -> str:
        """The slice as a module: members defined, everything they name declared (metadata too)."""
        from compiler.backend import planner

        return planner.piece_text(self.mod, members, set(), include_asm=True)
