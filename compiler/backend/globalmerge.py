"""Alias sizes as the serial build writes them, whatever AArch64's GlobalMerge did in a piece.

AsmPrinter gives an alias an explicit `.size` (the alloc size of the alias's value type)
only when its base object does not appear as a symbol of its own: the base is `private`,
or GlobalMerge (AArch64's code generator, -O3 for every function, -O1/-O2 for `minsize`
ones) packed it into a private `_MergedGlobals`. Otherwise the alias has no `.size` and
the ELF writer gives it the base symbol's size. Whether GlobalMerge packs a variable is a
whole-module decision: it merges every eligible variable that some function uses together
with another eligible variable of the same kind (data or BSS) and section; a subgraph sees
a few of those functions, and a variable another subgraph uses is a declaration there or
exported (ineligible), so a split piece merges less, or otherwise, than the serial build.

`object_alias_sizes` redoes the serial decision over the split's code: the functions are
the split's own optimised subgraphs (each function's uses of global values, from its
subgraph's reference graph, dead definitions left out), a variable's size and section are
read from the pieces' objects (after optimisation; a private one, which has no symbol
there, from the input), its alignment and eligibility from the input module (linkage and
visibility before the split exported anything), and the packing follows GlobalMerge.cpp
(`doMerge`, LLVM 22: by-use grouping, single-use sets ignored, sets sorted by size and cut
at 4,095 bytes; a one-variable cut is not merged). The object link then writes the size the
serial object has (docs/backend.md, "GlobalMerge and alias sizes").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.backend import engine, irmodel

#: GlobalMerge's MaxOffset on AArch64 (AArch64TargetMachine.cpp: createGlobalMergePass(TM, 4095, ...))
MAX_OFFSET = 4095
COPY_SUFFIX = ".ember."  # planner.COPY_SUFFIX (the planner imports this module)


@dataclass(frozen=True)
class AliasFact:
    """An alias whose base object is a global variable of the input module."""

    name: str
    base: str
    #: the alloc size of the alias's value type in the module's data layout (what AsmPrinter
    #: writes as its `.size` when the base has no symbol); None: unsized, no `.size` either
    value_size: int | None
    base_private: bool


@dataclass
class ModuleFacts:
    """What the input module says about GlobalMerge's inputs (before the split changed linkages)."""

    aliases: list[AliasFact]
    #: global variables GlobalMerge may consider by their declaration: defined, not TLS,
    #: local or `external` and DSO-local, not `llvm.used`/`llvm.compiler.used`
    candidates: set[str]
    minsize: set[str]
    #: each candidate's preferred alignment (`DataLayout::getPreferredAlign`: how GlobalMerge
    #: pads it; the pieces' objects keep no per-symbol alignment)
    align: dict[str, int] = field(default_factory=dict)
    #: the private candidates' place in the input: a private variable is an assembler
    #: temporary, with no symbol in a piece's object to read its size and section from
    private_data: dict[str, DataObject] = field(default_factory=dict)


@dataclass
class DataObject:
    """A candidate variable as GlobalMerge weighs it: its group (data or BSS, explicit
    section; None: never merged, a constant), its size and its alignment."""

    name: str
    bucket: tuple[str, str] | None
    size: int
    align: int


def module_facts(mod: irmodel.IRModule, kept: set[str], module: engine.Module) -> ModuleFacts | None:
    """The facts, or None when no alias has a global variable as its base (nothing to do).
    `module`: the live module `mod` was read from (prepared: the target's data layout), which
    gives the alias value types' sizes."""
    values = mod.values
    found: list[tuple[irmodel.Entity, irmodel.Entity]] = []
    for e in mod.by_kind("alias"):
        base = _base_object(e, values)
        if base is not None and base.kind == "global" and base.is_definition and e.linkage != "private":
            found.append((e, base))
    if not found:
        return None
    names = [e.name for e, _base in found]
    sizes = module.alias_value_sizes(names)
    aliases = [AliasFact(e.name, base.name, sizes.get(e.name), base.linkage == "private") for e, base in found]
    candidates = {e.name for e in mod.by_kind("global") if _candidate(e, kept)}
    minsize = {e.name for e in mod.by_kind("function") if "minsize" in mod.function_attributes(e)}
    layouts = module.variable_layouts(sorted(candidates))
    private = {e.name for e in mod.by_kind("global") if e.linkage == "private"}
    private_data = {
        name: DataObject(name, None if kind == "const" else _bucket(section) if section else (kind, ""), size, align)
        for name, (size, align, kind, section) in layouts.items() if name in private
    }
    return ModuleFacts(aliases, candidates, minsize, {n: layout[1] for n, layout in layouts.items()}, private_data)


def _base_object(e: irmodel.Entity, values: dict[str, irmodel.Entity]) -> irmodel.Entity | None:
    seen: set[str] = set()
    while e.kind == "alias":
        if e.name in seen or not e.refs:
            return None
        seen.add(e.name)
        nxt = values.get(e.refs[0])
        if nxt is None:
            return None
        e = nxt
    return e


def _candidate(e: irmodel.Entity, kept: set[str]) -> bool:
    if not e.is_definition or e.name in kept or e.name.startswith(("llvm.", ".llvm.")):
        return False
    head = e.variable
    if head.thread_local:
        return False
    if e.linkage in irmodel.LOCAL_LINKAGES:
        return True
    # MergeExternal: on for ELF; `shouldAssumeDSOLocal` under PIC: hidden, protected, dso_local
    return e.linkage == "external" and (e.visibility != "default" or head.dso_local)


def active(triple: str | None, opt_level: int) -> bool:
    """Whether the code generator runs GlobalMerge: AArch64 ELF at -O1 and up."""
    t = (triple or "").lower()
    return opt_level >= 1 and t.startswith(("aarch64", "arm64")) and not any(os in t for os in ("darwin", "macos", "ios", "windows"))


_MERGED = "_MergedGlobals"


def _bucket(section: str) -> tuple[str, str] | None:
    if section.startswith((".rodata", ".data.rel.ro", ".tdata", ".tbss", ".text")) or section.startswith(".note"):
        return None
    if section.startswith(".bss"):
        return ("bss", "")
    if section.startswith(".data"):
        return ("data", "")
    return ("data", section)  # an explicit section: its own group (BSS-ness not told apart here)


def _original(name: str) -> str:
    """The module's function a split's function stands for: a copy `f.ember.K` is `f`; a key
    `name<NUL>k` (a local one subgraph's optimiser made, split._merge_uses) is `name`."""
    return name.split("\0", 1)[0].split(COPY_SUFFIX, 1)[0]


def merging(facts: ModuleFacts, triple: str | None, opt_level: int) -> bool:
    """Whether GlobalMerge packs variables anywhere in this build: -O3, or a `minsize` function."""
    return active(triple, opt_level) and (opt_level >= 3 or bool(facts.minsize))


def merged_variables(
    uses: dict[str, set[str]], objects: dict[str, DataObject], facts: ModuleFacts, opt_level: int, order: dict[str, int]
) -> set[str]:
    """The variables the serial GlobalMerge packs, judged on the split's code (see the module
    doc). `uses`: each function of the split's code -> the global values it uses; `objects`:
    the candidates' size, group and alignment, by name."""
    eligible = {
        name: obj for name, obj in objects.items()
        if _MERGED not in name and name in facts.candidates and obj.bucket is not None and obj.size < MAX_OFFSET
    }
    size_only = opt_level < 3
    groups: dict[tuple[str, str], set[str]] = {}
    for function, used in uses.items():
        if size_only and _original(function) not in facts.minsize:
            continue
        by_bucket: dict[tuple[str, str], set[str]] = {}
        for name in used:
            found = eligible.get(name)
            if found is not None and found.bucket is not None:
                by_bucket.setdefault(found.bucket, set()).add(name)
        for bucket, names in by_bucket.items():
            if len(names) > 1:
                groups.setdefault(bucket, set()).update(names)
    merged: set[str] = set()
    last = len(order)
    for names in groups.values():
        ranked = sorted(names, key=lambda n: (eligible[n].size, order.get(n, last), n))
        merged |= _packed(ranked, eligible)
    return merged


def _packed(ranked: list[str], objects: dict[str, DataObject]) -> set[str]:
    """GlobalMerge's cut of one sorted set into pieces of at most MAX_OFFSET bytes."""
    out: set[str] = set()
    chunk: list[str] = []
    size = 0
    for name in ranked:
        obj = objects[name]
        align = max(obj.align, 1)
        start = -(-size // align) * align
        if chunk and start + obj.size > MAX_OFFSET:
            if len(chunk) > 1:
                out.update(chunk)
            chunk, size, start = [], 0, 0
        chunk.append(name)
        size = start + obj.size
    if len(chunk) > 1:
        out.update(chunk)
    return out


def object_alias_sizes(
    facts: ModuleFacts,
    triple: str | None,
    opt_level: int,
    uses: dict[str, set[str]],
    data: dict[str, tuple[str, int]],
    order: dict[str, int],
) -> tuple[dict[str, int], dict[str, str]]:
    """What the object link (compiler/backend/objlink.py) writes so that each alias has the
    serial object's size: explicit sizes (alias -> its value type's size: the base is private,
    or the serial GlobalMerge packed it, so the base has no symbol of its own) and, where a
    piece merges, alias -> base (the alias gets its base's output size: a piece that packed
    the base wrote the value type's). `uses`: each function of the split's optimised code
    (its dead definitions left out) -> the global values it uses (GlobalMerge counts
    instruction uses); `data`: the pieces' data symbols, name -> (section, size)
    (`objlink.data_symbols`), the sizes and sections after optimisation."""
    merged: set[str] = set()
    merge = merging(facts, triple, opt_level)
    if merge:
        objects: dict[str, DataObject] = {}
        for name in facts.candidates:
            found = data.get(name)
            if found is not None:
                objects[name] = DataObject(name, _bucket(found[0]), found[1], facts.align.get(name, 1))
            elif name in facts.private_data:
                objects[name] = facts.private_data[name]
        merged = merged_variables(uses, objects, facts, opt_level, order)
    sizes: dict[str, int] = {}
    size_of: dict[str, str] = {}
    for alias in facts.aliases:
        if alias.base_private or alias.base in merged:
            if alias.value_size is not None:
                sizes[alias.name] = alias.value_size
        elif merge:
            size_of[alias.name] = alias.base
    return sizes, size_of
