"""Writes `fuzz/strategies/target_words.py`: the mnemonics, operand words and directives of
x86-64 and AArch64 as LLVM itself prints them, for the identifier dimension of the swarm
(`fuzz.strategies.names`).

How the words are found (nothing is typed by hand):

- mnemonics and operand words (registers, shift/extend operators, size keywords): a fixed
  pseudo-random byte stream (seed 1) disassembled by the LLVM tools wheel's `llvm-mc
  --disassemble`, for x86-64 in both syntaxes (AT&T: `addq`, `%rax`; Intel: `add`, `rax`,
  `qword`, `ptr`) and for AArch64 with SVE/SME enabled (`ldr`, `x0`, `z1.d`, `lsl`);
- directives: the assembly `llc` prints, for both targets at -O0 and -O2, for every `.ll`
  file under `lit-tests/` (`.globl`, `.p2align`, `.cfi_startproc`, `.loc`, `.section`...);
- the words code generation really emits (`*_EMITTED`): the mnemonics and operand words of
  that same `llc` output that are in the tables above (`movq`, `rax`, `rsp`, `ldr`, `x0`,
  `sp`): a name drawn from these collides with a token of nearly every program's assembly.

Only words that are plain LLVM identifiers (`[A-Za-z$._][-A-Za-z$._0-9]*`) are kept, and
none that the host's C library or libm defines (`llvm-nm -D`: `abs`, `div`... would let a
local definition take over a libcall the code generator emits).
Rerun with `.venv/bin/python -m fuzz.strategies.make_target_words` after an LLVM update.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

from compiler.backend import engine

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).with_name("target_words.py")
WORD = re.compile(r"[A-Za-z$._][-A-Za-z$._0-9]*$")
OPERAND_WORD = re.compile(r"%?([A-Za-z_][A-Za-z0-9_.]*)")
DIRECTIVE = re.compile(r"^\s*(\.[A-Za-z_][A-Za-z0-9_]*)")

#: (target, llvm-mc arguments, random bytes disassembled)
DISASSEMBLE = (
    ("x86_64", ("-triple=x86_64", "-output-asm-variant=0"), 300_000),
    ("x86_64", ("-triple=x86_64", "-output-asm-variant=1"), 300_000),
    ("aarch64", ("-triple=aarch64", "-mattr=+v9.5a,+sve2,+sme2"), 400_000),
)
LLC_TRIPLES = {"x86_64": "x86_64-unknown-linux-gnu", "aarch64": "aarch64-unknown-linux-gnu"}


def _tool(name: str) -> str:
    return str(Path(engine.tools_dir()) / name)


def disassembled(args: tuple[str, ...], size: int) -> tuple[set[str], set[str]]:
    """Mnemonics and operand words of `size` pseudo-random bytes disassembled."""
    rng = random.Random(1)
    # 16 bytes a line: llvm-mc resynchronises per line (one long line is quadratic)
    data = "\n".join(" ".join(f"0x{rng.randrange(256):02x}" for _ in range(16)) for _ in range(size // 16))
    out = subprocess.run(
        [_tool("llvm-mc"), "--disassemble", *args], input=data, capture_output=True, text=True, check=False
    ).stdout
    mnemonics: set[str] = set()
    operands: set[str] = set()
    for line in out.splitlines():
        if not line.startswith("\t") or line.lstrip().startswith("."):
            continue
        code = re.split(r"//|#\s|;", line.strip(), maxsplit=1)[0]
        words = code.split(None, 1)
        if not words:
            continue
        mnemonics.add(words[0])
        for token in re.split(r"[\s,\[\]{}()!:*+\-#/]+", words[1] if len(words) > 1 else ""):
            m = OPERAND_WORD.fullmatch(token)
            if m and not token.startswith(("0x",)):
                operands.add(m.group(1))
    return mnemonics, operands


def llc_words(triple: str) -> tuple[set[str], set[str]]:
    """The directives, and the mnemonics and operand words, `llc` prints for the lit tests' modules."""
    found: set[str] = set()
    words: set[str] = set()
    for ll in sorted((ROOT / "lit-tests").rglob("*.ll")):
        for extra in (("-O0",), ("-O2",)):
            out = subprocess.run(
                [_tool("llc"), f"-mtriple={triple}", *extra, "-o", "-", str(ll)],
                capture_output=True,
                text=True,
                check=False,
            ).stdout
            found.update(m.group(1) for line in out.splitlines() if (m := DIRECTIVE.match(line)))
            for line in out.splitlines():
                if not line.startswith("\t") or line.lstrip().startswith("."):
                    continue
                code = re.split(r"//|#|;", line.strip(), maxsplit=1)[0]
                words.update(m.group(1) for token in re.split(r"[\s,\[\]{}()!:*+\-/]+", code) if (m := OPERAND_WORD.fullmatch(token)))
    return found, words


def libc_symbols() -> set[str]:
    """What the host's libc and libm export (`llvm-nm -D`)."""
    found: set[str] = set()
    for lib in ("libc.so.6", "libm.so.6"):
        for folder in ("/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64"):
            path = Path(folder) / lib
            if path.exists():
                out = subprocess.run([_tool("llvm-nm"), "-D", "--defined-only", str(path)], capture_output=True, text=True, check=False)
                found.update(line.split()[-1].split("@")[0] for line in out.stdout.splitlines() if line.strip())
    return found


def main() -> None:
    tables: dict[str, dict[str, set[str]]] = {t: {"mnemonics": set(), "operands": set()} for t in LLC_TRIPLES}
    for target, args, size in DISASSEMBLE:
        mnemonics, operands = disassembled(args, size)
        tables[target]["mnemonics"] |= mnemonics
        tables[target]["operands"] |= operands
    for target, triple in LLC_TRIPLES.items():
        tables[target]["directives"], emitted = llc_words(triple)
        tables[target]["emitted"] = emitted & (tables[target]["mnemonics"] | tables[target]["operands"])
    libc = libc_symbols()
    lines = [
        '"""Mnemonics, operand words (registers, operators) and directives of both targets.',
        "",
        "GENERATED by `python -m fuzz.strategies.make_target_words` (see that module for how);",
        'do not edit by hand."""',
        "",
    ]
    for target in LLC_TRIPLES:
        for kind in ("mnemonics", "operands", "directives", "emitted"):
            words = sorted(w for w in tables[target][kind] if WORD.match(w) and w not in libc)
            lines.append(f"{target.upper()}_{kind.upper()} = (")
            lines.extend(f"    {w!r}," for w in words)
            lines.append(")")
    OUT.write_text("\n".join(lines) + "\n")
    counts = {f"{t}/{k}": len(v) for t, kinds in tables.items() for k, v in kinds.items()}
    print(f"wrote {OUT}: {counts}")


if __name__ == "__main__":
    main()
