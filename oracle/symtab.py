"""A normal form of an ELF object's symbol table, and the diff the split contract is judged by.

Read with pyelftools. `.L*` temporaries, section and file symbols are ignored: the
integrated assembler keeps `.L` labels of mergeable sections in any object.
"""

from __future__ import annotations

import io
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from compiler.diagnostics import EmberError, Location

_BINDINGS = {"STB_LOCAL": "LOCAL", "STB_GLOBAL": "GLOBAL", "STB_WEAK": "WEAK", "STB_GNU_UNIQUE": "UNIQUE"}
_TYPES = {
    "STT_NOTYPE": "NOTYPE",
    "STT_OBJECT": "OBJECT",
    "STT_FUNC": "FUNC",
    "STT_TLS": "TLS",
    "STT_GNU_IFUNC": "IFUNC",
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
    return sorted(symbols, key=lambda s: (s.is_local, s.name, s.binding, s.section))


def _normalise(elf: ELFFile, sym: Any) -> Symbol | None:
    info = sym["st_info"]
    stype = info["type"]
    if not sym.name or stype in ("STT_SECTION", "STT_FILE") or sym.name.startswith(".L"):
        return None
    shndx = sym["st_shndx"]
    if shndx == "SHN_UNDEF":
        section = "UND"
    elif shndx == "SHN_ABS":
        section = "ABS"
    elif shndx == "SHN_COMMON":
        section = "COMMON"
    else:
        section = section_kind(elf.get_section(shndx).name)
    return Symbol(
        name=sym.name,
        binding=_BINDINGS.get(info["bind"], str(info["bind"])),
        type=_TYPES.get(stype, str(stype)),
        visibility=_VISIBILITY.get(sym["st_other"]["visibility"], str(sym["st_other"]["visibility"])),
        section=section,
        size=int(sym["st_size"]),
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
