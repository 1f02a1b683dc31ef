"""Unread fields of local pointer tables (compiler/backend/deadfields.py, in memory through LLVM's
C API) and unreferenced local variables at the link: what the unsplit GlobalOpt and GlobalDCE
drop, the split build drops too."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import deadfields, engine
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


def _after(text: str) -> dict[str, str]:
    """The module's lines after the pass, by the global each starts (`@hooks = ...`) or the
    function each belongs to (`define ... @a(...)` to `}`), joined."""
    with engine.Module(text, "<tables>", verify=True) as module:
        deadfields.clear_unread_fields(module, engine.Target(engine.default_triple()))
        module.verify()
        printed = module.text()
    found: dict[str, str] = {}
    current = None
    for line in printed.splitlines():
        if line.startswith("@"):
            found[line.split(" = ", 1)[0][1:]] = line
        elif line.startswith("define "):
            current = line.split("@", 1)[1].split("(", 1)[0]
            found[current] = line
        elif current is not None:
            found[current] += "\n" + line
            if line == "}":
                current = None
    return found


def _cleared(text: str) -> str:
    return _after(text)["hooks"]


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


def test_loads_of_a_field_nothing_writes_become_its_constant() -> None:
    """Without `init`, fields 0 and 1 always hold malloc and free: their loads fold (as
    GlobalOpt folds them unsplit); field 1 is written by `init` when it is there."""
    before, _, after_init = READERS.partition("define void @init")
    readers = before + after_init.split("}\n", 1)[1]
    after = _after("\n".join([TABLE, readers, KEEP_IGNORES]))
    assert "call ptr @malloc(i64 16)" in after["a"] and "call void @free(ptr %p)" in after["a"]
    assert "call void @free(ptr null)" in after["b"] and "load ptr" not in after["b"]
    assert "zeroinitializer" in after["hooks"]  # nothing reads the table any more
    written = _after("\n".join([TABLE, READERS, KEEP_IGNORES]))
    assert "load ptr, ptr @hooks" in written["a"]  # init writes field 0: a real load


BYTE_READERS = """
define ptr @a() {
  %f = load ptr, ptr getelementptr inbounds nuw (i8, ptr @hooks, i64 8), align 8
  ret ptr %f
}

define ptr @b() {
  %p = getelementptr inbounds i8, ptr @hooks, i64 8
  %q = getelementptr inbounds [2 x ptr], ptr %p, i64 0, i64 0
  %f = load ptr, ptr %q, align 8
  ret ptr %f
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare ptr @realloc(ptr, i64)
"""


def test_byte_offsets_name_the_field_they_reach() -> None:
    """An i8 `getelementptr` (InstCombine's form since LLVM 20) and a chain through an array
    type reach field 1 by its byte offset: both loads fold to `free`, the other fields go."""
    after = _after("\n".join([TABLE, BYTE_READERS]))
    assert "ret ptr @free" in after["a"] and "ret ptr @free" in after["b"]
    assert "zeroinitializer" in after["hooks"]
    odd = BYTE_READERS.replace("i64 8), align 8", "i64 4), align 8")  # between two fields
    assert _cleared("\n".join([TABLE, odd])) == TABLE


CALLEE_READS = """
define ptr @a(i64 %n) {
  %p = call ptr @use(ptr @hooks, i64 %n)
  ret ptr %p
}

define ptr @b(i64 %n) {
  %p = call ptr @use(ptr @hooks, i64 %n)
  ret ptr %p
}

define internal ptr @use(ptr %h, i64 %n) noinline {
  %f = load ptr, ptr %h, align 8
  %p = call ptr %f(i64 %n)
  ret ptr %p
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare ptr @realloc(ptr, i64)
"""


def test_a_parameter_every_call_passes_the_table_to_reads_the_table() -> None:
    """IPSCCP's substitution: `@use` reads field 0 through `%h`, and every call passes `@hooks`:
    the unread fields go. The load stays: folded before the pipeline, a direct call reaches
    the optimiser earlier than it does serially (a cJSON slice's `malloc` + `memset` became
    `calloc`, which the serial build does not call)."""
    after = _after("\n".join([TABLE, CALLEE_READS]))
    assert "{ ptr @malloc, ptr null, ptr null }" in after["hooks"]
    assert "load ptr, ptr %h" in after["use"]


def test_stores_to_a_field_nobody_reads_go() -> None:
    """`init` stores to field 2, which nothing reads: GlobalOpt deletes such stores unsplit, and
    with them the symbols they name; the stores to the fields `a` reads stay."""
    after = _after("\n".join([TABLE, READERS, KEEP_IGNORES]).replace("store ptr null, ptr %unread", "store ptr @realloc, ptr %unread"))
    assert "@realloc" not in after["init"] and "@realloc" not in after["hooks"]
    assert "store ptr %m, ptr @hooks" in after["init"] and "store ptr %f" in after["init"]


@pytest.mark.parametrize("other", [
    "define ptr @c(ptr %t) {\n  %p = call ptr @use(ptr %t, i64 1)\n  ret ptr %p\n}\n",  # another pointer
    "@escape = global ptr @use\n",  # the callee's address taken: unknown callers
    "define ptr @c() {\n  %p = call ptr @use(ptr byval({ ptr, ptr, ptr }) @hooks, i64 1)\n  ret ptr %p\n}\n",  # a copy
])
def test_a_parameter_some_call_passes_something_else_is_unknown(other: str) -> None:
    assert _cleared("\n".join([TABLE, CALLEE_READS, other])) == TABLE


HOSTILE = Path(__file__).parent / "data" / "deadfields"


@pytest.mark.parametrize("case", sorted(HOSTILE.glob("*.ll")), ids=lambda p: p.stem)
def test_hostile_tables_build_as_serially(case: Path, tmp_path: Path) -> None:
    """Shapes a hostile review found (every one matched `--split none` before the pass read
    tables through the C API): a callee that receives its own address and calls itself with
    another table (a store to the other table was deleted: wrong exit code), a load or a store
    of a pointer in another address space (an LLVM assertion; fields dropped), a slot in an
    `optnone` function (serially never promoted: fields dropped)."""
    objects = {}
    for split in ("none", "subgraph"):
        options = driver.BuildOptions(opt_level=2, split=split, jobs=1, subgraph_cost=1 if split != "none" else None)
        objects[split] = driver.build(str(case), options).output
    diff = symtab.diff_symbols(symtab.read_symbols(objects["none"]), symtab.read_symbols(objects["subgraph"]))
    assert diff.clean, diff.render("serial", "subgraph")


def test_a_self_calling_callee_does_not_stand_for_the_table() -> None:
    """`@f` gets `@t` from `@g` and `@o` from its own indirect call through `%self`: the store
    through `%p` writes `@o` too, so it must stay."""
    after = _after((HOSTILE / "c01_self_arg_escape.ll").read_text())
    assert "store ptr @b, ptr %p" in after["f"]


@pytest.mark.parametrize("depth", [400, 1500])
def test_a_deep_chain_is_walked_without_recursion(depth: int) -> None:
    """A table passed down hundreds of internal functions, or through a long `getelementptr`
    chain, is legal IR: the walk is a worklist (it was recursive: `RecursionError`)."""
    calls = [f"define internal ptr @f{i}(ptr %h) noinline {{\n  %r = call ptr @f{i + 1}(ptr %h)\n  ret ptr %r\n}}\n" for i in range(depth)]
    calls.append(f"define internal ptr @f{depth}(ptr %h) noinline {{\n  %m = load ptr, ptr %h, align 8\n  ret ptr %m\n}}\n")
    geps = ["define ptr @geps() {", "  %g0 = getelementptr inbounds i8, ptr @hooks, i64 0"]
    geps += [f"  %g{i + 1} = getelementptr inbounds i8, ptr %g{i}, i64 0" for i in range(depth)]
    geps += [f"  %m = load ptr, ptr %g{depth}, align 8", "  ret ptr %m", "}", ""]
    entry = "define ptr @entry() {\n  %r = call ptr @f0(ptr @hooks)\n  ret ptr %r\n}\n"
    declarations = "declare ptr @malloc(i64)\ndeclare void @free(ptr)\ndeclare ptr @realloc(ptr, i64)\n"
    after = _after("\n".join([TABLE, entry, *calls, "\n".join(geps), declarations]))
    assert "{ ptr @malloc, ptr null, ptr null }" in after["hooks"]
