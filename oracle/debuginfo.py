"""Debug-info oracles: what a split `-g` object must share with the serial one.

Three checks, each through LLVM's own tools (the tools wheel, `engine.tools_dir()`):

- `verify`: `llvm-dwarfdump --verify` finds no error in the object's DWARF;
- `subprograms`: the (name, declaring file, line) of every `DW_TAG_subprogram`, as a set
  (a split object has one compile unit per piece, and a copied local may be described in
  two of them, so only the set can be compared);
- `compare_lines`: in each function whose code is byte for byte the serial one's, the entry
  and up to `samples` line-table rows symbolise (`llvm-symbolizer`) to the same `file:line`
  in both objects (the offset inside the function is the same, so the addresses
  correspond); a function whose code differs (the split build inlined otherwise) has its
  entry with a line too.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection
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


#: one relocation inside a function: (offset from its start, target symbol name, "" for a
#: section symbol, type, addend, bytes written)
Relocation = tuple[int, str, int, int, int]


@dataclass(frozen=True)
class Function:
    """A defined function: its address (section offset in an object), its bytes, the
    relocations inside it, and its section's symbols by offset (to name a call the
    assembler resolved)."""

    address: int
    code: bytes
    relocations: tuple[Relocation, ...] = ()
    symbols_at: dict[int, str] = field(default_factory=dict, compare=False, repr=False)
    machine: int = 62

    def same_code(self, other: Function) -> bool:
        """The same code: byte for byte but for the bytes relocations write, and every
        relocated operand naming the same symbol (a copy as its home). The serial
        assembler resolves a call inside one section where a split object's call to another
        piece stays a relocation: there the resolved displacement names the symbol."""
        if len(self.code) != len(other.code):
            return False
        mine = {r[0]: r for r in self.relocations}
        theirs = {r[0]: r for r in other.relocations}
        if not mine and not theirs:
            return self.code == other.code
        masked = frozenset(at + i for r in (*self.relocations, *other.relocations) for at, i in ((r[0], k) for k in range(r[4])))
        if _masked(self.code, masked) != _masked(other.code, masked):
            return False
        for at in mine.keys() | theirs.keys():
            if (at in mine and not mine[at][1]) or (at in theirs and not theirs[at][1]):
                continue  # against a section (and an addend): no name to compare
            a = mine[at][1] if at in mine else self._resolved(at, theirs[at])
            b = theirs[at][1] if at in theirs else other._resolved(at, mine[at])
            if a is None or b is None:
                return False
            if _home(a) != _home(b):
                return False
        return True

    def _resolved(self, at: int, reference: Relocation) -> str | None:
        """The symbol this function's PC-relative field at `at` reaches (x86-64), where the
        other object has the relocation `reference`; None where that cannot be told."""
        if self.machine != 62 or reference[2] not in _PC_RELATIVE or at + 4 > len(self.code):
            return None
        displacement = int.from_bytes(self.code[at : at + 4], "little", signed=True)
        return self.symbols_at.get(self.address + at + displacement - reference[3])


#: x86-64 R_X86_64_PC32 and R_X86_64_PLT32
_PC_RELATIVE = {2, 4}


#: the per-piece prefix the MC link gives a piece's private labels (`.L.str` -> `.Lp1_0_.str`;
#: mclink.UNIQUE_LABEL_PREFIX)
_PIECE_LABEL = re.compile(r"^\.Lp\d+_\d+_")


def _home(name: str) -> str:
    """A split copy's home name (`f.ember.3` -> `f`; split.py's COPY_SUFFIX), a private's
    without its `.L` or the MC link's per-piece `.Lp<k>_<i>_`."""
    name = _PIECE_LABEL.sub(".L", name.split(".ember.", 1)[0])
    return name[2:] if name.startswith(".L") else name


def _masked(code: bytes, offsets: frozenset[int]) -> bytes:
    out = bytearray(code)
    for at in offsets:
        if at < len(out):
            out[at] = 0
    return bytes(out)


#: relocation types that write 8 bytes (x86-64 R_X86_64_64, AArch64 R_AARCH64_ABS64); the
#: others of code sections write 4 (a displacement, or bits of a 4-byte instruction)
_WIDE_RELOCATIONS = {(62, 1), (183, 257)}


def _machine(elf: ELFFile) -> int:
    machine = elf["e_machine"]
    return {"EM_X86_64": 62, "EM_AARCH64": 183}.get(machine, 0) if isinstance(machine, str) else int(machine)


def _section_relocations(elf: ELFFile, symtab: SymbolTableSection) -> dict[int, list[tuple[int, str, int, int, int]]]:
    """Section index -> its relocations: (offset, target name or "" for a section symbol,
    type, addend, bytes written)."""
    number = _machine(elf)
    out: dict[int, list[tuple[int, str, int, int, int]]] = {}
    for section in elf.iter_sections():
        if not isinstance(section, RelocationSection) or section["sh_type"] not in ("SHT_RELA", "SHT_REL"):
            continue
        found = out.setdefault(section["sh_info"], [])
        for rel in section.iter_relocations():
            sym = symtab.get_symbol(rel["r_info_sym"])
            name = "" if sym["st_info"]["type"] == "STT_SECTION" else sym.name
            width = 8 if (number, rel["r_info_type"]) in _WIDE_RELOCATIONS else 4
            found.append((rel["r_offset"], name, rel["r_info_type"], rel.entry.get("r_addend", 0), width))
    return out


def functions(elf_bytes: bytes) -> dict[str, Function]:
    """Every defined FUNC symbol by name (names defined twice, e.g. two files' static
    helpers, are left out: they cannot be matched between two objects)."""
    elf = ELFFile(io.BytesIO(elf_bytes))
    symtab = elf.get_section_by_name(".symtab")
    if not isinstance(symtab, SymbolTableSection):
        return {}
    machine = _machine(elf)
    data: dict[int, tuple[int, bytes]] = {}
    relocations = _section_relocations(elf, symtab)
    symbols_at: dict[int, dict[int, str]] = {}
    for sym in symtab.iter_symbols():
        shndx = sym["st_shndx"]
        if isinstance(shndx, int) and sym.name and sym["st_info"]["type"] in ("STT_FUNC", "STT_OBJECT", "STT_NOTYPE"):
            symbols_at.setdefault(shndx, {}).setdefault(sym["st_value"], sym.name)
    out: dict[str, Function] = {}
    twice: set[str] = set()
    for sym in symtab.iter_symbols():
        shndx = sym["st_shndx"]
        if sym["st_info"]["type"] != "STT_FUNC" or not isinstance(shndx, int) or not sym.name:
            continue
        if shndx not in data:
            section = elf.get_section(shndx)
            data[shndx] = (section["sh_addr"], section.data())
        base, content = data[shndx]
        start = sym["st_value"] - base
        if sym.name in out:
            twice.add(sym.name)
        end = start + sym["st_size"]
        inside = tuple((at - start, *rest) for at, *rest in relocations.get(shndx, ()) if start <= at < end)
        out[sym.name] = Function(sym["st_value"], content[start:end], inside, symbols_at.get(shndx, {}), machine)
    for name in twice:
        del out[name]
    return out


#: the linker for an object's ELF machine (`e_machine`): the host's `ld` for x86-64, the
#: Debian cross linker for AArch64 (binutils-aarch64-linux-gnu, with gcc-aarch64-linux-gnu)
LINKERS = {62: "ld", 183: "aarch64-linux-gnu-ld"}


def linker_for(obj: bytes) -> str | None:
    """The `ld` that links `obj` alone, or None when it is not installed."""
    machine = int.from_bytes(obj[18:20], "little") if len(obj) >= 20 else 0
    return shutil.which(LINKERS.get(machine, "ld"))


#: a name `ld --defsym` takes as it is
_DEFSYM_NAME = re.compile(r"^[A-Za-z_.$][A-Za-z0-9_.$]*$")


def _hidden_undefined(obj: bytes) -> list[str]:
    """Undefined symbols of non-default visibility: `ld` refuses them in an executable even
    with `--unresolved-symbols=ignore-all` ("hidden symbol isn't defined"); a slice of a
    real program declares them (Lua's `LUAI_FUNC`, any `__attribute__((visibility))` API)."""
    symtab = ELFFile(io.BytesIO(obj)).get_section_by_name(".symtab")
    if not isinstance(symtab, SymbolTableSection):
        return []
    return [
        sym.name
        for sym in symtab.iter_symbols()
        if sym.name and sym["st_shndx"] == "SHN_UNDEF" and sym["st_other"]["visibility"] != "STV_DEFAULT"
    ]


def _executable(obj_path: str, exe_path: str) -> str | None:
    """`obj_path` linked alone (undefined symbols at 0, hidden ones defined there with
    `--defsym`): sections of a relocatable object all start at address 0, so only a linked
    file's addresses name one place; None without the object's `ld`."""
    obj = Path(obj_path).read_bytes()
    ld = linker_for(obj[:20])
    if ld is None:
        return None
    defsyms = [f"--defsym={name}=0" for name in _hidden_undefined(obj) if _DEFSYM_NAME.match(name)]
    proc = subprocess.run([ld, "-o", exe_path, "--unresolved-symbols=ignore-all", "-e", "0", *defsyms, obj_path], capture_output=True)
    return exe_path if proc.returncode == 0 else None


def _rows(obj_path: str) -> list[int]:
    """Addresses of the line table's rows (one line table per object, as the assembler makes it)."""
    said = _run([_tool("llvm-dwarfdump"), "--debug-line", obj_path])
    return sorted({int(m.group(1), 16) for m in (_ROW.match(ln) for ln in said.splitlines()) if m})


def _symbolize(obj_path: str, addresses: list[int]) -> list[tuple[str, str]]:
    """(subprogram, `file:line`) of each address: the function the code belongs to and the
    line of its innermost inlined frame; '??' and '??:0' when unknown."""
    if not addresses:
        return []
    said = _run(
        [_tool("llvm-symbolizer"), f"--obj={obj_path}", "--no-inlines", "--output-style=GNU"],
        "\n".join(hex(a) for a in addresses) + "\n",
    )
    lines = [ln for ln in said.splitlines() if ln.strip()]
    locations = [re.sub(r"(:[0-9]+)(?: \(discriminator [0-9]+\))?$", r"\1", loc) for loc in lines[1::2]]
    return list(zip(lines[0::2], locations, strict=False))


@dataclass
class LineCheck:
    """What `compare_lines` compared and where the two objects disagree."""

    exact: int = 0  # functions with the same code: entry and sampled rows compared as file:line
    entry_only: int = 0  # functions whose code differs (the optimiser saw other callees): entry has a line
    differences: list[str] = field(default_factory=list)


def compare_lines(serial: bytes, split: bytes, samples: int = 8) -> LineCheck:
    """Compare `split`'s line info with `serial`'s: for each function defined in both, whose
    code is byte for byte the same, the entry and up to `samples` line-table rows inside it
    must symbolise to the same `file:line`; where the code differs (a split build inlines
    differently), its entry must still have a line. Both objects are linked alone
    with `ld` first (in an object every section starts at 0, so an address is ambiguous)."""
    code_a, code_b = functions(serial), functions(split)
    check = LineCheck()
    with tempfile.TemporaryDirectory(prefix="ember-dwarf-") as tmp:
        a_path = _executable(_as_file(serial, tmp, "serial.o"), f"{tmp}/serial")
        b_path = _executable(_as_file(split, tmp, "split.o"), f"{tmp}/split")
        if a_path is None or b_path is None:
            check.differences.append("cannot link the objects with ld to symbolise them")
            return check
        at_a, at_b = functions(Path(a_path).read_bytes()), functions(Path(b_path).read_bytes())
        rows = _rows(a_path)
        names, a_addr, b_addr, exact = [], [], [], []
        for name in sorted(code_a.keys() & code_b.keys() & at_a.keys() & at_b.keys()):
            fa, fb = at_a[name], at_b[name]
            offsets = [0]
            same = code_a[name].same_code(code_b[name])
            if same:
                inside = [r - fa.address for r in rows if fa.address < r < fa.address + len(fa.code)]
                step = max(1, len(inside) // samples)
                offsets += inside[::step][:samples]
                check.exact += 1
            else:
                check.entry_only += 1
            for off in offsets:
                names.append(f"{name}+{off:#x}")
                a_addr.append(fa.address + off)
                b_addr.append(fb.address + off)
                exact.append(same)
        want, got = _symbolize(a_path, a_addr), _symbolize(b_path, b_addr)
    if len(want) != len(names) or len(got) != len(names):
        check.differences.append(f"llvm-symbolizer answered {len(want)}/{len(got)} of {len(names)} addresses")
        return check
    for name, (wf, w), (gf, g), same in zip(names, want, got, exact, strict=True):
        if same and w != g:
            check.differences.append(f"{name}: serial {w}, split {g}")
        elif not same and g.startswith("??") and not w.startswith("??"):
            # the code differs (the split build inlined otherwise): its entry's line, and the
            # subprogram the symbolizer names there, may be an inlined callee's in one build
            # only; it must still have a line
            check.differences.append(f"{name}: serial {wf} at {w}, split {gf} at {g} (code differs: the entry has no line)")
    return check
