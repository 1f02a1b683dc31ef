"""The calls an object's code makes: (caller, callee) pairs read from `llvm-objdump -d -r`.

The symbol table says which functions exist, not whether the split build inlined what
the serial build inlined: a helper the serial build inlines everywhere can still be
defined (exported) in both objects, and only the disassembly shows that split code
calls it out of line. Calls are `call`/`jmp` (x86-64) and `bl`/`b` (AArch64) whose
target is another function: a relocation's symbol when the assembler left one (calls to
globals, and any call across sections), else the `<symbol>` objdump prints for a target
it resolved (calls to a local function in the same section). A branch inside the
calling function is not a call. Local copies the split build renamed
(`planner.COPY_SUFFIX`) count as the function they copy.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from compiler.backend import engine, planner
from compiler.diagnostics import EmberError

_FUNCTION = re.compile(r"^[0-9a-f]+ <(?P<name>[^>]+)>:$")
_INSN = re.compile(r"^\s*[0-9a-f]+:\s+(?P<mnemonic>[a-z.]+)\s+(?P<operands>.*)$")
_RELOC = re.compile(r"^\s*[0-9a-f]+:\s+R_\w+\s+(?P<symbol>[^\s+-]+)")
_TARGET = re.compile(r"<(?P<name>[^>+]+)(?P<offset>\+0x[0-9a-f]+)?>")
CALL_MNEMONICS = frozenset({"call", "callq", "jmp", "jmpq", "bl", "b"})


def home(name: str) -> str:
    """The function a (possibly renamed) local copy stands for."""
    return name.split(planner.COPY_SUFFIX, 1)[0]


def disassemble(obj: bytes) -> str:
    """`llvm-objdump -d -r` of an object (the tools wheel's objdump)."""
    tool = Path(engine.tools_dir()) / "llvm-objdump"
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        done = subprocess.run([str(tool), "-d", "-r", "--no-show-raw-insn", f.name], capture_output=True, text=True)
    if done.returncode != 0:
        raise EmberError(f"llvm-objdump: {done.stderr.strip().splitlines()[0] if done.stderr.strip() else 'failed'}")
    return done.stdout


def call_edges(disassembly: str) -> set[tuple[str, str]]:
    """(caller, callee) for every call or tail call in `disassembly` (`disassemble`'s text)."""
    edges: set[tuple[str, str]] = set()
    lines = disassembly.splitlines()
    caller = ""
    for n, line in enumerate(lines):
        if m := _FUNCTION.match(line):
            caller = m.group("name")
            continue
        insn = _INSN.match(line)
        if not caller or insn is None or insn.group("mnemonic") not in CALL_MNEMONICS:
            continue
        reloc = _RELOC.match(lines[n + 1]) if n + 1 < len(lines) else None
        if reloc is not None:
            callee = reloc.group("symbol")
        elif (target := _TARGET.search(insn.group("operands"))) is not None and target.group("offset") is None:
            callee = target.group("name")
        else:
            continue  # a branch inside a function, or an indirect call
        if callee != caller or reloc is not None:
            edges.add((home(caller), home(callee)))
    return edges


def calls_to(obj: bytes, callee: str) -> set[str]:
    """The functions of `obj` that still call `callee` (out of line, or as a tail call)."""
    return {caller for caller, target in call_edges(disassemble(obj)) if target == callee}
