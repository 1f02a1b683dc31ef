"""The symbol-table normal form and diff: each kind of departure is caught."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from compiler.backend import engine, llvm_stage
from oracle import symtab

BASE = """
@g = internal global i32 1
@h = global i32 2
define internal i32 @helper() { ret i32 1 }
define i32 @api() { %v = call i32 @helper()
  ret i32 %v }
declare i32 @ext()
define i32 @user() { %v = call i32 @ext()
  ret i32 %v }
"""


def _obj(ir: str) -> bytes:
    target = llvm_stage.native_target(None, 0)
    with llvm_stage.native(ir, "t.ll") as module:
        module.prepare(target, force_triple=False)
        return llvm_stage.emit_object(module, target)


def test_identical_objects_agree() -> None:
    a = symtab.read_symbols(_obj(BASE))
    assert symtab.diff_symbols(a, a).clean


def test_leaked_local_is_reported() -> None:
    leaked = BASE.replace("define internal i32 @helper", "define hidden i32 @helper")
    diff = symtab.diff_symbols(symtab.read_symbols(_obj(BASE)), symtab.read_symbols(_obj(leaked)))
    assert [s.name for s in diff.leaked_locals] == ["helper"]
    assert not diff.added
    assert "helper: LOCAL in A became GLOBAL HIDDEN in B" in diff.render()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("@h = global", "@h = hidden global"), "visibility"),
        (("@h = global", "@h = weak global"), "binding"),
    ],
)
def test_changed_symbol_is_reported(change: tuple[str, str], field: str) -> None:
    b = BASE.replace(*change)
    diff = symtab.diff_symbols(symtab.read_symbols(_obj(BASE)), symtab.read_symbols(_obj(b)))
    assert [a.name for a, _ in diff.changed] == ["h"]
    assert field in diff.render()


def test_removed_and_added_symbols() -> None:
    b = BASE.replace("@h = global i32 2", "@k = global i32 2")
    diff = symtab.diff_symbols(symtab.read_symbols(_obj(BASE)), symtab.read_symbols(_obj(b)))
    assert [s.name for s in diff.removed] == ["h"]
    assert [s.name for s in diff.added] == ["k"]


def test_defined_vs_undefined_is_a_change() -> None:
    b = BASE.replace("declare i32 @ext()", "define i32 @ext() { ret i32 0 }")
    diff = symtab.diff_symbols(symtab.read_symbols(_obj(BASE)), symtab.read_symbols(_obj(b)))
    assert [a.name for a, _ in diff.changed] == ["ext"]
    assert "defined: False -> True" in diff.render()


def test_normal_form_fields() -> None:
    syms = {s.name: s for s in symtab.read_symbols(_obj(BASE))}
    assert syms["g"] == symtab.Symbol("g", "LOCAL", "OBJECT", "DEFAULT", ".data", 4)
    assert syms["ext"].section == "UND" and not syms["ext"].defined
    assert syms["api"].type == "FUNC" and syms["api"].section == ".text"


def test_cli_symtab_json_and_symdiff_exit(tmp_path: Path, ember) -> None:
    a, b = tmp_path / "a.o", tmp_path / "b.o"
    a.write_bytes(_obj(BASE))
    b.write_bytes(_obj(BASE.replace("define internal i32 @helper", "define i32 @helper")))
    result = ember("symtab", str(a), "--format", "json")
    assert result.status == 0 and '"name": "helper"' in result.stdout
    result = ember("symdiff", str(a), str(b))
    assert result.status == 1 and "helper: LOCAL" in result.stdout
    assert ember("symdiff", str(a), str(a)).status == 0


_TLS_ASM = """\t.text
\t.globl\tf
\t.type\tf,@function
f:
\t{access}
\tretq
\t.size\tf, .-f
\t.type\tx,@object
\t.section\t.tbss,"awT",@nobits
\t.p2align\t3
x:
\t.zero\t8
\t.size\tx, 8
"""


def test_cli_symdiff_runs_the_property_checks_too(tmp_path: Path, ember) -> None:
    """The same symbols, but B reaches its local thread-local through the GOT (what a split
    piece does when the local was exported while compiling): the fuzz property's full check
    fails, so must `ember symdiff`, which a finding's reproduce.sh runs."""
    objects = {}
    for name, access in (("a", "movq\t%fs:x@TPOFF, %rax"), ("b", "movq\tx@GOTTPOFF(%rip), %rax")):
        src = tmp_path / f"{name}.s"
        src.write_text(_TLS_ASM.format(access=access))
        objects[name] = tmp_path / f"{name}.o"
        mc = [str(engine.tools_dir() / "llvm-mc"), "-filetype=obj", "-triple=x86_64-linux-gnu", str(src), "-o", str(objects[name])]
        subprocess.run(mc, check=True)
    a, b = str(objects["a"]), str(objects["b"])
    assert symtab.diff_symbols(symtab.read_symbols(a), symtab.read_symbols(b)).clean  # the symbols alone agree
    result = ember("symdiff", a, b)
    assert result.status == 1 and "-> x R_X86_64_GOTTPOFF" in result.stdout and "reached through the GOT" in result.stdout
    result = ember("symdiff", a, a)
    assert result.status == 0 and "symbol tables agree" in result.stdout


def test_section_kinds() -> None:
    assert symtab.section_kind(".text.foo") == ".text"
    assert symtab.section_kind(".rodata.str1.1") == ".rodata"
    assert symtab.section_kind(".data.rel.ro.local") == ".data.rel.ro"
    assert symtab.section_kind(".tbss.x") == ".tbss"
    assert symtab.section_kind("mysection") == "mysection"


def _full(a_ir: str, b_ir: str, *, exact_code: bool = True) -> list[str]:
    a, b = _obj(a_ir), _obj(b_ir)
    return symtab.diff_full(
        symtab.read_symbols(a), symtab.read_symbols(b), symtab.read_relocations(a), symtab.read_relocations(b), exact_code=exact_code
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("@g = internal global i32 1", "@g = internal global i64 1"), "~ g:"),  # a local's size
        (("@g = internal global i32 1", "@g = internal constant i32 1"), "~ g:"),  # a local moved to .rodata
        (("@h = global i32 2", "@h = global i64 2"), "~ h:"),  # a global's size
        (
            ("define internal i32 @helper() { ret i32 1 }", "define internal i32 @helper() { ret i32 1 }\n@k = internal global i8 0"),
            "+ LOCAL OBJECT",
        ),
    ],
)
def test_full_comparison_sees_what_the_contract_1_diff_does_not(change: tuple[str, str], expected: str) -> None:
    """Sizes, section kinds, locals and relocations: invisible to `diff_symbols`, reported by `diff_full`."""
    other = BASE.replace(*change)
    assert other != BASE
    assert symtab.diff_symbols(symtab.read_symbols(_obj(BASE)), symtab.read_symbols(_obj(other))).clean
    lines = _full(BASE, other)
    assert any(expected in line for line in lines), lines


def test_full_comparison_sees_a_retargeted_relocation() -> None:
    """`@p` points at `@api` instead of `@h`: same symbols, a different relocation target."""
    a = BASE + "@p = global ptr @h\n"
    lines = _full(a, a.replace("@p = global ptr @h", "@p = global ptr @api"))
    assert any(line.startswith("- reloc .data -> h R_X86_64_64") for line in lines), lines


def test_full_comparison_accepts_copies_and_renumbered_unnamed_globals() -> None:
    """A split build's `helper.ember.1` copy and `__ember_unnamed_0_0` for `__unnamed_1` are not differences."""
    unnamed = BASE + "@0 = internal global i64 7\ndefine i64 @use0() { %v = load i64, ptr @0\n  ret i64 %v }\n"
    split = unnamed.replace("@0", "@__ember_unnamed_0_0") + (
        "define internal i32 @helper.ember.1() { ret i32 1 }\ndefine i32 @api2() { %v = call i32 @helper.ember.1()\n  ret i32 %v }\n"
    )
    reference = unnamed + "define i32 @api2() { %v = call i32 @helper()\n  ret i32 %v }\n"
    assert _full(reference, split) == []
    leaked = split.replace("define internal i32 @helper.ember.1", "define hidden i32 @helper.ember.1")
    assert any("copy helper.ember.1" in line for line in _full(reference, leaked))


def test_full_comparison_ignores_function_sizes_and_locals_after_ipo() -> None:
    """A function's size and a new local are differences only at -O0 (no IPO: every
    function is compiled alone, split or not)."""
    bigger = BASE.replace(
        "define internal i32 @helper() { ret i32 1 }",
        "define internal i32 @helper() { %x = add i32 1, 0\n  ret i32 %x }\n@k = internal global i8 0",
    )
    bigger = bigger.replace("define i32 @user() { %v = call i32 @ext()", "define i32 @user() { %w = call i32 @ext()\n  %v = add i32 %w, 1")
    lines = _full(BASE, bigger)
    assert any(line.startswith("+ LOCAL OBJECT") and line.endswith("k  (local new)") for line in lines), lines
    assert any(line.startswith("~ user:") and "size" in line for line in lines), lines
    assert _full(BASE, bigger, exact_code=False) == []


GLOBAL_USED_TWICE = """@g = internal global i64 5
define i64 @a() {
  %v = load i64, ptr @g
  ret i64 %v
}
define i64 @b() {
  %v = load i64, ptr @g
  %w = add i64 %v, 1
  ret i64 %w
}
"""


def test_a_local_reached_through_the_got_is_a_full_difference() -> None:
    """A split piece that saw a local as default-visibility reaches it through the GOT;
    the unsplit object never does (here: the same module with @g made preemptible, then
    @g local again in the symbol table, as the MC link restores it)."""
    ref = _obj(GLOBAL_USED_TWICE)
    got = _obj(GLOBAL_USED_TWICE.replace("@g = internal global", "@g = global"))
    ra, rb = symtab.read_relocations(ref), symtab.read_relocations(got)
    assert any("GOT" in r.type and r.target == "g" for r in rb)
    local_again = [s if s.name != "g" else symtab.Symbol("g", "LOCAL", s.type, "DEFAULT", s.section, s.size)
                   for s in symtab.read_symbols(got)]
    lines = symtab.diff_full(symtab.read_symbols(ref), local_again, ra, rb, exact_code=False)
    assert any("reached through the GOT" in ln and "-> g " in ln for ln in lines), lines
    assert not _full(GLOBAL_USED_TWICE, GLOBAL_USED_TWICE, exact_code=False)


TLS = """
@t = internal thread_local(localexec) global i64 7
@u = thread_local global i64 1
define i64 @get_t() { %p = call ptr @llvm.threadlocal.address.p0(ptr @t)
  %v = load i64, ptr %p
  ret i64 %v }
define i64 @get_u() { %p = call ptr @llvm.threadlocal.address.p0(ptr @u)
  %v = load i64, ptr %p
  ret i64 %v }
declare ptr @llvm.threadlocal.address.p0(ptr)
"""


@pytest.mark.parametrize("exact_code", [True, False])
def test_full_comparison_sees_a_lost_tls_model(exact_code: bool) -> None:
    """`@t` accessed general-dynamic instead of local-exec (a declaration lost its model): `@u`
    already needs `__tls_get_addr`, so the symbol tables agree; the TLS relocations do not."""
    lost = TLS.replace("internal thread_local(localexec)", "internal thread_local")
    assert symtab.diff_symbols(symtab.read_symbols(_obj(TLS)), symtab.read_symbols(_obj(lost))).clean
    lines = _full(TLS, lost, exact_code=exact_code)
    assert any(line.startswith("~ tls t: accessed local-exec -> local-dynamic") for line in lines), lines
    assert not any(line.startswith("~ tls u") for line in lines), lines
    assert not [line for line in _full(TLS, TLS, exact_code=exact_code) if "tls" in line]


def test_tls_models_name_each_access_model() -> None:
    rel = [symtab.Relocation(".text", "a", "R_X86_64_TLSGD"), symtab.Relocation(".text", "b", "R_X86_64_GOTTPOFF"),
           symtab.Relocation(".text", "b", "R_X86_64_TPOFF32"), symtab.Relocation(".text", "[.tbss]", "R_X86_64_TPOFF32"),
           symtab.Relocation(".text", "c", "R_X86_64_PC32")]
    assert symtab.tls_models(rel) == {"a": frozenset({"general-dynamic"}), "b": frozenset({"initial-exec", "local-exec"})}
