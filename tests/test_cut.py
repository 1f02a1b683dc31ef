"""The in-memory cut (compiler/backend/cut.py) against the text pieces the planner writes.

Each subgraph of a plan is built both ways, from the same decisions (`planner.cut_spec`,
`planner.piece_text`): the two modules must hold the same global values with the same
linkage, visibility, constness and instruction counts, and optimise to the same assembly
(up to two differences the text path causes: the order of `.hidden` lines, and `@PLT` on
calls to an import the text path strips of `dso_local`).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from compiler.backend import cut, engine, irmodel, llvm_stage, names, planner, split
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


def _prepared(data: bytes | str, level: int, debug: bool = False) -> tuple[str, bytes, str, str]:
    """The module as the split driver has it before planning (`split.prepare_whole_module`):
    its text, its bitcode (without the module asm, which travels apart) and that asm."""
    with engine.Module(data) as module:
        target = llvm_stage.native_target(module.triple or None, level)
        module.prepare(target, force_triple=False)
        if not debug:
            module.strip_debug_info()
        split.prepare_whole_module(module, target, level)
        text, asm = module.text(), module.module_asm()
        module.set_module_asm("")
        return text, module.bitcode(), asm, target.triple


def _plan(text: str, level: int, cost: int) -> planner.SplitPlan:
    policy = planner.PlanPolicy(
        target_cost=cost, import_cost=planner.IMPORT_COST if level else 0, import_always_inline=True,
        inline_level=level, serial_argument_facts=level >= 1, serial_alias_facts=level >= 1,
    )
    return planner.plan(text, policy=policy, strip_debug=False)


def _census(module: engine.Module) -> dict[str, tuple[int, bool, int, int, bool | None, int]]:
    """Every global value: kind, declaration, linkage, visibility, constness, instructions."""
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
        out[value.name] = (kind, declaration, value.linkage, lib.LLVMGetVisibility(ref), constant, count)
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


def _check_same(data: bytes | str, level: int, cost: int, debug: bool = False) -> int:
    text, bitcode, asm, triple = _prepared(data, level, debug)
    plan = _plan(text, level, cost)
    for sg in plan.subgraphs:
        assert sg.cut is not None
        with engine.Module(sg.text, "text piece") as by_text, cut.cut(bitcode, sg.cut, "cut piece", asm) as in_memory:
            in_memory.verify()
            expected, got = _census(by_text), _census(in_memory)
            differs = {n: (expected.get(n), got.get(n)) for n in expected.keys() | got.keys() if expected.get(n) != got.get(n)}
            assert not differs, f"subgraph {sg.index}: {differs}"
            a, b = _assembly(by_text, triple, level), _assembly(in_memory, triple, level)
            assert a == b, f"subgraph {sg.index}:\n" + "\n".join(list(difflib.unified_diff(a, b, lineterm="", n=1))[:40])
    return len(plan.subgraphs)


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
@pytest.mark.parametrize("level,cost", [(2, 1), (2, planner.TARGET_SUBGRAPH_COST), (0, 1)])
def test_cut_equals_text_piece(path: Path, level: int, cost: int) -> None:
    _check_same(path.read_text(), level, cost)


@pytest.mark.parametrize("level,cost", [(2, 1), (0, 1), (2, planner.TARGET_SUBGRAPH_COST)])
def test_cut_with_debug_info_equals_text_piece(level: int, cost: int) -> None:
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
    _text, bitcode, asm, _triple = _prepared(HOSTILE, 2)
    plan = _plan(_text, 2, 1)
    spec = plan.subgraphs[0].cut
    assert spec is not None
    monkeypatch.setattr(cut, "cut", lambda *_args, **_kw: os.abort())
    printed = split._printed_cut((bitcode, asm), spec)
    assert printed.startswith("; ember: cutting this piece failed (LLVM crashed (SIGABRT) while cutting the piece)")
    assert "; the piece keeps: " in printed and "define i32 @calls_table" in printed and "from_module_asm" in printed


@pytest.mark.parametrize("level", [0, 2])
def test_cut_hostile_module(level: int) -> None:
    """An alias of a thread-local, an ifunc, a table of local functions, unnamed values,
    each used from another subgraph than its owner's."""
    assert _check_same(HOSTILE, level, 1) >= 3


@pytest.mark.skipif(not LUA, reason="the corpus is not built (ci/corpus.sh builds it)")
def test_cut_equals_text_piece_on_lua() -> None:
    assert _check_same(LUA[0].read_bytes(), 2, planner.TARGET_SUBGRAPH_COST) >= 4


def _check_level2(data: bytes | str, level: int, debug: bool = False) -> int:
    """Level 2 on an optimised subgraph (the whole module, optimised): the cuts
    `planner.split_functions` makes equal the text pieces `piece_text` renders of the same
    layout (names given as the text's: unnamed values numbered, fresh locals suffixed)."""
    _text, bitcode, asm, triple = _prepared(data, level, debug)
    with engine.Module(bitcode, "whole") as optimised:
        optimised.set_module_asm(asm)
        llvm_stage.optimise(optimised, llvm_stage.native_target(triple, level), level)
        pieces, _local, _private = planner.split_functions(optimised, set(), 7, per_function=True, piece_cost=1)
        named = optimised.text()  # after split_functions named it
        piece_asm = optimised.module_asm()
        optimised.set_module_asm("")
        optimised_bitcode = optimised.bitcode()
    mod = irmodel.parse_module(named)
    layout = planner.level2_layout(mod, per_function=True, piece_cost=1)
    assert [members for members, _spec, _shared in pieces] == layout.pieces
    for i, (members, spec, _shared) in enumerate(pieces):
        text = planner.piece_text(mod, members, layout.exported, include_asm=(i == 0))
        with engine.Module(text, "text piece") as by_text, cut.cut(optimised_bitcode, spec, "cut piece", piece_asm) as in_memory:
            in_memory.verify()
            assert _census(by_text) == _census(in_memory), f"piece {i}"
            a, b = _assembly(by_text, triple, 0), _assembly(in_memory, triple, 0)
            assert sorted(a) == sorted(b), f"piece {i}:\n" + "\n".join(list(difflib.unified_diff(a, b, lineterm="", n=1))[:40])
    return len(pieces)


@pytest.mark.parametrize("data,debug", [(HOSTILE, False), ((DATA / "split_semantics.ll").read_text(), False),
                                        ((DATA / "debug_two_units.ll").read_text(), True)],
                         ids=["hostile", "split_semantics", "debug_two_units"])
def test_level2_cut_equals_text_piece(data: str, debug: bool) -> None:
    assert _check_level2(data, 2, debug) >= 3


def test_name_unnamed_numbers_as_the_printer() -> None:
    """Naming in memory gives the names the planner gives the printed text."""
    with engine.Module(HOSTILE) as module:
        printed = planner.name_unnamed(module.text())
        names.name_unnamed(module)
        assert module.text() == printed


def test_module_asm_goes_with_subgraph_zero_only() -> None:
    """The module's asm, kept out of the bitcode, is in the first piece and in no other."""
    text, bitcode, asm, _triple = _prepared(HOSTILE, 2)
    assert "from_module_asm" in asm
    plan = _plan(text, 2, 1)
    assert len(plan.subgraphs) >= 2
    for sg in plan.subgraphs:
        assert sg.cut is not None
        with cut.cut(bitcode, sg.cut, "piece", asm) as piece:
            assert (piece.module_asm() == asm) == (sg.index == 0)


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
    """The asm probe cut from the bitcode is the probe's text: same values, same -O0 code."""
    text, bitcode, asm, triple = _prepared(data, 0)
    probe = planner.asm_probe(irmodel.parse_module(planner.name_unnamed(text)))
    assert probe is not None
    with engine.Module(probe.text(), "text probe") as by_text, cut.cut(bitcode, probe.cut, "cut probe", asm) as in_memory:
        in_memory.verify()
        assert in_memory.module_asm() == asm
        assert _census(by_text) == _census(in_memory)
        a, b = _assembly(by_text, triple, 0), _assembly(in_memory, triple, 0)
        assert a == b, "\n".join(list(difflib.unified_diff(a, b, lineterm="", n=1))[:40])


@pytest.mark.parametrize("data", [HOSTILE, INLINE_ASM], ids=["module-asm", "inline-asm"])
def test_asm_probe_cut_equals_its_text(data: str) -> None:
    _check_probe(data)


@pytest.mark.skipif(not RUST_REGEX, reason="the corpus is not built (ci/corpus.sh builds it)")
def test_asm_probe_cut_equals_its_text_on_rust_regex() -> None:
    """11 lines of inline asm in 3,481 functions."""
    _check_probe(RUST_REGEX[0].read_bytes())


@pytest.mark.parametrize("bad", [
    'module asm "  bogus_instruction %rax"\n' + INLINE_ASM,
    INLINE_ASM.replace('"mfence"', '"bogus_instruction %rax"'),
], ids=["module-asm", "inline-asm"])
def test_bad_asm_fails_alike_in_the_cut_probe(tmp_path: Path, bad: str) -> None:
    """Generating code for the probe fails with the same one line, cut or text."""
    text, bitcode, asm, triple = _prepared(bad, 0)
    probe = planner.asm_probe(irmodel.parse_module(planner.name_unnamed(text)))
    assert probe is not None
    whole = split.WholeModule(str(tmp_path / "module.bc"), asm)
    Path(whole.bitcode_path).write_bytes(bitcode)
    config = split.BackendConfig(opt_level=0, triple=triple)
    said = []
    for source in (probe.text(), split.CutPiece(whole, probe.cut)):
        with pytest.raises(EmberError) as failed:
            split.codegen_isolated(source, "obj", 1, config, "in.ll", 120)
        said.append(str(failed.value))
    assert said[0] == said[1]
    assert "inline asm: invalid instruction mnemonic 'bogus_instruction'" in said[0], said
