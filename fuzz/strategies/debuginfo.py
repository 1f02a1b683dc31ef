"""Debug info for a generated LLVM IR module, the way a C front end writes it.

A `-g` plan (the configuration dimension of the swarm, `fuzz.strategies.plans`) builds its
LLVM IR program with the module's own debug info, so the program must have some. Real
debug info is not one file with one scope per function: a C program's functions come from
the `.c` file and from headers (`static inline` helpers), the optimiser inlines the header
functions into the `.c` ones (inlined subprograms: the line table switches file in the middle
of a function), code sits in lexical blocks (`{ ... }` scopes), loops carry discriminators
(`DILexicalBlockFile`), and some rows have column 0. `decorated` gives every defined function
a `DISubprogram` in one of 1-3 header files or the main file, and every instruction a
`!dbg` location: consecutive lines, columns 0-40, in the function's scope, a lexical block of
its basic block, or a discriminator scope. One Hypothesis draw (a seed) per program.
"""

from __future__ import annotations

import random
import re

from hypothesis import strategies as st

from fuzz.strategies.names import decoded

#: first metadata number used (generated modules number none of their own)
BASE = 900000
#: the features a decorated program records
DEBUG_FEATURES = ("dbg-headers", "dbg-blocks", "dbg-discriminators")
_DEFINE = re.compile(r'^define\b[^@]*(@"[^"]*"|@[-A-Za-z$._0-9]+)\(')
_LABEL = re.compile(r'^(?:[-A-Za-z$._0-9]+|"[^"]*"):')
_CLAUSE = re.compile(r"^\s+(cleanup|catch|filter)\b")
_LOCAL_LINKAGE = re.compile(r"^define\s+(?:internal|private)\b")


def _outside_strings(line: str) -> str:
    """`line` with the contents of its quoted strings blanked (brackets and `;` in them are text)."""
    return re.sub(r'"[^"]*"', lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', line)


def _di_string(name: bytes) -> str:
    return '"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}" for b in name) + '"'


class _Numbers:
    """Metadata nodes in order, numbered from BASE."""

    def __init__(self) -> None:
        self.nodes: list[str] = []

    def add(self, node: str) -> str:
        self.nodes.append(node)
        return f"!{BASE + len(self.nodes) - 1}"

    def render(self) -> list[str]:
        return [f"!{BASE + n} = {node}" for n, node in enumerate(self.nodes)]


def _attach(line: str, ref: str) -> str:
    """`line` (an instruction's last line) with `!dbg ref` attached, before any comment."""
    plain = _outside_strings(line)
    cut = plain.find(";")
    if cut < 0:
        return f"{line}, !dbg {ref}"
    return f"{line[:cut].rstrip()}, !dbg {ref} {line[cut:]}"


def decorate(module: str, seed: int) -> tuple[str, tuple[str, ...]]:
    """(`module` with debug info, the `dbg-*` features it got); a module that already has
    debug info or module flags, or defines no function, is returned as it is."""
    if "!llvm.dbg.cu" in module or "!llvm.module.flags" in module or "\ndefine " not in "\n" + module:
        return module, ()
    rng = random.Random(seed)
    md = _Numbers()
    headers = rng.randint(1, 3)
    cu_ref = f"!{BASE}"  # the compile unit is the first node
    md.add("distinct !DICompileUnit(language: DW_LANG_C11, file: !{0}, producer: \"ember-fuzz\", isOptimized: false, "
           "runtimeVersion: 0, emissionKind: FullDebug)")
    files = [md.add('!DIFile(filename: "prog.c", directory: "/src/ember-fuzz")')]
    files += [md.add(f'!DIFile(filename: "include/h{n}.h", directory: "/src/ember-fuzz")') for n in range(headers)]
    md.nodes[0] = md.nodes[0].replace("!{0}", files[0])
    types = md.add("!{null}")
    sub_type = md.add(f"!DISubroutineType(types: {types})")
    next_line = dict.fromkeys(files, 1)
    features: set[str] = set()
    out: list[str] = []
    lines = module.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _DEFINE.match(line)
        if not m or not line.rstrip().endswith("{"):
            out.append(line)
            i += 1
            continue
        name = decoded(m.group(1))
        local = bool(_LOCAL_LINKAGE.match(line))
        # `static inline` helpers live in headers; main and half the others in the .c file
        in_header = name != b"main" and rng.random() < (0.6 if local else 0.3)
        file = rng.choice(files[1:]) if in_header else files[0]
        if in_header:
            features.add("dbg-headers")
        first = next_line[file]
        flags = "DISPFlagDefinition" + (" | DISPFlagLocalToUnit" if local else "")
        sp = md.add(
            f"distinct !DISubprogram(name: {_di_string(name)}, scope: {file}, file: {file}, line: {first}, type: {sub_type}, "
            f"scopeLine: {first}, flags: DIFlagPrototyped, spFlags: {flags}, unit: {cu_ref})"
        )
        out.append(line.rstrip()[:-1].rstrip() + f" !dbg {sp} {{")
        row = first
        scope = sp
        i += 1
        pending: list[str] = []  # the lines of one instruction (a switch's cases, a landingpad's clauses)
        depth = 0
        while i < len(lines) and lines[i].strip() != "}":
            body = lines[i]
            stripped = body.strip()
            i += 1
            if not pending and (not stripped or stripped.startswith(";")):
                out.append(body)
                continue
            if not pending and _LABEL.match(stripped):
                out.append(body)
                # a basic block: the function's scope, a lexical block or a discriminator scope
                kind = rng.random()
                if kind < 0.3:
                    scope = md.add(f"distinct !DILexicalBlock(scope: {sp}, file: {file}, line: {row + 1}, column: {rng.randint(1, 9)})")
                    features.add("dbg-blocks")
                elif kind < 0.5:
                    scope = md.add(f"!DILexicalBlockFile(scope: {sp}, file: {file}, discriminator: {rng.randint(1, 6)})")
                    features.add("dbg-discriminators")
                else:
                    scope = sp
                continue
            pending.append(body)
            plain = _outside_strings(body)
            depth += plain.count("[") - plain.count("]")
            if depth > 0 or (i < len(lines) and _CLAUSE.match(lines[i])):
                continue
            if rng.random() < 0.8:
                row += 1
            column = 0 if rng.random() < 0.15 else rng.randint(1, 40)
            loc = md.add(f"!DILocation(line: {row}, column: {column}, scope: {scope})")
            out.extend(pending[:-1])
            out.append(_attach(pending[-1], loc))
            pending, depth = [], 0
        out.extend(pending)
        next_line[file] = row + 3
    flags_a = md.add('!{i32 7, !"Dwarf Version", i32 5}')
    flags_b = md.add('!{i32 2, !"Debug Info Version", i32 3}')
    text = "\n".join(out).rstrip("\n")
    meta = [f"!llvm.dbg.cu = !{{{cu_ref}}}", f"!llvm.module.flags = !{{{flags_a}, {flags_b}}}", *md.render()]
    return text + "\n\n" + "\n".join(meta) + "\n", tuple(f for f in DEBUG_FEATURES if f in features)


@st.composite
def debug_seeds(draw: st.DrawFn) -> int:
    """The seed a program's debug info is drawn from (one draw, like the names' seed)."""
    return draw(st.integers(0, 2**16), label="debug info seed")
