"""The identifier dimension of the swarm: a generated LLVM module's local symbols renamed.

Every LLVM IR program (call graph, linkage module, corpus slice) first draws which kinds
of names it has, each on in one program of `NAMES_SWARM_ONE_IN`; each local definition
(`internal`/`private` function, global, alias or ifunc) then keeps its plain name or takes
one of a kind that is on:

- `target`: a mnemonic, register/operand word or directive of x86-64 or AArch64
  (`@rax`, `@add`, `@str`, `@ldr`, `@.globl`), from `target_words.py`, which
  `make_target_words.py` derives from LLVM's own disassembler and `llc` output; half of
  them among the words `llc` really emits (`EMITTED_WORDS`);
- `quoted`: the name with `=`, `,`, `"`, `\\`, spaces and other punctuation (`@"f0=1,2"`);
- `long`: hundreds of identifier characters (mangled C++/Rust names are that long);
- `unicode`: the name with non-ASCII characters (UTF-8, written `\\XX` as llvm-dis does).

Names stay legal IR (`\\22`, `\\5C` escapes) and unique in the module (a drawn name that
is taken leaves the plain one). Never renamed: declarations and external definitions
(`main`, libc, intrinsics, the support module's names, the anchors `main` calls by name),
unnamed `@0` values, comdat members (their comdat is keyed by name) and names module asm
spells out. Features `names-<kind>` record the kinds a program really got.
"""

from __future__ import annotations

import random
import re

from hypothesis import strategies as st

from fuzz.strategies import target_words as tw
from fuzz.strategies.callgraph import swarm_on

NAME_KINDS = ("plain", "target", "quoted", "long", "unicode")
#: each non-plain kind is on in one program of this many (swarm testing)
NAMES_SWARM_ONE_IN = 3
NAME_FEATURES = tuple(f"names-{k}" for k in NAME_KINDS)

TARGET_WORDS = tuple(
    sorted(
        set(
            tw.X86_64_MNEMONICS
            + tw.X86_64_OPERANDS
            + tw.X86_64_DIRECTIVES
            + tw.AARCH64_MNEMONICS
            + tw.AARCH64_OPERANDS
            + tw.AARCH64_DIRECTIVES
        )
    )
)
#: the target words code generation really emits (`movq`, `rax`, `ldr`, `x0`): a `target` name is
#: one of these half the time, else any word of the tables (a private `@rax` collides with a
#: register of nearly every function's assembly; a private `@vpmovzxbq` with almost none)
EMITTED_WORDS = tuple(sorted(set(tw.X86_64_EMITTED + tw.AARCH64_EMITTED)))
#: what a quoted name mixes into the plain one
SPECIALS = ("=", ",", '"', "\\", " ", ":", ";", "(", ")", "#", "@", "%", "$", "'", "{", "}", "<", ">", "=1,2", " ", "\t")
IDENT = re.compile(r"[-A-Za-z$._][-A-Za-z$._0-9]*")
#: a symbol reference, a string (skipped whole: `c"@..."` is data) or a comment
TOKEN = re.compile(r'@"[^"]*"|@[-A-Za-z$._0-9]+|"[^"]*"|;.*')
LOCAL_GLOBAL = re.compile(r'^(@"[^"]*"|@[-A-Za-z$._0-9]+) = (?:private|internal)\b')
LOCAL_FUNCTION = re.compile(r'^define (?:private|internal)\b[^@]*(@"[^"]*"|@[-A-Za-z$._0-9]+)\(')


def decoded(token: str) -> bytes:
    """The name a `@name` / `@"na\\22me"` token spells, as bytes."""
    body = token[1:]
    if not body.startswith('"'):
        return body.encode()
    return re.sub(rb"\\([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), body[1:-1].encode())


def spelled(name: bytes) -> str:
    """`name` as an IR token: bare when it is an identifier, else quoted with `\\XX` escapes."""
    text = name.decode("latin-1")
    if IDENT.fullmatch(text) and not text[:1].isdigit():
        return "@" + text
    return '@"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}" for b in name) + '"'


def local_definitions(module: str) -> list[str]:
    """Tokens of the local definitions that may be renamed, in module order."""
    asm = " ".join(line for line in module.splitlines() if line.startswith("module asm"))
    found: list[str] = []
    for line in module.splitlines():
        m = LOCAL_GLOBAL.match(line) or LOCAL_FUNCTION.match(line)
        if not m or "comdat" in line:
            continue
        name = decoded(m.group(1))
        if name.isdigit() or name.startswith(b"llvm.") or name.decode("latin-1") in asm:
            continue
        found.append(m.group(1))
    return found


#: code point ranges a non-ASCII name draws from: Latin-1, Greek, Cyrillic, CJK, emoji, a plane-2 ideograph
UNICODE_RANGES = ((0xA1, 0xFF), (0x391, 0x3C9), (0x410, 0x44F), (0x4E00, 0x9FFF), (0x1F600, 0x1F64F), (0x20000, 0x2A6DF))
LONG_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$"


def new_name(kind: str, old: bytes, rng: random.Random) -> bytes:
    """A name of `kind` for the symbol now called `old` (drawn from `rng`: one Hypothesis
    draw per program, so the other programs of a campaign keep their draws)."""
    if kind == "target":
        return rng.choice(EMITTED_WORDS if rng.random() < 0.5 else TARGET_WORDS).encode()
    if kind == "quoted":
        return old + "".join(rng.choice(SPECIALS) for _ in range(rng.randint(1, 4))).encode() + b"1"
    if kind == "long":
        return old + b"." + "".join(rng.choice(LONG_ALPHABET) for _ in range(rng.randint(200, 1200))).encode()
    chars = (chr(rng.randint(*rng.choice(UNICODE_RANGES))) for _ in range(rng.randint(1, 4)))
    return old + "".join(chars).encode()


def rename(module: str, mapping: dict[bytes, str]) -> str:
    """`module` with every reference to a key of `mapping` spelled as its value."""

    def sub(m: re.Match[str]) -> str:
        token = m.group(0)
        if token[0] != "@":
            return token
        return mapping.get(decoded(token), token)

    return "\n".join(TOKEN.sub(sub, line) for line in module.split("\n"))


@st.composite
def name_swarm(draw: st.DrawFn) -> tuple[tuple[str, ...], int]:
    """The kinds of names a program has (`plain` always) and the seed its names are drawn
    from; drawn first, with the program's other swarm features (shrinks to plain only)."""
    on = ("plain", *draw(swarm_on(NAME_KINDS[1:], NAMES_SWARM_ONE_IN), label="swarm: names"))
    return on, (draw(st.integers(0, 2**16), label="name seed") if len(on) > 1 else 0)


def renamed(module: str, swarm: tuple[tuple[str, ...], int]) -> tuple[str, tuple[str, ...]]:
    """(`module` with its local symbols renamed by the swarm's name kinds, the `names-*` features)."""
    on, seed = swarm
    locals_ = local_definitions(module)
    if not locals_:
        return module, ()
    rng = random.Random(seed)
    taken = {decoded(m.group(0)) for m in re.finditer(r'@"[^"]*"|@[-A-Za-z$._0-9]+', module)}
    mapping: dict[bytes, str] = {}
    used = set()
    for token in locals_:
        kind = rng.choice(on)
        old = decoded(token)
        if kind == "plain":
            used.add(kind)
            continue
        name = new_name(kind, old, rng)
        if name in taken or b"\x00" in name:
            used.add("plain")
            continue
        taken.add(name)
        mapping[old] = spelled(name)
        used.add(kind)
    features = tuple(f"names-{k}" for k in NAME_KINDS if k in used)
    return (rename(module, mapping) if mapping else module), features
