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
from collections.abc import Sequence
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


@dataclass(frozen=True)
class LinkNames:
    """What linking one piece needs to know of the whole build: the names that were local
    (their `.globl`/`.hidden` dropped), private (made `.L` temporaries again), the formerly
    local variables dropped when nothing names them, and the synthetic names' spellings."""

    local: frozenset[str] | set[str]
    private: frozenset[str] | set[str]
    dead_when_unused: frozenset[str] | set[str] = frozenset()
    spellings: dict[str, str] | None = None


#: what a part of a linked piece is, when the join may drop it: ("bind", line) a binding
#: directive, ("dw", symbol) a `DW.ref` definition, ("data", symbol) an unreferenced variable
Tag = tuple[str, str] | None


@dataclass
class LinkedPiece:
    """One piece after its own share of the link (`link_piece`, in the worker that made it):
    its text in parts, the parts the join may drop tagged (`Tag`), and what the join checks
    across pieces."""

    key: tuple[int, int, int]
    parts: list[tuple[Tag, str]]
    first_file: str | None
    #: the formerly local symbols it defines (two pieces must not)
    defined_locals: list[str]
    #: per dead-when-unused candidate: its occurrences here, and inside its own definition here
    mentions: dict[str, int]
    own: dict[str, int]


def link(
    pieces: Sequence[AsmPiece],
    local_names: set[str],
    private_names: set[str],
    dead_when_unused: set[str] | None = None,
    alias_sizes: dict[str, int] | None = None,
    spellings: dict[str, str] | None = None,
) -> str:
    """One assembly text from many pieces (see the module docstring): `link_piece` on each,
    then `join`. Local variables in `dead_when_unused` that no piece references are dropped;
    the aliases in `alias_sizes` get that `.size` (`set_alias_sizes`); the synthetic names
    in `spellings` get their own spelling back last (compiler/backend/names.py)."""
    link_names = LinkNames(
        local_names, private_names, (dead_when_unused or set()) & local_names, None if alias_sizes else spellings
    )
    idents = [piece_ident(p.key) for p in pieces]
    if len(set(idents)) != len(idents):
        raise ValueError("MC link: two pieces with the same subgraph and place (their labels would collide)")
    text = join([link_piece(p, ident, link_names) for p, ident in zip(pieces, idents, strict=True)])
    if alias_sizes:
        out = set_alias_sizes(text.split("\n"), alias_sizes)
        if spellings:
            out = [names_restore(line, spellings) for line in out]
        text = "\n".join(out)
    return text


def names_restore(line: str, spellings: dict[str, str]) -> str:
    """`line` with the synthetic names in it spelled back (string data is left alone)."""
    if names.SYNTHETIC_PREFIX in line and not _STRING_DATA.match(line):
        return names.restore(line, spellings)
    return line


def piece_ident(key: tuple[int, int, int]) -> str:
    """What names a piece in its unique labels (`.Lp<ident>_`): its subgraph and its place
    there, which its worker knows as well as the driver (`3_0`)."""
    return f"{key[1]}_{key[2]}"


def join(pieces: Sequence[LinkedPiece]) -> str:
    """The linked pieces in their order as one text: one `.file`, one copy of each binding
    directive and `DW.ref` definition, the candidates no piece references dropped."""
    ordered = sorted(pieces, key=lambda p: p.key)
    defined: dict[str, int] = {}
    for number, piece in enumerate(ordered):
        for sym in piece.defined_locals:
            if defined.setdefault(sym, number) != number:
                raise EmberError(f"MC link: local symbol '{sym}' is defined by two pieces")
    mentions: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    for piece in ordered:
        mentions.update(piece.mentions)
        own.update(piece.own)
    # a name is referenced when it occurs more often in all the text than in its own block
    dropped = {name for name in own if mentions[name] == own[name]}
    seen: set[tuple[str, str]] = set()
    out: list[str] = []
    first_file = next((p.first_file for p in ordered if p.first_file), None)
    if first_file:
        out.append(first_file)
    for piece in ordered:
        for tag, text in piece.parts:
            if tag is not None:
                if tag[0] == "data":
                    if tag[1] in dropped:
                        continue
                elif tag in seen:
                    continue  # a later copy of a binding directive or DW.ref definition
                else:
                    seen.add(tag)
            out.append(text)
    out.append('\t.section\t".note.GNU-stack","",@progbits')
    out.append("")
    return "\n".join(out)


def link_piece(piece: AsmPiece, ident: str, names_: LinkNames) -> LinkedPiece:
    """A piece's own share of the link, which needs no other piece: its local labels made
    unique (`.Lp<ident>_`), local symbols' bindings dropped, private names made `.L`
    temporaries, its line tables rewritten (mcdebug.py), the definitions of dead-when-unused
    candidates and the directives the join keeps once tagged, synthetic names spelled back."""
    local_names, private_names = names_.local, names_.private
    out: list[str] = []
    tags: list[Tag] = []
    defined_locals: list[str] = []
    binding_seen: set[str] = set()
    first_file: str | None = None
    dw_value: tuple[str, str] | None = None  # the DW.ref label just seen: its value line follows
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
    prefix = f".Lp{ident}_"
    rewriter = None
    if mcdebug.has_debug_lines(piece.asm):  # its own line tables, debug sections (mcdebug.py)
        rewriter = mcdebug.PieceDebug(mcdebug.entered_debug_sections(piece.asm), *mcdebug.unit_header(piece.asm))
    # most lines of a piece are instructions and numbers that name nothing the link renames:
    # told apart by substring tests (as the loop below would pass them through unchanged)
    # at a tenth of the loop's cost per line (rust-regex: 322,000 lines a piece)
    inert = private_rx is None and (marked or not plain_private)
    unique_label = functools.partial(_unique_label, prefix)

    def link_line(line: str) -> None:
        nonlocal first_file, dw_value
        if _plain_number(line):
            out.append(line)  # plain data (most of a -g piece's DWARF): nothing to rename
            tags.append(None)
            return
        tag: Tag = None
        # directives start with '.', after indentation; only they and labels need the regexes
        directive = line.lstrip().startswith(".")
        if directive and _STRING_DATA.match(line):
            out.append(line)  # string contents are data: never rename inside them
            tags.append(None)
            return
        if directive and _SKIP.match(line):
            if first_file is None and line.lstrip().startswith(".file"):
                first_file = line
            return
        if dw_value is not None:
            if line.lstrip().startswith((".quad", ".xword")):
                out.append(line)  # the value of a DW.ref definition goes with its label
                tags.append(dw_value)
                dw_value = None
                return
            dw_value = None
        if "DW.ref." in line:
            dw_label = _LABEL_DEF.match(line)
            if dw_label is not None and _unquote(dw_label.group(1)).startswith("DW.ref."):
                dw_value = tag = ("dw", _unquote(dw_label.group(1)))
        if ".L" in line or "GCC_except_table" in line:
            line = _LOCAL_LABEL.sub(unique_label, line)
        m = _BINDING.match(line) if directive else None
        if m:
            sym = _unquote(m.group(2))
            if sym in local_names:
                return  # restore the original local binding
            key = line.strip()
            if key in binding_seen:
                return
            binding_seen.add(key)
            tag = ("bind", key)
        label = _LABEL_DEF.match(line) if line[:1] not in ("\t", " ", "") else None
        if label:
            sym = _unquote(label.group(1))
            if sym in local_names and sym not in defined_locals:
                defined_locals.append(sym)
        if (
            plain_private
            and (not marked or marks[0] in line or marks[1] in line)
            and not plain_private.isdisjoint(_SYMBOL_TOKEN.findall(line))
        ):
            line = _SYMBOL_TOKEN.sub(lambda s: rename_private.get(s.group(0), s.group(0)), line)
        if private_rx is not None and private_rx.search(line):
            line = private_rx.sub(lambda s: rename_private[s.group(0)], line)
        out.append(line)
        tags.append(tag)

    def take(line: str, quick: str) -> None:
        if quick is _INERT and inert and dw_value is None:
            out.append(line)
            tags.append(None)
        elif quick is _LABELS_ONLY and inert and dw_value is None:
            out.append(_LOCAL_LABEL.sub(unique_label, line))
            tags.append(None)
        else:
            link_line(line)

    for line in piece.asm.splitlines():
        quick = _quick(line)
        # the debug rewriter passes a line through when no row is pending for it to take
        if rewriter is not None and (rewriter.pending is not None or (quick is _SLOW and not _plain_number(line))):
            for rewritten in rewriter.line(line):
                take(rewritten, _quick(rewritten))
        else:
            take(line, quick)
    if rewriter is not None:
        for rewritten in rewriter.finish():
            take(rewritten, _quick(rewritten))
    blocks, mentions, own = _variable_uses(out, names_.dead_when_unused)
    for name, rows in blocks.items():
        for i in rows:
            tags[i] = ("data", name)
    spellings = names_.spellings
    if spellings:
        out = [names_restore(line, spellings) for line in out]
    return LinkedPiece(piece.key, _parts(out, tags), first_file, defined_locals, mentions, own)


def _parts(lines: list[str], tags: list[Tag]) -> list[tuple[Tag, str]]:
    """Consecutive lines with the same tag as one part (untagged runs, mostly: one part)."""
    parts: list[tuple[Tag, str]] = []
    start = 0
    for i in range(1, len(lines) + 1):
        tag = tags[i] if i < len(lines) else None
        if i == len(lines) or tag != tags[start] or (tag is not None and tag[0] == "bind"):
            parts.append((tags[start], "\n".join(lines[start:i])))
            start = i
    return parts


_TYPE_OBJECT = re.compile(r"^\s*\.type\s+(" + tokens.ASM_SYMBOL + r"),\s*[@%]object\s*$")  # AArch64 writes %object
_SIZE = re.compile(r"^\s*\.size\s+(" + tokens.ASM_SYMBOL + "),")
_SECTION_SWITCH = (".section", ".data", ".bss", ".text", ".rodata", ".previous", ".pushsection", ".popsection")


def drop_unreferenced_data(lines: list[str], candidates: set[str]) -> list[str]:
    """`lines` without the definitions of the `candidates` (formerly local variables) that
    nothing else in them names (`_variable_blocks`): the join's drop, on one text."""
    blocks, mentions, own = _variable_uses(lines, candidates)
    dropped = {i for name, rows in blocks.items() if mentions[name] == own[name] for i in rows}
    return [line for i, line in enumerate(lines) if i not in dropped] if dropped else lines


def _variable_uses(
    lines: list[str], candidates: frozenset[str] | set[str]
) -> tuple[dict[str, list[int]], dict[str, int], dict[str, int]]:
    """The candidates' definitions in `lines` (`_variable_blocks`), each candidate's whole-token
    occurrences in `lines`, and those inside its own definition: a name is referenced when
    it occurs more often in all the text (every piece) than in its own block. (One tokenising
    scan: a line-by-line scan cost 0.4 s on duktape, one alternation of the names 1.2 s on
    SQLite's 246 against 0.3 s; block names are plain symbols, so a whole token equal to one
    is exactly an occurrence.)"""
    if not candidates:
        return {}, {}, {}
    blocks = _variable_blocks(lines, candidates)
    own = {name: sum(1 for i in rows for t in _SYMBOL_TOKEN.findall(lines[i]) if t == name) for name, rows in blocks.items()}
    mentions = collections.Counter(t for t in _SYMBOL_TOKEN.findall("\n".join(lines)) if t in candidates)
    return blocks, dict(mentions), own


def _variable_blocks(lines: list[str], candidates: frozenset[str] | set[str]) -> dict[str, list[int]]:
    """The rows of each candidate's (a formerly local variable's) definition in `lines`: from
    its `.type SYM,@object` to its `.size SYM`; section switches inside stay (not its rows).
    The join drops a definition nothing else names: what GlobalDCE does unsplit once the last
    use is optimised away. A local exported only while compiling keeps its definition, and
    the relocations of its initialiser (undefined symbols the serial object lacks), in its
    owner's piece, where the optimiser could not see that other subgraphs stopped using it."""
    blocks: dict[str, list[int]] = {}
    current: str | None = None
    rows: list[int] = []
    for i, line in enumerate(lines):
        if current is None:
            m = _TYPE_OBJECT.match(line) if "object" in line else None
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
    return blocks


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


_NUMBER_DIRECTIVES = frozenset({".byte", ".short", ".hword", ".long", ".word", ".quad", ".xword", ".uleb128", ".sleb128"})


#: directives that name no label or binding and switch no section: passed through unchanged
#: when they name nothing the link renames (`_inert`)
_INERT_DIRECTIVES = (
    "\t.cfi_", "\t.p2align", "\t.zero", "\t.byte", "\t.short", "\t.hword", "\t.long", "\t.word", "\t.quad",
    "\t.xword", "\t.uleb128", "\t.sleb128", "\t.asciz", "\t.ascii", "\t.string", "\t.size", "\t.type",
)


_SLOW, _INERT, _LABELS_ONLY = "slow", "inert", "labels only"
_STRING_DIRECTIVES = ("\t.asciz", "\t.ascii", "\t.string")


def _quick(line: str) -> str:
    """What `link_piece`'s per-line work would do to an instruction, comment or data
    directive (tab-indented) when no line-table row is pending and no private name must be
    found by token: leave it as it is (`_INERT`: it names no local label, no synthetic or
    copied name such as `__ember_n7` or `x.ember.2`, no `DW.ref`, no debug section) or only
    make its local labels unique (`_LABELS_ONLY`: not string data, no function-begin or
    line-table label the debug rewriter counts); `_SLOW` for anything else."""
    if line[:1] != "\t":
        return _SLOW
    string = False
    if line[1:2] == ".":
        if not line.startswith(_INERT_DIRECTIVES):
            return _SLOW
        string = line.startswith(_STRING_DIRECTIVES)
    if "__ember_" in line or ".ember." in line or "DW.ref." in line or ".debug_" in line:
        return _SLOW
    if ".L" in line or "GCC_except_table" in line:
        if string or ".Lfunc_begin" in line or mcdebug.LINE_TABLE_LABEL in line:
            return _SLOW
        return _LABELS_ONLY
    return _INERT


def _plain_number(line: str) -> bool:
    """`\t.byte\t12` and the like: a number, nothing a link renames (checked without a regex)."""
    if not line.startswith("\t."):
        return False
    parts = line.split("\t")
    return len(parts) == 3 and parts[1] in _NUMBER_DIRECTIVES and parts[2].lstrip("-").isdigit()


#: what `link_piece` puts in front of a piece's local labels: `.Lp<ident>_` (`piece_ident`:
#: `.LBB0_1` of subgraph 3's first piece -> `.Lp3_0_BB0_1`)
UNIQUE_LABEL_PREFIX = re.compile(r"\.Lp\d+_\d+_")


def _unique_label(prefix: str, match: re.Match[str]) -> str:
    label = match.group(1)
    return prefix + (label[2:] if label.startswith(".L") else label)
