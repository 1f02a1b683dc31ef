"""Triage from the failure's own evidence: the symbols a failure names pick the slice of
the module the reduction starts from.

A symbol difference names its symbols (`~ luaH_get: visibility: HIDDEN -> DEFAULT`), a
crash often does (`symbol 'k0_fn' is already defined`). Every defined value the failure
text names is a candidate anchor; its slice is the anchor with every local it reaches,
everything else declared (`fuzz.slicing`, the corpus strategy's cut). The smallest slices
are tried first, one anchor each, then all anchors together; the first slice that is still
interesting (the same failure signature) replaces the input. On an 80,000-line program
each candidate of a plain reduction is two builds of the whole module; a slice's are two
builds of a few hundred lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compiler.backend.irmodel import IRModule
    from fuzz.properties import CheckPlan, Signature
    from fuzz.slicing import Slicer

_TOKEN = re.compile(r"""(?<![\w.$])[A-Za-z_.$][\w.$]*|'([^'\s]+)'|"([^"\s]+)\"""")
#: one-anchor slices tried before the slice of every named symbol
SINGLE_TRIES = 3
#: a slice of every named symbol stops growing past this many lines
MAX_LINES = 6000
#: how many of a symbol's users (the shortest bodies) `user_slices` measures the slices of
USERS_MEASURED = 64


@dataclass(frozen=True)
class Slice:
    """The module cut down to `anchors` and what they reach."""

    text: str
    anchors: tuple[str, ...]
    lines: int


def named_values(texts: Iterable[str], defined: set[str]) -> list[str]:
    """The defined values `texts` name, in order of first mention."""
    seen: dict[str, None] = {}
    for text in texts:
        for m in _TOKEN.finditer(text):
            name = m.group(1) or m.group(2) or m.group(0)
            if name in defined:
                seen.setdefault(name, None)
    return list(seen)


def candidate_slices(text: str, failure_texts: Iterable[str]) -> list[Slice]:
    """The slices to try, smallest one-anchor slices first, then every named anchor's."""
    from compiler.backend import irmodel
    from fuzz.slicing import Slicer

    mod = irmodel.parse_module(text)
    defined = {e.name for e in mod.entities if e.is_value and e.is_definition and e.name != "main"}
    names = named_values(failure_texts, defined)
    if not names:
        return []
    slicer = Slicer(mod, text)
    names = list(dict.fromkeys(_anchor_for(mod, slicer, n) for n in names))
    sized = sorted(names, key=lambda n: (slicer.lines(slicer.reach(n)), names.index(n)))
    return _slices(slicer, sized)


def _slices(slicer: Slicer, sized: list[str], with_each: Sequence[str] = (), export: bool = False) -> list[Slice]:
    """The slices of the first `SINGLE_TRIES` anchors of `sized` one by one, then of all of them
    (where there are several): each anchor with what it reaches, and `with_each`, while the
    slice fits `MAX_LINES`; with `export` the anchors are its roots (`external hidden` where
    local). Stops at a module LLVM cannot read: the reduction starts from all of it."""
    from compiler.backend import engine

    groups = [[n] for n in sized[:SINGLE_TRIES]] + ([sized] if len(sized) > 1 else [])
    out: list[Slice] = []
    for group in groups:
        members = slicer.members([*group, *with_each], MAX_LINES)
        anchors = tuple(n for n in group if n in members)
        try:
            sliced = slicer.render(members, exported=anchors if export else ())
        except engine.EngineError:
            return out
        out.append(Slice(sliced, anchors, sliced.count("\n")))
    return out


def _anchor_for(mod: IRModule, slicer: Slicer, name: str) -> str:
    """A non-local value stands for itself; a local one (a leaked helper) is reached through the
    smallest of the nearest non-local definitions that reach it: alone in a slice, nothing
    would use it."""
    if not mod.values[name].is_local:
        return name
    users: dict[str, set[str]] = {}
    for e in mod.entities:
        if e.is_value and e.is_definition:
            for r in e.refs:
                users.setdefault(r, set()).add(e.name)
    # breadth-first up the users: the nearest non-local definitions that reach `name`
    frontier, seen = [name], {name}
    while frontier:
        found = sorted(u for n in frontier for u in users.get(n, ()) if not mod.values[u].is_local and u != "main")
        if found:
            return min(found, key=lambda u: slicer.lines(slicer.reach(u)))
        frontier = sorted({u for n in frontier for u in users.get(n, ())} - seen)
        seen.update(frontier)
    return name


def user_slices(text: str, symbols: Iterable[str], mod: IRModule | None = None) -> list[Slice]:
    """Slices around the functions that name `symbols` (their users), smallest first, then all
    of them; each user a root of its slice (`external hidden` where it is local). For a
    difference in a symbol no slice around itself can show: an undefined one (`UND atoi`),
    or a definition whose callers decide it (glibc's `available_externally` `atoi`, inlined
    serially into the functions that call it: jq's planted libcall fault). `mod`: `text` parsed,
    where the caller has it."""
    from compiler.backend import irmodel
    from fuzz.slicing import Slicer

    if mod is None:
        mod = irmodel.parse_module(text)
    wanted = set(symbols)
    # `main` too: in jq only `main` calls `atoi` (its slice, `main` with the locals it reaches, is
    # 3,932 of 94,696 lines)
    users = sorted(e.name for e in mod.entities if e.kind == "function" and e.is_definition
                   and e.name not in wanted and wanted.intersection(e.refs))
    if not users:
        return []
    # the slice's size is what ranks them, and reaching from each of 1,900 users (a personality
    # every Rust function names) took 7-20 s: only the shortest bodies are measured
    users = sorted(users, key=lambda n: (len(mod.values[n].text), n))[:USERS_MEASURED]
    slicer = Slicer(mod, text)
    sized = sorted(users, key=lambda n: (slicer.lines(slicer.reach(n)), n))
    # the symbols' own definitions come along (a slice declares every non-local it does not hold)
    defined = [n for n in sorted(wanted) if (e := mod.values.get(n)) is not None and e.is_definition]
    return _slices(slicer, sized, with_each=defined, export=True)


def first_interesting(
    text: str,
    failure_texts: Iterable[str],
    interesting: Callable[[str], bool],
    on_try: Callable[[Slice, bool], None] = lambda _s, _ok: None,
) -> Slice | None:
    """The first candidate slice that keeps the failure (None: start from the whole module)."""
    return first_of(candidate_slices(text, list(failure_texts)), text, interesting, on_try)


def first_of(
    slices: Iterable[Slice],
    text: str,
    interesting: Callable[[str], bool],
    on_try: Callable[[Slice, bool], None] = lambda _s, _ok: None,
) -> Slice | None:
    """The first of `slices` smaller than `text` that keeps the failure, judged in order."""
    for s in slices:
        ok = s.lines < text.count("\n") and interesting(s.text)
        on_try(s, ok)
        if ok:
            return s
    return None


def kinds(sig: Signature) -> frozenset[tuple[str, str]]:
    """A signature at the level a user triages by: the class and the kind of difference
    (`symbol-difference`, `removed`), not which configurations showed it."""
    return frozenset((c, cause) for c, _ref, _cand, cause in sig)


def finest_plan(plan: CheckPlan) -> CheckPlan:
    """`plan` with every split build at split cost 1 and piece cost 1: each function its own
    subgraph and its own piece. A failure that needs a function in another subgraph than its
    caller keeps showing as the module shrinks; at the recorded costs, deleting dead code
    merges subgraphs and the failure goes (a mujs slice stopped at 76 lines of dead
    instructions that only kept two functions apart)."""
    import dataclasses

    configs = tuple(dataclasses.replace(c, cost=1, piece_cost=1) if c.split != "none" and c.candidate is None else c
                    for c in plan.configs)
    return dataclasses.replace(plan, cost=1, configs=configs)
