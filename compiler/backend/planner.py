"""The split planner: level 1 (anchor subgraphs for optimisation) and level 2 (per-function codegen pieces).

Level 1. Anchors are externally visible function definitions. A subgraph holds a
group of anchors plus copies of every *duplicable* internal function they reach
(local, only ever called directly), so the inliner sees whole call trees. Every
other definition (globals, address-taken locals, aliases, comdat groups, blockaddress
users) has exactly ONE owner subgraph; other subgraphs see a declaration. A local
owned entity referenced from another subgraph is made `external hidden` in its owner
for the duration of the compile (so the optimiser cannot assume it sees every use)
and made local again by the MC link. Duplicated copies outside their home subgraph
are renamed `<name>.ember.<k>`: IPO may specialise them differently, so they are
never merged.

Level 2. Each optimised subgraph is cut into one piece per function (atoms: a comdat
group, an alias with its aliasee, a blockaddress target with its users stay
together); globals, module asm and appending arrays go with the first piece.

The plan depends only on the module, never on `-j`, so output bytes are identical
for every job count.
"""

from __future__ import annotations

import heapq
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from compiler.backend import irmodel
from compiler.backend.irmodel import Entity, IRModule

#: Estimated instruction cost a level-1 subgraph aims for (decides how many subgraphs).
TARGET_SUBGRAPH_COST = 1200
#: Never more subgraphs than this (each costs a module parse and fixed pass overhead).
MAX_SUBGRAPHS = 64
#: Level-2 codegen pieces group consecutive functions up to this estimated cost (a module
#: parse per piece costs about as much as compiling a small function).
LEVEL2_PIECE_COST = 600
#: Exported functions up to this many instructions are imported (as available_externally
#: copies) into subgraphs that call them, so the inliner still sees across subgraphs.
IMPORT_COST = 200
#: Total instructions one subgraph may import (-O3; -O2 imports less, for compile time).
IMPORT_BUDGET = 8000
IMPORT_BUDGET_O2 = 2000
#: Suffix of renamed duplicate copies.
COPY_SUFFIX = ".ember."


@dataclass
class Subgraph:
    """One level-1 unit of work: a module text plus what the MC link must know."""

    index: int
    text: str
    members: list[str]
    cost: int
    local_names: set[str] = field(default_factory=set)  # must be local in the final object
    private_names: set[str] = field(default_factory=set)  # were private: `.L` in the object


@dataclass
class SplitPlan:
    """Level-1 subgraphs plus the facts the link needs about every symbol."""

    subgraphs: list[Subgraph]
    local_names: set[str]
    private_names: set[str]
    order: dict[str, int]  # input position of each named value (stable output order)

    def describe(self, pieces: dict[int, list[list[str]]] | None = None) -> str:
        """A readable plan: which symbol lands in which subgraph (and codegen piece), with linkage.

        Each member line gives its linkage inside the subgraph module and, where the
        MC link changes it back, the linkage it gets in the final object.
        """
        lines = []
        for sg in self.subgraphs:
            lines.append(f"subgraph {sg.index} (cost {sg.cost}): " + ", ".join(sg.members))
            values = irmodel.parse_module(sg.text).values
            for name in sg.members:
                entity = values.get(name)
                linkage = entity.linkage if entity is not None else "?"
                if entity is not None and entity.visibility != "default":
                    linkage += f" {entity.visibility}"
                lines.append(f"  {name}: {linkage}{self._role(name, linkage)}")
            for j, members in enumerate((pieces or {}).get(sg.index, [])):
                lines.append(f"  piece {sg.index}.{j}: " + ", ".join(members))
        return "\n".join(lines)

    def _role(self, name: str, linkage: str) -> str:
        if COPY_SUFFIX in name:
            return f" (copy of {name.split(COPY_SUFFIX, 1)[0]})"
        if linkage.startswith("available_externally"):
            return " (import)"
        if linkage.split()[0] in irmodel.LOCAL_LINKAGES:
            return ""
        if name in self.private_names:
            return " -> private in the object"
        if name in self.local_names:
            return " -> internal in the object"
        return ""

    def to_json(self) -> str:
        return json.dumps(
            [{"index": s.index, "cost": s.cost, "members": s.members} for s in self.subgraphs], indent=2
        )


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def name_unnamed(text: str, prefix: str = "__ember_unnamed_") -> str:
    """Give numbered globals (`@0`) stable names so pieces can refer to them by name."""
    if not re.search(r"^@[0-9]+ = |^define [^@\n]*@[0-9]+\(", text, re.M):
        return text  # nothing unnamed: skip a second parse
    mod = irmodel.parse_module(text)
    mapping = {e.name: f"{prefix}{e.name}" for e in mod.entities if e.is_value and e.name.isdigit()}
    return irmodel.rename_refs(text, mapping)


def atoms_of(mod: IRModule) -> _UnionFind:
    """Entities that must live in the same module: comdat groups, aliases+aliasees, blockaddress users+targets."""
    uf = _UnionFind()
    defs = {e.name for e in mod.entities if e.is_value and e.is_definition}
    comdat_first: dict[str, str] = {}
    for e in mod.entities:
        if not (e.is_value and e.is_definition):
            continue
        uf.find(e.name)
        if e.comdat is not None:
            first = comdat_first.setdefault(e.comdat, e.name)
            uf.union(first, e.name)
        if e.kind in ("alias", "ifunc"):
            for r in e.refs:
                if r in defs:
                    uf.union(e.name, r)
        for target in e.blockaddress_of:
            if target in defs:
                uf.union(e.name, target)
    return uf


#: Non-local linkages whose definitions may be dropped when unused: copied into every subgraph that
#: reaches them (same name; the link keeps one copy, they are interchangeable by the ODR rule).
DISCARDABLE = frozenset({"linkonce", "linkonce_odr", "available_externally"})


def _shared_copies(mod: IRModule) -> set[str]:
    """Discardable non-local definitions: copied per subgraph under their own name, deduplicated at link."""
    return {e.name for e in mod.entities if e.is_value and e.is_definition and e.linkage in DISCARDABLE}


def _duplicable(mod: IRModule, atoms: _UnionFind) -> set[str]:
    """Local functions only ever called directly, alone in their atom: safe to copy per subgraph."""
    address_taken: set[str] = set()
    for e in mod.entities:
        address_taken |= e.address_refs
    group_size: dict[str, int] = {}
    for e in mod.entities:
        if e.is_value and e.is_definition:
            root = atoms.find(e.name)
            group_size[root] = group_size.get(root, 0) + 1
    return {
        e.name
        for e in mod.by_kind("function")
        if e.is_local
        and e.name not in address_taken
        and group_size[atoms.find(e.name)] == 1
        and not e.blockaddress_of
    }


def plan(
    text: str,
    *,
    target_cost: int = TARGET_SUBGRAPH_COST,
    strip_debug: bool = True,
    import_cost: int = 0,
    import_budget: int = 0,
) -> SplitPlan:
    """Cut printed LLVM IR into level-1 subgraphs."""
    text = name_unnamed(text)
    mod = irmodel.parse_module(text)
    if strip_debug:
        for e in mod.entities:
            if e.kind == "function":
                e.text = irmodel.strip_debug(e.text)
        mod.entities = [
            e for e in mod.entities if not (e.kind == "metadata" and e.name in ("!llvm.dbg.cu",))
        ]
        mod = IRModule(mod.header, mod.entities)
    atoms = atoms_of(mod)
    local_dup = _duplicable(mod, atoms)
    shared = _shared_copies(mod)
    dup = local_dup | shared
    defs = [e for e in mod.entities if e.is_value and e.is_definition]
    by_name = {e.name: e for e in defs}
    order = {e.name: i for i, e in enumerate(mod.entities) if e.is_value}

    # anchor groups: atoms that contain an externally visible function definition
    anchor_roots: dict[str, list[str]] = {}
    for e in defs:
        if e.kind == "function" and not e.is_local and e.name not in shared:
            anchor_roots.setdefault(atoms.find(e.name), [])
    for e in defs:
        root = atoms.find(e.name)
        if root in anchor_roots:
            anchor_roots[root].append(e.name)

    def closure(names: list[str]) -> list[str]:
        seen: dict[str, None] = dict.fromkeys(names)
        stack = list(names)
        while stack:
            cur = by_name.get(stack.pop())
            if cur is None:
                continue
            for r in cur.refs:
                if r in dup and r not in seen:
                    seen[r] = None
                    stack.append(r)
        return list(seen)

    groups = [(root, members) for root, members in anchor_roots.items()]
    group_closure = {root: closure(members) for root, members in groups}
    group_cost = {root: sum(by_name[n].cost for n in group_closure[root]) for root, _ in groups}
    total = sum(group_cost.values())
    count = max(1, min(len(groups), MAX_SUBGRAPHS, round(total / target_cost) if target_cost else 1))

    # LPT balancing by estimated cost; ties broken by input order (deterministic)
    heap = [(0, k) for k in range(count)]
    bucket_of_group: dict[str, int] = {}
    for root, _members in sorted(groups, key=lambda g: (-group_cost[g[0]], order[g[0]])):
        load, k = heapq.heappop(heap)
        bucket_of_group[root] = k
        heapq.heappush(heap, (load + group_cost[root], k))

    # bucket contents in input order
    bucket_members: list[dict[str, None]] = [{} for _ in range(count)]
    for root, _members in sorted(groups, key=lambda g: order[g[0]]):
        for name in group_closure[root]:
            bucket_members[bucket_of_group[root]][name] = None

    # owners of everything that is not an anchor nor a duplicable copy: first referencing bucket
    owner: dict[str, int] = {}
    for root, _members in groups:
        for name in anchor_roots[root]:
            owner[name] = bucket_of_group[root]
    home: dict[str, int] = {}
    for k, members in enumerate(bucket_members):
        for name in members:
            if name in dup:
                home.setdefault(name, k)
    _assign_owners(defs, dup, atoms, bucket_members, by_name, owner)
    for name, k in owner.items():
        if name not in bucket_members[k]:
            bucket_members[k][name] = None
    # copies nothing reaches are still compiled once (unsplit -O0 emits them too)
    reached = {n for members in bucket_members for n in members}
    for e in defs:
        if e.name in dup and e.name not in reached:
            bucket_members[0][e.name] = None
    # cross-subgraph inlining: small exported callees come in as available_externally copies
    imported: list[set[str]] = [set() for _ in range(count)]
    if import_cost > 0:
        importable = {
            e.name
            for e in defs
            if e.kind == "function"
            and e.linkage == "external"
            and e.comdat is None
            and not e.blockaddress_of
            and e.cost <= import_cost
            # a body touching an owned thread-local would change its TLS access model (and
            # the runtime symbols it needs) once the owner has to export it
            and not any(r in by_name and by_name[r].is_local and " thread_local" in by_name[r].text.split("=", 1)[-1][:80]
                        for r in e.refs)
            and sum(1 for other in defs if atoms.find(other.name) == atoms.find(e.name)) == 1
        }
        for k in range(count):
            budget = import_budget or IMPORT_BUDGET
            frontier = list(bucket_members[k])
            while frontier and budget > 0:
                name = frontier.pop(0)
                for r in by_name[name].refs if name in by_name else ():
                    if r in importable and r not in bucket_members[k] and r not in by_name[name].address_refs:
                        if budget < by_name[r].cost:
                            continue
                        budget -= by_name[r].cost
                        bucket_members[k][r] = None
                        imported[k].add(r)
                        frontier.append(r)
    # owned entities (and imports) may reach duplicable functions too: add their closure
    for k in range(count):
        bucket_members[k] = dict.fromkeys(closure(list(bucket_members[k])))
        for name in bucket_members[k]:
            if name in dup:
                home.setdefault(name, k)

    local_names = {e.name for e in defs if e.is_local}
    renames: list[dict[str, str]] = []
    for k in range(count):
        mapping = {n: f"{n}{COPY_SUFFIX}{k}" for n in bucket_members[k] if n in local_dup and home[n] != k}
        renames.append(mapping)
        local_names |= set(mapping.values())

    # which owned locals are referenced from another bucket: externalise them while compiling
    referenced_from: dict[str, set[int]] = {}
    for k, members in enumerate(bucket_members):
        for name in members:
            for r in by_name[name].refs:
                referenced_from.setdefault(r, set()).add(k)
    exported = {
        n
        for n, k in owner.items()
        if by_name[n].is_local and any(b != k for b in referenced_from.get(n, ()))
    }

    private_names = {n for n in exported if by_name[n].linkage == "private"}
    subgraphs = []
    for k in range(count):
        ordered = sorted(bucket_members[k], key=lambda n: order[n])
        text_k = piece_text(
            mod,
            ordered,
            exported,
            include_asm=(k == 0),
            rename=renames[k],
            constants_visible=True,
            imported=imported[k],
        )
        cost = sum(by_name[n].cost for n in ordered)
        shown = [renames[k].get(n, n) for n in ordered]
        subgraphs.append(Subgraph(k, text_k, shown, cost))
    return SplitPlan(subgraphs, local_names, private_names, order)


def _chunk(atoms: list[list[str]], cost: Callable[[list[str]], int]) -> list[list[str]]:
    """Merge consecutive function atoms into pieces of about LEVEL2_PIECE_COST (deterministic)."""
    chunks: list[list[str]] = []
    current: list[str] = []
    current_cost = 0
    for atom in atoms:
        c = cost(atom)
        if current and current_cost + c > LEVEL2_PIECE_COST:
            chunks.append(current)
            current, current_cost = [], 0
        current = current + atom
        current_cost += c
    if current:
        chunks.append(current)
    return chunks


def _assign_owners(
    defs: list[Entity],
    dup: set[str],
    atoms: _UnionFind,
    bucket_members: list[dict[str, None]],
    by_name: dict[str, Entity],
    owner: dict[str, int],
) -> None:
    """Give every non-anchor, non-duplicable definition (and its atom) one owner: the first bucket using it."""
    first_use: dict[str, int] = {}

    def note_refs(name: str, k: int) -> None:
        for r in by_name[name].refs:
            if r in by_name:
                root = atoms.find(r)
                if k < first_use.get(root, 1 << 30):
                    first_use[root] = k

    for k, members in enumerate(bucket_members):
        for name in members:
            note_refs(name, k)
    for name, k in list(owner.items()):
        note_refs(name, k)
    atom_members: dict[str, list[str]] = {}
    for e in defs:
        atom_members.setdefault(atoms.find(e.name), []).append(e.name)
    pending = [root for root, names in atom_members.items() if not any(n in owner or n in dup for n in names)]
    while pending:
        progress = [root for root in pending if root in first_use]
        if not progress:
            break
        for root in progress:
            k = first_use[root]
            for name in atom_members[root]:
                owner[name] = k
            for name in atom_members[root]:
                note_refs(name, k)
        done = set(progress)
        pending = [root for root in pending if root not in done]
    for root in pending:  # referenced by nothing we compile: still defined exactly once, in bucket 0
        for name in atom_members[root]:
            owner[name] = 0


def piece_text(
    mod: IRModule,
    members: list[str],
    exported: set[str],
    *,
    include_asm: bool,
    rename: dict[str, str] | None = None,
    constants_visible: bool = False,
    imported: set[str] | None = None,
) -> str:
    """Module text holding `members`: definitions (exported locals made hidden), declarations of the rest.

    With `constants_visible` (level 1), pure-data constants owned elsewhere come as
    `available_externally` copies so the optimiser can still fold loads from them (and
    libcalls on constant strings) exactly as the unsplit compile does.
    """
    by_name = mod.values
    member_set = set(members)
    parts: list[str] = []
    for e in mod.by_kind("type"):
        parts.append(e.text)
    used_comdats = {by_name[n].comdat for n in members if by_name[n].comdat}
    for e in mod.by_kind("comdat"):
        if e.name in used_comdats:
            parts.append(e.text)
    if include_asm:
        parts.extend(e.text for e in mod.by_kind("asm"))
    needed: dict[str, None] = {}
    for name in members:
        e = by_name[name]
        if name in exported:
            parts.append(irmodel.set_linkage(e, "external", "hidden"))
        elif imported and name in imported:
            parts.append(irmodel.set_linkage(e, "available_externally", e.visibility))
        else:
            parts.append(e.text)
        for r in e.refs:
            if r not in member_set:
                needed[r] = None
    for r in needed:
        target = mod.values.get(r)
        if target is None:
            continue
        if target.kind == "declaration" or (target.kind == "global" and not target.is_definition):
            parts.append(target.text)
        elif constants_visible and _foldable_constant(target):
            parts.append(irmodel.set_linkage(target, "available_externally", "hidden" if target.is_local else target.visibility))
        elif target.kind in ("function", "global"):
            if target.is_local:
                parts.append(irmodel.declaration_of(target, "hidden"))
            else:
                parts.append(irmodel.declaration_of(target))
        elif target.kind in ("alias", "ifunc"):
            parts.append(_declare_alias(target, mod))
    for e in mod.by_kind("attributes", "metadata"):
        parts.append(e.text)
    text = irmodel.module_text(mod.header, parts)
    return irmodel.rename_refs(text, rename or {})


def _foldable_constant(e: Entity) -> bool:
    """A defined constant holding plain data (no references, section or comdat)."""
    if e.kind != "global" or not e.is_definition or e.refs or e.comdat is not None:
        return False
    if e.linkage not in ("private", "internal", "external"):
        return False
    head = e.text.split("=", 1)[1]
    return " constant " in head and ", section " not in head and " thread_local" not in head


def _declare_alias(alias: Entity, mod: IRModule) -> str:
    """Declare an alias by the kind of its (base) aliasee: a function or a global."""
    base = next((mod.values[r] for r in alias.refs if r in mod.values), None)
    vis = alias.visibility
    if base is not None and base.kind in ("function", "declaration"):
        ret = re.match(r"@[^=]+= [^@]*?alias ([^,]+),", alias.text)
        fn_type = ret.group(1).strip() if ret else "void ()"
        m = re.match(r"(.*?)\s*\((.*)\)$", fn_type)
        ret_type, params = (m.group(1), m.group(2)) if m else ("void", "")
        words = ["declare"] + ([vis] if vis != "default" else []) + [ret_type]
        return " ".join(words) + f" @{irmodel.quote(alias.name)}({params})"
    value_type = re.match(r"@[^=]+= [^@]*?alias ([^,]+),", alias.text)
    vt = value_type.group(1).strip() if value_type else "i8"
    words = ["external"] + ([vis] if vis != "default" else []) + ["global", vt]
    return f"@{irmodel.quote(alias.name)} = " + " ".join(words)


def split_functions(
    text: str, known: set[str], k: int, *, per_function: bool = True
) -> tuple[list[tuple[list[str], str, bool]], set[str], set[str]]:
    """Level 2: cut an optimised subgraph into one piece per function atom.

    Returns [(member names, piece text)], the local names defined here and the private
    names that crossed pieces (externalised; the MC link makes them `.L` again).
    Locals the optimiser created (not in `known`) are renamed `<name>.ember.<k>` so two
    subgraphs never define the same local. With `per_function=False` the whole module
    is one piece, except discardable shared copies (linkonce*), which always get pieces of
    their own marked `True` so the link can keep exactly one copy of each.
    """
    text = name_unnamed(text, f"__ember_unnamed_{k}_")
    mod = irmodel.parse_module(text)
    fresh = {
        e.name: f"{e.name}{COPY_SUFFIX}{k}"
        for e in mod.entities
        if e.is_value and e.is_definition and e.is_local and e.name not in known and COPY_SUFFIX not in e.name
    }
    if fresh:
        text = irmodel.rename_refs(text, fresh)
        mod = irmodel.parse_module(text)
    defs = [e for e in mod.entities if e.is_value and e.is_definition]
    local = {e.name for e in defs if e.is_local}
    atoms = atoms_of(mod)
    groups: dict[str, list[str]] = {}
    for e in defs:
        groups.setdefault(atoms.find(e.name), []).append(e.name)
    data: list[str] = []
    pieces: list[list[str]] = []
    shared_pieces: list[list[str]] = []
    for members in groups.values():
        if all(mod.values[n].linkage in DISCARDABLE for n in members):
            shared_pieces.append(members)
        elif not per_function:
            data.extend(members)
        elif any(mod.values[n].kind == "function" for n in members):
            pieces.append(members)
        else:
            data.extend(members)
    pieces = _chunk(pieces, lambda names: sum(mod.values[n].cost for n in names))
    if data or not (pieces or shared_pieces):
        if pieces:
            pieces[0] = data + pieces[0]
        else:
            pieces.insert(0, data)
    first_shared = len(pieces)
    pieces.extend(shared_pieces)
    piece_of = {n: i for i, members in enumerate(pieces) for n in members}
    exported = {
        r
        for i, members in enumerate(pieces)
        for n in members
        for r in mod.values[n].refs
        if r in piece_of and piece_of[r] != i and mod.values[r].is_local
    }
    out = [
        (members, piece_text(mod, members, exported, include_asm=(i == 0)), i >= first_shared)
        for i, members in enumerate(pieces)
    ]
    private = {e.name for e in defs if e.linkage == "private" and e.name in exported}
    return out, local, private
