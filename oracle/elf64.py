"""The raw symbol and relocation entries of a little-endian ELF64 x86-64 object, read with `struct`.

pyelftools (the reader `oracle.symtab` is defined by) parses each entry through
`construct`: 3.4 ms for both tables of a 14-function object, and the fuzzing harness
reads every build's tables (a tenth of a campaign's time). This reader unpacks the same
fields with `struct` (0.24 ms) and gives them the names pyelftools gives. It only knows the
one layout Ember produces: anything else (another class, byte order or machine, extended
section numbering, a truncated file) is `Unsupported`, and the caller falls back to
pyelftools, so errors and exotic objects keep their old handling.
`tests/test_elf64.py` compares the two readers on every object kind the tests build.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass

from elftools.elf import enums

_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
_SHDR = struct.Struct("<IIQQQQIIQQ")
_SYM = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")
_REL = struct.Struct("<QQ")
EM_X86_64 = 62
SHT_SYMTAB, SHT_RELA, SHT_REL, SHT_SYMTAB_SHNDX, SHT_RELR = 2, 4, 9, 18, 19
SHN_LORESERVE, SHN_XINDEX = 0xFF00, 0xFFFF


def _names(enum: Mapping[str, object]) -> dict[int, str]:
    return {int(v): k for k, v in enum.items() if isinstance(v, int)}  # '_default_' is not an int


BINDS = _names(enums.ENUM_ST_INFO_BIND)
TYPES = _names(enums.ENUM_ST_INFO_TYPE)
VISIBILITIES = _names(enums.ENUM_ST_VISIBILITY)
SHNDX = _names(enums.ENUM_ST_SHNDX)
RELOC_TYPES = _names(enums.ENUM_RELOC_TYPE_x64)


class Unsupported(Exception):
    """Not the one layout this reader knows: use pyelftools."""


@dataclass(frozen=True)
class Section:
    name: str
    type: int
    offset: int
    size: int
    link: int
    info: int
    entsize: int


@dataclass(frozen=True)
class Sym:
    """A symbol with pyelftools' names: bind/type/visibility strings (or ints it has no name
    for), shndx an int or 'SHN_UNDEF'/'SHN_ABS'/'SHN_COMMON'."""

    name: str
    bind: str | int
    type: str | int
    visibility: str | int
    shndx: int | str
    size: int


@dataclass(frozen=True)
class Reloc:
    patched: Section
    sym: int
    type: str


class Elf64:
    """The sections, `.symtab` and relocations of one object (raises `Unsupported`)."""

    def __init__(self, data: bytes) -> None:
        try:
            self._parse(data)
        except (struct.error, IndexError, UnicodeDecodeError) as exc:
            raise Unsupported(str(exc)) from None

    def _parse(self, data: bytes) -> None:
        self.data = data
        ident, _etype, machine, *_rest = header = _EHDR.unpack_from(data, 0)
        if ident[:4] != b"\x7fELF" or ident[4] != 2 or ident[5] != 1 or machine != EM_X86_64:
            raise Unsupported("not a little-endian ELF64 x86-64 object")
        shoff, shentsize, shnum, shstrndx = header[6], header[11], header[12], header[13]
        if shnum == 0 or shstrndx >= SHN_LORESERVE or shentsize != _SHDR.size:
            raise Unsupported("extended section numbering")
        if shoff + shnum * shentsize > len(data):
            raise Unsupported("section headers past the end of the file")
        raw = [_SHDR.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
        strtab = raw[shstrndx]
        self.sections = [
            Section(self._string(strtab[4], strtab[5], h[0]), h[1], h[4], h[5], h[6], h[7], h[9]) for h in raw
        ]
        for s in self.sections:
            if s.type in (SHT_SYMTAB_SHNDX, SHT_RELR):
                raise Unsupported(f"section type {s.type}")
            if s.type != 8 and s.offset + s.size > len(data):  # SHT_NOBITS occupies no file space
                raise Unsupported(f"section {s.name} past the end of the file")
        self.symtab = next((s for s in self.sections if s.name == ".symtab" and s.type == SHT_SYMTAB), None)

    def _string(self, table_offset: int, table_size: int, index: int) -> str:
        if index >= table_size:
            raise Unsupported("string index out of range")
        start = table_offset + index
        end = self.data.find(b"\0", start, table_offset + table_size)
        if end < 0:
            raise Unsupported("unterminated string")
        return self.data[start:end].decode("latin-1")  # what pyelftools decodes names with

    def symbols(self) -> list[Sym]:
        """`.symtab`'s entries in order (the null symbol included, as pyelftools lists it)."""
        if self.symtab is None:
            return []
        if self.symtab.entsize != _SYM.size or self.symtab.link >= len(self.sections):
            raise Unsupported("odd symbol table")
        names = self.sections[self.symtab.link]
        out = []
        try:
            for st_name, info, other, shndx, _value, size in _SYM.iter_unpack(
                self.data[self.symtab.offset : self.symtab.offset + self.symtab.size]
            ):
                if shndx >= SHN_LORESERVE and shndx not in SHNDX:
                    raise Unsupported(f"reserved section index {shndx:#x}")
                out.append(Sym(
                    self._string(names.offset, names.size, st_name),
                    BINDS.get(info >> 4, info >> 4),
                    TYPES.get(info & 0xF, info & 0xF),
                    VISIBILITIES.get(other & 7, other & 7),
                    SHNDX.get(shndx, shndx),
                    size,
                ))
        except struct.error as exc:
            raise Unsupported(str(exc)) from None
        return out

    def section_name(self, shndx: int | str) -> str:
        """The name of the section a symbol is in ('' for UND/ABS/COMMON, as names, not indices)."""
        if not isinstance(shndx, int):
            return ""
        if shndx >= len(self.sections):
            raise Unsupported("symbol in a section that does not exist")
        return self.sections[shndx].name

    def relocations(self) -> list[Reloc]:
        """Every entry of every SHT_RELA/SHT_REL section."""
        out = []
        for section in self.sections:
            if section.type not in (SHT_RELA, SHT_REL):
                continue
            layout = _RELA if section.type == SHT_RELA else _REL
            if section.entsize != layout.size or section.info >= len(self.sections):
                raise Unsupported("odd relocation section")
            patched = self.sections[section.info]
            try:
                for entry in layout.iter_unpack(self.data[section.offset : section.offset + section.size]):
                    info = entry[1]
                    out.append(Reloc(patched, info >> 32, RELOC_TYPES.get(info & 0xFFFFFFFF, "<unknown>")))
            except struct.error as exc:
                raise Unsupported(str(exc)) from None
        return out
