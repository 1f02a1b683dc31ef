"""The inline summary read from the live module (`summary.summarise`): the text rules' quirks
reproduced (docs/bench/plan-facts/SUMMARY-MEMORY.md, "The text rules, read exactly"), one
function per quirk in `QUIRKS`, against the facts the text reader gave before it was deleted
(step 7 of docs/bench/plan-facts/DESIGN.md; the two readers were equal field by field on
every input here and on the corpus until then). Whole modules are pinned through the plans
they decide (tests/test_plan_facts.py)."""

from __future__ import annotations

import ctypes
from ctypes import byref, c_size_t
from pathlib import Path

from compiler.backend import engine, facts, names, summary

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


#: each QUIRKS function's facts as the text reader read them: (simplified size, calls in
#: order, always_inline, never_inline, hint, constant_calls)
QUIRK_FACTS = {
    "named_entry": (6, {"callee": 1}, False, False, "", {"callee"}),
    "gep_with_attachment": (2, {}, False, False, "", set()),
    "memcpy_into_a_global": (5, {"callee": 1}, False, False, "", set()),
    "range_argument": (5, {"callee": 1}, False, False, "", {"callee"}),
    "atomic_slot": (8, {"takes": 1}, False, False, "", {"takes"}),
    "invokes": (9, {"callee": 1}, False, False, "", {"callee"}),
    "trap_on_every_path": (6, {"fatal": 1}, False, False, "", set()),
    "reports": (11, {"fprintf": 1, "trap_on_every_path": 1}, False, False, "", set()),
    "user": (35, {"named_entry": 1, "gep_with_attachment": 1, "memcpy_into_a_global": 1, "range_argument": 1,
                  "atomic_slot": 1, "invokes": 1, "reports": 1}, False, False, "", {"memcpy_into_a_global", "reports"}),
}


def _summary(data: bytes | str, opt_level: int = 2) -> summary.ModuleSummary:
    """The summary of the live module, its entities from memory, as the driver plans it."""
    with engine.Module(data) as module:
        names.canonicalise(module)
        names.name_unnamed(module)
        return summary.summarise(facts.read(module), opt_level=opt_level, module=module)


def test_quirks_read_as_the_text_rules() -> None:
    found = _summary(QUIRKS)
    got = {n: (f.simplified, f.calls, f.always_inline, f.never_inline, f.hint, set(f.constant_calls))
           for n, f in found.functions.items()}
    assert got == QUIRK_FACTS
    assert [list(f.calls) for f in found.functions.values()] == [list(f[1]) for f in QUIRK_FACTS.values()]  # call order
    assert list(found.functions) == list(QUIRK_FACTS)
    assert found.effective == {"named_entry": 6, "gep_with_attachment": 2, "memcpy_into_a_global": 5, "range_argument": 5,
                               "atomic_slot": 8, "invokes": 9, "trap_on_every_path": 6, "reports": 11, "user": 41}
    assert found.inlined == set(QUIRK_FACTS)
    assert found.cold == {"trap_on_every_path", "reports", "user"}
    assert found.borderline == set() and found.constant_border == set()


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
    # the `!dbg` attachment is no other attachment: the constant GEP is free, as the text read
    # it (the text reader's size was 1; the GEP taken for `, !` would count: 2)
    assert _summary(text).functions["f"].simplified == 1
