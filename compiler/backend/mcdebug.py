"""DWARF through the MC link: each piece's line tables written out, debug sections made per piece.

Every piece is compiled as its own module, so it brings its own compile unit(s) in
`.debug_info` and its own `.debug_abbrev`, `.debug_str_offsets`, `.debug_addr`, ...
contributions, whose `.L` labels the link makes unique like any other. What cannot be
joined as text is the line table: a piece numbers its source files itself (`.file N`),
its DIEs' `DW_AT_decl_file` values index that numbering, and the assembler would build ONE
table from the `.file`/`.loc` directives of the whole text, which every unit's
`DW_AT_stmt_list` would then name (LLVM prints a module with several units that way too,
and `llvm-dwarfdump --verify` rejects it: "two compile unit DIEs have the same
DW_AT_stmt_list"). So the link turns each piece's directives into tables of its own:

- `.file N ...` lines are collected (and dropped from the text);
- a `.loc` becomes a label in front of the next instruction, data or alignment directive,
  which is where LLVM's object writer puts its row (a second `.loc` first gives the
  pending one a row where it stands; `is_stmt` carries over, the other flags do not):
  the rows equal the serial object's, address for address, where the code is the same;
- every `DW_AT_stmt_list` reference of the piece (`.Lline_table_start0`, one per unit)
  gets a table of its own in `.debug_line`: the piece's file list (same numbering, so the
  DIEs stay right) and the rows of the functions that unit describes (the unit whose DIEs
  name the function's `.Lfunc_begin`), one sequence per function ended at its
  `.Lfunc_end`; rows outside any function go to the first unit, one sequence per section
  ended where the piece's contribution to it ends (pieces are concatenated, so that
  contribution is contiguous);
- a reference to a debug section's start (`.long .debug_abbrev`, a unit header's
  abbreviation offset) becomes a label at the start of the piece's own contribution.

Several compile units in one object are valid DWARF (what `ld -r` produces).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.backend import tokens

_FILE = re.compile(r"^\s*\.file\s+(\d+)\s+(.*?)\s*$")
_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)(?:\s+(\d+))?(.*)$")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_MD5 = re.compile(r"\bmd5\s+0x([0-9a-fA-F]+)")
_SECTION = re.compile(r'^\s*\.section\s+"?([^",\s]+)')
_BARE_SECTION = re.compile(r"^\s*\.(text|data|bss)\b\s*$")
_SECTION_REF = re.compile(tokens.ASM_START + r"(\.debug_\w+)" + tokens.ASM_END)
LINE_TABLE_LABEL = ".Lline_table_start"
_FUNC_BEGIN = re.compile(r"\.Lfunc_begin\d+\b")
_UNIT_HEADER = re.compile(
    # (x86 prints `.short`/`.long`, AArch64 `.hword`/`.word`)
    r"^\.Ldebug_info_start\d+:\n\s*\.(?:short|hword|2byte)\s+(\d+)[^\n]*\n\s*\.(?:byte|long|word|4byte)\s+\S+[^\n]*\n"
    r"\s*\.byte\s+(\w+)",
    re.MULTILINE,
)
#: directives that emit bytes or padding: a pending `.loc` gets its row at them
_EMITTING = frozenset({
    ".byte", ".short", ".value", ".2byte", ".hword", ".long", ".4byte", ".int", ".word", ".quad",
    ".8byte", ".xword", ".ascii", ".asciz", ".string", ".zero", ".skip", ".space", ".fill", ".inst",
    ".sleb128", ".uleb128", ".p2align", ".balign", ".align", ".p2alignw", ".p2alignl",
})
#: DWARF line-number opcodes
_LNS_COPY, _LNS_ADVANCE_PC, _LNS_ADVANCE_LINE, _LNS_SET_FILE, _LNS_SET_COLUMN = 1, 2, 3, 4, 5
_LNS_NEGATE_STMT, _LNS_SET_BASIC_BLOCK, _LNS_SET_PROLOGUE_END, _LNS_SET_EPILOGUE_BEGIN, _LNS_SET_ISA = 6, 7, 10, 11, 12
_LNE_END_SEQUENCE, _LNE_SET_ADDRESS, _LNE_SET_DISCRIMINATOR = 1, 2, 4
_STANDARD_LENGTHS = (0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1)
#: DW_LNCT_path, DW_LNCT_directory_index, DW_LNCT_MD5 and the forms used for them
_LNCT_PATH, _LNCT_DIRECTORY_INDEX, _LNCT_MD5 = 1, 2, 5
_FORM_STRING, _FORM_UDATA, _FORM_DATA16 = 0x08, 0x0F, 0x1E


def has_debug_lines(asm: str) -> bool:
    """Whether a piece's assembly carries line-table directives (`.loc` / `.file N`)."""
    return "\t.loc\t" in asm or re.search(r"^\s*\.file\s+\d", asm, re.MULTILINE) is not None


def entered_debug_sections(asm: str) -> set[str]:
    """The `.debug_*` sections a piece switches to (it contributes to them)."""
    found = set()
    for line in asm.splitlines():
        if ".section" in line and (m := _SECTION.match(line)) and m.group(1).startswith(".debug_"):
            found.add(m.group(1))
    return found


def section_label(section: str) -> str:
    """The label at the start of a piece's contribution to `section` (a `.L` label: the link
    makes it unique per piece like the piece's own)."""
    return f".Lsec{section.replace('.', '_')}"


@dataclass(frozen=True)
class SourceFile:
    """One `.file` entry: directory (may be empty), name (as assembler string contents), MD5."""

    directory: str
    name: str
    md5: str | None


def parse_file(operands: str) -> SourceFile:
    """`"dir" "name" md5 0x...` (or `"name"`, or `"dir/name"`) -> a SourceFile."""
    strings = _STRING.findall(operands.split(" md5 ")[0].split(" source ")[0])
    md5 = _MD5.search(operands)
    if len(strings) >= 2:
        return SourceFile(strings[0], strings[1], md5.group(1).zfill(32) if md5 else None)
    return SourceFile("", strings[0] if strings else "", md5.group(1).zfill(32) if md5 else None)


@dataclass
class _Row:
    label: str
    file: int
    line: int
    column: int
    is_stmt: bool
    flags: frozenset[str]
    isa: int
    discriminator: int


@dataclass
class _Sequence:
    section: int  # index of the section (its `.Llnend` label ends a sequence with no function)
    function: str | None  # the `.Lfunc_begin` label of the function the rows are in
    rows: list[_Row] = field(default_factory=list)


class PieceDebug:
    """Rewrites one piece's debug directives line by line as the link reads them; `finish`
    returns the lines that end the piece (sequence ends and its line tables)."""

    def __init__(self, sections: set[str], version: int, address_size: int) -> None:
        self.sections = sections
        self.version = version
        self.address_size = address_size
        self.files: dict[int, SourceFile] = {}
        self.section = ".text"
        self.enter = "\t.text"
        self.started: set[str] = set()
        self.sections_entered: dict[str, str] = {}  # sections with rows: directive -> as written
        self.section_number: dict[str, int] = {}
        self.sequences: dict[tuple[str | None, str], _Sequence] = {}
        self.pending: tuple[int, int, int, bool, frozenset[str], int, int] | None = None
        self.is_stmt = True
        self.rows = 0
        self.units = 0
        # which unit a function's rows belong to: the unit whose DIEs name its `.Lfunc_begin`
        # (its subprogram's `DW_AT_high_pc`, `.long .Lfunc_endN-.Lfunc_beginN`, and in DWARF 4
        # its `DW_AT_low_pc`; the units of a piece share one `.debug_addr` table, so DWARF 5's
        # address indices would not tell)
        self.function: str | None = None
        self.function_end: dict[str, str] = {}
        self.unit_functions: list[set[str]] = []

    # ------------------------------------------------------------------ line by line

    def line(self, line: str) -> list[str]:
        """The lines that replace `line` in the linked text."""
        stripped = line.lstrip()
        if not stripped or stripped[0] == "#":
            return [line]
        if stripped.startswith(".file") and (m := _FILE.match(line)):
            self.files[int(m.group(1))] = parse_file(m.group(2))
            return []
        if stripped.startswith(".loc") and (m := _LOC.match(line)):
            out = self._row_here() if self.pending is not None else []
            self.pending = self._parse_loc(m)
            return out
        if stripped.startswith(".section"):
            m = _SECTION.match(line)
            self.section = m.group(1) if m else self.section
            self.enter = line
            if self.section in self.sections and self.section not in self.started:
                self.started.add(self.section)
                return [line, section_label(self.section) + ":"]
            return [line]
        if _BARE_SECTION.match(line):
            self.section, self.enter = "." + stripped.split()[0][1:], line
            return [line]
        if stripped.startswith(LINE_TABLE_LABEL) and _is_label(stripped):
            return []  # the table's start: `finish` defines one per unit instead
        if stripped.startswith((".Lfunc_begin", ".Lfunc_end")) and _is_label(stripped):
            self._label(stripped.split(":", 1)[0])
            return [line]
        if stripped.startswith((".ascii", ".asciz", ".string")):  # data: never rewritten inside
            return [*self._row_here(), line] if self.pending is not None else [line]
        if self.section == ".debug_info":
            if LINE_TABLE_LABEL in line:
                self.units += 1
                self.unit_functions.append(set())
                return [re.sub(re.escape(LINE_TABLE_LABEL) + r"\d+", self._table_label(self.units - 1), line)]
            if self.units and ".Lfunc_begin" in line:
                self.unit_functions[-1].update(_FUNC_BEGIN.findall(line))
        if ".debug_" in line:
            line = _SECTION_REF.sub(self._section_ref, line)
        if self.pending is not None and self._emits(stripped):
            return [*self._row_here(), line]
        return [line]

    def _label(self, name: str) -> None:
        if name.startswith(".Lfunc_begin"):
            self.function = name
        else:
            if self.function is not None:
                self.function_end[self.function] = name
            self.function = None

    def _emits(self, stripped: str) -> bool:
        if stripped[0] != ".":
            return not _is_label(stripped)
        return stripped.split(None, 1)[0] in _EMITTING

    def _parse_loc(self, m: re.Match[str]) -> tuple[int, int, int, bool, frozenset[str], int, int]:
        words = m.group(4).split()
        flags: set[str] = set()
        isa = discriminator = 0
        i = 0
        while i < len(words):
            word = words[i]
            if word in ("basic_block", "prologue_end", "epilogue_begin"):
                flags.add(word)
            elif word == "is_stmt" and i + 1 < len(words):
                self.is_stmt = words[i + 1] != "0"
                i += 1
            elif word == "isa" and i + 1 < len(words):
                isa = int(words[i + 1], 0)
                i += 1
            elif word == "discriminator" and i + 1 < len(words):
                discriminator = int(words[i + 1], 0)
                i += 1
            i += 1
        column = int(m.group(3)) if m.group(3) else 0
        return int(m.group(1)), int(m.group(2)), column, self.is_stmt, frozenset(flags), isa, discriminator

    def _row_here(self) -> list[str]:
        assert self.pending is not None
        file, line, column, is_stmt, flags, isa, discriminator = self.pending
        self.pending = None
        label = f".Lln{self.rows}"
        self.rows += 1
        key = self.enter.strip()
        if key not in self.sections_entered:
            self.sections_entered[key] = self.enter
            self.section_number[key] = len(self.section_number)
        sequence = self.sequences.get((self.function, key))
        if sequence is None:
            sequence = self.sequences[(self.function, key)] = _Sequence(self.section_number[key], self.function)
        sequence.rows.append(_Row(label, file, line, column, is_stmt, flags, isa, discriminator))
        return [label + ":"]

    def _table_label(self, unit: int) -> str:
        return f"{LINE_TABLE_LABEL}_u{unit}"

    def _section_ref(self, m: re.Match[str]) -> str:
        name = m.group(1)
        return section_label(name) if name in self.sections else name

    # ------------------------------------------------------------------ the piece's end

    def finish(self) -> list[str]:
        """Sequence-end labels in every section with rows, then one line table per unit: a
        function's rows are one sequence (ended at its `.Lfunc_end`) in its unit's table;
        rows outside functions go to the first unit, one sequence per section."""
        out: list[str] = []
        for n, enter in enumerate(self.sections_entered.values()):
            out += [enter, f".Llnend{n}:"]
        if self.units == 0:
            return out
        owner: dict[str, int] = {}
        for unit in reversed(range(self.units)):  # the first unit naming a function owns it
            owner.update(dict.fromkeys(self.unit_functions[unit], unit))
        per_unit: list[list[_Sequence]] = [[] for _ in range(self.units)]
        for sequence in self.sequences.values():
            per_unit[owner.get(sequence.function or "", 0)].append(sequence)
        out.append('\t.section\t.debug_line,"",@progbits')
        for unit in range(self.units):
            out += self._table(unit, per_unit[unit])
        return out

    def _table(self, unit: int, sequences: list[_Sequence]) -> list[str]:
        p = f".Llt{unit}_"
        out = [
            f"{self._table_label(unit)}:",
            f"\t.long\t{p}end-{p}start",
            f"{p}start:",
            f"\t.short\t{self.version}",
        ]
        if self.version >= 5:
            out += [f"\t.byte\t{self.address_size}", "\t.byte\t0"]  # address size, segment selector size
        out += [f"\t.long\t{p}header_end-{p}header_start", f"{p}header_start:", "\t.byte\t1"]  # min instruction length
        if self.version >= 4:
            out.append("\t.byte\t1")  # maximum operations per instruction
        out += ["\t.byte\t1", "\t.byte\t-5", "\t.byte\t14", f"\t.byte\t{len(_STANDARD_LENGTHS) + 1}"]
        out += [f"\t.byte\t{n}" for n in _STANDARD_LENGTHS]
        out += self._file_tables()
        out.append(f"{p}header_end:")
        for sequence in sequences:
            end = self.function_end.get(sequence.function or "") or f".Llnend{sequence.section}"
            out += _program(sequence.rows, end, self.address_size)
        out.append(f"{p}end:")
        return out

    def _file_tables(self) -> list[str]:
        if self.version >= 5:
            return self._file_tables_v5()
        out = []
        directories = [d for d in dict.fromkeys(f.directory for f in self.files.values()) if d]
        out += [f'\t.asciz\t"{d}"' for d in directories] + ["\t.byte\t0"]
        for number in range(1, max(self.files, default=0) + 1):
            f = self.files.get(number) or SourceFile("", "", None)
            index = directories.index(f.directory) + 1 if f.directory else 0
            out += [f'\t.asciz\t"{f.name}"', f"\t.uleb128\t{index}", "\t.byte\t0", "\t.byte\t0"]
        return [*out, "\t.byte\t0"]

    def _file_tables_v5(self) -> list[str]:
        files = dict(self.files)
        if 0 not in files and files:
            files[0] = files[min(files)]  # DWARF 5's file 0 is the unit's primary file
        count = max(files, default=-1) + 1
        entries = [files.get(n) or files.get(0) or SourceFile("", "", None) for n in range(count)]
        directories = list(dict.fromkeys([entries[0].directory if entries else "", *(f.directory for f in entries)]))
        with_md5 = bool(entries) and all(f.md5 for f in entries)
        out = ["\t.byte\t1", f"\t.uleb128\t{_LNCT_PATH}", f"\t.uleb128\t{_FORM_STRING}", f"\t.uleb128\t{len(directories)}"]
        out += [f'\t.asciz\t"{d}"' for d in directories]
        formats = [(_LNCT_PATH, _FORM_STRING), (_LNCT_DIRECTORY_INDEX, _FORM_UDATA)] + ([(_LNCT_MD5, _FORM_DATA16)] if with_md5 else [])
        out.append(f"\t.byte\t{len(formats)}")
        for content, form in formats:
            out += [f"\t.uleb128\t{content}", f"\t.uleb128\t{form}"]
        out.append(f"\t.uleb128\t{count}")
        for f in entries:
            out += [f'\t.asciz\t"{f.name}"', f"\t.uleb128\t{directories.index(f.directory)}"]
            if with_md5 and f.md5:
                out += [f"\t.byte\t{int(f.md5[i:i + 2], 16)}" for i in range(0, 32, 2)]
        return out


def _is_label(stripped: str) -> bool:
    return bool(re.match(r'^("[^"]*"|[A-Za-z_.$0-9][\w.$]*):', stripped))


def _uleb_size(value: int) -> int:
    size = 1
    while value >= 0x80:
        value >>= 7
        size += 1
    return size


def _program(rows: list[_Row], end_label: str, address_size: int) -> list[str]:
    """One sequence of the line program: the rows in order, ended at `end_label`."""
    address = ".quad" if address_size == 8 else ".long"
    out = ["\t.byte\t0", f"\t.uleb128\t{address_size + 1}", f"\t.byte\t{_LNE_SET_ADDRESS}", f"\t{address}\t{rows[0].label}"]
    file, line, column, is_stmt, isa = 1, 1, 0, True, 0
    previous = rows[0].label
    for row in rows:
        if row.label != previous:
            out += [f"\t.byte\t{_LNS_ADVANCE_PC}", f"\t.uleb128\t{row.label}-{previous}"]
            previous = row.label
        if row.file != file:
            out += [f"\t.byte\t{_LNS_SET_FILE}", f"\t.uleb128\t{row.file}"]
            file = row.file
        if row.column != column:
            out += [f"\t.byte\t{_LNS_SET_COLUMN}", f"\t.uleb128\t{row.column}"]
            column = row.column
        if row.line != line:
            out += [f"\t.byte\t{_LNS_ADVANCE_LINE}", f"\t.sleb128\t{row.line - line}"]
            line = row.line
        if row.discriminator:
            size = 1 + _uleb_size(row.discriminator)
            out += ["\t.byte\t0", f"\t.uleb128\t{size}", f"\t.byte\t{_LNE_SET_DISCRIMINATOR}", f"\t.uleb128\t{row.discriminator}"]
        if row.isa != isa:
            out += [f"\t.byte\t{_LNS_SET_ISA}", f"\t.uleb128\t{row.isa}"]
            isa = row.isa
        if row.is_stmt != is_stmt:
            out.append(f"\t.byte\t{_LNS_NEGATE_STMT}")
            is_stmt = row.is_stmt
        if "basic_block" in row.flags:
            out.append(f"\t.byte\t{_LNS_SET_BASIC_BLOCK}")
        if "prologue_end" in row.flags:
            out.append(f"\t.byte\t{_LNS_SET_PROLOGUE_END}")
        if "epilogue_begin" in row.flags:
            out.append(f"\t.byte\t{_LNS_SET_EPILOGUE_BEGIN}")
        out.append(f"\t.byte\t{_LNS_COPY}")
    out += [f"\t.byte\t{_LNS_ADVANCE_PC}", f"\t.uleb128\t{end_label}-{previous}"]
    return out + ["\t.byte\t0", "\t.uleb128\t1", f"\t.byte\t{_LNE_END_SEQUENCE}"]


def unit_header(asm: str) -> tuple[int, int]:
    """(DWARF version, address size) of a piece's compile units, from the first unit header
    (DWARF 5: version, unit type, address size; 2-4: version, abbreviation offset, address
    size: the size is the third field either way); (4, 8) when it has none."""
    m = _UNIT_HEADER.search(asm)
    return (int(m.group(1)), int(m.group(2), 0)) if m else (4, 8)
