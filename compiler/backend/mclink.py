"""MC-level link: join the pieces' assembly into ONE assembly text for the integrated assembler.

Local labels (`.LBB`, `.LCPI`, `.LJTI`, `.Ltmp`, `.Lfunc_end`, `GCC_except_table`, …)
are made unique per piece; symbols that were local in the input lose the
`.globl`/`.hidden` the split gave them (so nothing local leaks); formerly private
symbols become `.L` temporaries again; one copy of each legal duplicate directive is
kept, and one definition of each personality reference `DW.ref.<personality>` (codegen
emits one, a weak hidden comdat, in every piece whose functions use the personality);
pieces are joined in a stable order taken from the input module.
"""

from __future__ import annotations

import collections
import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from compiler.backend import mcdebug, names, tokens
from compiler.diagnostics import EmberError

_LOCAL_LABEL = re.compile(tokens.ASM_START + r"(\.L[\w.$]*|GCC_except_table[0-9]+)")
_BINDING = re.compile(r"^\s*\.(globl|global|weak|hidden|protected|internal)\s+(\S+)\s*$")
_SKIP = re.compile(r'^\s*(\.file\s|\.ident\s|\.addrsig|\.section\s+"?\.note\.GNU-stack)')
_STRING_DATA = re.compile(r"^\s*\.(ascii|asciz|string)\s")
_LABEL_DEF = re.compile('^("[^"]*"|' + tokens.ASM_SYMBOL + "):")
_SYMBOL_TOKEN = re.compile(tokens.ASM_START + tokens.ASM_SYMBOL)
_PLAIN_SYMBOL = re.compile(tokens.ASM_SYMBOL)


@dataclass(frozen=True)
class AsmPiece:
    """One piece's assembly and where it goes in the output order."""

    key: tuple[int, int, int]
    asm: str


def _unquote(sym: str) -> str:
    return sym[1:-1] if sym.startswith('"') else sym


def link(
    pieces: Sequence[AsmPiece],
    local_names: set[str],
    private_names: set[str],
    dead_when_unused: set[str] | None = None,
    alias_sizes: dict[str, int] | None = None,
    spellings: dict[str, str] | None = None,
) -> str:
    """One assembly text from many pieces (see the module docstring). Local variables in
    `dead_when_unused` that no piece references are dropped (`drop_unreferenced_data`);
    the aliases in `alias_sizes` get that `.size` (`set_alias_sizes`); the synthetic names
    in `spellings` get their own spelling back last (compiler/backend/names.py)."""
    out: list[str] = []
    defined_locals: dict[str, int] = {}
    dw_refs: set[str] = set()  # DW.ref.* defined by an earlier piece
    skip_data = False
    binding_seen: set[str] = set()
    first_file: str | None = None
    rename_private = {name: ".L" + name for name in private_names}
    # plain names are found by token lookup (one regex alternation of thousands of names
    # cost 15 s on SQLite); names that need quoting keep the slower exact match
    odd = [n for n in private_names if not _PLAIN_SYMBOL.fullmatch(n)]
    private_rx = (
        re.compile(tokens.ASM_START + "(?:" + "|".join(re.escape(n) for n in sorted(odd, key=len, reverse=True)) + ")" + tokens.ASM_END)
        if odd
        else None
    )
    plain_private = rename_private.keys() - set(odd)
    # the split's private names are synthetic (`__ember_n7`, names.py) or made by it
    # (`x.ember.2`, `__ember_unnamed_1_0`): a line without those marks names none of them,
    # which a substring test tells far faster than tokenising every line
    marks = ("__ember_", ".ember.")
    marked = all(any(m in n for m in marks) for n in plain_private)
    ordered = sorted(pieces, key=lambda p: p.key)
    for number, piece in enumerate(ordered):
        prefix = f".Lp{number}_"
        lines: Iterable[str] = piece.asm.splitlines()
        if mcdebug.has_debug_lines(piece.asm):  # its own line tables, debug sections (mcdebug.py)
            rewriter = mcdebug.PieceDebug(mcdebug.entered_debug_sections(piece.asm), *mcdebug.unit_header(piece.asm))
            lines = _rewritten(lines, rewriter)
        for line in lines:
            if _plain_number(line):
                out.append(line)  # plain data (most of a -g piece's DWARF): nothing to rename
                continue
            # directives start with '.', after indentation; only they and labels need the regexes
            directive = line.lstrip().startswith(".")
            if directive and _STRING_DATA.match(line):
                out.append(line)  # string contents are data: never rename inside them
                continue
            if directive and _SKIP.match(line):
                if first_file is None and line.lstrip().startswith(".file"):
                    first_file = line
                continue
            if skip_data and line.lstrip().startswith((".quad", ".xword")):
                skip_data = False
                continue  # the value of a repeated DW.ref definition
            if "DW.ref." in line and _repeated_dw_ref(line, dw_refs):
                skip_data = True
                continue
            if ".L" in line or "GCC_except_table" in line:
                line = _LOCAL_LABEL.sub(functools.partial(_unique_label, prefix), line)
            m = _BINDING.match(line) if directive else None
            if m:
                sym = _unquote(m.group(2))
                if sym in local_names:
                    continue  # restore the original local binding
                key = line.strip()
                if key in binding_seen:
                    continue
                binding_seen.add(key)
            label = _LABEL_DEF.match(line) if line[:1] not in ("\t", " ", "") else None
            if label:
                sym = _unquote(label.group(1))
                if sym in local_names:
                    if sym in defined_locals and defined_locals[sym] != number:
                        raise EmberError(f"MC link: local symbol '{sym}' is defined by two pieces")
                    defined_locals[sym] = number
            if (
                plain_private
                and (not marked or marks[0] in line or marks[1] in line)
                and not plain_private.isdisjoint(_SYMBOL_TOKEN.findall(line))
            ):
                line = _SYMBOL_TOKEN.sub(lambda s: rename_private.get(s.group(0), s.group(0)), line)
            if private_rx is not None and private_rx.search(line):
                line = private_rx.sub(lambda s: rename_private[s.group(0)], line)
            out.append(line)
    if dead_when_unused:
        out = drop_unreferenced_data(out, dead_when_unused & local_names)
    if alias_sizes:
        out = set_alias_sizes(out, alias_sizes)
    if spellings:
        out = [
            names.restore(line, spellings) if names.SYNTHETIC_PREFIX in line and not _STRING_DATA.match(line) else line
            for line in out
        ]
    header = [first_file] if first_file else []
    return "\n".join([*header, *out, '\t.section\t".note.GNU-stack","",@progbits', ""])


_TYPE_OBJECT = re.compile(r"^\s*\.type\s+(" + tokens.ASM_SYMBOL + r"),\s*[@%]object\s*$")  # AArch64 writes %object
_SIZE = re.compile(r"^\s*\.size\s+(" + tokens.ASM_SYMBOL + "),")
_SECTION_SWITCH = (".section", ".data", ".bss", ".text", ".rodata", ".previous", ".pushsection", ".popsection")


def drop_unreferenced_data(lines: list[str], candidates: set[str]) -> list[str]:
    """Drop the definitions of `candidates` (formerly local variables) that nothing else in
    `lines` names: what GlobalDCE does unsplit once the last use is optimised away. A local
    exported only while compiling keeps its definition, and the relocations of its
    initialiser (undefined symbols the serial object lacks), in its owner's piece, where
    the optimiser could not see that other subgraphs stopped using it. A definition's block
    runs from its `.type SYM,@object` to its `.size SYM`; section switches inside stay."""
    blocks: dict[str, list[int]] = {}
    current: str | None = None
    rows: list[int] = []
    for i, line in enumerate(lines):
        if current is None:
            m = _TYPE_OBJECT.match(line)
            if m and m.group(1) in candidates:
                current, rows = m.group(1), [i]
            continue
        stripped = line.lstrip()
        if stripped.startswith(_SECTION_SWITCH):
            continue
        label = _LABEL_DEF.match(line)
        if (label and _unquote(label.group(1)) != current) or _TYPE_OBJECT.match(line):
            current = None  # another symbol inside: not a plain block, keep it
            continue
        rows.append(i)
        size = _SIZE.match(line)
        if size and size.group(1) == current:
            blocks[current] = rows
            current = None
    if not blocks:
        return lines
    # a name is referenced when it occurs more often in all the text than in its own block
    # (one tokenising scan of the joined text: a line-by-line scan cost 0.4 s on duktape, and
    # one alternation of the names 1.2 s on SQLite's 246 against 0.3 s; block names are plain
    # symbols, so a whole token equal to one is exactly an occurrence)
    everywhere = collections.Counter(t for t in _SYMBOL_TOKEN.findall("\n".join(lines)) if t in blocks)
    own = collections.Counter(t for rows in blocks.values() for i in rows for t in _SYMBOL_TOKEN.findall(lines[i]) if t in blocks)
    dropped = {i for name, rows in blocks.items() if everywhere[name] == own[name] for i in rows}
    return [line for i, line in enumerate(lines) if i not in dropped] if dropped else lines


_ASSIGNMENT = re.compile(r"^\s*(" + tokens.ASM_SYMBOL + r")\s*=")


def set_alias_sizes(lines: list[str], sizes: dict[str, int]) -> list[str]:
    """Give each alias in `sizes` exactly that `.size`, right after its assignment (the
    size the serial AsmPrinter writes, or the base symbol's where it writes none:
    compiler/backend/globalmerge.py)."""
    out: list[str] = []
    for line in lines:
        size = _SIZE.match(line)
        if size and size.group(1) in sizes:
            continue
        out.append(line)
        assignment = _ASSIGNMENT.match(line)
        if assignment and assignment.group(1) in sizes:
            out.append(f"\t.size\t{assignment.group(1)}, {sizes[assignment.group(1)]}")
    return out


def _rewritten(lines: Iterable[str], rewriter: mcdebug.PieceDebug) -> Iterator[str]:
    """A piece's lines with its line-table directives turned into labels, then its tables."""
    for line in lines:
        if rewriter.pending is None and _plain_number(line):
            yield line  # plain data: no row is pending to take its address
        else:
            yield from rewriter.line(line)
    yield from rewriter.finish()


_NUMBER_DIRECTIVES = frozenset({".byte", ".short", ".hword", ".long", ".word", ".quad", ".xword", ".uleb128", ".sleb128"})


def _plain_number(line: str) -> bool:
    """`\t.byte\t12` and the like: a number, nothing a link renames (checked without a regex)."""
    if not line.startswith("\t."):
        return False
    parts = line.split("\t")
    return len(parts) == 3 and parts[1] in _NUMBER_DIRECTIVES and parts[2].lstrip("-").isdigit()


def _repeated_dw_ref(line: str, seen: set[str]) -> bool:
    """Whether `line` defines a `DW.ref.*` label an earlier piece defined (records new ones)."""
    label = _LABEL_DEF.match(line)
    if label is None or not _unquote(label.group(1)).startswith("DW.ref."):
        return False
    sym = _unquote(label.group(1))
    if sym in seen:
        return True
    seen.add(sym)
    return False


#: what `link` puts in front of a piece's local labels: `.Lp<piece>_` (`.LBB0_1` -> `.Lp3_BB0_1`)
UNIQUE_LABEL_PREFIX = re.compile(r"\.Lp\d+_")


def _unique_label(prefix: str, match: re.Match[str]) -> str:
    label = match.group(1)
    return prefix + (label[2:] if label.startswith(".L") else label)
