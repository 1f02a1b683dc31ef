"""Canonical names for the split back end: every name the link may have to find is plain and
unambiguous while the module is split, and gets its own spelling back in the link
(`objlink.ObjectNames.spellings`: the merged object's `.strtab` is rewritten).

The link turns a private value that crossed pieces into a `.L` temporary and restores local
bindings by name (the retired MC link did so by rewriting the assembly text). A name that is also a register,
a mnemonic or a directive (`@rax`, `@add`, `@str`, `@ldr`), or one the assembly must quote
(`@"with space"`, `@"f=1,2"`, `@"q\\22uote"`, non-ASCII), is legal IR and cannot be found
reliably in assembly text. So before the module is split, every private value and every value
whose IR or assembly spelling needs quotes is renamed in memory to `__ember_n<N>`, a token that
means nothing else in either target's syntax; `restore` maps those tokens (with any prefix
or suffix codegen put around them: `.L`, `.Lp3_`, `.ember.2`, `.cold.1`, `@PLT`) back to what
the serial build spells.
"""

from __future__ import annotations

import re

from compiler.backend import engine

#: the synthetic names (`__ember_n<N>`); a module's own name holding one is renamed too
SYNTHETIC_PREFIX = "__ember_n"
_SYNTHETIC = re.compile(r"__ember_n\d+")
#: what an ELF assembler reads unquoted (LLVM's MCAsmInfo quotes every other symbol)
_PLAIN = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$]*")
#: what both LLVM's IR printer and the assembler write unquoted (the printer quotes `$`)
_SPLIT_PLAIN = re.compile(r"[A-Za-z_.][A-Za-z0-9_.]*")
#: a synthetic name inside an assembly symbol, with what codegen and the link put around it
#: (`.L`, `.Lp3_`, `DW.ref.`; `.ember.2`, `.cold.1`, `$local`)
_IN_ASM = re.compile(r"(?<![\w.$\"])([\w.$]*?)(__ember_n\d+)([\w.$]*)")


def asm_spelling(name: str) -> str:
    """How LLVM's AsmPrinter writes symbol `name` (quoted, with `\\` and `"` escaped, when it
    holds characters an assembler does not read bare)."""
    if _PLAIN.fullmatch(name):
        return name
    escaped = name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


#: names codegen gives a piece's own labels: `.L...` (an assembler temporary) and
#: `GCC_except_table<N>`; a module value spelled so is renamed while split
_LABEL_LIKE = re.compile(r"\.L|GCC_except_table[0-9]")


def needs_canonical_name(name: str, linkage: int) -> bool:
    """Whether the split renames this value: private ones (the link rewrites their symbols),
    any whose spelling needs quotes in the IR text or the assembly (`@"hooks.a$b"`: the
    planner's text model reads plain names only), and any the link would take for a
    piece-local label (`@.Ltable`, legal IR, serially an assembler temporary); unnamed
    values (`@0`) are the planner's own."""
    if not name:
        return False
    return (
        linkage == engine.PRIVATE
        or not _SPLIT_PLAIN.fullmatch(name)
        or bool(_SYNTHETIC.search(name))
        or bool(_LABEL_LIKE.match(name))
    )


def canonicalise(module: engine.Module) -> dict[str, str]:
    """Rename, in memory, every value `needs_canonical_name` picks; returns synthetic -> original."""
    values = [(value, value.name) for value in module.global_values()]
    taken = {name for _, name in values}
    spellings: dict[str, str] = {}
    number = 0
    for value, name in values:
        if not needs_canonical_name(name, value.linkage):
            continue
        while f"{SYNTHETIC_PREFIX}{number}" in taken:  # never a name the module already has
            number += 1
        synthetic = f"{SYNTHETIC_PREFIX}{number}"
        taken.add(synthetic)
        value.rename(synthetic)
        spellings[synthetic] = name
    return spellings


def name_unnamed(module: engine.Module, prefix: str = "__ember_unnamed_") -> None:
    """Name the numbered values (`@0`) `<prefix><N>` in memory, N as the IR printer numbers
    them (variables, aliases, ifuncs, then functions), so the printed module and its bitcode
    agree on names, and the plan names every value it places."""
    number = 0
    for _kind, ref in engine.global_value_refs(module.ref):
        if not engine.Value(ref).name:
            engine.Value(ref).rename(f"{prefix}{number}")
            number += 1


def original(name: str, spellings: dict[str, str]) -> str:
    """The module's own name for a (possibly synthetic, possibly suffixed) name."""
    m = _IN_ASM.fullmatch(name)
    if m is None or m.group(2) not in spellings:
        return name
    return m.group(1) + spellings[m.group(2)] + m.group(3)


def restore(line: str, spellings: dict[str, str]) -> str:
    """One line of assembly (not string data) with every synthetic symbol spelled as the
    serial build spells it."""
    if SYNTHETIC_PREFIX not in line:
        return line

    def spell(m: re.Match[str]) -> str:
        name = spellings.get(m.group(2))
        return m.group(0) if name is None else asm_spelling(m.group(1) + name + m.group(3))

    return _IN_ASM.sub(spell, line)


def readable(text: str, spellings: dict[str, str]) -> str:
    """A plan or report with each synthetic name replaced by the module's own name."""
    if not spellings or SYNTHETIC_PREFIX not in text:
        return text
    return _IN_ASM.sub(lambda m: original(m.group(0), spellings), text)
