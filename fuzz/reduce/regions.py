"""Regions of a module's reference graph: what a whole-module reduction removes at once.

A split-vs-serial difference found on a real program (a Rust fat-LTO module: 3,500
functions, two of them non-local) comes from whole-module facts, so no slice around one
symbol keeps it; the reduction must start from the whole module. Deleting one function
at a time there costs two builds of the whole module per step. Instead the definitions
are ordered by the dominator tree of the reference graph (a virtual root above every
root: non-local definitions, `llvm.*` arrays, what metadata and module asm name), in
preorder, so a run of consecutive nodes is mostly whole subtrees. Removing a set of nodes
stubs them (a function body becomes `ret` of zero; variables go only with what reaches
them) and then drops every definition no longer reachable from a root, with
the declarations nothing uses any more: one candidate removes a subtree, everything only
it reached (the unreachable region it leaves), in one step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from compiler.backend import irmodel

#: keywords and attributes that may stand between `define` and the return type
_RETURN_ATTR = re.compile(r"\b(?:range|nofpclass|dereferenceable(?:_or_null)?|align|noundef|nonnull|noalias|zeroext|signext|"
                          r"inreg|returned|dead_on_return|captures)\b(?:\([^()]*(?:\([^()]*\)[^()]*)*\)| \d+)?")
_OPEN = {"}": "{", "]": "[", ">": "<", ")": "("}


def return_type(define: str) -> str | None:
    """The return type of a `define` line (`void`, `i32`, `{ i64, ptr }`, ...); None when unknown."""
    head = define.split("@", 1)[0]
    if not head.startswith("define "):
        return None
    head = _RETURN_ATTR.sub(" ", head[len("define "):]).rstrip()
    if not head:
        return None
    if head[-1] in _OPEN:
        depth = 0
        for i in range(len(head) - 1, -1, -1):
            ch = head[i]
            if ch in _OPEN:
                depth += 1
            elif ch in _OPEN.values():
                depth -= 1
                if depth == 0:
                    start = i
                    if ch == "{" and i > 0 and head[i - 1] == "<":  # packed struct `<{ ... }>`
                        start = i - 1
                    return head[start:].strip()
        return None
    return head.split()[-1]


def stub_text(e: irmodel.Entity) -> str | None:
    """Function `e` with nothing it refers to in its body: it returns zero at once. None when
    `e` is not a function, or its return type is not read."""
    if e.kind == "function":
        define = e.text.split("\n", 1)[0]
        ty = return_type(define)
        if ty is None:
            return None
        body = "  ret void" if ty == "void" else f"  ret {ty} zeroinitializer"
        if not define.endswith("{"):
            return None
        return f"{define}\n{body}\n}}"
    return None


@dataclass
class Graph:
    """The reference graph of a module's definitions, its roots and their dominator tree."""

    mod: irmodel.IRModule
    roots: set[str]
    refs: dict[str, list[str]]
    #: every reachable function but the roots, in dominator-tree preorder
    order: list[str] = field(default_factory=list)
    #: definitions no root reaches (the serial optimiser would delete them)
    unreachable: set[str] = field(default_factory=set)
    idom: dict[str, str] = field(default_factory=dict)
    md: _Metadata | None = None
    #: with `graph(keep_unreachable=True)`: definitions no root reaches, made children of the
    #: virtual root (no roots: each may go, with what only it reaches); `unreachable` is empty
    entries: set[str] = field(default_factory=set)

    def subtree_totals(self, weight: dict[str, int]) -> dict[str, int]:
        """Per node, the sum of `weight` over its region (it and what it dominates)."""
        kids: dict[str, list[str]] = {}
        for n, d in self.idom.items():
            kids.setdefault(d, []).append(n)
        total: dict[str, int] = {}
        order, todo = [], [ROOT]
        while todo:
            n = todo.pop()
            order.append(n)
            todo.extend(kids.get(n, ()))
        for n in reversed(order):
            total[n] = weight.get(n, 0) + sum(total[k] for k in kids.get(n, ()))
        return total

    def ranked_frontier(self, kept: set[str], hot: set[str]) -> list[str]:
        """`frontier`, regions holding none of the `hot` definitions first (they are the likely
        removals: a run of them is one large candidate), each group largest region first."""
        cost = {n: e.cost for n, e in self.mod.values.items() if e.is_definition}
        sizes = self.subtree_totals(cost)
        heat = self.subtree_totals({n: 1 for n in hot})
        items = self.frontier(kept)
        rank = {n: i for i, n in enumerate(items)}
        return sorted(items, key=lambda n: (heat.get(n, 0) > 0, -sizes.get(n, 0), rank[n]))

    def frontier(self, kept: set[str]) -> list[str]:
        """The functions to try next, in preorder: those whose nearest function dominator is a
        root, or in `kept` (tried alone and needed), and not in `kept` themselves. Their
        regions are disjoint, so each removal is its own candidate."""
        items = set(self.order)

        def parent(n: str) -> str:
            d = self.idom.get(n, ROOT)
            while d != ROOT and d not in self.roots and d not in items:
                d = self.idom.get(d, ROOT)
            return d

        return [n for n in self.order if n not in kept and (parent(n) == ROOT or parent(n) in self.roots
                                                              or parent(n) in kept)]

    def region(self, name: str) -> set[str]:
        """`name` and every definition it dominates."""
        return subtree(name, children(self.idom))


#: the virtual node above every root of a graph `dominators` reads
ROOT = "\0root"


_MD_TOKEN = re.compile(r"(?<![\w.])!([0-9]+)\b")


class _Metadata:
    """Numbered metadata nodes: which nodes and which values each one reaches."""

    def __init__(self, mod: irmodel.IRModule) -> None:
        self.nodes = {e.name: e for e in mod.entities if e.kind == "metadata" and e.name[1:].isdigit()}
        self._values: dict[str, set[str]] = {}

    def tokens(self, text: str) -> set[str]:
        return {"!" + m for m in _MD_TOKEN.findall(text)} if "!" in text else set()

    def closure(self, names: Iterable[str]) -> set[str]:
        """The nodes reachable from `names`."""
        seen: set[str] = set()
        todo = [n for n in names if n in self.nodes]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            todo.extend(t for t in self.tokens(self.nodes[n].text.split("=", 1)[-1]) if t in self.nodes and t not in seen)
        return seen

    def values(self, text: str) -> set[str]:
        """The values the metadata that `text` names refers to (`!callees`, `!associated`, ...)."""
        out: set[str] = set()
        for tok in self.tokens(text):
            if tok not in self._values:
                self._values[tok] = {r for n in self.closure([tok]) for r in self.nodes[n].refs}
            out |= self._values[tok]
        return out


def graph(text: str, keep_unreachable: bool = False) -> Graph:
    """The module's reference graph (`mod` parsed from `text`). With `keep_unreachable` what no
    root reaches is kept as regions of its own: a planted difference may live in dead code
    (a function the serial build deletes and a faulty split keeps), so dropping it all at
    once loses it; then entries into it (first those nothing else there names, in input
    order) hang from the virtual root, and a region goes only when a candidate removes it."""
    mod = irmodel.parse_module(text)
    md = _Metadata(mod)
    defs = {e.name: e for e in mod.entities if e.is_value and e.is_definition}
    roots = {n for n, e in defs.items() if not e.is_local or n.startswith("llvm.")}
    for e in mod.entities:
        if e.kind == "metadata" and e.name not in md.nodes:  # named metadata: what it reaches stays
            roots.update(r for r in md.values(e.text) | set(e.refs) if r in defs)
        elif not e.is_value and e.kind != "metadata":  # module asm
            roots.update(r for r in e.refs if r in defs)
        elif e.comdat is not None and not e.is_local and e.name in defs:
            roots.add(e.name)
    # a comdat's members stay or go together: a member points at the others
    by_comdat: dict[str, list[str]] = {}
    for n, e in defs.items():
        if e.comdat is not None:
            by_comdat.setdefault(e.comdat, []).append(n)
    refs = {n: [r for r in dict.fromkeys([*e.refs, *sorted(md.values(e.text))]) if r in defs] for n, e in defs.items()}
    for members in by_comdat.values():
        for n in members:
            refs[n] = refs[n] + [m for m in members if m != n]
    entries: list[str] = []
    if keep_unreachable:
        covered = _reach(roots, refs)
        named = {r for n in defs if n not in covered for r in refs[n] if r != n}
        by_index = sorted((n for n in defs if n not in covered), key=lambda n: defs[n].index)
        for n in [*(m for m in by_index if m not in named), *by_index]:
            if n not in covered:
                entries.append(n)
                covered |= _reach([n], refs)
    succ = {ROOT: [*sorted(roots, key=lambda n: defs[n].index), *entries], **refs}
    idom, order = dominators(succ)
    g = Graph(mod, roots, refs, md=md, entries=set(entries))
    g.idom = {n: d for n, d in idom.items() if n != ROOT}
    g.order = [n for n in order if n != ROOT and n not in roots and defs[n].kind == "function"]
    g.unreachable = set(defs) - set(order)
    return g


def _reach(starts: Iterable[str], refs: dict[str, list[str]]) -> set[str]:
    seen = set(starts)
    todo = list(seen)
    while todo:
        for r in refs.get(todo.pop(), ()):
            if r not in seen:
                seen.add(r)
                todo.append(r)
    return seen


def dominators(succ: dict[str, list[str]]) -> tuple[dict[str, str], list[str]]:
    """Immediate dominators from `ROOT` (Cooper, Harvey and Kennedy's iteration) and the
    dominator tree's preorder."""
    rpo: list[str] = []
    seen = {ROOT}
    stack: list[tuple[str, Iterable[str]]] = [(ROOT, iter(succ.get(ROOT, ())))]
    post: list[str] = []
    while stack:
        node, it = stack[-1]
        for nxt in it:
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(succ.get(nxt, ()))))
                break
        else:
            stack.pop()
            post.append(node)
    rpo = post[::-1]
    number = {n: i for i, n in enumerate(rpo)}
    preds: dict[str, list[str]] = {n: [] for n in rpo}
    for n in rpo:
        for s in succ.get(n, ()):
            if s in number:
                preds[s].append(n)
    idom: dict[str, str] = {ROOT: ROOT}
    changed = True
    while changed:
        changed = False
        for n in rpo[1:]:
            new = None
            for p in preds[n]:
                if p in idom:
                    new = p if new is None else _intersect(p, new, idom, number)
            if new is not None and idom.get(n) != new:
                idom[n] = new
                changed = True
    kids: dict[str, list[str]] = {}
    for n in rpo[1:]:
        kids.setdefault(idom[n], []).append(n)
    order, todo = [], [ROOT]
    while todo:
        n = todo.pop()
        order.append(n)
        todo.extend(reversed(kids.get(n, [])))
    return idom, order


def _intersect(a: str, b: str, idom: dict[str, str], number: dict[str, int]) -> str:
    while a != b:
        while number[a] > number[b]:
            a = idom[a]
        while number[b] > number[a]:
            b = idom[b]
    return a


def remove(g: Graph, stubbed: set[str]) -> str:
    """The module with every definition in `stubbed` stubbed (`stub_text`), then everything no
    root reaches any more dropped, and the declarations nothing names."""
    texts: dict[str, str] = {}
    refs = dict(g.refs)
    for name in stubbed:
        e = next((x for x in (g.mod.values.get(name),) if x is not None), None)
        if e is None:
            continue
        new = stub_text(e)
        if new is not None:
            texts[name] = new
            refs[name] = [r for r, _s, _e in irmodel.iter_refs(new) if r in g.refs and r != name]
    live = _reach(g.roots | (g.entries - stubbed), refs)
    named: set[str] = set()
    for e in g.mod.entities:
        if e.is_value and e.is_definition and e.name not in live:
            continue
        if e.name in texts:
            named.update(r for r, _s, _e in irmodel.iter_refs(texts[e.name]))
        elif e.kind != "metadata" or e.name not in (g.md.nodes if g.md else {}):
            named.update(e.refs)
        else:
            named.update(e.refs)
    kept = [e for e in g.mod.entities if not (e.is_value and e.is_definition and e.name not in live)
            and not (e.is_value and not e.is_definition and e.name not in named)]
    md = g.md if g.md is not None else _Metadata(g.mod)
    wanted = md.closure(t for e in kept if e.name not in md.nodes for t in md.tokens(texts.get(e.name, e.text)))
    parts = [texts.get(e.name, e.text) for e in kept if e.name not in md.nodes or e.name in wanted]
    return irmodel.module_text(g.mod.header, parts)


def children(idom: dict[str, str]) -> dict[str, list[str]]:
    """The dominator tree's children of each node, from the immediate dominators."""
    kids: dict[str, list[str]] = {}
    for n, d in idom.items():
        kids.setdefault(d, []).append(n)
    return kids


def subtree(root: str, kids: dict[str, list[str]]) -> set[str]:
    """`root` and every node below it in the tree `kids`."""
    out, todo = set(), [root]
    while todo:
        n = todo.pop()
        out.add(n)
        todo.extend(kids.get(n, ()))
    return out
