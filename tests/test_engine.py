"""The native engine (compiler/backend/engine.py): LLVM's C API in the tools wheel's libLLVM."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.backend import engine

ROOT = Path(__file__).resolve().parent.parent

HOST = engine.default_triple()
ASM_KINDS = """declare i32 @__gxx_personality_v0(...)
declare void @ext()
define void @by_call() {
  call void asm sideeffect "nop", ""()
  ret void
}
define void @by_invoke() personality ptr @__gxx_personality_v0 {
  invoke void asm sideeffect "nop", ""() to label %ok unwind label %bad
ok:
  ret void
bad:
  %l = landingpad { ptr, i32 } cleanup
  ret void
}
define void @by_callbr() {
  callbr void asm "jmp ${0:l}", "!i"() to label %ok [label %other]
ok:
  ret void
other:
  ret void
}
define void @plain() {
  call void @ext()
  ret void
}
"""


def _only(name: str) -> str:
    """ASM_KINDS with just the declarations and the function `name`."""
    decls, *functions = re.split(r"(?=^define )", ASM_KINDS, flags=re.M)
    return decls + next(f for f in functions if f.startswith(f"define void @{name}("))


@pytest.mark.parametrize(("name", "has"), [("by_call", True), ("by_invoke", True), ("by_callbr", True), ("plain", False)])
def test_inline_asm_is_found_in_every_kind_of_call(name: str, has: bool) -> None:
    with engine.Module(_only(name), "t.ll", verify=True) as module:
        assert module.has_inline_asm() is has


def test_module_asm_is_found() -> None:
    with engine.Module('module asm "nop"\n', "t.ll") as module:
        assert module.has_inline_asm()


def test_parse_error_names_the_buffer_line_and_column() -> None:
    with pytest.raises(engine.EngineError, match=r"^bad\.ll:2:7: error: value doesn't match function result type"):
        engine.Module("define i32 @f() {\n  ret i64 0\n}\n", "bad.ll")


def test_verifier_error_is_reported() -> None:
    text = "define i32 @f() {\nentry:\n  br label %next\nnext:\n  %x = add i32 %y, 1\n  %y = add i32 %x, 1\n  ret i32 %x\n}\n"
    with pytest.raises(engine.EngineError, match="dominate"):
        engine.Module(text, "v.ll", verify=True)


def test_a_bad_pipeline_is_an_error_not_a_crash() -> None:
    with engine.Module("define void @f() {\n  ret void\n}\n", "p.ll") as module, pytest.raises(engine.EngineError):
        module.run_passes("no-such-pass", engine.Target.for_triple(HOST, 2))


def test_object_and_assembly_for_the_host() -> None:
    target = engine.Target.for_triple(HOST, 2)
    with engine.Module("define i32 @f(i32 %x) {\n  %y = mul i32 %x, 8\n  ret i32 %y\n}\n", "o.ll") as module:
        module.prepare(target, force_triple=True)
        module.optimise(target, 2)
        assert module.emit(target, "obj")[:4] == b"\x7fELF"
        assert "\nf:\n" in module.emit(target, "asm").decode()


def test_targets_by_name() -> None:
    assert engine.target_name("x86_64-unknown-linux-gnu") == "x86-64"
    assert engine.target_name("aarch64-linux-gnu") == "aarch64"
    assert engine.target_name("no-such-triple") is None
    assert HOST.startswith(("x86_64", "aarch64"))


def test_definitions_linkage_and_renaming() -> None:
    text = "define internal void @a() {\n  ret void\n}\n@g = linkonce_odr global i32 0\ndeclare void @d()\n"
    with engine.Module(text, "d.ll") as module:
        values = {v.name: v for v in module.definitions()}
        assert set(values) == {"a", "g"}
        assert values["a"].linkage == engine.INTERNAL and values["g"].linkage == engine.LINKONCE_ODR
        values["a"].rename("b")
        assert "define internal void @b()" in module.text()


def test_the_library_is_found_when_another_llvm_package_shadows_the_name(tmp_path: Path) -> None:
    """Found under lit: its own `lit/llvm` package comes first on the commands' path, `import llvm`
    found it, and every `ember build` exited 70."""
    shadow = tmp_path / "llvm"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    code = "import llvm, sys; from compiler.backend import engine; print(engine.tools_dir()); engine.load()"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (Path(done.stdout.strip()) / "opt").exists()
    src = tmp_path / "m.ll"
    src.write_text("define i32 @main() {\n  ret i32 0\n}\n")
    built = subprocess.run([sys.executable, "-m", "compiler.cli", "build", str(src), "-o", str(tmp_path / "m.o")],
                           env=env, capture_output=True, text=True, cwd=tmp_path)
    assert built.returncode == 0, built.stderr


DROPS_WEAK = """declare extern_weak i32 @w()
declare extern_weak i32 @kept()
define hidden i64 @g() {
  %c = call i32 @w()
  %k = call i32 @kept()
  ret i64 ptrtoint (ptr @w to i64)
}
define i64 @h() {
  %k = call i32 @kept()
  ret i64 0
}
"""


def test_dropped_code_takes_the_weak_declarations_only_it_named() -> None:
    """The AsmPrinter writes `.weak` for an `extern_weak` declaration whether or not anything
    uses it: one only the dropped `@g` named (through a call and a constant expression)
    goes; `@kept`, still called by `@h`, stays."""
    target = engine.Target(HOST, 2)
    with engine.Module(DROPS_WEAK, "<weak>", verify=True) as module:
        module.drop_definitions({"g"}, target)
        module.verify()
        asm = module.emit(target, "asm").decode()
    assert ".weak\tkept" in asm
    assert not re.search(r"\bw\b", asm.replace(".weak\tkept", "")), asm


def test_uses_of_a_function_are_redirected_to_a_hidden_declaration() -> None:
    """`redirect_uses` (a harness's merge fault): the callers call the named function, declared
    with the old callee's type and hidden; a name held by a variable is refused."""
    text = (
        "@v = global i32 0\n"
        "define internal i32 @f.ember.3(i64 %x) {\n  ret i32 7\n}\n"
        "define i32 @g() {\n  %r = call i32 @f.ember.3(i64 1)\n  ret i32 %r\n}\n"
    )
    with engine.Module(text) as module:
        copy = next(v for v in module.definitions() if v.name == "f.ember.3")
        assert not module.redirect_uses(copy, "v")
        assert "call i32 @f.ember.3(i64 1)" in module.text()
        assert module.redirect_uses(copy, "f")
        module.verify()
        out = module.text()
    assert "declare hidden i32 @f(i64)" in out and "call i32 @f(i64 1)" in out


DEBUG_ROWS = """define i32 @main() !dbg !5 {
  %a = add i32 1, 2, !dbg !9
  ret i32 %a, !dbg !10
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/t")
!2 = !DIFile(filename: "a.h", directory: "/t")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = distinct !DISubprogram(name: "h", scope: !2, file: !2, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !0)
!9 = !DILocation(line: 11, column: 5, scope: !8, inlinedAt: !10)
!10 = !DILocation(line: 4, column: 2, scope: !5)
"""


def test_debug_lines_move_as_asked_keeping_column_scope_and_inlining() -> None:
    """`move_debug_lines` (a harness's line-table faults) shows each location's line, column,
    file and its function's file, and writes back the line it is given."""
    with engine.Module(DEBUG_ROWS) as module:
        seen: list[tuple[int, int, bool]] = []

        def header_down(loc: engine.DebugLocation) -> int:
            seen.append((loc.line, loc.column, loc.file == loc.home))
            return loc.line + 1 if loc.file != loc.home else loc.line

        assert module.move_debug_lines(header_down) == 1
        module.verify()
        out = module.text()
    assert sorted(seen) == [(4, 2, True), (11, 5, False)]
    assert re.search(r"!DILocation\(line: 12, column: 5, scope: ![0-9]+, inlinedAt: ![0-9]+\)", out)
    assert "!DILocation(line: 4, column: 2, scope:" in out and "line: 11," not in out
