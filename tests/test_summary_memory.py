"""The inline summary read from the live module (`summary.summarise(..., module=...)`) equals the
one read from the printed bodies, field by field: every function's facts (the order of its
calls too: it orders a recursive component's judgement), the predicted decisions and the
cold set. The memory reader reproduces the text rules' quirks
(docs/bench/plan-facts/SUMMARY-MEMORY.md, "The text rules, read exactly"): `QUIRKS` holds one
function per quirk."""

from __future__ import annotations

import ctypes
from ctypes import byref, c_size_t
from pathlib import Path

import pytest

from compiler.backend import engine, facts, irmodel, names, summary
from tests.test_cut import SMALL  # the small modules the cut is checked on: quoted names, aliases, comdats
from tests.test_plan_facts import HOSTILE

ROOT = Path(__file__).resolve().parent.parent
LUA = sorted((ROOT / ".cache/corpus/bc").glob("lua-*.bc"))

#: one function per text rule whose reading is easy to get wrong from memory
QUIRKS = """
target triple = "x86_64-unknown-linux-gnu"
@stderr = external global ptr
@g = global [8 x i8] zeroinitializer
@s = constant [4 x i8] c"abc\\00"

declare void @callee(ptr, i64)
declare void @takes(ptr)
declare i32 @fprintf(ptr, ptr, ...)
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.trap() cold noreturn
declare void @fatal() cold

define internal void @named_entry(i64 %x) {
entry:
  call void @callee(ptr null, i64 %x)
  ret void
}

define internal i64 @gep_with_attachment(ptr %p) {
  %q = getelementptr inbounds i8, ptr %p, i64 8, !nosanitize !0
  %r = getelementptr inbounds i8, ptr %p, i64 8
  %v = load i64, ptr %q, align 8
  ret i64 %v
}

define internal void @memcpy_into_a_global(i64 %x) {
  %slot = alloca [8 x i8], align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 @g, ptr align 8 %slot, i64 8, i1 false)
  call void @callee(ptr align 8 null, i64 %x)
  ret void
}

define internal void @range_argument(i64 %x, ptr %p) {
  call void @callee(ptr %p, i64 range(i64 1, 5) %x)
  ret void
}

define internal i64 @atomic_slot(i64 %x) {
  %slot = alloca i64, align 8
  store atomic i64 %x, ptr %slot seq_cst, align 8
  %v = load atomic i64, ptr %slot seq_cst, align 8
  %w = load i64, ptr %slot, align 8
  %x.p = inttoptr i64 %v to ptr
  %c = getelementptr inbounds i8, ptr getelementptr (i8, ptr @s, i64 1), i64 %w
  call void @takes(ptr getelementptr (i8, ptr @s, i64 2))
  ret i64 %w
}

define internal void @invokes(i64 %x) personality ptr @__gxx_personality_v0 {
  switch i64 %x, label %plain [
    i64 0, label %call
    i64 1, label %call
  ]
call:
  invoke void @callee(ptr null, i64 1) to label %plain unwind label %pad
pad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @llvm.trap()
  unreachable
plain:
  ret void
}

define internal void @trap_on_every_path(i1 %c) {
  br i1 %c, label %a, label %b
a:
  call void @fatal()
  unreachable
b:
  call void @llvm.trap()
  br label %a
}

define internal void @reports(i1 %c) {
  %e = load ptr, ptr @stderr, align 8
  %n = call i32 (ptr, ptr, ...) @fprintf(ptr %e, ptr @s)
  call void @trap_on_every_path(i1 %c)
  ret void
}

define void @user(i64 %x, ptr %p) {
  call void @named_entry(i64 %x)
  %a = call i64 @gep_with_attachment(ptr %p)
  call void @memcpy_into_a_global(i64 1)
  call void @range_argument(i64 %x, ptr %p)
  %b = call i64 @atomic_slot(i64 %x)
  call void @invokes(i64 %x)
  call void @reports(i1 false)
  ret void
}

!0 = !{}
"""


def _summaries(data: bytes | str, opt_level: int = 2) -> tuple[summary.ModuleSummary, summary.ModuleSummary]:
    """The text summary of the printed module and the memory summary of the live one (its
    entities from memory too), the module as the driver plans it."""
    with engine.Module(data) as module:
        names.canonicalise(module)
        names.name_unnamed(module)
        text = summary.summarise(irmodel.parse_module(module.text()), opt_level=opt_level)
        memory = summary.summarise(facts.read(module), opt_level=opt_level, module=module)
    return text, memory


def _differences(text: summary.ModuleSummary, memory: summary.ModuleSummary) -> list[tuple[str, str, object, object]]:
    """(function or "", field, text's, memory's) for every fact and decision that differs."""
    found: list[tuple[str, str, object, object]] = []
    if list(text.functions) != list(memory.functions):
        found.append(("", "functions", list(text.functions), list(memory.functions)))
    for name, t in text.functions.items():
        m = memory.functions.get(name)
        for field in ("simplified", "always_inline", "never_inline", "hint", "constant_calls"):
            if m is None or getattr(t, field) != getattr(m, field):
                found.append((name, field, getattr(t, field), m and getattr(m, field)))
        if m is None or list(t.calls.items()) != list(m.calls.items()):  # the order too
            found.append((name, "calls", t.calls, m and m.calls))
    for field in ("effective", "inlined", "cold", "borderline", "constant_border"):
        if getattr(text, field) != getattr(memory, field):
            found.append(("", field, getattr(text, field), getattr(memory, field)))
    return found


def test_quirks_read_alike() -> None:
    text, memory = _summaries(QUIRKS)
    assert _differences(text, memory) == []
    # the module shows each case (so a change to the rules cannot pass by missing it)
    assert text.functions["named_entry"].constant_calls == frozenset({"callee"})
    assert text.cold == {"trap_on_every_path", "reports", "user"}
    assert text.functions["range_argument"].constant_calls == frozenset({"callee"})
    assert text.functions["memcpy_into_a_global"].constant_calls == frozenset()


@pytest.mark.parametrize("opt_level", [1, 2, 3])
def test_hostile_reads_alike(opt_level: int) -> None:
    assert _differences(*_summaries(HOSTILE, opt_level)) == []


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_small_modules_read_alike(path: Path) -> None:
    assert _differences(*_summaries(path.read_text())) == []


@pytest.mark.skipif(not LUA, reason="no corpus bitcode (bash ci/fetch_lua.sh)")
def test_lua_reads_alike() -> None:
    assert _differences(*_summaries(LUA[0].read_bytes())) == []


def test_all_metadata_other_than_debug_loc_includes_debug_loc() -> None:
    """`LLVMInstructionGetAllMetadataOtherThanDebugLoc` returns `!dbg` too, despite its name:
    the memory reader drops kind 0 itself (without, every GEP of a `-g` module read as
    `_GEP`'s `, !` case: 1,252 sizes off on rust-regex)."""
    text = "\n".join([
        "define void @f(ptr %p) !dbg !3 {",
        "  %q = getelementptr i8, ptr %p, i64 8, !dbg !6",
        "  ret void",
        "}",
        "!llvm.dbg.cu = !{!0}",
        "!llvm.module.flags = !{!2}",
        '!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: LineTablesOnly)',
        '!1 = !DIFile(filename: "a.c", directory: "/")',
        '!2 = !{i32 2, !"Debug Info Version", i32 3}',
        '!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)',
        "!4 = !DISubroutineType(types: !5)",
        "!5 = !{}",
        "!6 = !DILocation(line: 2, scope: !3)",
    ])
    lib = engine.capi()
    with engine.Module(text) as module:
        f = lib.LLVMGetNamedFunction(module.ref, b"f")
        gep = lib.LLVMGetFirstInstruction(lib.LLVMGetFirstBasicBlock(f))
        count = c_size_t()
        entries = lib.LLVMInstructionGetAllMetadataOtherThanDebugLoc(gep, byref(count))
        kinds = [lib.LLVMValueMetadataEntriesGetKind(entries, i) for i in range(count.value)]
        lib.LLVMDisposeValueMetadataEntries(ctypes.c_void_p(entries))
        assert kinds == [0]
        text_size, memory_size = (s.functions["f"].simplified for s in _summaries(text))
        assert text_size == memory_size
