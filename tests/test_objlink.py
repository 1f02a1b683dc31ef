"""The object link (`--link object`, compiler/backend/objlink.py): the pieces' objects merged
into one whose symbol table is the serial build's, and whose program behaves the same."""

from __future__ import annotations

import dataclasses
import io
import re
import struct
import subprocess
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from compiler import driver
from compiler.backend import llvm_stage, objlink
from compiler.diagnostics import EmberError
from fuzz import cross
from fuzz.genmodule import ModuleShape, generate
from oracle import debuginfo, runner, symtab
from tests import test_aarch64 as aarch64
from tests.conftest import DATA, run_tool
from tests.test_aarch64 import program  # noqa: F401  (the cross-compiled C program, a fixture)

MODES = ["subgraph", "function", "two-level"]

MAIN = r"""
@counter = hidden global i32 0
@.str = private unnamed_addr constant [8 x i8] c"got %d\0A\00"
declare i32 @printf(ptr, ...)
declare i32 @bump(i32)
define i32 @main() {
  %v = call i32 @bump(i32 41)
  %c = load i32, ptr @counter
  %s = add i32 %v, %c
  call i32 (ptr, ...) @printf(ptr @.str, i32 %s)
  ret i32 0
}
"""
BUMP = r"""
@counter = external hidden global i32
define i32 @bump(i32 %x) {
  store i32 100, ptr @counter
  %y = add i32 %x, 1
  ret i32 %y
}
"""


def _pieces(*modules: str) -> list[objlink.ObjectPiece]:
    """Each module's object, as a worker makes it, in the order given."""
    target = llvm_stage.native_target(None, 2)
    out = []
    for n, text in enumerate(modules):
        with llvm_stage.native(text, f"<piece {n}>") as module:
            module.prepare(target, force_triple=False)
            out.append(objlink.ObjectPiece((n, 0, n), llvm_stage.emit_object(module, target)))
    return out


def _symbols(obj: bytes) -> dict[str, symtab.Symbol]:
    return {s.name: s for s in symtab.read_symbols(obj)}


def _text_relocations(obj: bytes) -> dict[str, list[int]]:
    """Symbol name -> offsets of the `.rela.text` relocations against it (`.text` is one section)."""
    elf = ELFFile(io.BytesIO(obj))
    table = elf.get_section_by_name(".symtab")
    out: dict[str, list[int]] = {}
    for r in elf.get_section_by_name(".rela.text").iter_relocations():
        out.setdefault(table.get_symbol(r["r_info_sym"]).name, []).append(r["r_offset"])
    return {name: sorted(offsets) for name, offsets in out.items()}


def _build(path: Path, mode: str = "none", level: int = 2, **kw: object) -> bytes:
    options = driver.BuildOptions(**{"opt_level": level, "split": mode, "jobs": 2, **kw})  # type: ignore[arg-type]
    out = driver.build(str(path), options).output
    assert isinstance(out, bytes)
    return out


def _same_as_serial(path: Path, level: int, modes: list[str], **kw: object) -> None:
    """Every mode's `--link object` build: the serial symbol table, the serial program's output."""
    reference = _build(path, "none", level)
    want = runner.run_object(reference)
    assert want.outcome == "exit 0" and want.stdout
    for mode in modes:
        obj = _build(path, mode, level, link="object", **kw)
        diff = symtab.diff_symbols(symtab.read_symbols(reference), symtab.read_symbols(obj))
        assert diff.clean, diff.render("--split none", f"--split {mode} --link object")
        # locals too (a comdat's signature symbol among them), and at -O0 every relocation target
        (sa, ra), (sb, rb) = symtab.read_tables(reference), symtab.read_tables(obj)
        problems = symtab.diff_full(sa, sb, ra, rb, exact_code=level == 0)
        assert not problems, (mode, problems)
        got = runner.run_object(obj)
        assert (got.stdout, got.outcome) == (want.stdout, want.outcome), mode


# ------------------------------------------------------------------ the merge on its own


def test_a_reference_resolves_to_the_definition_in_the_other_piece() -> None:
    main, bump = _pieces(MAIN, BUMP)
    merged = objlink.merge([bump, main][::-1], objlink.ObjectNames(local={"counter"}, private=set()))
    syms = _symbols(merged)
    assert syms["counter"].binding == "LOCAL" and syms["counter"].visibility == "DEFAULT" and syms["counter"].defined
    assert syms["bump"].defined and syms["bump"].binding == "GLOBAL"
    assert not syms["printf"].defined
    # main's call to bump keeps its place (main's .text comes first), and bump's store to
    # counter moved by main's .text, padded to bump's alignment
    main_relocs, bump_relocs, merged_relocs = (_text_relocations(o) for o in (main.obj, bump.obj, merged))
    assert merged_relocs["bump"] == main_relocs["bump"]
    main_text = next(s.size for s in symtab.read_symbols(main.obj) if s.name == "main")
    at = -(-main_text // 16) * 16
    assert merged_relocs["counter"] == sorted(main_relocs["counter"] + [at + o for o in bump_relocs["counter"]])
    assert runner.run_object(merged).stdout == b"got 142\n"


def test_a_dead_variable_is_dropped_with_its_initialisers_references() -> None:
    """A formerly local variable no other piece uses any more goes (with the undefined symbol
    only its initialiser named); one still used, by name or section-relative, stays."""
    owner = "@tbl = hidden global ptr @ext_fn\ndeclare void @ext_fn()\ndefine i32 @main() {\n  ret i32 0\n}\n"
    user = "@tbl = external hidden global ptr\ndefine ptr @get() {\n  %p = load ptr, ptr @tbl\n  ret ptr %p\n}\n"
    declarer = "define ptr @get() {\n  ret ptr null\n}\n"
    names = objlink.ObjectNames(local={"tbl"}, private=set(), dead_when_unused={"tbl"})
    kept = _symbols(objlink.merge(_pieces(owner, user), names))
    assert kept["tbl"].binding == "LOCAL" and "ext_fn" in kept
    dropped = _symbols(objlink.merge(_pieces(owner, declarer), names))
    assert "tbl" not in dropped and "ext_fn" not in dropped
    local_owner = owner.replace("hidden global", "internal global")
    used_here = local_owner.replace("ret i32 0", "%p = load ptr, ptr @tbl\n  call void %p()\n  ret i32 0")
    assert "tbl" in _symbols(objlink.merge(_pieces(used_here, declarer), names))
    assert "tbl" not in _symbols(objlink.merge(_pieces(local_owner, declarer), names))


def test_a_dead_variable_counts_only_references_to_itself() -> None:
    """`tbl.2` and `my_tbl` are other symbols, not uses of `tbl` (the text link once had to
    judge this from spellings); a reference at an offset, `tbl+8`, is a use."""
    owner = "@tbl = hidden global [2 x ptr] [ptr @ext_fn, ptr null]\ndeclare void @ext_fn()\n"
    others = (
        "@tbl.2 = external global ptr\n@my_tbl = external global ptr\n"
        "define void @get(ptr %out) {\n  %a = load ptr, ptr @tbl.2\n  store ptr %a, ptr %out\n"
        "  %b = load ptr, ptr @my_tbl\n  store volatile ptr %b, ptr %out\n  ret void\n}\n"
    )
    names = objlink.ObjectNames(local={"tbl"}, private=set(), dead_when_unused={"tbl"})
    dropped = _symbols(objlink.merge(_pieces(owner, others), names))
    assert "tbl" not in dropped and "ext_fn" not in dropped and "tbl.2" in dropped and "my_tbl" in dropped
    at_offset = "@tbl = external hidden global [2 x ptr]\n" + others.replace(
        "ret void", "%c = load ptr, ptr getelementptr (i8, ptr @tbl, i64 8)\n  store volatile ptr %c, ptr %out\n  ret void"
    )
    kept = _symbols(objlink.merge(_pieces(owner, at_offset), names))
    assert kept["tbl"].binding == "LOCAL" and "ext_fn" in kept


def test_explicit_sizes_and_spellings_are_written() -> None:
    text = "@__ember_n3 = global [4 x i32] zeroinitializer\n@al = alias i32, ptr @__ember_n3\n"
    names = objlink.ObjectNames(local=set(), private=set(), spellings={"__ember_n3": "with space"}, sizes={"al": 4})
    syms = _symbols(objlink.merge(_pieces(text, "define void @f() {\n  ret void\n}\n"), names))
    assert syms["al"].size == 4 and syms["with space"].size == 16 and "__ember_n3" not in syms


def test_the_harness_flags_break_bindings_and_section_offsets() -> None:
    """The two harness-only flags (fuzz/faults.py): without `restore_bindings` a module local
    and a crossed private stay global hidden, their references still resolved; without
    `shift_section_addends` the second piece's string is read from the first piece's bytes."""
    bump = BUMP.replace("define i32 @bump(i32 %x) {", "@sp = hidden constant [6 x i8] c\"wrong\\00\"\n"
                        "define ptr @other() {\n  ret ptr @.s\n}\n@.s = private constant [4 x i8] c\"abc\\00\"\n"
                        "define i32 @bump(i32 %x) {")
    pieces = _pieces(bump, MAIN)
    product = objlink.ObjectNames(local={"counter"}, private={"sp"})
    fine = objlink.merge(pieces, product)
    syms = _symbols(fine)
    assert syms["counter"].binding == "LOCAL" and "sp" not in syms
    assert runner.run_object(fine).stdout == b"got 142\n"
    leaked = objlink.merge(pieces, dataclasses.replace(product, restore_bindings=False))
    syms = _symbols(leaked)
    assert (syms["counter"].binding, syms["counter"].visibility) == ("GLOBAL", "HIDDEN")
    assert (syms["sp"].binding, syms["sp"].visibility) == ("GLOBAL", "HIDDEN")
    assert runner.run_object(leaked).stdout == b"got 142\n"
    unshifted = objlink.merge(pieces, dataclasses.replace(product, shift_section_addends=False))
    try:
        got: bytes | None = runner.run_object(unshifted).stdout
    except EmberError:  # ld may refuse first: `.eh_frame` entries point into the wrong piece
        got = None
    assert got != b"got 142\n"


@pytest.mark.parametrize("local", [set(), {"__ember_n3"}], ids=["base-not-a-module-local", "base-a-module-local"])
def test_an_alias_takes_its_base_size(local: set[str]) -> None:
    """`ObjectNames.size_of` (GlobalMerge's alias -> base): the alias gets the base's output
    size, written after `sizes`; the base found through the final names or, where it is no
    module local, by its (spelled) name among the locals."""
    text = "@__ember_n3 = internal global [4 x i64] zeroinitializer\n@k = weak alias i64, getelementptr (i8, ptr @__ember_n3, i64 8)\n"
    names = objlink.ObjectNames(local=local, private=set(), spellings={"__ember_n3": "k arr"}, sizes={"k": 8}, size_of={"k": "__ember_n3"})
    syms = _symbols(objlink.merge(_pieces(text, "define void @f() {\n  ret void\n}\n"), names))
    assert syms["k arr"].size == 32 and syms["k"].size == 32
    sized = objlink.ObjectNames(local=local, private=set(), spellings={"__ember_n3": "k arr"}, sizes={"k": 8})
    assert _symbols(objlink.merge(_pieces(text, "define void @f() {\n  ret void\n}\n"), sized))["k"].size == 8


def test_data_symbols_name_each_variables_section_and_size() -> None:
    """`objlink.data_symbols`: what GlobalMerge's decision reads of the pieces' objects."""
    one = "@a = internal global [3 x i32] [i32 1, i32 2, i32 3]\n@z = global i64 0\n@c = constant i16 7\n"
    two = "@a = external global [3 x i32]\ndefine ptr @f() {\n  ret ptr @a\n}\n"
    data = objlink.data_symbols(_pieces(one, two))
    assert data["a"] == (".data", 12) and data["z"] == (".bss", 8) and data["c"] == (".rodata", 2)
    assert "f" not in data


def _truncations(obj: bytes) -> list[bytes]:
    shoff = struct.unpack_from("<Q", obj, 40)[0]
    return [obj[:10], obj[:64], obj[: len(obj) // 2], obj[:shoff + 100], b"\x7fELF" + b"\2\1\1" + b"\0" * 200, obj[:4] + b"\1" + obj[5:]]


@pytest.mark.parametrize("cut", range(6))
def test_a_malformed_piece_is_one_located_line(cut: int) -> None:
    main, bump = _pieces(MAIN, BUMP)
    bad = objlink.ObjectPiece(bump.key, _truncations(bump.obj)[cut])
    with pytest.raises(EmberError) as info:
        objlink.merge([main, bad], objlink.ObjectNames(local={"counter"}, private=set()))
    shown = info.value.render()
    assert "\n" not in shown and "object link" in shown, shown
    assert shown.startswith("<object of subgraph 0 piece 1>: error:") or shown.startswith("<object of subgraph 0 piece 0>: error:"), shown


# ------------------------------------------------------------------ split builds


@pytest.mark.parametrize("level", [0, 2])
def test_legal_ir_spellings_keep_the_serial_symbol_table(level: int) -> None:
    """Private `@rax`/`@str`, quoted `@"with space"`/`@"q\\22uote"`, `@movq`, TLS, a comdat, an alias."""
    _same_as_serial(DATA / "objlink_names.ll", level, MODES, subgraph_cost=1, piece_cost=1)


@pytest.mark.parametrize("level", [0, 2])
@pytest.mark.parametrize("name", ["linkages", "split_semantics"])
def test_checklist_modules(name: str, level: int) -> None:
    # at -O0 two pieces bring the comdat whose signature names no symbol: the local signature
    # symbol LLVM writes in each piece's group must be the output group's, once
    _same_as_serial(DATA / f"{name}.ll", level, MODES, subgraph_cost=1)


@pytest.mark.parametrize("level", [0, 2])
def test_a_losing_comdat_members_locals_go_with_it(level: int) -> None:
    """Two pieces bring `DW.ref.pers`; the second's member is dropped, and with it AArch64's `$d`
    mapping symbol in it (it was kept, bound to no section). Every local compared, as at -O0
    (fuzz/regressions/aarch64/comdat_member_mapping_symbol.ll; no cross tools needed)."""
    src = Path(__file__).parent.parent / "fuzz" / "regressions" / "aarch64" / "comdat_member_mapping_symbol.ll"
    reference = _build(src, "none", level, target=cross.AARCH64)
    for mode in MODES:
        obj = _build(src, mode, level, target=cross.AARCH64, subgraph_cost=1)
        (sa, ra), (sb, rb) = symtab.read_tables(reference), symtab.read_tables(obj)
        assert not symtab.diff_full(sa, sb, ra, rb, exact_code=True), mode


@pytest.mark.parametrize("level", [0, 2])
def test_a_generated_module(tmp_path: Path, level: int) -> None:
    src = tmp_path / "gen.ll"
    src.write_text(generate(2, ModuleShape(functions=120)))
    _same_as_serial(src, level, ["two-level"], subgraph_cost=150)


@pytest.mark.parametrize("mode", ["two-level", "subgraph", "function"])
def test_emit_asm_of_a_split_mode_is_the_serial_assembly_with_a_note(mode: str, ember, tmp_path: Path) -> None:
    """The split back end links objects: `--emit asm` writes the one module's assembly, as
    `--split none` does, and an explicit split mode says so in one note."""
    path = DATA / "linkages.ll"
    serial = ember("build", str(path), "--split", "none", "--emit", "asm", "-o", "-")
    split = ember("build", str(path), "--split", mode, "--split-cost", "1", "--emit", "asm", "-o", "-")
    assert serial.status == split.status == 0, split.stderr
    assert split.stdout == serial.stdout and not re.search(r"\.Lp\d+_\d+_", split.stdout)
    notes = [line for line in split.stderr.splitlines() if line.startswith("ember: note:")]
    assert len(notes) == 1 and f"--split {mode}" in notes[0] and "serial back end" in notes[0], split.stderr
    assert "ember: note:" not in serial.stderr
    auto = ember("build", str(path), "--emit", "asm", "-o", "-")
    assert auto.stdout == serial.stdout and "ember: note:" not in auto.stderr
    plan = ember("build", str(path), "--emit", "asm", "--print-split-plan", "-o", "-")  # a plan asked for: why none
    notes = [line for line in plan.stderr.splitlines() if line.startswith("ember: note:")]
    assert plan.stdout == serial.stdout and len(notes) == 1 and "serial back end" in notes[0], plan.stderr


def test_the_link_option(ember, tmp_path: Path) -> None:
    out = tmp_path / "x.o"
    done = ember("build", str(DATA / "linkages.ll"), "--split", "subgraph", "--split-cost", "1", "--link", "object",
                 "-o", str(out), "--time-report")
    assert done.status == 0, done.stderr
    assert "link: asm" not in done.stderr and "\nassemble " not in done.stderr
    assert runner.run_object(out.read_bytes()).outcome == "exit 0"
    for link in ("text", "asm"):
        bad = ember("build", str(DATA / "linkages.ll"), "--link", link, "-o", str(tmp_path / "bad.o"))
        assert bad.status == 2 and "--link" in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr
        assert not (tmp_path / "bad.o").exists()


def _line_rows(obj: bytes, tmp_path: Path, tag: str) -> list[str]:
    """The object's line-table rows (address, line, column), after `llvm-dwarfdump --verify` passed."""
    path = tmp_path / f"{tag}.o"
    path.write_bytes(obj)
    verify = run_tool("llvm-dwarfdump", "--verify", path, check=False)
    assert verify.returncode == 0 and "No errors." in verify.stdout, verify.stdout[-2000:]
    dump = run_tool("llvm-dwarfdump", "--debug-line", path).stdout
    return [" ".join(line.split()[:3]) for line in dump.splitlines() if line.startswith("0x")]


@pytest.mark.parametrize("level", [0, 2])
def test_debug_info_verifies_and_keeps_the_line_rows(level: int, tmp_path: Path) -> None:
    """`-g`: each piece's object has a line table per unit, concatenated with its relocations:
    the DWARF verifies, it holds exactly the serial object's (line, column) rows (each piece
    ends its own sequences, so only the set compares), every function whose code is the
    serial one's symbolises as it does; the program behaves the same."""
    path = Path(__file__).parent.parent / "examples" / "bank.em"
    serial = _build(path, "none", level, debug_info=True)
    obj = _build(path, "two-level", level, subgraph_cost=1, piece_cost=1, debug_info=True)
    rows = {tag: {tuple(row.split()[1:3]) for row in _line_rows(o, tmp_path, tag)} for tag, o in (("serial", serial), ("split", obj))}
    assert rows["split"] == rows["serial"] and len(rows["serial"]) > 5
    check = debuginfo.compare_lines(serial, obj)
    assert not check.differences and check.exact >= 1, (check.differences, check)
    want, got = runner.run_object(serial), runner.run_object(obj)
    assert (got.stdout, got.outcome) == (want.stdout, want.outcome) and want.stdout


# ------------------------------------------------------------------ AArch64


@pytest.mark.parametrize("level", [0, 2])
@pytest.mark.parametrize("name", ["objlink_names", "split_semantics"])
def test_aarch64_symbol_tables(name: str, level: int) -> None:
    """AArch64 objects (mapping symbols, ADRP/ADD pairs, its TLS) merge to the serial table,
    the same bytes at -j1 and -j2."""
    src = DATA / f"{name}.ll"
    serial = _build(src, "none", level, target=aarch64.TRIPLE)
    for mode in MODES:
        objects = [_build(src, mode, level, target=aarch64.TRIPLE, subgraph_cost=1, piece_cost=1, link="object", jobs=j)
                   for j in (1, 2)]
        assert objects[0] == objects[1], f"--split {mode}: bytes differ between -j1 and -j2"
        diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(objects[1]))
        assert diff.clean, diff.render("--split none", f"--split {mode} --link object")


@pytest.mark.parametrize("level", [2, 3])
def test_globalmerge_alias_sizes(level: int) -> None:
    """The object link writes the serial alias sizes itself: where no piece merges (-O2),
    and at -O3, where AArch64's GlobalMerge decides them over every piece's code (judged on
    the optimised subgraphs' uses and the pieces' data symbols); no text link serves."""
    src = Path(__file__).parent.parent / "fuzz" / "regressions" / "aarch64" / "globalmerge_alias_size.ll"
    serial = _build(src, "none", level, target=aarch64.TRIPLE)
    options = driver.BuildOptions(opt_level=level, split="subgraph", subgraph_cost=93, jobs=2, target=aarch64.TRIPLE, link="object")
    result = driver.build(str(src), options)
    assert isinstance(result.output, bytes)
    diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(result.output))
    assert diff.clean, diff.render("--split none", "--link object")
    sizes = [{s.name: s.size for s in symtab.read_symbols(obj) if s.name in ("k2_alg", "k2_arr")} for obj in (serial, result.output)]
    assert sizes[1] == sizes[0] and sizes[0], sizes
    assert not any("link: asm" in note for note in result.times.notes), result.times.notes


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "g"])
def test_aarch64_c_program_runs(program: Path, debug: bool, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    """The cross-compiled C program (tests/test_aarch64.py's `program`) built with the object
    link runs under qemu with the serial build's output."""
    serial = _build(program, "none", 2, debug_info=debug)
    split = _build(program, "two-level", 2, subgraph_cost=1, piece_cost=1, debug_info=debug, link="object")
    diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(split))
    assert diff.clean, diff.render("--split none", "--link object")
    outputs = []
    for name, obj in (("serial", serial), ("split", split)):
        (tmp_path / f"{name}.o").write_bytes(obj)
        exe = cross.link([tmp_path / f"{name}.o"], tmp_path / name)
        proc = subprocess.run([*cross.runner_prefix(), str(exe), "x"], capture_output=True, text=True, timeout=60)
        outputs.append((proc.returncode, proc.stdout))
    assert outputs[0][0] == 0 and "tls=" in outputs[0][1], outputs[0]
    assert outputs[1] == outputs[0]


def test_a_note_every_piece_repeats_is_kept_once() -> None:
    """`.note.gnu.property` (CET's module flags, the same in every piece) is one note, as one
    object of the whole module would have it."""
    flags = '!llvm.module.flags = !{!0}\n!0 = !{i32 8, !"cf-protection-branch", i32 1}\n'
    pieces = _pieces(MAIN + flags, BUMP + flags)
    merged = objlink.merge(pieces, objlink.ObjectNames(local={"counter"}, private=set()))
    sizes = [ELFFile(io.BytesIO(o)).get_section_by_name(".note.gnu.property").data_size for o in (pieces[0].obj, merged)]
    assert sizes[0] > 0 and sizes[1] == sizes[0]


def test_save_pieces_keeps_each_pieces_object(tmp_path: Path) -> None:
    """`--save-pieces` with the object link: the plan, the subgraphs and one `.o` per piece,
    each a relocatable object the merge reads; the build's object is what they merge to."""
    out = _build(DATA / "linkages.ll", "two-level", subgraph_cost=1, link="object", save_pieces=str(tmp_path))
    objects = sorted(tmp_path.glob("piece-*.o"))
    assert (tmp_path / "plan.txt").exists() and len(objects) > 1 and not list(tmp_path.glob("piece-*.s"))
    assert all(o.read_bytes()[:4] == b"\x7fELF" for o in objects)
    assert runner.run_object(out).outcome == "exit 0"
