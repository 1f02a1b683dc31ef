"""Unread fields of local pointer tables (compiler/backend/deadfields.py) and unreferenced local
variables at the MC link: what the unsplit GlobalOpt and GlobalDCE drop, the split build drops too."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import deadfields, irmodel, mclink
from oracle import symtab

TABLE = "@hooks = internal global { ptr, ptr, ptr } { ptr @malloc, ptr @free, ptr @realloc }, align 8"
READERS = """
define i64 @a(i64 %x) {
  %m = load ptr, ptr @hooks, align 8
  %p = call ptr %m(i64 16)
  %fp = getelementptr inbounds { ptr, ptr, ptr }, ptr @hooks, i32 0, i32 1
  %f = load ptr, ptr %fp, align 8
  call void %f(ptr %p)
  ret i64 %x
}

define i64 @b(i64 %x) {
  %f = load ptr, ptr getelementptr inbounds ({ ptr, ptr, ptr }, ptr @hooks, i32 0, i32 1), align 8
  call void %f(ptr null)
  %r = call i64 @keep(ptr @hooks, i64 %x)
  ret i64 %r
}

define void @init(ptr %m, ptr %f) {
  store ptr %m, ptr @hooks, align 8
  store ptr %f, ptr getelementptr inbounds ({ ptr, ptr, ptr }, ptr @hooks, i32 0, i32 1), align 8
  %unread = getelementptr inbounds { ptr, ptr, ptr }, ptr @hooks, i32 0, i32 2
  store ptr null, ptr %unread, align 8
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare ptr @realloc(ptr, i64)
"""
KEEP_IGNORES = "define internal i64 @keep(ptr %h, i64 %x) noinline {\n  ret i64 %x\n}\n"
KEEP_READS = (
    "define internal i64 @keep(ptr %h, i64 %x) noinline {\n"
    "  %g = getelementptr inbounds { ptr, ptr, ptr }, ptr %h, i32 0, i32 2\n  %q = load ptr, ptr %g\n"
    "  %y = ptrtoint ptr %q to i64\n  ret i64 %y\n}\n"
)


def _cleared(text: str) -> str:
    mod = irmodel.parse_module(text)
    deadfields.clear_unread_fields(mod)
    return mod.values["hooks"].text


def test_an_unread_field_is_cleared_and_the_read_ones_kept() -> None:
    """Field 2 is only stored to, and the table goes to a callee that ignores it. (Fields
    0 and 1 are written too: a table nothing writes folds further unsplit, the open
    `constant-table-fields` in fuzz/regressions.)"""
    table = _cleared("\n".join([TABLE, READERS, KEEP_IGNORES]))
    assert "{ ptr @malloc, ptr @free, ptr null }" in table


@pytest.mark.parametrize("use", [
    KEEP_READS,  # the callee reads field 2 through its parameter
    KEEP_IGNORES + "@escape = global ptr @hooks\n",  # the address stored in data
    KEEP_IGNORES + "define ptr @leak() {\n  ret ptr @hooks\n}\n",  # returned
    KEEP_IGNORES + "define i64 @wide() {\n  %w = load i128, ptr @hooks, align 8\n  %t = trunc i128 %w to i64\n  ret i64 %t\n}\n",
])
def test_a_table_whose_fields_may_be_read_any_way_is_left_alone(use: str) -> None:
    assert _cleared("\n".join([TABLE, READERS, use])) == TABLE


def test_a_split_build_drops_the_undefined_symbol_the_serial_one_drops(tmp_path: Path) -> None:
    src = tmp_path / "hooks.ll"
    src.write_text("\n".join([TABLE, READERS, KEEP_IGNORES]))
    objects = {}
    for split in ("none", "subgraph", "two-level"):
        options = driver.BuildOptions(opt_level=2, split=split, jobs=1, subgraph_cost=1)
        objects[split] = driver.build(str(src), options).output
    serial = symtab.read_symbols(objects["none"])
    assert "realloc" not in {s.name for s in serial}
    for split in ("subgraph", "two-level"):
        diff = symtab.diff_symbols(serial, symtab.read_symbols(objects[split]))
        assert diff.clean, diff.render("serial", split)


def test_the_link_drops_only_unreferenced_local_variables() -> None:
    lines = [
        "\t.text", "f:", "\tmovq\tused(%rip), %rax", "\tretq",
        "\t.type\tunused,@object", "\t.data", "\t.p2align\t3, 0x0", "unused:", "\t.quad\trealloc", "\t.size\tunused, 8",
        "\t.type\tused,@object", "\t.p2align\t3, 0x0", "used:", "\t.quad\tmalloc", "\t.size\tused, 8",
    ]
    out = mclink.drop_unreferenced_data(lines, {"unused", "used"})
    assert "\t.quad\trealloc" not in out and "unused:" not in out
    assert "\t.data" in out  # a section switch inside a dropped block stays for what follows
    assert "used:" in out and "\t.quad\tmalloc" in out
    assert mclink.drop_unreferenced_data(lines, {"used"}) == lines


def test_loads_of_a_field_nothing_writes_become_its_constant() -> None:
    """Without `init`, fields 0 and 1 always hold malloc and free: their loads fold (as
    GlobalOpt folds them unsplit); field 1 is written by `init` when it is there."""
    readers = READERS.split("define void @init")[0]
    mod = irmodel.parse_module("\n".join([TABLE, readers, KEEP_IGNORES]))
    deadfields.clear_unread_fields(mod)
    a, b = mod.values["a"], mod.values["b"]
    assert "%m = getelementptr i8, ptr @malloc, i64 0" in a.text and "%f = getelementptr i8, ptr @free, i64 0" in a.text
    assert "%f = getelementptr i8, ptr @free, i64 0" in b.text and "load ptr" not in b.text
    assert "malloc" in a.refs and "free" in b.refs
    assert "{ ptr null, ptr null, ptr null }" in mod.values["hooks"].text  # nothing reads the table any more
    written = irmodel.parse_module("\n".join([TABLE, READERS, KEEP_IGNORES]))
    deadfields.clear_unread_fields(written)
    assert "load ptr, ptr @hooks" in written.values["a"].text  # init writes field 0: a real load


def test_the_link_drop_reads_aarch64_type_directives() -> None:
    """AArch64 assembly writes `%object` where x86 writes `@object`."""
    lines = ["\t.type\tunused,%object", "\t.data", "unused:", "\t.xword\trealloc", "\t.size\tunused, 8"]
    assert mclink.drop_unreferenced_data(lines, {"unused"}) == ["\t.data"]


def test_the_link_drop_counts_only_whole_symbol_references() -> None:
    """`tbl` inside `tbl.2`, `my_tbl` or `.Ltbl` is not a use of `tbl`; `tbl+8` and `"tbl"` are."""
    block = ["\t.type\ttbl,@object", "\t.data", "tbl:", "\t.quad\tfree", "\t.size\ttbl, 8"]
    others = ["\t.text", "f:", "\tmovq\ttbl.2(%rip), %rax", "\tleaq\tmy_tbl(%rip), %rcx", "\tjmp\t.Ltbl", "\tretq"]
    assert mclink.drop_unreferenced_data(others + block, {"tbl"}) == [*others, "\t.data"]
    for use in ("\tmovq\ttbl+8(%rip), %rax", '\tcallq\t"tbl"@PLT'):
        lines = [*others, use, *block]
        assert mclink.drop_unreferenced_data(lines, {"tbl"}) == lines
