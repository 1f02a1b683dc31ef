"""Object link (`--link object`): merge the split's per-piece relocatable ELF64 objects into ONE
relocatable object whose symbol table is the serial build's.

The workers generate an object per codegen piece (`llvm_stage.emit_object`); nothing is
read back as text, so no name can be mistaken for an instruction, a register or a directive
(a symbol is a table row, its name bytes in `.strtab`). What the merge does, over the raw
tables (numpy; measured in docs/bench/objlink/REPORT.md):

- sections of the same name, type, flags and entsize (and group) are concatenated in piece
  order, each input padded to its alignment; one `.note.GNU-stack`, one `.comment` and
  one `.note.gnu.property`; `.llvm_addrsig` and `.llvm.call-graph-profile` are dropped
  (they list symbol indices);
- SHT_GROUP comdats: the first piece's group of each signature is kept, the other pieces'
  members dropped and their symbols bound to the kept definition (`DW.ref.<personality>`),
  their own local symbols (AArch64's `$d`/`$x` mapping symbols) dropped with them;
- symbols: one global per name, a definition winning over references; a name the module
  has as local that the split exported (hidden global in a piece) is local again, default
  visibility; a module local its owner kept local while other pieces declare it resolves
  their references to the owner's symbol; a private name that crossed pieces becomes a
  local `.L<name>` symbol (an assembler temporary, which symbol tables ignore; kept as a
  symbol rather than folded into a section-relative addend, which a GOT or TLS relocation
  would misread); an undefined module local or private that no relocation names is dropped
  (a declaration left by code the optimiser deleted); every synthetic name
  (compiler/backend/names.py) gets its module spelling back; the formerly local variables
  nothing uses any more are dropped (`ObjectNames.dead_when_unused`); the aliases in
  `ObjectNames.sizes` get that size, those in `ObjectNames.size_of` their base's
  (compiler/backend/globalmerge.py);
- relocations: offsets shifted by the input section's place, symbols remapped, addends of
  section-relative ones shifted (numpy, per relocation section).

Debug sections need nothing special: each piece's object has one line table per unit, and
concatenation with relocations is what `ld -r` does. Strings in SHF_MERGE sections are not
merged across pieces (the final link does), and PC-relative relocations between pieces stay
relocations (an assembler resolves those inside a section): the object is a
little larger, the linked program the same.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from compiler.backend import names
from compiler.diagnostics import EmberError, Location

SYM = np.dtype([("name", "<u4"), ("info", "u1"), ("other", "u1"), ("shndx", "<u2"), ("value", "<u8"), ("size", "<u8")])
RELA = np.dtype([("offset", "<u8"), ("info", "<u8"), ("addend", "<i8")])
_SHDR = struct.Struct("<IIQQQQIIQQ")
_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_NOBITS, SHT_REL, SHT_GROUP = 1, 2, 3, 4, 8, 9, 17
SHT_SYMTAB_SHNDX = 18
SHT_LLVM_ADDRSIG, SHT_LLVM_CALL_GRAPH_PROFILE = 0x6FFF4C03, 0x6FFF4C09
SHF_MERGE, SHF_INFO_LINK, SHF_LINK_ORDER, SHF_GROUP = 0x10, 0x40, 0x80, 0x200
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
STT_NOTYPE, STT_OBJECT, STT_SECTION, STT_FILE = 0, 1, 3, 4
SHN_UNDEF, SHN_LORESERVE, SHN_ABS, SHN_COMMON = 0, 0xFF00, 0xFFF1, 0xFFF2
EM_X86_64 = 62
#: x86-64 relocation types whose addend is the target less the bytes after the field
#: (PC32, PLT32, GOTPCREL, TLSGD, TLSLD, GOTTPOFF, PC64, GOTPCRELX, REX_GOTPCRELX)
_X86_PC_RELATIVE = np.array([2, 4, 9, 19, 20, 22, 24, 41, 42], dtype=np.uint64)
#: sections every piece repeats (the same module flags) that the output keeps once
_ONCE = (b".note.GNU-stack", b".comment", b".note.gnu.property")
_SYNTHETIC = names.SYNTHETIC_PREFIX.encode()
_DROPPED_TYPES = (SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_GROUP, SHT_LLVM_ADDRSIG, SHT_LLVM_CALL_GRAPH_PROFILE)


@dataclass(frozen=True)
class ObjectPiece:
    """One codegen piece's object and where it goes in the output order (`split._key`)."""

    key: tuple[int, int, int]
    obj: bytes

    @property
    def label(self) -> str:
        """How errors name the piece: its subgraph and its place there."""
        return f"<object of subgraph {self.key[1]} piece {self.key[2]}>"


@dataclass(frozen=True)
class ObjectNames:
    """What the merge needs to know of the whole build: the module's local names (bound
    local again), its private names (made `.L` temporaries), the formerly local variables
    dropped when nothing names them, the synthetic names' spellings, and explicit sizes
    (GlobalMerge's alias sizes: a size, or the size of another symbol, by name). The two flags
    are a harness's faults (fuzz/faults.py), True in every product build:
    `restore_bindings=False` leaves module locals and crossed privates global hidden, as the
    pieces exported them (references still resolve); and `shift_section_addends=False` maps
    section symbols without their input section's place."""

    local: frozenset[str] | set[str]
    private: frozenset[str] | set[str]
    dead_when_unused: frozenset[str] | set[str] = frozenset()
    spellings: dict[str, str] | None = None
    sizes: dict[str, int] = field(default_factory=dict)
    #: alias -> base: the alias gets the base's output size (written after `sizes`)
    size_of: dict[str, str] = field(default_factory=dict)
    restore_bindings: bool = True
    shift_section_addends: bool = True


class _Malformed(Exception):
    """A piece's object does not read as a relocatable ELF64 object (the reason)."""


def _cstr(buf: bytes, off: int) -> bytes:
    """The NUL-terminated string at `off` in a string table."""
    end = buf.find(b"\0", off)
    if off >= len(buf) or end < 0:
        raise _Malformed(f"string offset {off} outside its table")
    return buf[off:end]


class _Input:
    """One piece's object, its tables read in place (checked against the file's bounds)."""

    def __init__(self, piece: ObjectPiece) -> None:
        data = self.data = piece.obj
        if len(data) < _EHDR.size or data[:4] != b"\x7fELF":
            raise _Malformed("no ELF header")
        if data[4] != 2 or data[5] != 1:
            raise _Malformed("not a little-endian ELF64 object")
        header = _EHDR.unpack_from(data, 0)
        self.ident, etype, self.machine, self.flags = header[0], header[1], header[2], header[7]
        shoff, shentsize, shnum, shstrndx = header[6], header[11], header[12], header[13]
        if etype != 1:
            raise _Malformed(f"not a relocatable object (e_type {etype})")
        if shentsize != _SHDR.size or shnum == 0 or shoff + shnum * shentsize > len(data):
            raise _Malformed("section headers outside the file")
        self.sh = [_SHDR.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
        for i, s in enumerate(self.sh[1:], 1):
            if s[1] != SHT_NOBITS and s[4] + s[5] > len(data):
                raise _Malformed(f"section {i} outside the file")
            if s[1] in (SHT_REL, SHT_SYMTAB_SHNDX):
                raise _Malformed(f"section {i}: SHT_REL or SHT_SYMTAB_SHNDX (ELF64 x86-64/AArch64 pieces have neither)")
        shstr = self.body(shstrndx)
        self.names = [_cstr(shstr, s[0]) if i else b"" for i, s in enumerate(self.sh)]
        tables = [i for i, s in enumerate(self.sh) if s[1] == SHT_SYMTAB]
        if len(tables) != 1:
            raise _Malformed(f"{len(tables)} symbol tables")
        st = self.sh[tables[0]]
        if st[9] != SYM.itemsize or st[5] % SYM.itemsize or st[6] >= shnum:
            raise _Malformed("a bad symbol table header")
        self.syms = np.frombuffer(data, SYM, st[5] // SYM.itemsize, st[4])
        self.strtab = self.body(st[6])
        self.sym_names = [_cstr(self.strtab, n) for n in self.syms["name"].tolist()]
        # the columns as Python ints: the per-symbol passes read them one by one
        self.info: list[int] = self.syms["info"].tolist()
        self.other: list[int] = self.syms["other"].tolist()
        self.shndx: list[int] = self.syms["shndx"].tolist()
        self.value: list[int] = self.syms["value"].tolist()
        self.size: list[int] = self.syms["size"].tolist()
        bad = (self.syms["shndx"] >= shnum) & (self.syms["shndx"] < SHN_LORESERVE)
        if bad.any():
            raise _Malformed(f"symbol {int(np.argmax(bad))} in no section")
        self.relas: list[tuple[int, np.ndarray]] = []  # (the section relocated, its relocations)
        for s in self.sh:
            if s[1] == SHT_RELA:
                if s[9] != RELA.itemsize or s[5] % RELA.itemsize or not 0 < s[7] < shnum:
                    raise _Malformed("a bad relocation section header")
                r = np.frombuffer(data, RELA, s[5] // RELA.itemsize, s[4])
                if len(r) and int((r["info"] >> np.uint64(32)).max()) >= len(self.syms):
                    raise _Malformed("a relocation names no symbol")
                self.relas.append((s[7], r))

    def body(self, i: int) -> bytes:
        """Section `i`'s bytes (none for SHT_NOBITS)."""
        if not 0 <= i < len(self.sh):
            raise _Malformed(f"no section {i}")
        s = self.sh[i]
        return b"" if s[1] == SHT_NOBITS else self.data[s[4] : s[4] + s[5]]


def _read(pieces: Sequence[ObjectPiece]) -> list[_Input]:
    """Every piece's object read; one that is not a relocatable ELF64 object is one located line."""
    inputs = []
    for piece in pieces:
        try:
            inputs.append(_Input(piece))
        except (_Malformed, struct.error, ValueError) as exc:
            raise EmberError(f"object link: not a relocatable ELF64 object: {exc}", Location(piece.label)) from None
    if len({i.machine for i in inputs}) > 1:
        raise EmberError("object link: the pieces' objects are for different machines", Location(pieces[0].label))
    return inputs


class _OutSection:
    """An output section: the inputs' bytes concatenated, each at its alignment."""

    def __init__(self, name: bytes, header: tuple[int, ...], group: bytes | None, link: int) -> None:
        self.name, self.type, self.flags, self.entsize = name, header[1], header[2], header[9]
        self.group, self.link = group, link  # a comdat signature; the section a SHF_LINK_ORDER one follows
        self.chunks: list[bytes] = []
        self.size = 0
        self.align = 1
        self.relas: list[np.ndarray] = []

    def add(self, body: bytes, size: int, align: int) -> int:
        """Append one input section; its offset here."""
        align = max(align, 1)
        pad = -self.size % align
        if self.type != SHT_NOBITS:
            self.chunks.append(b"\0" * pad + body)
        self.size += pad
        at = self.size
        self.size += size
        self.align = max(self.align, align)
        return at


@dataclass
class _Layout:
    """Where every input section went: per input, section index -> (output section, offset),
    and the sections of comdat groups another piece already brought (dropped)."""

    out: list[_OutSection]
    placed: list[dict[int, tuple[int, int]]]
    dropped: list[set[int]]


def _groups(o: _Input, seen: set[bytes]) -> tuple[dict[int, bytes], set[int]]:
    """This input's kept comdat members (section -> signature) and the members of groups an
    earlier piece brought (dropped: the first copy of a comdat wins, as in a final link)."""
    kept: dict[int, bytes] = {}
    drop: set[int] = set()
    for i, s in enumerate(o.sh):
        if s[1] != SHT_GROUP:
            continue
        if s[7] >= len(o.syms):
            raise _Malformed(f"group {i} has no signature symbol")
        sig = o.sym_names[s[7]]
        members = [int(m) for m in np.frombuffer(o.body(i), "<u4")[1:]]
        if sig in seen:
            drop.update(members)
        else:
            seen.add(sig)
            kept.update(dict.fromkeys(members, sig))
        drop.add(i)
    return kept, drop


def _place(inputs: list[_Input]) -> _Layout:
    """Concatenate the inputs' sections (see the module doc); relocation, symbol, string and
    group sections are written anew."""
    layout = _Layout([], [], [])
    by_key: dict[tuple[object, ...], int] = {}
    seen: set[bytes] = set()
    for o in inputs:
        group_of, drop = _groups(o, seen)
        where: dict[int, tuple[int, int]] = {}
        for i, s in sorted(enumerate(o.sh), key=lambda e: bool(e[1][2] & SHF_LINK_ORDER)):
            if i == 0 or s[1] in _DROPPED_TYPES or i in drop:
                continue
            link = where[s[6]][0] if s[2] & SHF_LINK_ORDER and s[6] in where else -1
            key: tuple[object, ...] = (o.names[i], s[1], s[2], s[9], group_of.get(i), link)
            if o.names[i] in _ONCE:
                key = (o.names[i],)
            k = by_key.get(key)
            if k is None:
                k = by_key[key] = len(layout.out)
                layout.out.append(_OutSection(o.names[i], s, group_of.get(i), link))
            elif o.names[i] in _ONCE:
                where[i] = (k, 0)
                continue
            where[i] = (k, layout.out[k].add(o.body(i), s[5], s[8]))
        layout.placed.append(where)
        layout.dropped.append(drop)
    return layout


class _Symbols:
    """The output symbol table as it is built: locals (null, file, section symbols first),
    then globals by name."""

    def __init__(self, layout: _Layout, first: int, spellings: dict[str, str] | None, file: bytes | None) -> None:
        self.strtab = bytearray(b"\0")
        self._at: dict[bytes, int] = {}
        self.spellings = spellings
        self.first = first  # the output header index of output section 0
        self.locals: list[tuple[int, int, int, int, int, int]] = [(0, 0, 0, 0, 0, 0)]
        if file is not None:  # the file symbol precedes the other locals (gABI)
            self.local(file, STT_FILE, 0, SHN_ABS, 0, 0)
        self.section_sym = []
        for k in range(len(layout.out)):
            self.section_sym.append(len(self.locals))
            self.locals.append((0, STT_SECTION, 0, first + k, 0, 0))

    def spelled(self, raw: bytes) -> bytes:
        """`raw` as the module spells it (a synthetic name's spelling back)."""
        if self.spellings and _SYNTHETIC in raw:
            return names.original(raw.decode("utf-8", "surrogateescape"), self.spellings).encode("utf-8", "surrogateescape")
        return raw

    def find_local(self, raw: bytes) -> int | None:
        """The index of the first local symbol named `raw` (no section symbol), or None."""
        at = self._at.get(self.spelled(raw))
        if at is None:
            return None
        return next((i for i, row in enumerate(self.locals) if row[0] == at and row[1] & 0xF != STT_SECTION), None)

    def name(self, raw: bytes) -> int:
        """`raw`'s offset in the output string table, spelled as the module spells it."""
        raw = self.spelled(raw)
        at = self._at.get(raw)
        if at is None:
            at = self._at[raw] = len(self.strtab)
            self.strtab += raw + b"\0"
        return at

    def local(self, raw: bytes, info: int, other: int, shndx: int, value: int, size: int) -> int:
        """Add a local symbol; its index."""
        self.locals.append((self.name(raw), (STB_LOCAL << 4) | (info & 0xF), other, shndx, value, size))
        return len(self.locals) - 1


@dataclass
class _Global:
    """One global name: the row that wins (a definition over references) and its inputs."""

    row: tuple[int, int, int, int, int] | None = None  # info, other, output shndx, value, size
    defined: bool = False
    where: tuple[int, int] | None = None  # (input, symbol) of the definition
    #: a crossed private name's output `.L` symbol
    private_index: int | None = None


def _defined(shndx: int) -> bool:
    return shndx != SHN_UNDEF and shndx < SHN_LORESERVE


def _dead_variables(inputs: list[_Input], layout: _Layout, candidates: set[bytes]) -> set[tuple[int, int]]:
    """The definitions (input, symbol) of the candidates (formerly local variables the serial
    optimiser deletes once unused) that no relocation outside their own bytes reaches: by
    name, or, where the owner kept one local, section-relative into its bytes (a PC-relative
    x86-64 field is counted as reaching anything 4 to 8 bytes past its addend). One pass, no
    chains."""
    if not candidates:
        return set()
    defs: dict[bytes, tuple[int, int]] = {}
    for oi, o in enumerate(inputs):
        for j, raw in enumerate(o.sym_names):
            if raw in candidates and _defined(o.shndx[j]) and o.shndx[j] not in layout.dropped[oi]:
                defs[raw] = (oi, j)
    if not defs:
        return set()
    used: set[bytes] = set()
    for oi, o in enumerate(inputs):
        here = {j: raw for j, raw in enumerate(o.sym_names) if raw in defs}
        own_section = {j: o.shndx[j] for j in here}
        for target, r in o.relas:
            if target in layout.dropped[oi] or not len(r):
                continue
            symi = (r["info"] >> np.uint64(32)).astype(np.int64)
            for found in (np.unique(symi[np.isin(symi, list(here))]) if here else ()):
                j = int(found)
                raw = here[j]
                outside = symi == j
                if defs[raw] == (oi, j) and own_section[j] == target:
                    start, size = o.value[j], o.size[j]
                    outside &= (r["offset"] < start) | (r["offset"] >= start + size)
                if outside.any():
                    used.add(raw)
            used |= _section_relative_uses(o, oi, defs, target, r, symi)
    return {defs[n] for n in defs if n not in used}


def _section_relative_uses(
    o: _Input, oi: int, defs: dict[bytes, tuple[int, int]], target: int, r: np.ndarray, symi: np.ndarray
) -> set[bytes]:
    """The candidates defined local in `o` that relocations of section `target` reach through
    their section's symbol (the assembler folds a local symbol into section + offset)."""
    found: set[bytes] = set()
    mine = [(raw, j) for raw, (di, j) in defs.items() if di == oi and o.info[j] >> 4 == STB_LOCAL]
    if not mine:
        return found
    section_syms = {o.shndx[j]: j for j in range(len(o.syms)) if o.info[j] & 0xF == STT_SECTION}
    pc = np.isin(r["info"] & np.uint64(0xFFFFFFFF), _X86_PC_RELATIVE) if o.machine == EM_X86_64 else np.zeros(len(r), bool)
    low = r["addend"] + np.where(pc, 4, 0)
    high = r["addend"] + np.where(pc, 8, 0)
    for raw, j in mine:
        shndx = o.shndx[j]
        if shndx not in section_syms:
            continue
        start, size = o.value[j], max(o.size[j], 1)
        reach = (symi == section_syms[shndx]) & (high >= start) & (low < start + size)
        if target == shndx:
            reach &= (r["offset"] < start) | (r["offset"] >= start + o.size[j])
        if reach.any():
            found.add(raw)
    return found


def _referenced(inputs: list[_Input], layout: _Layout, dead: set[tuple[int, int]]) -> tuple[set[bytes], set[bytes]]:
    """The names some kept relocation uses, and those only the relocations of a dropped
    variable's bytes used (its initialiser's references go with it)."""
    used: set[bytes] = set()
    dropped_only: set[bytes] = set()
    for oi, o in enumerate(inputs):
        for target, r in o.relas:
            if target in layout.dropped[oi] or not len(r):
                continue
            keep = _outside_dead(o, oi, target, r, dead)
            symi = r["info"] >> np.uint64(32)
            used.update(o.sym_names[int(j)] for j in np.unique(symi[keep]))
            dropped_only.update(o.sym_names[int(j)] for j in np.unique(symi[~keep]))
    return used, dropped_only - used


def _outside_dead(o: _Input, oi: int, target: int, r: np.ndarray, dead: set[tuple[int, int]]) -> np.ndarray:
    """Which relocations of section `target` lie outside the bytes of the dropped variables."""
    keep = np.ones(len(r), dtype=bool)
    for di, j in dead:
        if di == oi and o.shndx[j] == target:
            start = o.value[j]
            keep &= (r["offset"] < start) | (r["offset"] >= start + o.size[j])
    return keep


def merge(pieces: Sequence[ObjectPiece], link_names: ObjectNames) -> bytes:
    """ONE relocatable ELF64 object from the pieces' objects (in their `key` order), with the
    serial build's symbol table (see the module doc)."""
    ordered = sorted(pieces, key=lambda p: p.key)
    if not ordered:
        raise EmberError("object link: no pieces")
    inputs = _read(ordered)
    try:
        return _merge(inputs, link_names)
    except (_Malformed, KeyError, IndexError, ValueError, struct.error) as exc:
        raise EmberError(f"object link: a malformed piece object ({type(exc).__name__}: {exc})", Location(ordered[0].label)) from None


def _merge(inputs: list[_Input], link_names: ObjectNames) -> bytes:
    """`merge` on objects already read."""
    layout = _place(inputs)
    groups = sorted({s.group for s in layout.out if s.group is not None})
    first = 1 + len(groups)  # header index of output section 0 (groups precede their members)
    file_syms = [o.sym_names[j] for o in inputs for j in range(len(o.syms)) if o.info[j] & 0xF == STT_FILE]
    symbols = _Symbols(layout, first, link_names.spellings, file_syms[0] if file_syms else None)
    local = {n.encode("utf-8", "surrogateescape") for n in link_names.local}
    private = {n.encode("utf-8", "surrogateescape") for n in link_names.private}
    dead = _dead_variables(inputs, layout, {n.encode("utf-8", "surrogateescape") for n in link_names.dead_when_unused} & local)
    maps, globals_, local_def = _input_symbols(inputs, layout, symbols, local, private, dead, groups, link_names)
    final = _final_symbols(inputs, layout, symbols, globals_, local_def, local, private, dead, link_names.restore_bindings)
    sizes = {k.encode("utf-8", "surrogateescape"): v for k, v in link_names.sizes.items()}
    table = _symbol_array(symbols, final, globals_, sizes)
    _copy_sizes(table, symbols, final, link_names.size_of)
    _relocate(inputs, layout, maps, final, dead)
    # a piece with a GNU extension (an IFUNC, a unique symbol) says ELFOSABI_GNU: so does the merge
    ident = max((o.ident for o in inputs), key=lambda i: i[7])
    return _write(inputs[0], ident, layout, groups, symbols, table, final)


#: per input symbol: ("l", output index, addend delta) for a fixed output symbol, ("g", name)
#: for a global resolved at the end, or None (not in the output; no kept relocation names it)
_Ref = tuple[str, int, int] | tuple[str, bytes] | None


def _input_symbols(
    inputs: list[_Input], layout: _Layout, symbols: _Symbols, local: set[bytes], private: set[bytes],
    dead: set[tuple[int, int]], groups: list[bytes], flags: ObjectNames,
) -> tuple[list[list[_Ref]], dict[bytes, _Global], dict[bytes, int]]:
    """Every input symbol mapped (`_Ref`), the global names with their winning rows, and the
    module locals some owner kept local (name -> output index). A local signature symbol of
    a comdat group (defined in the group section, as LLVM writes one for a comdat no symbol
    is named after) is written once, in the output's group section of that signature."""
    maps: list[list[_Ref]] = []
    globals_: dict[bytes, _Global] = {}
    local_def: dict[bytes, int] = {}
    signatures: dict[bytes, int] = {}
    for oi, o in enumerate(inputs):
        m: list[_Ref] = [None] * len(o.syms)
        where = layout.placed[oi]
        for j in range(1, len(o.syms)):
            info, other = o.info[j], o.other[j]
            typ, bind, sh = info & 0xF, info >> 4, o.shndx[j]
            value, size, raw = o.value[j], o.size[j], o.sym_names[j]
            if typ == STT_FILE or (oi, j) in dead:
                continue
            if bind == STB_LOCAL and _defined(sh) and sh < len(o.sh) and o.sh[sh][1] == SHT_GROUP and raw in groups:
                if raw not in signatures:
                    signatures[raw] = symbols.local(raw, info, other, 1 + groups.index(raw), value, size)
                m[j] = ("l", signatures[raw], 0)
                continue
            if sh in layout.dropped[oi]:
                if bind == STB_LOCAL and typ != STT_SECTION:
                    continue  # a losing comdat member's own locals (AArch64's `$d`/`$x`) go with it
                sh = SHN_UNDEF  # a losing comdat member: refer to the kept one
            if _defined(sh) and sh not in where:
                raise _Malformed(f"symbol {raw!r} in a section that is not placed")
            out_sh, out_value = (symbols.first + where[sh][0], value + where[sh][1]) if _defined(sh) else (sh, value)
            if typ == STT_SECTION:
                if sh in where:
                    m[j] = ("l", symbols.section_sym[where[sh][0]], where[sh][1] if flags.shift_section_addends else 0)
                continue
            if bind == STB_LOCAL:
                if raw in local and _defined(sh):
                    if raw in local_def:
                        raise EmberError(f"object link: local symbol '{raw.decode(errors='replace')}' is defined by two pieces")
                    local_def[raw] = len(symbols.locals)
                m[j] = ("l", symbols.local(raw, info, other, out_sh, out_value, size), 0)
                continue
            if raw in private and _defined(sh) and flags.restore_bindings:
                # an assembler temporary again; a symbol (not section + addend) suits every relocation type
                index = symbols.local(b".L" + raw, info, 0, out_sh, out_value, size)
                m[j] = ("l", index, 0)
                entry = globals_.setdefault(raw, _Global())
                entry.row, entry.defined, entry.where, entry.private_index = (info, 0, out_sh, out_value, size), True, (oi, j), index
                continue
            _add_global(globals_.setdefault(raw, _Global()), raw, (info, other, out_sh, out_value, size), (oi, j))
            m[j] = ("g", raw)
        maps.append(m)
    return maps, globals_, local_def


def _add_global(entry: _Global, raw: bytes, row: tuple[int, int, int, int, int], where: tuple[int, int]) -> None:
    """Count one piece's row of a global name: a definition wins over references, a strong
    definition over a weak or common one; two strong definitions are the split's bug."""
    defined = row[2] != SHN_UNDEF
    if not defined:
        if entry.row is None:
            entry.row = row
        return
    strong = row[0] >> 4 == STB_GLOBAL and row[2] != SHN_COMMON
    if entry.defined:
        held_strong = entry.row is not None and entry.row[0] >> 4 == STB_GLOBAL and entry.row[2] != SHN_COMMON
        if strong and held_strong:
            raise EmberError(f"object link: symbol '{raw.decode(errors='replace')}' is defined by two pieces")
        if not strong or held_strong:
            return
    entry.row, entry.defined, entry.where = row, True, where


def _final_symbols(
    inputs: list[_Input], layout: _Layout, symbols: _Symbols, globals_: dict[bytes, _Global], local_def: dict[bytes, int],
    local: set[bytes], private: set[bytes], dead: set[tuple[int, int]], restore_bindings: bool = True,
) -> dict[bytes, int | None]:
    """Each global name's output index (None: dropped): module locals bound local, privates
    their `.L` symbol, undefined locals and privates nothing names dropped, and undefined
    names only a dropped variable named; the remaining globals are numbered after the locals."""
    used, dropped_only = _referenced(inputs, layout, dead)
    final: dict[bytes, int | None] = {}
    rest: list[bytes] = []
    for raw, entry in globals_.items():
        if entry.private_index is not None:
            final[raw] = entry.private_index
        elif raw in local_def and not entry.defined:
            final[raw] = local_def[raw]
        elif raw in local and entry.defined and entry.row is not None and restore_bindings:
            info, other, sh, value, size = entry.row
            final[raw] = symbols.local(raw, info, other & ~3, sh, value, size)
        elif not entry.defined and raw not in used and (raw in local or raw in private or raw in dropped_only):
            final[raw] = None
        else:
            rest.append(raw)
    for n, raw in enumerate(rest):
        final[raw] = len(symbols.locals) + n
    for raw, index in local_def.items():
        final.setdefault(raw, index)  # named for explicit sizes and group signatures
    return final


def _symbol_array(
    symbols: _Symbols, final: dict[bytes, int | None], globals_: dict[bytes, _Global], sizes: dict[bytes, int]
) -> np.ndarray:
    """The output symbol table: the locals, then the globals in `final`'s numbering, with
    the explicit `sizes` written over theirs."""
    rows = list(symbols.locals)
    glob = sorted((i, raw) for raw, i in final.items() if i is not None and i >= len(symbols.locals))
    for _i, raw in glob:
        row = globals_[raw].row
        assert row is not None
        info, other, sh, value, size = row
        rows.append((symbols.name(raw), info, other, sh, value, size))
    table = np.array(rows, dtype=SYM)
    for raw, size in sizes.items():
        i = final.get(raw)
        if i is not None and _defined(int(table["shndx"][i])):
            table["size"][i] = size
    return table


def _copy_sizes(table: np.ndarray, symbols: _Symbols, final: dict[bytes, int | None], size_of: dict[str, str]) -> None:
    """Each alias in `size_of` gets its base's output size (both defined here); the base's
    index from `final`, or by name among the locals (a local its owner kept local)."""
    for alias, base in size_of.items():
        a, b = alias.encode("utf-8", "surrogateescape"), base.encode("utf-8", "surrogateescape")
        i = final.get(a)
        j = final.get(b)
        if j is None:
            j = symbols.find_local(b)
        if i is not None and j is not None and _defined(int(table["shndx"][i])) and _defined(int(table["shndx"][j])):
            table["size"][i] = table["size"][j]


def data_symbols(pieces: Sequence[ObjectPiece]) -> dict[str, tuple[str, int]]:
    """The data the pieces' objects define, by symbol name: its section's name and its size
    (defined STT_OBJECT and untyped symbols; the first piece's, in `key` order, where two
    define one name). What GlobalMerge's decision reads of the split's code after
    optimisation (compiler/backend/globalmerge.py)."""
    out: dict[str, tuple[str, int]] = {}
    for o in _read(sorted(pieces, key=lambda p: p.key)):
        for j in range(1, len(o.syms)):
            sh = o.shndx[j]
            if o.info[j] & 0xF in (STT_OBJECT, STT_NOTYPE) and _defined(sh) and sh < len(o.sh):
                name = o.sym_names[j].decode("utf-8", "surrogateescape")
                out.setdefault(name, (o.names[sh].decode("utf-8", "surrogateescape"), o.size[j]))
    return out


def _relocate(
    inputs: list[_Input], layout: _Layout, maps: list[list[_Ref]], final: dict[bytes, int | None], dead: set[tuple[int, int]]
) -> None:
    """Each kept relocation section's relocations moved to their output section: offsets
    shifted, symbols renumbered, section-relative addends shifted; the relocations inside a
    dropped variable's bytes go with it."""
    for oi, o in enumerate(inputs):
        resolved = np.full(len(o.syms), -1, dtype=np.int64)
        extra = np.zeros(len(o.syms), dtype=np.int64)
        for j, ref in enumerate(maps[oi]):
            if ref is None:
                continue
            if ref[0] == "g":
                assert isinstance(ref[1], bytes)
                index = final.get(ref[1])
                if index is not None:
                    resolved[j] = index
            else:
                resolved[j], extra[j] = ref[1], ref[2]  # type: ignore[misc]
        resolved[0] = 0
        for target, r in o.relas:
            if target in layout.dropped[oi]:
                continue
            if target not in layout.placed[oi]:
                raise _Malformed(f"relocations for section {target}, which is not placed")
            r = r[_outside_dead(o, oi, target, r, dead)].copy()
            symi = (r["info"] >> np.uint64(32)).astype(np.int64)
            if (resolved[symi] < 0).any():
                bad = o.sym_names[int(symi[np.argmax(resolved[symi] < 0)])]
                raise EmberError(f"object link: a relocation names '{bad.decode(errors='replace')}', which the link dropped")
            k, at = layout.placed[oi][target]
            r["offset"] += np.uint64(at)
            r["addend"] += extra[symi]
            r["info"] = (resolved[symi].astype(np.uint64) << np.uint64(32)) | (r["info"] & np.uint64(0xFFFFFFFF))
            layout.out[k].relas.append(r)


def _signature(sig: bytes, symbols: _Symbols, final: dict[bytes, int | None]) -> int:
    """The output index of a group's signature symbol (a global, or a local by its name)."""
    index = final.get(sig)
    if index is not None:
        return index
    at = symbols.name(sig)
    found = next((i for i, row in enumerate(symbols.locals) if row[0] == at and row[1] & 0xF != STT_SECTION), None)
    if found is None:
        raise _Malformed(f"group signature {sig!r} names no symbol")
    return found


def _write(
    head: _Input, ident: bytes, layout: _Layout, groups: list[bytes], symbols: _Symbols, table: np.ndarray, final: dict[bytes, int | None]
) -> bytes:
    """The output object: header, groups, sections, their relocations, symbol and string tables."""
    shstr = bytearray(b"\0")

    def shname(raw: bytes) -> int:
        shstr.extend(raw + b"\0")
        return len(shstr) - len(raw) - 1

    out = layout.out
    n_rela = sum(1 for s in out if s.relas)
    symtab_index = 1 + len(groups) + len(out) + n_rela
    if symtab_index + 3 >= SHN_LORESERVE:
        raise EmberError(f"object link: {symtab_index + 3} sections, more than ELF numbers without an extension")
    first_global = len(symbols.locals)
    headers: list[list[int]] = [[0] * 10]
    blobs: list[bytes] = [b""]
    for sig in groups:
        members = [1 + len(groups) + k for k, s in enumerate(out) if s.group == sig]
        members += [1 + len(groups) + len(out) + n for n, k in enumerate(k for k, s in enumerate(out) if s.relas)
                    if out[k].group == sig]
        grp = np.array([1, *members], dtype="<u4").tobytes()  # GRP_COMDAT
        headers.append([shname(b".group"), SHT_GROUP, 0, 0, 0, len(grp), symtab_index, _signature(sig, symbols, final), 4, 4])
        blobs.append(grp)
    for s in out:
        link = 1 + len(groups) + s.link if s.link >= 0 else 0
        headers.append([shname(s.name), s.type, s.flags, 0, 0, s.size, link, 0, s.align, s.entsize])
        blobs.append(b"".join(s.chunks) if s.type != SHT_NOBITS else b"")
    for k, s in enumerate(out):
        if s.relas:
            r = np.concatenate(s.relas)
            flags = SHF_INFO_LINK | (s.flags & SHF_GROUP)
            target = 1 + len(groups) + k
            headers.append([shname(b".rela" + s.name), SHT_RELA, flags, 0, 0, r.nbytes, symtab_index, target, 8, RELA.itemsize])
            blobs.append(r.tobytes())
    headers.append([shname(b".symtab"), SHT_SYMTAB, 0, 0, 0, table.nbytes, symtab_index + 1, first_global, 8, SYM.itemsize])
    blobs.append(table.tobytes())
    headers.append([shname(b".strtab"), SHT_STRTAB, 0, 0, 0, len(symbols.strtab), 0, 0, 1, 0])
    blobs.append(bytes(symbols.strtab))
    shstr_index = len(headers)
    headers.append([shname(b".shstrtab"), SHT_STRTAB, 0, 0, 0, 0, 0, 0, 1, 0])
    headers[-1][5] = len(shstr)
    blobs.append(bytes(shstr))
    body = bytearray(_EHDR.size)
    for h, blob in zip(headers[1:], blobs[1:], strict=True):
        body.extend(b"\0" * (-len(body) % max(h[8], 1)))
        h[4] = len(body)
        body.extend(blob)
    body.extend(b"\0" * (-len(body) % 8))
    shoff = len(body)
    for h in headers:
        body.extend(_SHDR.pack(*h))
    _EHDR.pack_into(body, 0, ident, 1, head.machine, 1, 0, 0, shoff, head.flags, _EHDR.size, 0, 0, _SHDR.size, len(headers), shstr_index)
    return bytes(body)
