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
serial object has (docs/backend.md, "GlobalMerge and alias sizes"). `alias_sizes` is the
same decision for the text link, on the pieces' assembly read back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from compiler.backend import engine, irmodel, tokens

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


# ------------------------------------------------------------------ the pieces' assembly

_SECTION = re.compile(r"^\s*\.section\s+\"?([^\",\s]+)")
_SIMPLE_SECTION = re.compile(r"^\s*\.(text|data|bss)\b")
_TYPE = re.compile(r"^\s*\.type\s+(" + tokens.ASM_SYMBOL + r"),\s*[@%](object|function)\s*$")
_SIZE = re.compile(r"^\s*\.size\s+(" + tokens.ASM_SYMBOL + r"),\s*(\d+)\s*$")
_ALIGN = re.compile(r"^\s*\.p2align\s+(\d+)")
_COMM = re.compile(r"^\s*\.comm\s+(" + tokens.ASM_SYMBOL + r"),\s*(\d+)(?:,\s*(\d+))?")
_LABEL = re.compile("^(" + tokens.ASM_SYMBOL + "):")
_ASSIGN = re.compile(r"^\s*(" + tokens.ASM_SYMBOL + r")\s*=\s*(" + tokens.ASM_SYMBOL + r")(?:\+(\d+))?(?:\+(\d+))?\s*$")
_TOKEN = re.compile(tokens.ASM_START + tokens.ASM_SYMBOL)
_MERGED = "_MergedGlobals"


@dataclass
class _Piece:
    objects: dict[str, DataObject] = field(default_factory=dict)
    functions: dict[str, set[str]] = field(default_factory=dict)
    alias_size: dict[str, int] = field(default_factory=dict)  # explicit `.size` of an assignment


def _bucket(section: str) -> tuple[str, str] | None:
    if section.startswith((".rodata", ".data.rel.ro", ".tdata", ".tbss", ".text")) or section.startswith(".note"):
        return None
    if section.startswith(".bss"):
        return ("bss", "")
    if section.startswith(".data"):
        return ("data", "")
    return ("data", section)  # an explicit section: its own group (BSS-ness not told apart here)


def _read_piece(asm: str, aliases: set[str]) -> _Piece:
    """Data objects, functions with the names their code uses, explicit alias sizes.
    `aliases`: the input's aliases (`al = .L_MergedGlobals+32` is one, not a merged variable)."""
    piece = _Piece()
    section = ".text"
    align = 1
    function: str | None = None
    types: dict[str, str] = {}
    merged_at: dict[str, list[str]] = {}  # _MergedGlobals label -> the variables packed into it
    merged_section: dict[str, tuple[str, str] | None] = {}
    assigned: dict[str, str] = {}
    sizes: dict[str, int] = {}
    pending_refs: dict[str, set[str]] = {}
    for line in asm.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "#", ";")):
            continue
        if stripped.startswith("."):
            m = _SECTION.match(line)
            if m:
                section = m.group(1)
                continue
            m = _SIMPLE_SECTION.match(line)
            if m:
                section = "." + m.group(1)
                continue
            m = _TYPE.match(line)
            if m:
                types[m.group(1)] = m.group(2)
                continue
            m = _ALIGN.match(line)
            if m:
                align = 1 << int(m.group(1))
                continue
            m = _SIZE.match(line)
            if m:
                sizes[m.group(1)] = int(m.group(2))
                continue
            m = _COMM.match(line)
            if m:
                name = m.group(1)
                piece.objects[name] = DataObject(name, ("bss", ""), int(m.group(2)), int(m.group(3) or 1))
                if _MERGED in name:
                    merged_section[name] = ("bss", "")
                continue
            if stripped.startswith(".Lfunc_end"):
                function = None
            if not _LABEL.match(stripped):
                a = _ASSIGN.match(line)
                if a is None:
                    continue
        label = _LABEL.match(line)
        if label:
            name = label.group(1)
            if name.startswith(".Lfunc_end"):
                function = None
            elif types.get(name) == "function":
                function = name
                piece.functions.setdefault(name, set())
            elif types.get(name) == "object":
                function = None
                piece.objects[name] = DataObject(name, _bucket(section), 0, align)
                if _MERGED in name:
                    merged_section[name] = _bucket(section)
            continue
        a = _ASSIGN.match(line)
        if a:
            target = a.group(2)
            assigned[a.group(1)] = target
            if _MERGED in target and a.group(4) is None and a.group(1) not in aliases:
                merged_at.setdefault(target, []).append(a.group(1))
            continue
        if function is not None:
            pending_refs.setdefault(function, set()).update(_TOKEN.findall(line))
    for name, obj in piece.objects.items():
        if name in sizes:
            obj.size = sizes[name]
    for block, members in merged_at.items():
        for name in members:
            piece.objects[name] = DataObject(name, merged_section.get(block, ("data", "")), sizes.get(name, 0), 1)
    for name, target in assigned.items():
        if name in sizes and not (_MERGED in target and name in piece.objects):
            piece.alias_size[name] = sizes[name]
    for function, refs in pending_refs.items():
        used = piece.functions[function]
        for token in refs:
            if token in merged_at:
                # code addresses a merged variable from the block's base (`adrp x8,
                # .L_MergedGlobals` then `[x8, #24]`): count every member, as the piece did
                # (it merged them because functions here use them together)
                used.update(merged_at[token])
            else:
                used.add(token)  # here or in another piece; what is no variable is filtered later
    return piece


def _original(name: str) -> str:
    return name.split(COPY_SUFFIX, 1)[0]


def _input_name(name: str, candidates: set[str]) -> str:
    """A piece's spelling of a variable -> the input's (a private one is `.L<name>` there)."""
    return name[2:] if name.startswith(".L") and name not in candidates and name[2:] in candidates else name


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


def alias_sizes(
    pieces: Sequence[str],
    facts: ModuleFacts,
    triple: str | None,
    opt_level: int,
    order: dict[str, int],
) -> dict[str, int]:
    """The text link's alias sizes (the pieces' assembly read back): for each alias whose
    size in the linked text would differ from the serial one's, the size to write."""
    merge = merging(facts, triple, opt_level)
    if not merge and not any(a.base_private for a in facts.aliases):
        return {}  # no piece merges, so none sized an alias otherwise than the serial build
    names = {a.name for a in facts.aliases}
    read = [_read_piece(asm, names) for asm in pieces]
    merged: set[str] = set()
    if merge:
        uses: dict[str, set[str]] = {}
        objects: dict[str, DataObject] = {}
        for piece in read:
            for raw, obj in piece.objects.items():
                name = _input_name(raw, facts.candidates)
                if name in facts.candidates and obj.bucket is not None and obj.size < MAX_OFFSET:
                    objects.setdefault(name, obj)
            for function, used in piece.functions.items():
                uses.setdefault(function, set()).update(_input_name(raw, facts.candidates) for raw in used)
        merged = merged_variables(uses, objects, facts, opt_level, order)
    base_size: dict[str, int] = {}
    explicit: dict[str, int] = {}
    for piece in read:
        for name, obj in piece.objects.items():
            base_size.setdefault(name, obj.size)
        explicit.update(piece.alias_size)
    wanted: dict[str, int] = {}
    for alias in facts.aliases:
        sized_by_type = alias.base_private or alias.base in merged
        if sized_by_type:
            if alias.name not in explicit and alias.value_size is not None:  # else the piece wrote it already
                wanted[alias.name] = alias.value_size
        elif alias.base in base_size and explicit.get(alias.name, base_size[alias.base]) != base_size[alias.base]:
            wanted[alias.name] = base_size[alias.base]
    return wanted


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
