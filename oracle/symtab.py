"""A normal form of an ELF object's symbol table, and the diff the split contract is judged by.

Read with pyelftools, or for the layout Ember emits (little-endian ELF64 x86-64) with
the equivalent `struct` reader `oracle.elf64`, about 14 times faster (0.24 vs 3.4 ms for
both tables of a 14-function object; the fuzzing harness reads every build). `.L*` temporaries, section and file symbols are
ignored: the integrated assembler keeps `.L` labels of mergeable sections in any object.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from elftools.common.exceptions import ELFError
from elftools.elf.descriptions import describe_reloc_type
from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection
from elftools.elf.sections import SymbolTableSection

from compiler.diagnostics import EmberError, Location
from oracle import elf64

# pyelftools names GNU's OS-specific values by their range start: STB_GNU_UNIQUE and
# STT_GNU_IFUNC (both 10) are STB_LOOS and STT_LOOS
_BINDINGS = {"STB_LOCAL": "LOCAL", "STB_GLOBAL": "GLOBAL", "STB_WEAK": "WEAK", "STB_LOOS": "UNIQUE"}
_TYPES = {
    "STT_NOTYPE": "NOTYPE",
    "STT_OBJECT": "OBJECT",
    "STT_FUNC": "FUNC",
    "STT_TLS": "TLS",
    "STT_LOOS": "IFUNC",
    "STT_COMMON": "COMMON",
}
_VISIBILITY = {"STV_DEFAULT": "DEFAULT", "STV_HIDDEN": "HIDDEN", "STV_PROTECTED": "PROTECTED", "STV_INTERNAL": "INTERNAL"}
_SECTION_KINDS = (
    ".text",
    ".rodata",
    ".data.rel.ro",
    ".data",
    ".bss",
    ".tdata",
    ".tbss",
    ".init_array",
    ".fini_array",
    ".ctors",
    ".dtors",
)


@dataclass(frozen=True, order=True)
class Symbol:
    """One symbol in normal form."""

    name: str
    binding: str
    type: str
    visibility: str
    section: str  # a section kind (.text, .data, .bss, ...), UND, ABS or COMMON
    size: int

    @property
    def defined(self) -> bool:
        return self.section != "UND"

    @property
    def is_local(self) -> bool:
        return self.binding == "LOCAL"


def section_kind(name: str) -> str:
    """`.text.foo` -> `.text`, `.rodata.str1.1` -> `.rodata`, `.data.rel.ro.x` -> `.data.rel.ro`."""
    for kind in _SECTION_KINDS:
        if name == kind or name.startswith(kind + "."):
            return kind
    if name.startswith(".rodata"):
        return ".rodata"
    return name


def read_symbols(source: str | bytes) -> list[Symbol]:
    """The normal-form symbols of an ELF object given as a path or its bytes, sorted."""
    path = "<bytes>" if isinstance(source, bytes) else source
    try:
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
    except OSError as exc:
        raise EmberError(f"cannot read object: {exc.strerror}", Location(path)) from None
    try:
        elf_fast = elf64.Elf64(data)
        return _sorted_symbols(_fast_symbols(elf_fast, elf_fast.symbols()))
    except elf64.Unsupported:
        pass  # pyelftools reads it (or says what is wrong with it)
    try:
        elf = ELFFile(io.BytesIO(data))
        symbols: list[Symbol] = []
        for section in elf.iter_sections():
            if not isinstance(section, SymbolTableSection) or section.name != ".symtab":
                continue
            for sym in section.iter_symbols():
                symbol = _normalise(elf, sym)
                if symbol is not None:
                    symbols.append(symbol)
    except (ELFError, ValueError, KeyError) as exc:
        raise EmberError(f"not a valid ELF object: {exc}", Location(path)) from None
    return _sorted_symbols(symbols)


def _sorted_symbols(symbols: list[Symbol]) -> list[Symbol]:
    return sorted(symbols, key=lambda s: (s.is_local, s.name, s.binding, s.section))


def _fast_symbols(elf: elf64.Elf64, raw: list[elf64.Sym]) -> list[Symbol]:
    return [
        _symbol(s.name, s.bind, s.type, s.visibility, s.shndx, elf.section_name(s.shndx), s.size)
        for s in raw
        if not _ignored(s.name, s.type)
    ]


def _ignored(name: str, stype: str | int) -> bool:
    """Unnamed, section and file symbols and `.L` temporaries are not in the normal form."""
    return not name or stype in ("STT_SECTION", "STT_FILE") or name.startswith(".L")


def _normalise(elf: ELFFile, sym: Any) -> Symbol | None:
    info, shndx = sym["st_info"], sym["st_shndx"]
    if _ignored(sym.name, info["type"]):
        return None
    section = elf.get_section(shndx).name if isinstance(shndx, int) else ""
    return _symbol(sym.name, info["bind"], info["type"], sym["st_other"]["visibility"], shndx, section, int(sym["st_size"]))


def _symbol(
    name: str, bind: str | int, stype: str | int, visibility: str | int, shndx: str | int, section_name: str, size: int
) -> Symbol:
    """The normal form of one symbol not `_ignored`, fields named as pyelftools names them (either reader)."""
    if shndx == "SHN_UNDEF":
        section = "UND"
    elif shndx == "SHN_ABS":
        section = "ABS"
    elif shndx == "SHN_COMMON":
        section = "COMMON"
    else:
        section = section_kind(section_name)
    return Symbol(
        name=name,
        binding=_BINDINGS.get(str(bind), str(bind)),
        type=_TYPES.get(str(stype), str(stype)),
        visibility=_VISIBILITY.get(str(visibility), str(visibility)),
        section=section,
        size=size,
    )


def format_table(symbols: list[Symbol]) -> str:
    """A fixed-width table, one symbol per line."""
    header = f"{'binding':<8} {'type':<7} {'visibility':<10} {'section':<14} {'size':>8}  name"
    rows = [
        f"{s.binding:<8} {s.type:<7} {s.visibility:<10} {s.section:<14} {s.size:>8}  {s.name}"
        for s in symbols
    ]
    return "\n".join([header, *rows])


def to_json(symbols: list[Symbol]) -> str:
    """The normal form as JSON (a list of objects)."""
    return json.dumps([asdict(s) for s in symbols], indent=2)


@dataclass
class SymbolDiff:
    """How B's symbol table departs from A's under contract 1."""

    added: list[Symbol] = field(default_factory=list)
    removed: list[Symbol] = field(default_factory=list)
    changed: list[tuple[Symbol, Symbol]] = field(default_factory=list)
    leaked_locals: list[Symbol] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.added or self.removed or self.changed or self.leaked_locals)

    def render(self, name_a: str = "A", name_b: str = "B") -> str:
        if self.clean:
            return "symbol tables agree"
        lines = [f"--- {name_a}", f"+++ {name_b}"]
        for s in self.removed:
            lines.append(f"- {s.binding} {s.type} {s.visibility} {_where(s)} {s.name}  (missing in {name_b})")
        for s in self.added:
            lines.append(f"+ {s.binding} {s.type} {s.visibility} {_where(s)} {s.name}  (new in {name_b})")
        for a, b in self.changed:
            fields = [
                f"{f}: {getattr(a, f)} -> {getattr(b, f)}"
                for f in ("binding", "type", "visibility")
                if getattr(a, f) != getattr(b, f)
            ]
            if a.defined != b.defined:
                fields.append(f"defined: {a.defined} -> {b.defined}")
            lines.append(f"~ {a.name}: " + ", ".join(fields))
        for s in self.leaked_locals:
            lines.append(f"! {s.name}: LOCAL in {name_a} became {s.binding} {s.visibility} in {name_b}")
        return "\n".join(lines)


def _where(s: Symbol) -> str:
    return "UND" if not s.defined else "DEF"


def _signature(s: Symbol) -> tuple[str, str, str, bool]:
    return (s.binding, s.type, s.visibility, s.defined)


def diff_symbols(a: list[Symbol], b: list[Symbol]) -> SymbolDiff:
    """Compare non-local symbols by (binding, type, visibility, defined); flag locals of A made non-local in B."""
    diff = SymbolDiff()
    a_global = {s.name: s for s in a if not s.is_local}
    b_global = {s.name: s for s in b if not s.is_local}
    for name in sorted(a_global.keys() - b_global.keys()):
        diff.removed.append(a_global[name])
    for name in sorted(b_global.keys() - a_global.keys()):
        if any(s.name == name and s.is_local for s in a):
            continue  # reported below as a leaked local
        diff.added.append(b_global[name])
    for name in sorted(a_global.keys() & b_global.keys()):
        if _signature(a_global[name]) != _signature(b_global[name]):
            diff.changed.append((a_global[name], b_global[name]))
    a_local_names = {s.name for s in a if s.is_local}
    for name in sorted(a_local_names & (b_global.keys() - a_global.keys())):
        diff.leaked_locals.append(b_global[name])
    return diff


# ------------------------------------------------------------------ the full comparison

#: The suffix the split back end gives per-subgraph copies of an internal function
#: (`f.ember.3`; `compiler.backend.planner.COPY_SUFFIX`, repeated here: oracle/ reads objects only).
COPY_SUFFIX = ".ember."


@dataclass(frozen=True, order=True)
class Relocation:
    """One relocation in normal form: where (section kind), against what, of which type."""

    section: str  # kind of the section the relocation patches
    target: str  # symbol name (a copy's home name), `[.rodata]` for a section or `.L` symbol
    type: str


#: Names the compiler makes up for unnamed (`@0`) globals: LLVM's `__unnamed_N` and the
#: split back end's `__ember_unnamed_K_N` number them differently, so they compare by attributes.
_ANONYMOUS = re.compile(r"__(ember_)?unnamed_[\d_]+")
#: Codegen's per-function exception-table labels: numbered by function position, made
#: `.L` labels by the retired MC link (like `.LBB`), so ignored as `.L*` names are.
_CODEGEN_LABEL = re.compile(r"GCC_except_table\d+")


def home_name(name: str) -> str:
    """`f.ember.3` -> `f`: the name a split-build copy stands for; `[anonymous]` for made-up names."""
    name = name.split(COPY_SUFFIX, 1)[0]
    return "[anonymous]" if _ANONYMOUS.fullmatch(name) else name


def read_relocations(source: str | bytes) -> list[Relocation]:
    """The normal-form relocations of an ELF object (path or bytes), sorted."""
    path = "<bytes>" if isinstance(source, bytes) else source
    try:
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
        try:
            elf_fast = elf64.Elf64(data)
            return sorted(_fast_relocations(elf_fast, elf_fast.symbols()))
        except elf64.Unsupported:
            pass  # pyelftools reads it (or says what is wrong with it)
        elf = ELFFile(io.BytesIO(data))
        return sorted(_relocations(elf))
    except OSError as exc:
        raise EmberError(f"cannot read object: {exc.strerror}", Location(path)) from None
    except (ELFError, ValueError, KeyError) as exc:
        raise EmberError(f"not a valid ELF object: {exc}", Location(path)) from None


def _relocations(elf: ELFFile) -> list[Relocation]:
    """Every relocation of every `.rela*`/`.rel*` section, targets named as in `Relocation`."""
    out: list[Relocation] = []
    symtab = elf.get_section_by_name(".symtab")
    for section in elf.iter_sections():
        if not isinstance(section, RelocationSection):
            continue
        patched = section_kind(elf.get_section(section["sh_info"]).name)
        for rel in section.iter_relocations():
            target = "[none]"
            if rel["r_info_sym"] and isinstance(symtab, SymbolTableSection):
                sym = symtab.get_symbol(rel["r_info_sym"])
                target = _reloc_target(elf, sym)
            out.append(Relocation(patched, target, describe_reloc_type(rel["r_info_type"], elf)))
    return out


def _fast_relocations(elf: elf64.Elf64, symbols: list[elf64.Sym]) -> list[Relocation]:
    out = []
    for rel in elf.relocations():
        target = "[none]"
        if rel.sym and elf.symtab is not None:
            if rel.sym >= len(symbols):
                raise elf64.Unsupported("relocation against a symbol that does not exist")
            sym = symbols[rel.sym]
            target = _target_name(sym.name, sym.type, sym.shndx, elf.section_name(sym.shndx))
        out.append(Relocation(section_kind(rel.patched.name), target, rel.type))
    return out


def read_tables(obj: bytes) -> tuple[list[Symbol], list[Relocation]]:
    """`read_symbols` and `read_relocations` of one object, parsed once (the fuzzing harness
    reads every build); errors and unusual layouts as the two give them."""
    try:
        elf = elf64.Elf64(obj)
        raw = elf.symbols()
        return _sorted_symbols(_fast_symbols(elf, raw)), sorted(_fast_relocations(elf, raw))
    except elf64.Unsupported:
        return read_symbols(obj), read_relocations(obj)


def _reloc_target(elf: ELFFile, sym: Any) -> str:
    """A relocation's symbol by home name; sections and `.L` labels by their section kind."""
    shndx = sym["st_shndx"]
    section = elf.get_section(shndx).name if isinstance(shndx, int) else ""
    return _target_name(sym.name, sym["st_info"]["type"], shndx, section)


def _target_name(name: str, stype: str | int, shndx: str | int, section_name: str) -> str:
    if stype != "STT_SECTION" and name and not name.startswith(".L") and not _CODEGEN_LABEL.fullmatch(name):
        return home_name(name)
    return f"[{section_kind(section_name) if isinstance(shndx, int) else shndx}]"


def diff_full(
    a: list[Symbol], b: list[Symbol], ra: list[Relocation], rb: list[Relocation], *, exact_code: bool
) -> list[str]:
    """Every symbol (locals too) and relocation of B against A; `exact_code`: no IPO happened (-O0).

    Non-local symbols must agree in binding, type, visibility, section kind and size (not
    a function's size); no local symbol of B may be reached through the GOT unless A does;
    a thread-local symbol both sides access is accessed with the same TLS models. Split-build
    copies (`f.ember.N`) are legitimately extra: they must be LOCAL, of their home's type and section kind. With `exact_code` every local
    must also exist on both sides with the same attributes, and every named symbol A's
    relocations reference must still be referenced by one of B's.
    """
    lines = _copy_problems(b)
    lines += _attribute_problems(a, b, exact_code)
    lines += _got_to_local_problems(b, ra, rb)
    lines += tls_model_problems(ra, rb)
    if exact_code:
        lines += _relocation_problems(ra, rb)
    return lines


def _got_to_local_problems(b: list[Symbol], ra: list[Relocation], rb: list[Relocation]) -> list[str]:
    """B reaches one of its own local symbols through the GOT where A never does so.

    A compiler always knows a local symbol is in reach (PC-relative); a GOT relocation
    against one means a split piece saw it as a preemptible (default-visibility) symbol,
    which costs a load per use and a relocation a static link must relax."""
    local_b = {home_name(s.name) for s in b if s.is_local}
    got_a = {r.target for r in ra if "GOT" in r.type}
    bad = sorted({r for r in rb if "GOT" in r.type and r.target in local_b and r.target not in got_a})
    return [f"! reloc {r.section} -> {r.target} {r.type}  (a local symbol reached through the GOT)" for r in bad]


#: The TLS access model a relocation type implies (x86-64 and AArch64 ELF; other types: none).
_TLS_MODELS = {
    "R_X86_64_TLSGD": "general-dynamic",
    "R_X86_64_TLSLD": "local-dynamic",
    "R_X86_64_DTPOFF32": "local-dynamic",
    "R_X86_64_DTPOFF64": "local-dynamic",
    "R_X86_64_GOTTPOFF": "initial-exec",
    "R_X86_64_TPOFF32": "local-exec",
    "R_X86_64_TPOFF64": "local-exec",
    "R_AARCH64_TLSDESC_ADR_PAGE21": "general-dynamic",
    "R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21": "initial-exec",
    "R_AARCH64_TLSLE_ADD_TPREL_HI12": "local-exec",
}


def tls_models(relocations: list[Relocation]) -> dict[str, frozenset[str]]:
    """For each symbol accessed as thread-local, the TLS access models its relocations use."""
    out: dict[str, set[str]] = {}
    for r in relocations:
        model = _TLS_MODELS.get(r.type)
        if model is not None and not r.target.startswith("["):
            out.setdefault(r.target, set()).add(model)
    return {k: frozenset(v) for k, v in out.items()}


def tls_model_problems(ra: list[Relocation], rb: list[Relocation]) -> list[str]:
    """Thread-locals both builds access, with different access models.

    The model is part of a thread-local's IR (`thread_local(initialexec)`) or follows from
    its linkage and visibility: a declaration in another piece that lost either one changes
    the code (a `__tls_get_addr` call for a direct `%fs` offset) but not the behaviour, and
    when some other thread-local already needs `__tls_get_addr` not the symbol table
    either. A symbol one build no longer accesses (inlined away) is not compared."""
    ma, mb = tls_models(ra), tls_models(rb)
    return [f"~ tls {name}: accessed {', '.join(sorted(ma[name]))} -> {', '.join(sorted(mb[name]))}"
            for name in sorted(ma.keys() & mb.keys()) if ma[name] != mb[name]]


def _fields(s: Symbol, with_size: bool) -> tuple[object, ...]:
    return (s.binding, s.type, s.visibility, s.section, s.size if with_size else None)


def _attribute_problems(a: list[Symbol], b: list[Symbol], exact_code: bool) -> list[str]:
    """Same-named symbols whose attributes differ; with `exact_code`, locals on one side only."""
    am = {s.name: s for s in a if not _ANONYMOUS.fullmatch(s.name) and not _CODEGEN_LABEL.fullmatch(s.name)}
    bm = {s.name: s for s in b if COPY_SUFFIX not in s.name and not _ANONYMOUS.fullmatch(s.name) and not _CODEGEN_LABEL.fullmatch(s.name)}
    lines: list[str] = []
    for name in sorted(am.keys() & bm.keys()):
        x, y = am[name], bm[name]
        if x.is_local != y.is_local or (x.is_local and not exact_code):
            continue  # a leak or a lost global is the contract-1 diff's; IPO may change locals
        # with IPO (-O1 and up) each subgraph inlines differently, so a function's size
        # may change; at -O0 every function is compiled alone either way: same bytes
        with_size = x.type != "FUNC" or exact_code
        if _fields(x, with_size) != _fields(y, with_size):
            lines.append(f"~ {name}: {_describe(x)} -> {_describe(y)}")
    if exact_code:
        lines += _anonymous_problems(a, b)
        lines += [f"- {_describe(am[n])} {n}  (local missing)" for n in sorted(am.keys() - bm.keys()) if am[n].is_local]
        lines += [f"+ {_describe(bm[n])} {n}  (local new)" for n in sorted(bm.keys() - am.keys()) if bm[n].is_local]
    return lines


def _anonymous_problems(a: list[Symbol], b: list[Symbol]) -> list[str]:
    """Unnamed globals (`__unnamed_N`, `__ember_unnamed_K_N`) compared as a multiset of attributes."""
    ca = Counter(_fields(s, s.type != "FUNC") for s in a if _ANONYMOUS.fullmatch(s.name))
    cb = Counter(_fields(s, s.type != "FUNC") for s in b if _ANONYMOUS.fullmatch(s.name))
    lines = [f"- unnamed {' '.join(map(str, f))} x{n}" for f, n in sorted((ca - cb).items(), key=str)]
    return lines + [f"+ unnamed {' '.join(map(str, f))} x{n}" for f, n in sorted((cb - ca).items(), key=str)]


def _copy_problems(b: list[Symbol]) -> list[str]:
    """Copies `f.ember.N` must be LOCAL and look like their home `f` (when `f` is present)."""
    homes = {s.name: s for s in b if COPY_SUFFIX not in s.name}
    lines: list[str] = []
    for s in b:
        if COPY_SUFFIX not in s.name:
            continue
        home = homes.get(home_name(s.name))
        if not s.is_local:
            lines.append(f"! copy {s.name} is {s.binding} {s.visibility}, not LOCAL")
        elif home is not None and (home.type, home.section) != (s.type, s.section):
            lines.append(f"~ copy {s.name}: {s.type} {s.section}, its home {home.name}: {home.type} {home.section}")
    return lines


def _relocation_problems(ra: list[Relocation], rb: list[Relocation]) -> list[str]:
    """Named symbols A's relocations reference that no relocation of B references.

    Only losses count: the split build legitimately adds relocations (copies of internal
    and private functions repeat their home's; a reference to an alias or a symbol in
    another piece goes through the symbol instead of a section offset, GOTPCRELX for
    PC32), so neither extra relocations nor their section or type are differences."""
    named_b = {r.target for r in rb}
    lost = sorted({r for r in ra if not r.target.startswith("[") and r.target not in named_b})
    return [f"- reloc {r.section} -> {r.target} {r.type}  (no relocation against {r.target} left)" for r in lost]


def _describe(s: Symbol) -> str:
    return f"{s.binding} {s.type} {s.visibility} {s.section} size {s.size}"
