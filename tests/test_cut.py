"""The in-memory cut (compiler/backend/cut.py) against the plan's decisions.

Each subgraph of a plan is cut from the whole module's bitcode and checked against what its
`CutSpec` asks, read from the whole module independently of the cut's code: every member
defined with its body (instruction count), under its new name where renamed, with the
linkage and visibility its role gives it (exported: external hidden; imported or a folded
constant: available_externally, hidden when local; kept: as it was); every other value a
declaration (hidden when it was local); the module asm in the first piece only; each
definition of the module owned (defined under its own name, not as a copy) by exactly one
piece; and each piece verifies and goes through the worker's optimise and codegen.
(Until step 7 of docs/bench/plan-facts/DESIGN.md the oracle was the planner's text pieces,
deleted with the text path; the census and codegen equality held on every input here.)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler.backend import cut, engine, llvm_stage, names, planner, split
from compiler.diagnostics import EmberError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests/data"
SMALL = [
    ROOT / "lit-tests/backend/Inputs/legal-names.ll",
    ROOT / "lit-tests/backend/Inputs/shared-callee.ll",
    ROOT / "tests/data/linkages.ll",
    ROOT / "tests/data/split_semantics.ll",
    ROOT / "tests/data/aarch64/globalmerge_aliases.ll",
]
LUA = sorted((ROOT / ".cache/corpus/bc").glob("lua-*.bc"))

HOSTILE = """
module asm ".globl from_module_asm"
module asm "from_module_asm: ret"
@tls = internal thread_local global i32 0
@tls_alias = internal alias i32, ptr @tls
@table = internal global [2 x ptr] [ptr @one, ptr @two]
@0 = private constant [3 x i8] c"hi\\00"
@1 = internal global i32 7

define internal i32 @one() { ret i32 1 }
define internal i32 @two() { ret i32 2 }
define internal ptr @resolve() { ret ptr @one }
@picked = ifunc i32 (), ptr @resolve

define i32 @reads_tls() {
  %v = load i32, ptr @tls_alias
  %w = load i32, ptr @1
  %s = add i32 %v, %w
  ret i32 %s
}

define i32 @calls_table(i32 %i) {
  %p = getelementptr [2 x ptr], ptr @table, i32 0, i32 %i
  %f = load ptr, ptr %p
  %r = call i32 %f()
  %q = call i32 @picked()
  %s = add i32 %r, %q
  ret i32 %s
}

define ptr @greeting() { ret ptr @0 }
"""


@dataclass
class Prepared:
    """A module as the split driver has it after planning: the plan, the bitcode (without the
    module asm, which travels apart), that asm, the triple, and every global value's census."""

    plan: planner.SplitPlan
    bitcode: bytes
    asm: str
    triple: str
    census: dict[str, tuple[int, bool, int, int, bool | None, int, int]]


def _policy(level: int, cost: int) -> planner.PlanPolicy:
    return planner.PlanPolicy(
        target_cost=cost, import_cost=planner.IMPORT_COST if level else 0, import_always_inline=True,
        inline_level=level, serial_argument_facts=level >= 1, serial_alias_facts=level >= 1,
    )


def _prepared(data: bytes | str, level: int, cost: int = 1, debug: bool = False) -> Prepared:
    """Prepared (`split.prepare_whole_module`) and planned as the split driver does."""
    with engine.Module(data) as module:
        target = llvm_stage.native_target(module.triple or None, level)
        module.prepare(target, force_triple=False)
        if not debug:
            module.strip_debug_info()
        split.prepare_whole_module(module, target, level)
        bitcode, asm = split.whole_module_bitcode(module)
        census = _census(module)
        plan = planner.plan(module, policy=_policy(level, cost))
        return Prepared(plan, bitcode, asm, target.triple, census)


def _census(module: engine.Module) -> dict[str, tuple[int, bool, int, int, bool | None, int, int]]:
    """Every global value: kind, declaration, linkage, visibility, constness, instructions,
    thread-local mode (of an alias: its variable's)."""
    lib = engine.capi()
    cut._api()
    out = {}
    for value in module.global_values():
        ref = value.ref
        kind = lib.LLVMGetValueKind(ref)
        declaration = bool(lib.LLVMIsDeclaration(ref)) if kind in (5, 8) else False
        count = 0
        block = lib.LLVMGetFirstBasicBlock(ref) if kind == 5 else None
        while block:
            inst = lib.LLVMGetFirstInstruction(block)
            while inst:
                count += 1
                inst = lib.LLVMGetNextInstruction(inst)
            block = lib.LLVMGetNextBasicBlock(block)
        constant = bool(lib.LLVMIsGlobalConstant(ref)) if kind == 8 else None
        variable = ref if kind == 8 else engine.aliased_variable(ref) if kind == 6 else None
        tls = lib.LLVMGetThreadLocalMode(variable) if variable else 0
        out[value.name] = (kind, declaration, value.linkage, lib.LLVMGetVisibility(ref), constant, count, tls)
    return out


def _assembly(module: engine.Module, triple: str, level: int) -> list[str]:
    """What a worker makes of the piece (stand-ins deleted after optimisation), normalised."""
    target = llvm_stage.native_target(triple, level)
    module.prepare(target, force_triple=False)
    llvm_stage.optimise(module, target, level)
    for v in [v for v in module.definitions() if v.name.startswith((planner.KEEPER_PREFIX, planner.CALLER_PREFIX))]:
        v.delete_function()
    lines = [ln.replace("@PLT", "") for ln in llvm_stage.emit_assembly(module, target).splitlines()]
    hidden = sorted(ln for ln in lines if ln.startswith("\t.hidden"))
    return [ln for ln in lines if not ln.startswith("\t.hidden")] + hidden


_VARIABLE_KIND = 8
_HIDDEN = 1
_DISCARDABLE = (engine.LINKONCE_ANY, engine.LINKONCE_ODR)


def _check_piece(
    piece: engine.Module, spec: cut.CutSpec, whole: dict[str, tuple[int, bool, int, int, bool | None, int, int]],
    asm: str, where: str,
) -> dict[str, tuple[int, bool, int, int, bool | None, int, int]]:
    """`piece` holds what `spec` asks of the `whole` module's census; returns its census."""
    piece.verify()
    got = _census(piece)
    assert (piece.module_asm() == asm) == (spec.asm or not asm), f"{where}: module asm"
    shown = {}
    for name, (how, new_name) in spec.keep.items():
        kind, _decl, linkage, visibility, constant, count, _tls = whole[name]
        shown[new_name or name] = name
        found = got.get(new_name or name)
        assert found is not None, f"{where}: {name} kept, not in the piece"
        g_kind, g_decl, g_linkage, g_visibility, g_constant, g_count, _g_tls = found
        assert g_kind == kind and not g_decl and g_count == count, f"{where}: {name}: {found} for {whole[name]}"
        local = linkage in (engine.INTERNAL, engine.PRIVATE)
        if how == cut.EXPORT:
            assert (g_linkage, g_visibility) == (0, _HIDDEN), f"{where}: exported {name}: {found}"
        elif how in (cut.IMPORT, cut.FOLD):
            wanted = (engine.AVAILABLE_EXTERNALLY, _HIDDEN if local else visibility)
            assert (g_linkage, g_visibility) == wanted, f"{where}: imported {name}: {found}"
        else:
            assert (g_linkage, g_visibility) == (linkage, visibility), f"{where}: kept {name}: {found}"
        if name in spec.constants:
            assert g_constant, f"{where}: {name} marked constant"
        elif kind == _VARIABLE_KIND:
            assert g_constant == constant, f"{where}: {name} constness"
    stand_ins = (planner.KEEPER_PREFIX, planner.CALLER_PREFIX)
    for name, found in got.items():
        if name in shown or name.startswith(stand_ins):
            continue
        assert name in whole, f"{where}: {name} is in no module"
        g_kind, g_decl, g_linkage, g_visibility, _c, _n, g_tls = found
        assert g_decl, f"{where}: {name} is defined but not kept: {found}"
        assert g_tls == whole[name][6], f"{where}: {name} declared with thread-local mode {g_tls}: {whole[name]}"
        if whole[name][2] in (engine.INTERNAL, engine.PRIVATE):
            assert (g_linkage, g_visibility) == (0, _HIDDEN), f"{where}: local {name} declared {found}"
    return got


def _check_same(data: bytes | str, level: int, cost: int, debug: bool = False) -> int:
    """Every subgraph's cut holds what its spec asks (`_check_piece`), each definition of the
    module is owned by one subgraph, and every piece goes through the worker's stages."""
    made = _prepared(data, level, cost, debug)
    owners: dict[str, int] = {}
    for sg in made.plan.subgraphs:
        assert sg.cut is not None
        with cut.cut(made.bitcode, sg.cut, "cut piece", made.asm) as piece:
            _check_piece(piece, sg.cut, made.census, made.asm, f"subgraph {sg.index}")
            _assembly(piece, made.triple, level)
        for name, (how, new_name) in sg.cut.keep.items():
            if how in (cut.AS_IS, cut.EXPORT) and not new_name:
                owners[name] = owners.get(name, 0) + 1
    defined = {n for n, (_kind, decl, linkage, *_rest) in made.census.items() if not decl}
    # a discardable (linkonce) definition is kept by every subgraph that uses it, the link keeps one
    shared = {n for n in defined if made.census[n][2] in _DISCARDABLE}
    assert {n: owners.get(n, 0) for n in defined - shared if owners.get(n, 0) != 1} == {}, "owned by one subgraph each"
    assert all(owners.get(n, 0) >= 1 for n in shared), "kept by some subgraph"
    return len(made.plan.subgraphs)


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
@pytest.mark.parametrize("level,cost", [(2, 1), (2, planner.TARGET_SUBGRAPH_COST), (0, 1)])
def test_cut_holds_its_spec(path: Path, level: int, cost: int) -> None:
    _check_same(path.read_text(), level, cost)


@pytest.mark.parametrize("level,cost", [(2, 1), (0, 1), (2, planner.TARGET_SUBGRAPH_COST)])
def test_cut_with_debug_info_holds_its_spec(level: int, cost: int) -> None:
    """-g: each cut lists the units its IR reaches, each with the variables it defines, as the
    text piece does (compiler/backend/cutdebug.py): the DWARF in the assembly is the same."""
    assert _check_same((DATA / "debug_two_units.ll").read_text(), level, cost, debug=True) >= (2 if cost == 1 else 1)


def test_cut_with_debug_info_and_an_alias() -> None:
    """An alias carries no metadata: the walk of a `-g` cut's roots must not ask it for any
    (LLVM asserts: the fuzz campaign's -g two-level builds of a module with aliases died)."""
    aliases = "\n@api_alias = alias i32 (i32), ptr @api\n@shared_alias = alias i32, ptr @shared_value\n"
    text = (DATA / "debug_two_units.ll").read_text() + aliases
    assert _check_same(text, 2, 1, debug=True) >= 2


def test_cut_with_debug_info_on_the_hostile_module() -> None:
    """The two -g units with the hostile module beside them (a thread-local and its alias,
    an ifunc, a table of local functions, module asm, unnamed values): level 1 at -O0/-O2
    and level 2 agree with the text pieces."""
    hostile = (HOSTILE.replace("@table", "@htable").replace("@0 ", "@h0 ").replace("ptr @0", "ptr @h0")
               .replace("@1 ", "@h1 ").replace("ptr @1", "ptr @h1"))
    mixed = (DATA / "debug_two_units.ll").read_text() + "\n" + hostile
    for level in (0, 2):
        assert _check_same(mixed, level, 1, debug=True) >= 4
        assert _check_level2(mixed, level, debug=True) >= 4


def test_a_cut_that_crashes_is_printed_as_the_whole_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that died on its cut is saved through `split._printed_cut`: a cut that ends
    the process there ends a forked child, and the whole module is printed instead."""
    made = _prepared(HOSTILE, 2)
    spec = made.plan.subgraphs[0].cut
    assert spec is not None
    monkeypatch.setattr(cut, "cut", lambda *_args, **_kw: os.abort())
    printed = split._printed_cut((made.bitcode, made.asm), spec)
    assert printed.startswith("; ember: cutting this piece failed (LLVM crashed (SIGABRT) while cutting the piece)")
    assert "; the piece keeps: " in printed and "define i32 @calls_table" in printed and "from_module_asm" in printed


@pytest.mark.parametrize("level", [0, 2])
def test_cut_hostile_module(level: int) -> None:
    """An alias of a thread-local, an ifunc, a table of local functions, unnamed values,
    each used from another subgraph than its owner's."""
    assert _check_same(HOSTILE, level, 1) >= 3


@pytest.mark.skipif(not LUA, reason="the corpus is not built (ci/corpus.sh builds it)")
def test_cut_holds_its_spec_on_lua() -> None:
    assert _check_same(LUA[0].read_bytes(), 2, planner.TARGET_SUBGRAPH_COST) >= 4


def _check_level2(data: bytes | str, level: int, debug: bool = False) -> int:
    """Level 2 on an optimised subgraph (the whole module, optimised): each cut
    `planner.split_functions` makes holds what its spec asks of the optimised module (named
    as `split_functions` named it), and each definition is in exactly one piece."""
    made = _prepared(data, level, debug=debug)
    with engine.Module(made.bitcode, "whole") as optimised:
        optimised.set_module_asm(made.asm)
        llvm_stage.optimise(optimised, llvm_stage.native_target(made.triple, level), level)
        pieces, _local, _private = planner.split_functions(optimised, set(), 7, per_function=True, piece_cost=1)
        census = _census(optimised)
        piece_asm, optimised_bitcode = split.whole_module_bitcode(optimised)[::-1]
    owners: dict[str, int] = {}
    for i, (_members, spec, _shared) in enumerate(pieces):
        with cut.cut(optimised_bitcode, spec, "cut piece", piece_asm) as in_memory:
            _check_piece(in_memory, spec, census, piece_asm, f"piece {i}")
            _assembly(in_memory, made.triple, 0)
        for name, (how, _new) in spec.keep.items():
            owners[name] = owners.get(name, 0) + (how in (cut.AS_IS, cut.EXPORT))
    defined = {n for n, (kind, decl, *_rest) in census.items() if not decl}
    assert {n: owners.get(n, 0) for n in defined if owners.get(n, 0) != 1} == {}, "in one piece each"
    return len(pieces)


@pytest.mark.parametrize("data,debug", [(HOSTILE, False), ((DATA / "split_semantics.ll").read_text(), False),
                                        ((DATA / "debug_two_units.ll").read_text(), True)],
                         ids=["hostile", "split_semantics", "debug_two_units"])
def test_level2_cut_holds_its_spec(data: str, debug: bool) -> None:
    assert _check_level2(data, 2, debug) >= 3


def test_name_unnamed_numbers_as_the_printer() -> None:
    """Naming in memory names `@N` `__ember_unnamed_N`, N as the printer numbers it."""
    with engine.Module(HOSTILE) as module:
        printed = module.text()
        names.name_unnamed(module)
        assert re.search(r"@[0-9]+\b", printed) and not re.search(r"@[0-9]+\b", module.text())
        assert module.text() == re.sub(r"@([0-9]+)\b", r"@__ember_unnamed_\1", printed)


def test_module_asm_goes_with_subgraph_zero_only() -> None:
    """The module's asm, kept out of the bitcode, is in the first piece and in no other."""
    made = _prepared(HOSTILE, 2)
    assert "from_module_asm" in made.asm
    assert len(made.plan.subgraphs) >= 2
    for sg in made.plan.subgraphs:
        assert sg.cut is not None
        with cut.cut(made.bitcode, sg.cut, "piece", made.asm) as piece:
            assert (piece.module_asm() == made.asm) == (sg.index == 0)


def test_cut_refuses_garbage() -> None:
    with pytest.raises(engine.EngineError, match="not a readable bitcode module"):
        cut.cut(b"BC\xc0\xdegarbage", cut.CutSpec({}), "garbage")


def test_cxx_entry_points_exist() -> None:
    """The C++ methods the cut calls by mangled name are in the wheel's libLLVM.so."""
    lib, cxx = cut._api()
    assert lib is engine.capi()
    for fn in (cxx.delete_body, cxx.remove_dead_constant_users, cxx.materialize_all, cxx.erase_alias):
        assert fn is not None


#: inline asm in a local function and in an exported one, called from functions without asm
INLINE_ASM = (
    'module asm ".globl marker"\nmodule asm "marker: ret"\n'
    'define internal void @spin() {\n  call void asm sideeffect "pause", ""()\n  ret void\n}\n'
    'define i32 @fence(i32 %x) {\n  call void asm sideeffect "mfence", "~{memory}"()\n  ret i32 %x\n}\n'
    "define i32 @plain(i32 %x) {\n  call void @spin()\n  %y = call i32 @fence(i32 %x)\n  ret i32 %y\n}\n"
)
RUST_REGEX = sorted((ROOT / ".cache/corpus/rust").glob("rust-regex-*/module.bc"))


def _check_probe(data: bytes | str) -> None:
    """The asm probe cut from the bitcode: the module asm, the functions holding inline asm
    defined as they were, everything else they name declared; -O0 code for it."""
    made = _prepared(data, 0)
    probe = made.plan.asm_probe
    assert probe is not None
    with cut.cut(made.bitcode, probe.cut, "cut probe", made.asm) as in_memory:
        got = _check_piece(in_memory, probe.cut, made.census, made.asm, "probe")
        assert in_memory.module_asm() == made.asm
        assert {n for n, (_k, decl, *_r) in got.items() if not decl} == set(probe.cut.keep)
        _assembly(in_memory, made.triple, 0)


@pytest.mark.parametrize("data", [HOSTILE, INLINE_ASM], ids=["module-asm", "inline-asm"])
def test_asm_probe_cut_holds_the_asm(data: str) -> None:
    _check_probe(data)


@pytest.mark.skipif(not RUST_REGEX, reason="the corpus is not built (ci/corpus.sh builds it)")
def test_asm_probe_cut_holds_the_asm_on_rust_regex() -> None:
    """11 lines of inline asm in 3,481 functions."""
    _check_probe(RUST_REGEX[0].read_bytes())


@pytest.mark.parametrize("bad", [
    'module asm "  bogus_instruction %rax"\n' + INLINE_ASM,
    INLINE_ASM.replace('"mfence"', '"bogus_instruction %rax"'),
], ids=["module-asm", "inline-asm"])
def test_bad_asm_fails_alike_in_the_cut_probe(tmp_path: Path, bad: str) -> None:
    """Generating code for the probe fails with one located line (what `--split none` says
    of the same module: the serial build parses the whole module)."""
    made = _prepared(bad, 0)
    probe = made.plan.asm_probe
    assert probe is not None
    whole = split.WholeModule(str(tmp_path / "module.bc"), made.asm)
    Path(whole.bitcode_path).write_bytes(made.bitcode)
    config = split.BackendConfig(opt_level=0, triple=made.triple)
    with pytest.raises(EmberError) as failed:
        split.codegen_isolated(split.CutPiece(whole, probe.cut), "obj", 1, config, "in.ll", 120)
    said = str(failed.value)
    assert "inline asm: invalid instruction mnemonic 'bogus_instruction'" in said, said
    with pytest.raises(EmberError) as serial:
        split.codegen_isolated(bad, "obj", 1, config, "in.ll", 120)
    assert str(serial.value) == said
