"""The symbol-table normal form and diff: each kind of departure is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.backend import llvm_stage
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
    tm = llvm_stage.target_machine(None, 0)
    module = llvm_stage.parse_ir(ir, "t.ll")
    llvm_stage.prepare(module, tm, force_triple=False)
    return llvm_stage.emit_object(module, tm)


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
    result = ember("symtab", str(a), "--json")
    assert result.status == 0 and '"name": "helper"' in result.stdout
    result = ember("symdiff", str(a), str(b))
    assert result.status == 1 and "helper: LOCAL" in result.stdout
    assert ember("symdiff", str(a), str(a)).status == 0


def test_section_kinds() -> None:
    assert symtab.section_kind(".text.foo") == ".text"
    assert symtab.section_kind(".rodata.str1.1") == ".rodata"
    assert symtab.section_kind(".data.rel.ro.local") == ".data.rel.ro"
    assert symtab.section_kind(".tbss.x") == ".tbss"
    assert symtab.section_kind("mysection") == "mysection"
