"""DWARF through the MC link: the pieces' debug info made valid in ONE assembly text.

Every piece is compiled as its own module, so each brings its own compile unit(s) in
`.debug_info`, its own `.debug_abbrev`/`.debug_str_offsets`/`.debug_addr`/... contributions
(their `.L` labels are made unique by the link like any other local label), and its own
numbering of source files: `.file N "dir" "name" md5 ...` directives, `.loc N line col`
rows, and `DW_AT_decl_file`/`DW_AT_call_file` values in `.debug_info` that index the line
table's file list. The assembler builds one line table for the whole text (assembly has no
syntax for several), which every compile unit's `DW_AT_stmt_list` names (as LLVM itself
does for a module with several compile units printed as assembly), so the files get one
numbering here:

- the first piece's root file (`.file 0`, DWARF 5) is the table's root; every other distinct
  `.file` entry gets the next number in piece order (deterministic whatever `-j` is);
- `.loc` rows and the `DW_AT_decl_file`/`DW_AT_call_file` values of `.debug_info` (found by
  the verbose-assembly comment the workers ask for, `# DW_AT_decl_file`) are renumbered;
- a reference to a debug section's start (`.long .debug_abbrev`, a unit header's
  abbreviation offset) becomes a label at the start of THIS piece's contribution to that
  section, since the pieces' contributions are concatenated.

Several compile units in one object are valid DWARF (what `ld -r` produces).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from compiler.diagnostics import EmberError

_FILE = re.compile(r"^\s*\.file\s+(\d+)\s+(.*?)\s*$")
_LOC = re.compile(r"^(\s*\.loc\s+)(\d+)(\b.*)$")
_FILE_ATTR = re.compile(r"^(\s*\.(byte|short|long)\s+)(\d+)(\s*#\s*DW_AT_(?:decl|call)_file\b.*)$")
_SECTION = re.compile(r'^\s*\.section\s+"?([^",\s]+)')
_BARE_SECTION = re.compile(r"^\s*\.(text|data|bss)\b")
_SECTION_REF = re.compile(r"(?<![\w.$])(\.debug_\w+)(?![\w.$])")
_WIDTH_MAX = {"byte": 0xFF, "short": 0xFFFF, "long": 0xFFFFFFFF}
#: a DWARF line-table header the assembler reads from `.file` directives: the root file is
#: numbered 0 (DWARF 5); older versions number from 1
_ROOT = 0


def has_debug_lines(asm: str) -> bool:
    """Whether a piece's assembly carries line-table directives (`.file N` / `.loc`)."""
    return "\t.loc\t" in asm or re.search(r"^\s*\.file\s+\d", asm, re.MULTILINE) is not None


@dataclass
class FileTable:
    """One numbering of the source files of all pieces."""

    #: `.file` operands (after the number) -> the number in the linked text
    numbers: dict[str, int] = field(default_factory=dict)
    root: str | None = None
    #: per piece (in link order): its own file number -> the linked one
    maps: list[dict[int, int]] = field(default_factory=list)

    def directives(self) -> list[str]:
        """The `.file` lines of the linked text, root first."""
        lines = [f"\t.file\t{_ROOT} {self.root}"] if self.root is not None else []
        return lines + [f"\t.file\t{n} {ops}" for ops, n in sorted(self.numbers.items(), key=lambda item: item[1])]


def file_table(pieces: Sequence[str]) -> FileTable:
    """Number the files of `pieces` (assembly texts, in link order) into one table."""
    table = FileTable()
    local_tables = []
    for asm in pieces:
        local: dict[int, str] = {}
        for ln in asm.splitlines() if ".file" in asm else ():
            m = _FILE.match(ln) if ".file" in ln else None
            if m is not None:
                local[int(m.group(1))] = m.group(2)
        local_tables.append(local)
        if table.root is None and _ROOT in local:
            table.root = local[_ROOT]
    next_number = 1
    for local in local_tables:
        mapping: dict[int, int] = {}
        for number, ops in sorted(local.items()):
            if ops == table.root:
                mapping[number] = _ROOT
                continue
            if ops not in table.numbers:
                table.numbers[ops] = next_number
                next_number += 1
            mapping[number] = table.numbers[ops]
        table.maps.append(mapping)
    return table


def entered_debug_sections(asm: str) -> set[str]:
    """The `.debug_*` sections a piece switches to (it contributes to them)."""
    return {m.group(1) for m in (_SECTION.match(ln) for ln in asm.splitlines() if ".section" in ln) if m and m.group(1).startswith(".debug_")}


def section_label(section: str) -> str:
    """The label at the start of a piece's contribution to `section` (a `.L` label: the link
    makes it unique per piece like the piece's own)."""
    return f".Lsec{section.replace('.', '_')}"


class PieceDebug:
    """Rewrites one piece's debug directives, line by line, as the link reads them."""

    def __init__(self, files: dict[int, int], sections: set[str]) -> None:
        self.files = files
        self.sections = sections
        self.section = ".text"
        self.started: set[str] = set()

    def line(self, line: str) -> list[str]:
        """The lines that replace `line` in the linked text (none for a `.file N`)."""
        stripped = line.lstrip()
        if stripped.startswith(".file") and _FILE.match(line):
            return []
        if stripped.startswith(".loc\t") or stripped.startswith(".loc "):
            m = _LOC.match(line)
            if m:
                return [m.group(1) + str(self._file(int(m.group(2)))) + m.group(3)]
            return [line]
        if stripped.startswith(".section"):
            m = _SECTION.match(line)
            self.section = m.group(1) if m else self.section
            if self.section in self.sections and self.section not in self.started:
                self.started.add(self.section)
                return [line, section_label(self.section) + ":"]
            return [line]
        if _BARE_SECTION.match(line):
            self.section = "." + _BARE_SECTION.match(line).group(1)  # type: ignore[union-attr]
            return [line]
        if self.section == ".debug_info" and "_file" in line:
            m = _FILE_ATTR.match(line)
            if m:
                value = self._file(int(m.group(3)))
                if value > _WIDTH_MAX[m.group(2)]:
                    raise EmberError(
                        f"MC link: the debug info names too many source files for a one-byte "
                        f"DW_AT_decl_file ({value}); build with --split none"
                    )
                return [m.group(1) + str(value) + m.group(4)]
        if ".debug_" in line:
            line = _SECTION_REF.sub(self._section_ref, line)
        return [line]

    def _file(self, number: int) -> int:
        mapped = self.files.get(number)
        if mapped is None:
            raise EmberError(f"MC link: '.loc' or DW_AT_decl_file names file {number}, which its piece never declared")
        return mapped

    def _section_ref(self, m: re.Match[str]) -> str:
        name = m.group(1)
        return section_label(name) if name in self.sections else name
