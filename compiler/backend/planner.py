"""The split planner: level 1 (anchor subgraphs for optimisation) and level 2 (per-function codegen pieces).

Level 1. Anchors are externally visible function definitions. A subgraph holds a
group of anchors plus copies of every *duplicable* internal function they reach
(local, only ever called directly), so the inliner sees whole call trees. Every
other definition (globals, address-taken locals, aliases, comdat groups, blockaddress
users) has exactly ONE owner subgraph; other subgraphs see a declaration. A local
owned entity referenced from another subgraph is made `external hidden` in its owner
for the duration of the compile (so the optimiser cannot assume it sees every use)
and made local again by the object link. Duplicated copies outside their home subgraph
are renamed `<name>.ember.<k>`: IPO may specialise them differently, so they are
never merged.

Level 2. Each optimised subgraph is cut into one piece per function (atoms: a comdat
group, an alias with its aliasee, a blockaddress target with its users, a variable that
has aliases with every definition naming it or them, stay together); globals, module asm
and appending arrays go with the first piece.

The plan depends only on the module, never on `-j`, so output bytes are identical
for every job count.
"""

from __future__ import annotations

import dataclasses
import heapq
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from compiler.backend import cut, engine, facts, globalmerge, irmodel, summary
from compiler.backend.irmodel import Entity, IRModule
from compiler.backend.names import name_unnamed as name_unnamed_in_memory

#: Estimated instruction cost a level-1 subgraph aims for (decides how many subgraphs). Each
#: subgraph pays a module parse and the pass pipeline's fixed cost, and every call that
#: crosses subgraphs is one the inliner cannot see: a few large subgraphs beat many small ones.
TARGET_SUBGRAPH_COST = 8000
#: Never more subgraphs than this (enough to keep 16 workers busy with room to balance).
MAX_SUBGRAPHS = 32
#: A --split-cost below this asks for a fine split (the harness's stress setting): callers are
#: then not merged with the exported functions they call, so every anchor can land alone.
FINE_SPLIT_COST = 1000
#: Level-2 codegen pieces group consecutive functions up to this estimated cost. Codegen of
#: a subgraph runs in the same worker, so smaller pieces only add module parses; the
#: harness draws small values to exercise the per-function cut and its link.
LEVEL2_PIECE_COST = 6000
#: Duplicable locals up to this many instructions are copied into every subgraph calling them
#: (about what LLVM's inliner takes at -O2: its threshold of 225 is ~45 simple instructions).
COPY_COST = 60
#: Exported functions up to this many instructions may be imported (as available_externally
#: copies) into subgraphs that call them, so the inliner still sees across subgraphs.
IMPORT_COST = 200
#: One subgraph imports at most this share of its own cost.
IMPORT_SHARE = 0.10
#: Copies and imports together stay within this share of the module's cost...
EXTRA_WORK = 0.25
#: ...of which copies may take at most this share (the rest is left for imports).
COPY_SHARE = 0.15
#: ...or this many instructions, whichever is more (small modules copy freely: it is cheap).
WORK_FLOOR = 600
#: Copies and imports of the predicted inline closure above this share of the module make the
#: plan use fewer subgraphs (each re-optimises its own copy of the closure)...
CLOSURE_WORK = 0.4
#: ...but never fewer than this many (two workers stay busy).
MIN_SUBGRAPHS = 4
#: Suffix of renamed duplicate copies.
COPY_SUFFIX = ".ember."


class Subgraph:
    """One level-1 unit of work: its members, and its module as a cut of the whole module in
    memory (`cut`, compiler/backend/cut.py), printed as text only when asked for (a harness's
    rewrite, a saved piece, `--save-pieces`, a printed plan) by what `render_by` was given."""

    def __init__(self, index: int, members: list[str], cost: int, cut: cut.CutSpec | None) -> None:
        self.index = index
        self.members = members
        self.cost = cost
        self._text: str | None = None
        self._render: Callable[[], str] | None = None
        #: None once the text was rewritten (a harness's planted fault): it then travels as text
        self.cut = cut

    @property
    def text(self) -> str:
        if self._text is None:
            if self._render is None:
                raise ValueError(f"subgraph {self.index}: no text (its plan's caller gave no way to print its cut)")
            self._text, self._render = self._render(), None
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text, self._render, self.cut = value, None, None

    def render_by(self, render: Callable[[], str]) -> None:
        """Print the text (when first asked for) with `render`."""
        if self._text is None:
            self._render = render


@dataclass(frozen=True)
class PlanWork:
    """How much the plan compiles, against the module: the cost model's bound (docs/backend.md)."""

    module_cost: int  # instructions of every definition, once
    work_cost: int  # instructions over all subgraphs: copies and imports included
    copied: int  # of which copies of duplicable locals
    imported: int  # of which available_externally imports

    @property
    def ratio(self) -> float:
        return self.work_cost / self.module_cost if self.module_cost else 1.0

    def render(self) -> str:
        return (
            f"plan work: {self.work_cost} instructions for a {self.module_cost}-instruction module "
            f"({self.ratio:.2f}x; copies {self.copied}, imports {self.imported})"
        )


@dataclass
class SplitPlan:
    """Level-1 subgraphs plus the facts the link needs about every symbol."""

    subgraphs: list[Subgraph]
    local_names: set[str]
    private_names: set[str]
    order: dict[str, int]  # input position of each named value (stable output order)
    work: PlanWork = field(default_factory=lambda: PlanWork(0, 0, 0, 0))
    #: local variables exported while compiling (used from a subgraph that does not define
    #: them) that the unsplit optimiser may delete once unused: no `llvm.used`, no comdat
    dead_when_unused: set[str] = field(default_factory=set)
    #: aliases into global variables and what GlobalMerge may pack (None: no such alias)
    merge_facts: globalmerge.ModuleFacts | None = None
    #: the module's asm and only the functions holding inline asm, the rest declared (None:
    #: no asm): LLVM ends a worker on a bad asm line, so the driver generates this first
    asm_probe: AsmProbe | None = None

    def describe(self, pieces: dict[int, list[list[str]]] | None = None) -> str:
        """A readable plan: which symbol lands in which subgraph (and codegen piece), with linkage.

        Each member line gives its linkage inside the subgraph module and, where the
        link changes it back, the linkage it gets in the final object.
        """
        lines = [self.work.render()]
        for sg in self.subgraphs:
            lines.append(f"subgraph {sg.index} (cost {sg.cost}): " + ", ".join(sg.members))
            linkages = _linkages(sg.text, f"<subgraph {sg.index}>")
            for name in sg.members:
                # a local imported under its clone's name (`clone_exported_last_calls`)
                clone = None if name in linkages else next((n for n in linkages if n.startswith(name + COPY_SUFFIX)), None)
                if clone is not None:
                    lines.append(f"  {name}: {linkages[clone]} (import of the clone {clone})")
                    continue
                linkage = linkages.get(name, "?")
                lines.append(f"  {name}: {linkage}{self._role(name, linkage)}")
            for j, members in enumerate((pieces or {}).get(sg.index, [])):
                lines.append(f"  piece {sg.index}.{j}: " + ", ".join(members))
        return "\n".join(lines)

    def _role(self, name: str, linkage: str) -> str:
        if COPY_SUFFIX in name and linkage.split()[0] not in irmodel.LOCAL_LINKAGES:
            return f" (clone of {name.split(COPY_SUFFIX, 1)[0]}, exported while compiling) -> internal in the object"
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


def _linkages(text: str, name: str) -> dict[str, str]:
    """Each global value of a printed piece: its linkage, with its visibility where not default."""
    lib = engine.capi()
    out = {}
    with engine.Module(text, name) as module:
        for value in module.global_values():
            visibility = facts.VISIBILITY[lib.LLVMGetVisibility(value.ref)]
            linkage = facts.LINKAGE.get(value.linkage, "external")
            out[facts.value_name(value.ref)] = linkage + (f" {visibility}" if visibility != "default" else "")
    return out


class UnionFind:
    """Disjoint sets of names (atoms, clusters); the smaller name is the root (deterministic)."""

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



def data_alias_names(mod: IRModule) -> set[str]:
    """Every name of a global variable that has aliases: the variable and its aliases.

    Seen from a module that does not define them, two such names would be two declared
    globals, which LLVM's alias analysis takes for distinct objects: a store through one
    and a load through the other could be reordered or forwarded (the optimiser's GVN at
    level 1; AArch64's machine scheduler at level 2, found by `ember fuzz --target
    aarch64-linux-gnu`). `atoms_of` keeps every user of these names with them.
    """
    names: set[str] = set()
    for e in mod.by_kind("alias"):
        base, seen = e, set()
        while base.kind == "alias" and base.name not in seen:
            seen.add(base.name)
            base = next((mod.values[r] for r in base.refs if r in mod.values), base)
        if base.kind == "global":
            names |= seen | {base.name}
    return names


def atoms_of(mod: IRModule) -> UnionFind:
    """Entities that must live in the same module: comdat groups, aliases+aliasees, blockaddress
    users+targets, and every definition naming a data alias or its variable (`data_alias_names`)."""
    uf = UnionFind()
    defs = {e.name for e in mod.entities if e.is_value and e.is_definition}
    aliased = data_alias_names(mod)
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
        for r in e.refs:
            if r in aliased and r in defs:
                uf.union(e.name, r)
    return uf


#: Non-local linkages whose definitions may be dropped when unused: copied into every subgraph that
#: reaches them (same name; the link keeps one copy, they are interchangeable by the ODR rule).
DISCARDABLE = frozenset({"linkonce", "linkonce_odr", "available_externally"})


def _shared_copies(mod: IRModule) -> set[str]:
    """Discardable non-local definitions: copied per subgraph under their own name, deduplicated at link."""
    return {e.name for e in mod.entities if e.is_value and e.is_definition and e.linkage in DISCARDABLE}


def _duplicable(mod: IRModule, atoms: UnionFind) -> set[str]:
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


@dataclass(frozen=True)
class PlanPolicy:
    """How level 1 trades optimisation scope for work (docs/backend.md, "The cost model").

    The plan never depends on `-j`: the same module gives the same subgraphs, so the
    object's bytes are the same at every job count.
    """

    #: estimated instructions one subgraph aims for (decides how many subgraphs)
    target_cost: int = TARGET_SUBGRAPH_COST
    max_subgraphs: int = MAX_SUBGRAPHS
    #: duplicable locals up to this many instructions are copied into each subgraph calling them
    copy_cost: int = COPY_COST
    #: exported callees up to this size may be imported (available_externally); 0: none
    import_cost: int = 0
    #: one subgraph imports at most this share of its own cost
    import_share: float = IMPORT_SHARE
    #: copies plus imports stay within this share of the module's cost (or WORK_FLOOR)
    extra_work: float = EXTRA_WORK
    #: copies alone stay within this share (or WORK_FLOOR)
    copy_share: float = COPY_SHARE
    #: copy every duplicable local a subgraph reaches, unbounded (device code cannot call across modules)
    copy_closure: bool = False
    #: merge callers with the exported functions they call (fewer calls crossing subgraphs)
    merge_exported: bool = True
    #: import exported `alwaysinline` callees whatever their size and budget: the unsplit
    #: pipeline's always-inliner inlines them at every -O, -O0 included
    import_always_inline: bool = False
    #: the -O level whose inliner the plan follows (1-3): each subgraph gets a copy or an
    #: import of every callee the unsplit build is predicted to inline into its functions,
    #: transitively (compiler/backend/summary.py); 0: copies and imports by raw size instead
    inline_level: int = 0
    #: keep IPSCCP from specialising a local on a constant argument that only the subgraph's
    #: share of its call sites agrees on (-O1 and up; `serial_argument_callers`)
    serial_argument_facts: bool = False
    #: a local variable whose address never escapes stays local in its owner while other
    #: subgraphs use it, so GlobalsAA keeps its no-escape fact (-O1 and up; `variable_keepers`)
    serial_alias_facts: bool = False
    #: a fixed level-1 plan: function name -> subgraph index, used by `pack_clusters` instead
    #: of packing by cost (a reducer keeps the boundaries of a failing build's plan while the
    #: module shrinks); None: pack by cost. Functions it does not name follow their atom,
    #: their cluster or a caller, else go to subgraph 0; indices left empty disappear
    assignment: dict[str, int] | None = None
    #: a local called from several places comes into another subgraph as an
    #: `available_externally` import of its owner's body (exported hidden while compiling)
    #: instead of a renamed copy: a copy the inliner leaves out of line is a second body in
    #: the object, an import's is dropped (-O1 and up, after the whole-module prefix, which
    #: already gave every local its serial calling convention and argument facts)
    import_locals: bool = False


@dataclass
class PlanState:
    """What the named planning steps read and fill in, in the order they run."""

    mod: IRModule
    policy: PlanPolicy
    atoms: UnionFind
    defs: list[Entity]
    by_name: dict[str, Entity]
    order: dict[str, int]
    local_dup: set[str]
    shared: set[str]
    #: local variables an import may name in place (exported while compiling): `opaque_variables`
    opaque: set[str] = field(default_factory=set)
    atom_members: dict[str, list[str]] = field(default_factory=dict)
    atom_cost: dict[str, int] = field(default_factory=dict)
    module_cost: int = 0
    count: int = 1
    #: cluster union-find over atom roots, and each cluster root's cost
    clusters: UnionFind = field(default_factory=UnionFind)
    cluster_cost: dict[str, int] = field(default_factory=dict)
    bucket_members: list[dict[str, None]] = field(default_factory=list)
    owner: dict[str, int] = field(default_factory=dict)
    imported: list[set[str]] = field(default_factory=list)
    extra_left: int = 0
    copied_cost: int = 0
    imported_cost: int = 0
    inline: summary.ModuleSummary | None = None
    #: the live module the facts are read from
    module: engine.Module | None = None
    #: what FunctionAttrs inferred on the whole module (`inferred.infer`): every piece's
    #: declarations and imports get it
    inferred: dict[str, tuple[tuple[int, str, int], ...]] | None = None
    #: locals their owner keeps local while the other subgraphs name an exported clone
    #: (`clone_exported_last_calls`), and the subgraph holding the clones (-1: none)
    clones: set[str] = field(default_factory=set)
    clone_bucket: int = -1


def plan(
    module: engine.Module,
    *,
    target_cost: int = TARGET_SUBGRAPH_COST,
    import_cost: int = 0,
    policy: PlanPolicy | None = None,
    inferred: dict[str, tuple[tuple[int, str, int], ...]] | None = None,
) -> SplitPlan:
    """Cut the live `module` into level-1 subgraphs (the steps below, in order), every fact
    read in memory (`compiler/backend/facts.py`; names canonical, numbered values named, as
    `split.prepare_whole_module` leaves them). A subgraph is a cut of the module
    (`Subgraph.cut`); its text, where one is asked for, is that cut printed (the caller that
    holds the module's bitcode says how: `Subgraph.render_by`). `inferred`: what FunctionAttrs
    inferred on the whole module, for the pieces' declarations and imports."""
    policy = policy or PlanPolicy(target_cost=target_cost, import_cost=import_cost)
    loaded = load_state(module, policy)
    loaded.inferred = inferred
    state = _plan_level1(loaded, None)
    # every subgraph copies the callees the serial inliner takes; where that closure is large
    # (an interpreter's hundred helpers called from everywhere) fewer, bigger subgraphs do
    # less work in all: shrink the count until copies and imports fit the bound
    extra = state.copied_cost + state.imported_cost
    shrink = policy.inline_level > 0 and policy.target_cost >= FINE_SPLIT_COST  # not the harness's fine split
    if shrink and state.count > MIN_SUBGRAPHS and extra > CLOSURE_WORK * state.module_cost:
        count = max(MIN_SUBGRAPHS, int(state.count * CLOSURE_WORK * state.module_cost / extra))
        # an even count: so few subgraphs only balance on two (or four) workers when they
        # split evenly (duktape at -j2: 5 subgraphs 7.63 s, 4 subgraphs 7.33 s)
        state = _plan_level1(loaded, count - count % 2)
    return emit_subgraphs(state)


def _plan_level1(loaded: PlanState, count: int | None) -> PlanState:
    """The level-1 steps on a fresh copy of the loaded module's state (`count`: subgraphs wanted)."""
    state = PlanState(
        mod=loaded.mod, policy=loaded.policy, atoms=loaded.atoms, defs=loaded.defs, by_name=loaded.by_name,
        order=loaded.order, local_dup=loaded.local_dup, shared=loaded.shared, inline=loaded.inline, opaque=loaded.opaque,
        module=loaded.module, inferred=loaded.inferred,
    )
    form_atoms(state)
    if count is not None:
        state.count = min(state.count, count)
    cluster_by_calls(state)
    pack_clusters(state)
    assign_owners(state)
    if state.policy.inline_level > 0:
        # small locals first (within their budget), inlined or not: a copy keeps a local
        # local, with the calling convention and argument facts the serial build gives it
        copy_small_locals(state)
        bring_inline_closure(state)
        loaded.inline = state.inline
    else:
        copy_small_locals(state)
        import_small_callees(state)
    copy_shared_closure(state)
    if state.policy.inline_level > 0 and state.policy.import_locals:
        clone_exported_last_calls(state)
    return state


def load_state(module: engine.Module, policy: PlanPolicy) -> PlanState:
    """Read the live module's facts (`facts.read`, with the values metadata names: names
    canonical, numbered values named, debug info stripped unless `-g` wants it) and
    classify its definitions."""
    mod = facts.read(module, metadata=True)
    atoms = atoms_of(mod)
    defs = [e for e in mod.entities if e.is_value and e.is_definition]
    return PlanState(
        mod=mod,
        policy=policy,
        atoms=atoms,
        defs=defs,
        by_name={e.name: e for e in defs},
        order={e.name: i for i, e in enumerate(mod.entities) if e.is_value},
        local_dup=_duplicable(mod, atoms),
        shared=_shared_copies(mod),
        opaque=opaque_variables(mod, module),
        module=module,
    )


def opaque_variables(mod: IRModule, module: engine.Module) -> set[str]:
    """Local scalar variables the unsplit optimiser knows nothing useful about: loaded, and
    stored a value only known at run time (gawk's `srcfile`, `srcline`, which its tiny
    `set_loc` writes): no constant to fold, no dead store to drop, nothing to split. An
    import naming one may take it in place, exported while compiling, instead of staying a
    call the serial build inlines (gawk's interpreter loops: 180 calls to `set_loc`).
    Read from the candidates' use lists in the live `module` (`facts.variable_accesses`)."""
    candidates = set()
    for e in mod.by_kind("global"):
        if not e.is_local or e.comdat is not None or not e.is_definition:
            continue
        head = e.variable
        if not head.constant and not head.thread_local and not head.section and head.scalar:
            candidates.add(e.name)
    other: set[str] = {r for e in mod.entities if e.kind != "function" for r in e.refs}
    accesses = facts.variable_accesses(module, candidates)
    return (candidates & accesses.loaded & accesses.run_time_stored) - other - accesses.other


def form_atoms(state: PlanState) -> None:
    """Group definitions into atoms, cost them, and decide how many subgraphs the module gets."""
    for e in state.defs:
        root = state.atoms.find(e.name)
        state.atom_members.setdefault(root, []).append(e.name)
        state.atom_cost[root] = state.atom_cost.get(root, 0) + e.cost
    state.module_cost = sum(e.cost for e in state.defs)
    anchors = {
        state.atoms.find(e.name)
        for e in state.defs
        if e.kind == "function" and not e.is_local and e.name not in state.shared
    }
    policy = state.policy
    wanted = round(state.module_cost / policy.target_cost) if policy.target_cost else 1
    state.count = max(1, min(len(anchors), policy.max_subgraphs, wanted))
    floor = WORK_FLOOR if not policy.copy_closure else 1 << 62
    state.extra_left = max(int(policy.extra_work * state.module_cost), floor)


def _function_atoms(state: PlanState) -> list[str]:
    """Atoms holding a function that is compiled once (not a discardable shared copy), in input order."""
    roots: dict[str, None] = {}
    for e in state.defs:
        if e.kind == "function" and e.name not in state.shared:
            roots.setdefault(state.atoms.find(e.name), None)
    return list(roots)


def cluster_by_calls(state: PlanState) -> None:
    """Merge function atoms along references, most binding first.

    Locals go with their callers (below, whatever the cap); then callers go with the
    exported functions they call while the cluster fits one subgraph (fewer calls cross);
    last, all callers of a local left out of line go together where they fit a subgraph
    (its arguments' constants).
    """
    roots = _function_atoms(state)
    is_function_atom = set(roots)
    # a small --split-cost asks for many subgraphs (the harness's stress setting): merge less
    cap = max(1, min(-(-state.module_cost // state.count), state.policy.target_cost))
    clusters = state.clusters
    for root in roots:
        clusters.find(root)
        state.cluster_cost[root] = state.atom_cost[root]
    callers: dict[str, dict[str, None]] = {root: {} for root in roots}
    for e in state.defs:
        if e.kind != "function" or e.name in state.shared:
            continue
        mine = state.atoms.find(e.name)
        for r in e.refs:
            if r in state.by_name:
                theirs = state.atoms.find(r)
                if theirs != mine and theirs in is_function_atom:
                    callers[theirs].setdefault(mine, None)

    def merge(a: str, b: str, force: bool = False) -> bool:
        ra, rb = clusters.find(a), clusters.find(b)
        if ra == rb:
            return True
        joined = state.cluster_cost[ra] + state.cluster_cost[rb]
        if joined > cap and not force:
            return False
        clusters.union(ra, rb)
        state.cluster_cost[clusters.find(ra)] = joined
        return True

    def all_local(root: str) -> bool:
        return all(state.by_name[n].is_local for n in state.atom_members[root])

    # a local goes with its only caller whatever the cap (the unsplit inliner almost always
    # inlines a last call to a local, and dead-argument and constant propagation across
    # that call can delete code, and the undefined symbols it named); a local with several
    # callers goes with the first that has room, else with its first caller: it is never
    # cut off from every caller (callers elsewhere copy it when small, else call it)
    locals_ = [root for root in roots if all_local(root) and callers[root]]
    for root in locals_:
        if len(callers[root]) == 1:
            merge(next(iter(callers[root])), root, force=True)
    for root in locals_:
        if len(callers[root]) > 1 and not any(merge(caller, root) for caller in callers[root]):
            merge(next(iter(callers[root])), root, force=True)
    if state.policy.merge_exported and state.policy.target_cost >= FINE_SPLIT_COST:
        for root in roots:
            if not all_local(root):
                for caller in callers[root]:
                    merge(caller, root)
    # a local the serial build keeps out of line is specialised by IPSCCP on every argument
    # all its calls pass the same constant (branches fold, and the calls in them go: `fmod`
    # for a `frem`), which only a subgraph holding every call can do too (while it is called
    # from another subgraph it is exported, its arguments unknown): its callers' clusters
    # join its own where together they fit a subgraph (a default-sized one at the least).
    # Last: before the merges above it took their room (jq's jq_next lost stack_pop, +1.9%)
    for root in _out_of_line_locals(state, locals_):
        joined = {clusters.find(root)} | {clusters.find(c) for c in callers[root]}
        if len(joined) > 1 and sum(state.cluster_cost[c] for c in joined) <= max(cap, TARGET_SUBGRAPH_COST):
            for caller in callers[root]:
                merge(caller, root, force=True)


def _out_of_line_locals(state: PlanState, locals_: list[str]) -> list[str]:
    """Local function atoms the serial build is not predicted to inline and that are too large
    to copy: called across subgraphs, they are exported while compiling and IPSCCP leaves
    their arguments alone. An inlined one, or a small one, comes to every caller's subgraph
    as a copy, which sees the module's argument facts (`serial_argument_callers`). None at
    -O0, whose pipeline has no IPSCCP."""
    if state.policy.inline_level == 0:
        return []
    inlined = _inline_summary(state).inlined

    def copied(name: str) -> bool:
        return name in state.local_dup and state.by_name[name].cost <= state.policy.copy_cost

    return [
        root for root in locals_
        if not any(n in inlined for n in state.atom_members[root])
        and not all(copied(n) for n in state.atom_members[root])
    ]


def _inline_summary(state: PlanState) -> summary.ModuleSummary:
    """The module's inline summary, computed once per plan (the shrunk re-plan reuses it), its
    bodies read from the live module."""
    if state.inline is None:
        assert state.module is not None
        state.inline = summary.summarise(state.mod, opt_level=state.policy.inline_level, module=state.module)
    return state.inline


def pack_clusters(state: PlanState) -> None:
    """Clusters into `count` subgraphs, biggest first onto the lightest (LPT; ties by input order);
    with `PlanPolicy.assignment`, function atoms where it puts them instead (`_assigned`)."""
    placed: list[list[str]]
    if state.policy.assignment is not None:
        placed = _assigned(state, state.policy.assignment)
        count = len(placed)
    else:
        members_of: dict[str, list[str]] = {}
        for root in _function_atoms(state):
            members_of.setdefault(state.clusters.find(root), []).extend(state.atom_members[root])
        count = min(state.count, len(members_of)) or 1
        heap = [(0, k) for k in range(count)]
        placed = [[] for _ in range(count)]
        first = {c: min(state.order[n] for n in names) for c, names in members_of.items()}
        for c in sorted(members_of, key=lambda c: (-state.cluster_cost[c], first[c])):
            load, k = heapq.heappop(heap)
            placed[k].extend(members_of[c])
            heapq.heappush(heap, (load + state.cluster_cost[c], k))
    # number subgraphs by their first member's input position (a stable, readable plan)
    placed.sort(key=lambda names: min((state.order[n] for n in names), default=1 << 30))
    state.count = count
    state.bucket_members = [dict.fromkeys(sorted(names, key=state.order.__getitem__)) for names in placed]
    for k, names in enumerate(state.bucket_members):
        for name in names:
            state.owner[name] = k
    state.imported = [set() for _ in range(count)]


def _assigned(state: PlanState, assignment: dict[str, int]) -> list[list[str]]:
    """Function atoms placed by a fixed assignment (name -> subgraph index): an atom goes where
    its first named member goes (a comdat or alias group stays whole); an atom it names no
    member of goes with the first placed atom of its cluster (a local with its caller), else
    with the first function in input order that references it, else to subgraph 0. Empty
    subgraphs disappear (`pack_clusters` numbers the rest by their first member)."""
    roots = _function_atoms(state)
    where: dict[str, int] = {}
    for root in roots:
        k = next((assignment[n] for n in state.atom_members[root] if n in assignment), None)
        if k is not None:
            where[root] = k
    by_cluster: dict[str, int] = {}
    for root in roots:
        if root in where:
            by_cluster.setdefault(state.clusters.find(root), where[root])
    referenced_from: dict[str, int] = {}
    for e in state.defs:
        if e.kind == "function" and (k := where.get(state.atoms.find(e.name))) is not None:
            for r in e.refs:
                referenced_from.setdefault(r, k)
    placed: dict[int, list[str]] = {}
    for root in roots:
        k = where.get(root)
        if k is None:
            k = by_cluster.get(state.clusters.find(root))
        if k is None:
            k = next((referenced_from[n] for n in state.atom_members[root] if n in referenced_from), 0)
        placed.setdefault(k, []).extend(state.atom_members[root])
    return list(placed.values()) or [[]]


def assign_owners(state: PlanState) -> None:
    """Give every data atom (globals, aliases of data) one owner: the first subgraph using it."""
    by_name, atoms, owner = state.by_name, state.atoms, state.owner
    first_use: dict[str, int] = {}

    def note_refs(name: str, k: int) -> None:
        for r in by_name[name].refs:
            if r in by_name:
                root = atoms.find(r)
                if k < first_use.get(root, 1 << 30):
                    first_use[root] = k

    for k, members in enumerate(state.bucket_members):
        for name in members:
            note_refs(name, k)
    pending = [
        root
        for root, names in state.atom_members.items()
        if not any(n in owner or n in state.shared for n in names)
    ]
    while pending:
        progress = [root for root in pending if root in first_use]
        if not progress:
            break
        for root in progress:
            k = first_use[root]
            for name in state.atom_members[root]:
                owner[name] = k
                state.bucket_members[k][name] = None
            for name in state.atom_members[root]:
                note_refs(name, k)
        done = set(progress)
        pending = [root for root in pending if root not in done]
    for root in pending:  # referenced by nothing we compile: still defined exactly once, in subgraph 0
        for name in state.atom_members[root]:
            owner[name] = 0
            state.bucket_members[0][name] = None
    # discardable copies nothing reaches are still compiled once (unsplit -O0 emits them too)
    reached = {r for e in state.defs for r in e.refs}
    for e in state.defs:
        if e.name in state.shared and e.name not in reached and e.name not in owner:
            state.bucket_members[0][e.name] = None


def copy_small_locals(state: PlanState) -> None:
    """Copy small duplicable locals into each subgraph that calls them, within the work budget.

    A copy lets that subgraph's inliner see the callee exactly as the unsplit build's
    does. Larger ones stay with their home subgraph and are called there (exported
    hidden while compiling, local again in the object).
    """
    policy = state.policy
    floor = WORK_FLOOR if not policy.copy_closure else 1 << 62
    copy_left = max(int(policy.copy_share * state.module_cost), floor)
    # an `alwaysinline` local is inlined unsplit whatever it costs (-O0 included): copied always
    always = always_inline_functions(state.mod) if policy.import_always_inline else set()
    for k, members in enumerate(state.bucket_members):
        stack = list(members)
        while stack:
            for r in state.by_name[stack.pop()].refs:
                if r not in state.local_dup or r in members:
                    continue
                cost = state.by_name[r].cost
                if (not policy.copy_closure and r not in always
                        and (cost > policy.copy_cost or cost > min(state.extra_left, copy_left))):
                    continue
                state.extra_left -= cost
                copy_left -= cost
                _bring_local(state, k, r)
                stack.append(r)


def _bring_local(state: PlanState, k: int, name: str) -> None:
    """Put the duplicable local `name` into subgraph `k`: with `PlanPolicy.import_locals`, as
    an import of its owner's body where the serial inliner may leave it out of line (a copy
    left out of line is one more body in the object, an import's is dropped; what FunctionAttrs
    infers from the body comes with it: `inferred.py`), else (a last call) as a renamed copy."""
    state.bucket_members[k][name] = None
    cost = state.by_name[name].cost
    if state.policy.import_locals and not _last_call_inlined(state, name):
        state.imported[k].add(name)
        state.imported_cost += cost
    else:
        state.copied_cost += cost


def _last_call_inlined(state: PlanState, name: str) -> bool:
    """`name` has one direct call site, outside its own call-graph cycle: the serial inliner
    takes it there (the last-call bonus), and so does a copy; an import would take that bonus
    from its owner, which has to export it. Inside a cycle the caller may be inlined first,
    and the call sites multiply (duktape's `duk__handle_call_raw`: one site, 29 serially)."""
    inline = _inline_summary(state)
    caller = inline.only_caller.get(name)
    # (a `noinline` local is never inlined: a copy of it would be one more body in the object)
    return caller is not None and name in inline.inlined and inline.component.get(caller) != inline.component.get(name)


def always_inline_functions(mod: IRModule) -> set[str]:
    """Functions marked `alwaysinline`, in their header or through an attribute group."""
    return {e.name for e in mod.by_kind("function") if "alwaysinline" in mod.function_attributes(e)}


def _importable(state: PlanState, any_size: bool = False) -> set[str]:
    """Exported functions small enough to import (or `alwaysinline`, with that policy), alone in
    their atom, touching no owned thread-local."""

    always = always_inline_functions(state.mod) if state.policy.import_always_inline else set()
    return {
        e.name
        for e in state.defs
        if e.kind == "function"
        and e.linkage == "external"
        and e.comdat is None
        and not e.blockaddress_of
        and (any_size or e.cost <= state.policy.import_cost or e.name in always)
        and len(state.atom_members[state.atoms.find(e.name)]) == 1
        and not _touches_local_tls(state, e)
    }


def _importable_always_locals(state: PlanState, always: set[str]) -> set[str]:
    """Local `alwaysinline` functions that cannot be copied (their address is taken: one owner keeps
    their identity), importable at -O0 as hidden available_externally bodies: the unsplit
    always-inliner inlines every direct call of them, address-taken or not, and at -O0 there is
    no IPO for the owner to lose by exporting them (and the locals they name) while compiling."""
    return {
        e.name
        for e in state.defs
        if e.kind == "function"
        and e.is_local
        and e.name in always
        and e.name not in state.local_dup
        and e.comdat is None
        and not e.blockaddress_of
        and len(state.atom_members[state.atoms.find(e.name)]) == 1
        and not _touches_local_tls(state, e)
    }


def _touches_local_tls(state: PlanState, e: Entity) -> bool:
    """A body touching an owned thread-local would change its TLS access model (and the
    runtime symbols it needs) once the owner has to export it: never imported."""
    return any(
        r in state.by_name and state.by_name[r].is_local and state.by_name[r].variable.thread_local for r in e.refs
    )


def _plain_local_refs(state: PlanState, name: str) -> list[str]:
    """The locals a definition names, except plain-data constants (visible everywhere anyway)."""
    by_name = state.by_name
    return [r for r in by_name[name].refs if r in by_name and by_name[r].is_local and not _foldable_constant(by_name[r])]


def _locals_to_copy_along(
    state: PlanState, callee: str, members: dict[str, None], also: set[str] | None = None
) -> list[str] | None:
    """The small duplicable locals an imported `callee` needs copied beside it, or None when it
    names a local that cannot come along (without the whole-module prefix its owner would have
    to export it, and lose what IPSCCP and GlobalOpt know about it). Names in `also` are coming
    anyway. With the prefix most locals stay declarations instead (`_declared_in_place`), in
    `callee` and in a local copied along beside it."""
    present = also or set()
    missing = [
        r for r in _plain_local_refs(state, callee)
        if r not in members and r not in present and r not in state.opaque and not _declared_in_place(state, r)
    ]
    for r in missing:
        if r not in state.local_dup or state.by_name[r].cost > state.policy.copy_cost:
            return None
        if any(rr not in members and rr not in missing and rr not in present and rr not in state.opaque
               and not _declared_in_place(state, rr) for rr in _plain_local_refs(state, r)):
            return None  # the copy would name yet another missing local: not transitive
    return missing


def _declared_in_place(state: PlanState, name: str) -> bool:
    """An import may name the local `name` as a declaration, its owner exporting it hidden while
    compiling (local again in the object), with `PlanPolicy.import_locals`: a function too large
    to come along as a copy, or a variable outside comdats, sections and thread-local storage.

    After the whole-module prefix what IPSCCP and GlobalOpt prove about a local is already in
    the module (a function's calling convention and argument facts, a never-written variable's
    folded loads), and a variable whose address does not escape keeps its alias facts in its
    owner (`variable_keepers`). Refusing instead left the serial build's inlining undone: Lua's
    `luaX_next` names the lexer's `llex` (40 calls in the parser's `statement`), gawk's
    `gawk_srandom` the generator's state, `indent` the debugger's `indent_char`."""
    if not state.policy.import_locals:
        return False
    e = state.by_name[name]
    if e.kind == "function":
        return name not in state.local_dup or e.cost > state.policy.copy_cost
    if e.kind == "global":
        head = e.variable
        return e.comdat is None and not head.section and not head.thread_local
    return False


def import_small_callees(state: PlanState) -> None:
    """Import small exported callees of a subgraph's own functions as available_externally copies.

    Budgeted relative to the subgraph (`import_share` of its cost, at least one callee of
    `import_cost`) and to the module's work budget. A callee comes only with the locals it
    names: those the subgraph has, plus small duplicable ones copied along (renamed like
    any copy); one naming another local is not imported. Not transitive: an imported
    body's exported callees stay declarations, except the `alwaysinline` callees of an
    `alwaysinline` import (the unsplit always-inliner inlines the whole chain, -O0 included).
    """
    if state.policy.import_cost <= 0 and not state.policy.import_always_inline:
        return
    importable = _importable(state)
    always = always_inline_functions(state.mod) if state.policy.import_always_inline else set()
    if state.policy.import_cost <= 0:  # -O0
        importable |= _importable_always_locals(state, always)
    for k, members in enumerate(state.bucket_members):
        own_cost = sum(state.by_name[n].cost for n in members)
        budget = min(max(int(state.policy.import_share * own_cost), state.policy.import_cost), state.extra_left)
        work = list(members)
        while work:
            name = work.pop(0)
            e = state.by_name[name]
            # an imported body is not searched for more imports, except an `alwaysinline` one: the
            # unsplit always-inliner inlines through it (a leaf it calls into it, and both into its caller)
            if e.kind != "function" or (name in state.imported[k] and name not in always):
                continue
            for r in e.refs:
                if r not in importable or r in members or r in e.address_refs:
                    continue
                along = _locals_to_copy_along(state, r, members)
                if along is None:
                    if r not in always or state.policy.import_cost > 0:
                        continue
                    # -O0 (no IPO to lose): the locals it names are exported by their owners
                    along = []
                cost = state.by_name[r].cost
                extra = sum(state.by_name[n].cost for n in along)
                if r in always:  # inlined unsplit whatever it costs: not the budget's choice
                    budget += cost + extra
                elif cost + extra > budget:
                    continue
                budget -= cost + extra
                state.extra_left -= cost + extra
                state.imported_cost += cost
                state.copied_cost += extra
                members[r] = None
                members.update(dict.fromkeys(along))
                state.imported[k].add(r)
                if r in always:
                    work.append(r)


def bring_inline_closure(state: PlanState) -> None:
    """Give each subgraph the callees the unsplit inliner would inline into its functions.

    The summary predicts them (transitively: a callee's own inlined callees shape its
    body); a duplicable local comes as a renamed copy, an exported function as an
    available_externally import with the small locals it names copied along. A callee that
    can be neither (address-taken local, comdat member, one naming a local that
    `_declared_in_place` does not allow) is called across subgraphs as before.
    """
    inline = _inline_summary(state)
    importable = _importable(state, any_size=True)
    by_name = state.by_name
    for k, members in enumerate(state.bucket_members):
        own = [n for n in members if by_name[n].kind == "function"]
        needed = sorted(inline.inline_closure(own) - set(members), key=state.order.__getitem__)
        for name in needed:
            if name in members:
                continue
            cost = by_name[name].cost
            if name in state.local_dup:
                _bring_local(state, k, name)
                continue
            if name not in importable:
                continue
            along = _locals_to_copy_along(state, name, members, also={n for n in needed if n in state.local_dup})
            if along is None:
                continue
            members[name] = None
            state.imported[k].add(name)
            state.imported_cost += cost
            for local in along:
                if local not in members:
                    _bring_local(state, k, local)


def copy_shared_closure(state: PlanState) -> None:
    """Discardable shared definitions (linkonce*) go, under their own name, into every subgraph reaching them."""
    for members in state.bucket_members:
        stack = list(members)
        while stack:
            e = state.by_name.get(stack.pop())
            for r in e.refs if e is not None else ():
                if r in state.shared and r not in members:
                    members[r] = None
                    stack.append(r)


def _exported_by_reference(state: PlanState) -> set[str]:
    """The locals some subgraph other than their owner names (imports one, or declares it):
    exported hidden by their owner while compiling."""
    by_name = state.by_name
    exported: set[str] = set()
    for k, members in enumerate(state.bucket_members):
        for name in members:
            for r in by_name[name].refs:
                if r in by_name and by_name[r].is_local and (r not in members or r in state.imported[k]):
                    exported.add(r)
    return exported


def _multiplied(name: str, inline: summary.ModuleSummary, callers: dict[str, set[str]], seen: set[str]) -> bool:
    """The serial inliner copies `name`'s body, and the calls in it, into several places: it is
    predicted inlined for its size at more than one call site, or into a caller copied so
    itself. A last-call prediction copies a body once, into its one caller, and only where that
    caller is not copied first (then the call is no longer the last one): never multiplied."""
    if name in seen or name not in inline.inlined or name in inline.last_call_only:
        return False
    seen.add(name)
    up = callers.get(name, set())
    sites = sum(inline.functions[c].calls.get(name, 0) for c in up)
    return sites > 1 or any(_multiplied(c, inline, callers, seen) for c in up)


def _clonable(state: PlanState, name: str, inline: summary.ModuleSummary, callers: dict[str, set[str]]) -> bool:
    """A local the serial inliner takes at its direct call sites, all of them in its owner's
    functions, none of which the serial inliner copies into several places first (mujs's
    `jsY_lexx`: its one caller `jsY_lex` goes into `jsP_next`, inlined at 151 sites, before
    `jsY_lexx` goes into it, so it stays out of line): its owner keeps it local, with the
    last call's bonus, when the others name a clone."""
    e = state.by_name[name]
    k = state.owner.get(name)
    return (
        e.kind == "function" and name in state.local_dup and name in inline.inlined and e.linkage != "private"
        and bool(callers.get(name)) and all(state.owner.get(c) == k for c in callers[name])
        and not any(_multiplied(c, inline, callers, set()) for c in callers[name])
        and e.comdat is None and not e.blockaddress_of and not _touches_local_tls(state, e)
    )


def clone_exported_last_calls(state: PlanState) -> None:
    """Locals called only from their owner's functions, which the serial inliner takes there,
    that other subgraphs name only through the imports they hold (a caller in the same
    call-graph cycle, so not copied, `_last_call_inlined`) or declare (too large to copy): the
    owner keeps each local, and the serial inliner's last-call bonus with it, while the others
    name a clone, `name.ember.<c>`, exported by one more subgraph `c` (with the small locals
    the clones call, copied); a clone nothing calls after optimisation is dropped before
    codegen (`split.dead_definitions`). Exported instead, duktape's
    `duk__create_arguments_object` (one call, 2,491 bytes) stayed out of line beside its
    caller, which the serial build inlines it into."""
    inline = _inline_summary(state)
    by_name = state.by_name
    exported = _exported_by_reference(state)
    callers: dict[str, set[str]] = {}
    for caller, function in inline.functions.items():
        for callee in function.calls:
            callers.setdefault(callee, set()).add(caller)
    clones = {n for n in exported if _clonable(state, n, inline, callers)}
    copies: dict[str, None] = {}
    changed = True
    while changed:  # a clone names what its subgraph holds, copies or can declare
        changed = False
        copies = {}
        for name in sorted(clones, key=state.order.__getitem__):
            needs: list[str] = []
            fine = True
            for r in _plain_local_refs(state, name):
                if r in clones or r in exported or r in copies:
                    continue
                if _clonable(state, r, inline, callers):
                    clones.add(r)
                    changed = True
                elif r in state.local_dup and by_name[r].cost <= state.policy.copy_cost:
                    needs.append(r)
                elif not _declared_in_place(state, r):
                    fine = False
                    break
            if not fine:
                clones.discard(name)
                changed = True
                break
            copies.update(dict.fromkeys(needs))
    if not clones:
        return
    c = len(state.bucket_members)
    members = dict.fromkeys(sorted(clones, key=state.order.__getitem__))
    stack = list(copies)
    while stack:  # the small copies' own small duplicable callees come too, as in any subgraph
        name = stack.pop()
        if name in members:
            continue
        members[name] = None
        stack.extend(r for r in by_name[name].refs if r in state.local_dup and r not in members
                     and by_name[r].cost <= state.policy.copy_cost)
    named = {r for n in members for r in _plain_local_refs(state, n)} - set(members) - exported
    if not all(_declared_in_place(state, r) for r in named):
        return  # a copy names a local no other subgraph may declare (thread-local, in a section)
    state.bucket_members.append(members)
    state.imported.append(set())
    state.clones, state.clone_bucket = clones, c
    state.copied_cost += sum(by_name[n].cost for n in members)


def _clone_names(clone_of: dict[str, str], members: dict[str, None], imported: set[str]) -> dict[str, str]:
    """The clone names a subgraph other than the clones' own uses: for the locals it imports or
    declares (its owner's are not among them; a renamed copy of its own keeps its copy's name)."""
    return {n: c for n, c in clone_of.items() if n not in members or n in imported}


def emit_subgraphs(state: PlanState) -> SplitPlan:
    """A cut per subgraph: copies renamed, locals used across subgraphs exported hidden."""
    by_name, local_dup, owner = state.by_name, state.local_dup, state.owner
    local_names = {e.name for e in state.defs if e.is_local}
    renames: list[dict[str, str]] = []
    for k, members in enumerate(state.bucket_members):
        mapping = {
            n: f"{n}{COPY_SUFFIX}{k}" for n in members if n in local_dup and owner[n] != k and n not in state.imported[k]}
        renames.append(mapping)
        local_names |= set(mapping.values())
    # a local used from a subgraph that does not define it is exported while compiling, except
    # a cloned one: its owner keeps it, the others name the clone (`clone_exported_last_calls`)
    exported = _exported_by_reference(state) - state.clones
    clone_of = {n: f"{n}{COPY_SUFFIX}{state.clone_bucket}" for n in state.clones}
    private_names = {n for n in exported if by_name[n].linkage == "private"}
    subgraphs = []
    work = 0
    assert state.module is not None
    sites = call_sites(local_dup, state.module) if state.policy.serial_argument_facts else {}
    unescaped: set[str] = set()
    constants: frozenset[str] = frozenset()
    if state.policy.serial_alias_facts:
        unescaped, written = variable_uses(state.mod, exported, state.module)
        # GlobalOpt makes a never-written local constant unsplit and folds its loads (a flag
        # nothing sets: the calls it guards die, and the undefined symbols only they named);
        # marked constant here, every subgraph gets its initialiser to fold (`cut.FOLD`)
        constants = frozenset(unescaped - written)
        for name in sorted(constants):
            _mark_constant(state.by_name[name])
        unescaped &= written
    for k, members in enumerate(state.bucket_members):
        ordered = sorted(members, key=state.order.__getitem__)
        here = state.clones if k == state.clone_bucket else {n for n in exported if owner.get(n) == k}
        local_here = [n for n in ordered if n in sites and n not in here and n not in state.imported[k]]
        keep_local = [n for n in ordered if n in here and n in unescaped]
        layout = PieceLayout(
            ordered, here - set(keep_local), include_asm=(k == 0), rename=renames[k],
            clones=_clone_names(clone_of, members, state.imported[k]) if k != state.clone_bucket else None,
            constants_visible=True, imported=state.imported[k], cold=state.inline.cold if state.inline else None,
            keepers=variable_keepers(keep_local, k),
            callers=serial_argument_callers(sites, local_here, members, renames[k], k, state.module),
            inferred=state.inferred,
        )
        cost = sum(by_name[n].cost for n in ordered)
        work += cost
        shown = [renames[k].get(n, n) for n in ordered]
        subgraphs.append(Subgraph(k, shown, cost, cut_spec(state.mod, layout, constants)))
    work_info = PlanWork(state.module_cost, work, state.copied_cost, state.imported_cost)
    kept = {r for n in ("llvm.used", "llvm.compiler.used") if n in by_name for r in by_name[n].refs}
    deletable = {n for n in exported if by_name[n].kind == "global" and by_name[n].comdat is None and n not in kept}
    facts = globalmerge.module_facts(state.mod, kept, state.module)
    return SplitPlan(subgraphs, local_names, private_names, state.order, work_info, deletable, facts, asm_probe(state.mod))


@dataclass(frozen=True)
class AsmProbe:
    """The module's asm and the functions holding inline asm, everything else declared: what
    the driver generates code for before any worker starts, at the cost of those few
    functions, not the module's, cut from the whole module's bitcode."""

    cut: cut.CutSpec


def asm_probe(mod: IRModule) -> AsmProbe | None:
    """The asm probe of `mod` (module asm, and the functions whose bodies hold inline asm),
    or None when there is no asm."""
    members = [e.name for e in mod.by_kind("function") if e.inline_asm]
    if not members and not mod.by_kind("asm"):
        return None
    return AsmProbe(cut_spec(mod, PieceLayout(members, set(), include_asm=True)))


def _chunk(atoms: list[list[str]], cost: Callable[[list[str]], int], piece_cost: int) -> list[list[str]]:
    """Merge consecutive function atoms into pieces of about `piece_cost` (deterministic)."""
    chunks: list[list[str]] = []
    current: list[str] = []
    current_cost = 0
    for atom in atoms:
        c = cost(atom)
        if current and current_cost + c > piece_cost:
            chunks.append(current)
            current, current_cost = [], 0
        current = current + atom
        current_cost += c
    if current:
        chunks.append(current)
    return chunks


@dataclass
class PieceLayout:
    """What one piece holds and how, as `cut_spec` makes a cut of it."""

    members: list[str]
    exported: set[str]
    include_asm: bool
    rename: dict[str, str] | None = None
    #: locals named here by their clone's name (imported or declared: `clone_exported_last_calls`)
    clones: dict[str, str] | None = None
    constants_visible: bool = False
    imported: set[str] | None = None
    cold: set[str] | None = None
    #: stand-in functions (`variable_keepers`, `serial_argument_callers`), before the members
    keepers: list[cut.Keeper] | None = None
    callers: list[cut.ArgumentCaller] | None = None
    #: what FunctionAttrs inferred on the whole module (`inferred.infer`), by function
    inferred: dict[str, tuple[tuple[int, str, int], ...]] | None = None


def cut_spec(mod: IRModule, layout: PieceLayout, constants: frozenset[str] = frozenset()) -> cut.CutSpec:
    """The piece `layout` describes, as a cut of the whole module in memory: its members,
    linkages, names, constant copies of what it folds, `cold` and stand-ins.

    A piece sees values defined elsewhere as declarations (a local one hidden: its owner
    exports it hidden while compiling), and with `constants_visible` (level 1) pure-data
    constants owned elsewhere as `available_externally` copies, so the optimiser folds loads
    from them (and libcalls on constant strings) as the unsplit compile does."""
    by_name = mod.values
    copies = layout.rename or {}
    rename = {**copies, **(layout.clones or {})}
    imported = layout.imported or set()
    member_set = set(layout.members)
    keep: dict[str, tuple[str, str]] = {}
    needed: dict[str, None] = {}
    for name in layout.members:
        how = cut.EXPORT if name in layout.exported else cut.IMPORT if name in imported else cut.AS_IS
        keep[name] = (how, rename.get(name, ""))
        for r in by_name[name].refs:
            if r not in member_set:
                needed[r] = None
    for r in needed:
        target = by_name.get(r)
        if layout.constants_visible and target is not None and _foldable_constant(target):
            keep[r] = (cut.FOLD, rename.get(r, ""))
    named = [r for r in _metadata_refs(mod) if r not in member_set and r not in needed]
    declared = {rename.get(r, r) for r in named}
    cold = {rename.get(n, n) for n in (layout.cold or ()) if n in needed or n in imported}
    found = layout.inferred or {}
    inferred = tuple(
        (rename.get(n, n), found[n]) for n in [*needed, *sorted(imported)] if n in found and n not in copies)
    renamed = tuple((r, rename[r]) for r in [*needed, *named] if r in rename and r not in keep)
    return cut.CutSpec(keep, frozenset(cold), constants, frozenset(declared), layout.include_asm,
                       tuple(layout.keepers or ()), tuple(layout.callers or ()), inferred, renamed)


def _metadata_refs(mod: IRModule) -> list[str]:
    """The values metadata names (once per module: a `-g` module has much metadata)."""
    cached = mod.derived.get("metadata refs")
    if cached is None:
        cached = mod.derived["metadata refs"] = list(dict.fromkeys(r for e in mod.by_kind("metadata") for r in e.refs))
    assert isinstance(cached, list)
    return cached



#: prefix of the discardable callers `serial_argument_callers` adds (GlobalOpt deletes them;
#: the worker deletes any left after optimisation)
CALLER_PREFIX = "__ember_ipsccp."


@dataclass
class CallSites:
    """The direct call sites of one local function in the whole module."""

    #: each calling function's sites: their arguments' keys (`facts.call_sites`)
    by_caller: dict[str, list[list[object]]] = field(default_factory=dict)
    #: how many sites each calling function holds (module order)
    counts: dict[str, int] = field(default_factory=dict)
    #: reads `by_caller` when first asked (`facts.FunctionCalls.keys`)
    load: Callable[[], dict[str, list[list[object]]]] | None = field(default=None, repr=False)
    #: `arguments` over every caller, once computed (asked by each subgraph holding the function)
    _everywhere: list[tuple[int, list[set[object]]] | None] = field(default_factory=list, repr=False)
    #: `facts.stand_in_parameters` of the function, once read (likewise)
    parameters: list[int | None] = field(default_factory=list, repr=False)

    def everywhere(self) -> tuple[int, list[set[object]]] | None:
        """`arguments` of all the module's sites (computed once)."""
        if not self._everywhere:
            self._everywhere.append(self.arguments(self.counts))
        return self._everywhere[0]

    def arguments(self, callers: Iterable[str]) -> tuple[int, list[set[object]]] | None:
        """How many sites `callers` hold and each argument position's texts over them; None
        when two sites pass different argument counts (varargs: left alone)."""
        if self.load is not None:
            self.by_caller, self.load = self.load(), None
        count, seen = 0, list[set[object]]()
        for caller in callers:
            for args in self.by_caller.get(caller, ()):
                if count == 0:
                    seen = [set() for _ in args]
                elif len(args) != len(seen):
                    return None
                count += 1
                for texts, a in zip(seen, args, strict=True):
                    texts.add(a)
        return count, seen



def call_sites(names: set[str], module: engine.Module) -> dict[str, CallSites]:
    """The call sites of each function in `names` over every definition of the module, from
    the live `module`'s use lists (`facts.call_sites`)."""
    return {
        name: CallSites(counts={c: len(s) for c, s in calls.sites.items()}, load=calls.keys)
        for name, calls in facts.call_sites(module, names).items()
    }


def serial_argument_callers(
    sites: dict[str, CallSites], local_here: list[str], members: Iterable[str],
    rename: dict[str, str], k: int, module: engine.Module,
) -> list[cut.ArgumentCaller]:
    """One discardable caller per local of subgraph `k` that IPSCCP would specialise here only.

    A copied local (or its home original) sees only the subgraph's share of its call sites.
    Where those all pass one constant for an argument that the module's other sites pass
    otherwise, IPSCCP folds it into the body before the inliner runs, and the body is
    simplified along another path than unsplit (jq's `order_cmp`, `op` always 1 next to
    `f_greater`): the code may come out the same, but the merged debug locations do not.
    The caller passes its own (unknown) parameter there, and the constant where every
    site of the module agrees, so IPSCCP sees the arguments the unsplit build sees. It is
    `linkonce_odr`, so not tracked by IPSCCP itself, and nothing calls it: GlobalOpt,
    two module passes after IPSCCP (CalledValuePropagation between), deletes it before the
    inliner or any other pass counts the local's callers. The constants come from the first
    call site in the subgraph's first calling function (every site passes them): the cut
    builds the caller there (`cut.ArgumentCaller`)."""
    out: list[cut.ArgumentCaller] = []
    member_set = set(members)

    def constant(values: set[object]) -> bool:
        """One constant (with one set of attributes) at every site."""
        return len(values) == 1 and next(iter(values)) is not facts.NOT_CONSTANT

    for name in local_here:
        cs = sites[name]
        callers_here = [caller for caller in cs.counts if caller in member_set]
        here_count = sum(cs.counts[caller] for caller in callers_here)
        if not here_count or here_count >= sum(cs.counts.values()):  # (the arguments are read only past this)
            continue
        everywhere = cs.everywhere()
        here = cs.arguments(callers_here)
        if everywhere is None or here is None or not here[0] or here[0] >= everywhere[0]:
            continue
        if not any(not constant(s) and constant(h) for s, h in zip(everywhere[1], here[1], strict=False)):
            continue
        if not cs.parameters:
            cs.parameters.append(facts.stand_in_parameters(module, name))
        if cs.parameters[0] != len(everywhere[1]):
            continue
        out.append(cut.ArgumentCaller(
            f"{CALLER_PREFIX}{k}.{len(out)}", rename.get(name, name), rename.get(callers_here[0], callers_here[0]),
            tuple(constant(s) for s in everywhere[1]),
        ))
    return out


#: prefix of the functions that stand in for other subgraphs' loads and stores of a variable kept
#: local in its owner (`variable_keepers`); the worker deletes them after optimisation
KEEPER_PREFIX = "__ember_keep."


def variable_uses(mod: IRModule, candidates: set[str], module: engine.Module) -> tuple[set[str], set[str]]:
    """The mutable local variables of `candidates` whose address never escapes anywhere in the
    module (every use loads from or stores to it, directly or through `getelementptr`s of it:
    what GlobalsAA calls non-address-taken, conservatively), and which of them an instruction
    writes (a store, or a volatile or atomic access), from the live `module`'s use lists
    (`facts.variable_accesses`)."""
    wanted: set[str] = set()
    for name in candidates:
        e = mod.values.get(name)
        if e is None or e.kind != "global" or e.linkage != "internal" or e.comdat is not None or not e.is_definition:
            continue
        head = e.variable
        if head.constant or head.thread_local or head.section:
            continue
        wanted.add(name)
    if not wanted:
        return set(), set()
    escaped = {r for e in mod.entities if e.kind not in ("function",) for r in e.refs if r in wanted and r != e.name}
    accesses = facts.variable_accesses(module, wanted)
    return wanted - escaped - accesses.escaped, accesses.written


def _mark_constant(e: Entity) -> None:
    """A local variable GlobalOpt makes constant, marked so in the plan's facts (`facts.read`)."""
    e.known_variable = dataclasses.replace(e.variable, constant=True)


def variable_keepers(names: list[str], k: int) -> list[cut.Keeper]:
    """A function per variable that stays local in its owner `k` while other subgraphs use it.

    Exported (`hidden`) while compiling, the variable loses what GlobalsAA knows about a
    local whose address never escapes: SQLite's `sqlite3Stat`, named by the copies of
    `sqlite3StatusDown` in every subgraph, may then alias `sqlite3_status64`'s pointer
    arguments, and GVN keeps the other of two equal loads (the code is the same, its line
    is not). Kept `internal`, the owner's optimiser must still not assume it sees every
    access: this exported function loads and stores unknown values at an unknown offset
    (volatile), so GlobalOpt and IPSCCP fold, narrow, split or delete nothing, while the
    address still never escapes. The worker deletes it after optimisation; the other
    subgraphs declare the variable as before and the link joins them."""
    return [cut.Keeper(f"{KEEPER_PREFIX}{k}.{i}", name) for i, name in enumerate(names)]





def _foldable_constant(e: Entity) -> bool:
    """A defined constant holding plain data (no references, section or comdat)."""
    if e.kind != "global" or not e.is_definition or e.refs or e.comdat is not None:
        return False
    if e.linkage not in ("private", "internal", "external"):
        return False
    head = e.variable
    return head.constant and not head.section and not head.thread_local



def split_functions(
    module: engine.Module, known: set[str], k: int, *, per_function: bool = True, piece_cost: int = LEVEL2_PIECE_COST
) -> tuple[list[tuple[list[str], cut.CutSpec, bool]], set[str], set[str]]:
    """Level 2: cut an optimised subgraph (`module`) into one piece per function atom
    (`level2_layout`), as cuts of its bitcode planned from its facts (`facts.read`), never
    printed. Unnamed values are named `__ember_unnamed_<k>_<N>` and locals the optimiser
    created renamed (`_fresh_locals`) in `module` first. Returns [(member names, cut,
    shared)], the local names defined here and the private names that crossed pieces
    (externalised; the link makes them local again)."""
    name_unnamed_in_memory(module, f"__ember_unnamed_{k}_")
    mod = facts.read(module, metadata=True)
    fresh = _fresh_locals(mod, known, k)
    if fresh:
        for value in module.global_values():
            if value.name in fresh:
                value.rename(fresh[value.name])
        mod = facts.read(module, metadata=True)
    layout = level2_layout(mod, per_function=per_function, piece_cost=piece_cost)
    out = [(members, cut_spec(mod, PieceLayout(members, layout.exported, include_asm=(i == 0))), i >= layout.first_shared)
           for i, members in enumerate(layout.pieces)]
    return out, layout.local, layout.private


def _fresh_locals(mod: IRModule, known: set[str], k: int) -> dict[str, str]:
    """Locals the optimiser created (not in `known`), renamed `<name>.ember.<k>` so two
    subgraphs never define the same local."""
    return {
        e.name: f"{e.name}{COPY_SUFFIX}{k}"
        for e in mod.entities
        if e.is_value and e.is_definition and e.is_local and e.name not in known and COPY_SUFFIX not in e.name
    }


@dataclass
class Level2Layout:
    """An optimised subgraph's level-2 pieces: member names per piece (the discardable shared
    copies, linkonce*, last, from `first_shared` on: each its own piece, so the link keeps
    exactly one copy), the locals other pieces use (exported while compiling), the locals
    defined and the privates that crossed pieces (the link makes them `.L` again)."""

    pieces: list[list[str]]
    first_shared: int
    exported: set[str]
    local: set[str]
    private: set[str]


def level2_layout(mod: IRModule, *, per_function: bool = True, piece_cost: int = LEVEL2_PIECE_COST) -> Level2Layout:
    """One piece per function atom, chunked to about `piece_cost`, the data with the first;
    with `per_function=False` the whole module is one piece, the shared copies aside."""
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
    pieces = _chunk(pieces, lambda names: sum(mod.values[n].cost for n in names), piece_cost)
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
    private = {e.name for e in defs if e.linkage == "private" and e.name in exported}
    return Level2Layout(pieces, first_shared, exported, local, private)
