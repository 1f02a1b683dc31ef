"""Debug-info oracles: what a split `-g` object must share with the serial one.

Three checks, each through LLVM's own tools (the tools wheel, `engine.tools_dir()`):

- `verify`: `llvm-dwarfdump --verify` finds no error in the object's DWARF;
- `subprograms`: the (name, declaring file, line) of every `DW_TAG_subprogram`, as a set
  (a split object has one compile unit per piece, and a copied local may be described in
  two of them, so only the set can be compared);
- `line_differences`: every function's entry address, and up to `samples` line-table rows
  inside each function whose code is byte for byte the serial one's, symbolise
  (`llvm-symbolizer`) to the same `file:line` in both objects (the offset inside the
  function is the same, so the addresses correspond).
"""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from compiler.backend import engine

_ROW = re.compile(r"^0x([0-9a-f]+)\s+\d+\s+\d+\s+\d+\s")


def _tool(name: str) -> str:
    return str(engine.tools_dir() / name)


def _run(args: list[str], stdin: str | None = None) -> str:
    proc = subprocess.run(args, input=stdin, capture_output=True, text=True, errors="replace", timeout=600)
    return proc.stdout + proc.stderr


def _as_file(obj: bytes, tmp: str, name: str) -> str:
    path = Path(tmp) / name
    path.write_bytes(obj)
    return str(path)


def verify(obj: bytes) -> str | None:
    """`llvm-dwarfdump --verify`'s report when it finds errors, else None."""
    with tempfile.TemporaryDirectory(prefix="ember-dwarf-") as tmp:
        path = _as_file(obj, tmp, "o.o")
        proc = subprocess.run([_tool("llvm-dwarfdump"), "--verify", path], capture_output=True, text=True, errors="replace")
    said = proc.stdout + proc.stderr
    if proc.returncode != 0 or "No errors." not in said:
        return "\n".join(ln for ln in said.splitlines() if "error" in ln.lower())[:4000] or said[-4000:]
    return None


def subprograms(obj: bytes) -> set[tuple[str, str, int]]:
    """(name, decl_file, decl_line) of every named `DW_TAG_subprogram` in the object."""
    with tempfile.TemporaryDirectory(prefix="ember-dwarf-") as tmp:
        said = _run([_tool("llvm-dwarfdump"), "--debug-info", _as_file(obj, tmp, "o.o")])
    found: set[tuple[str, str, int]] = set()
    for block in re.split(r"\n(?=0x[0-9a-f]+:\s)", said):
        if not re.match(r"0x[0-9a-f]+:\s+DW_TAG_subprogram\b", block):
            continue
        name = re.search(r'DW_AT_name\s+\("([^"]*)"\)', block)
        if name is None:
            continue  # an out-of-line instance names its abstract origin instead
        file = re.search(r'DW_AT_decl_file\s+\("([^"]*)"\)', block)
        line = re.search(r"DW_AT_decl_line\s+\((\d+)\)", block)
        found.add((name.group(1), file.group(1) if file else "", int(line.group(1)) if line else 0))
    return found


@dataclass(frozen=True)
class Function:
    """A defined function of `.text`: its offset there, and its bytes."""

    offset: int
    code: bytes


def text_functions(obj: bytes) -> dict[str, Function]:
    """Every named FUNC symbol defined in `.text`, by name."""
    elf = ELFFile(io.BytesIO(obj))
    text_index = next((i for i, s in enumerate(elf.iter_sections()) if s.name == ".text"), None)
    symtab = elf.get_section_by_name(".symtab")
    if text_index is None or not isinstance(symtab, SymbolTableSection):
        return {}
    data = elf.get_section(text_index).data()
    out: dict[str, Function] = {}
    for sym in symtab.iter_symbols():
        if sym["st_info"]["type"] != "STT_FUNC" or sym["st_shndx"] != text_index or not sym.name:
            continue
        start, size = sym["st_value"], sym["st_size"]
        out[sym.name] = Function(start, data[start : start + size])
    return out


def _rows(obj_path: str) -> list[int]:
    """Addresses of the line table's rows (one line table per object, as the assembler makes it)."""
    said = _run([_tool("llvm-dwarfdump"), "--debug-line", obj_path])
    return sorted({int(m.group(1), 16) for m in (_ROW.match(ln) for ln in said.splitlines()) if m})


def _symbolize(obj_path: str, addresses: list[int]) -> list[str]:
    """`file:line` of each address (the innermost inlined frame), '??:0' when unknown."""
    if not addresses:
        return []
    said = _run(
        [_tool("llvm-symbolizer"), f"--obj={obj_path}", "--no-inlines", "--output-style=GNU"],
        "\n".join(hex(a) for a in addresses) + "\n",
    )
    lines = [ln for ln in said.splitlines() if ln.strip()]
    locations = lines[1::2]  # GNU style: function name line, then file:line
    return [re.sub(r"(:[0-9]+)(?: \(discriminator [0-9]+\))?$", r"\1", loc) for loc in locations]


def line_differences(serial: bytes, split: bytes, samples: int = 8) -> list[str]:
    """Where `split`'s line info disagrees with `serial`'s: function entries, and sampled rows
    of the functions whose code is identical in both (empty when they agree)."""
    a_funcs, b_funcs = text_functions(serial), text_functions(split)
    with tempfile.TemporaryDirectory(prefix="ember-dwarf-") as tmp:
        a_path, b_path = _as_file(serial, tmp, "serial.o"), _as_file(split, tmp, "split.o")
        rows = _rows(a_path)
        names, a_addr, b_addr = [], [], []
        for name in sorted(a_funcs.keys() & b_funcs.keys()):
            fa, fb = a_funcs[name], b_funcs[name]
            offsets = [0]
            if fa.code == fb.code:
                inside = [r - fa.offset for r in rows if fa.offset < r < fa.offset + len(fa.code)]
                step = max(1, len(inside) // samples)
                offsets += inside[::step][:samples]
            for off in offsets:
                names.append(f"{name}+{off:#x}")
                a_addr.append(fa.offset + off)
                b_addr.append(fb.offset + off)
        want, got = _symbolize(a_path, a_addr), _symbolize(b_path, b_addr)
    if len(want) != len(names) or len(got) != len(names):
        return [f"llvm-symbolizer answered {len(want)}/{len(got)} of {len(names)} addresses"]
    return [f"{n}: serial {w}, split {g}" for n, w, g in zip(names, want, got, strict=True) if w != g]
