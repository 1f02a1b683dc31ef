"""Alias sizes under AArch64's GlobalMerge (compiler/backend/globalmerge.py; docs/backend.md,
"GlobalMerge and alias sizes"): the split object's alias sizes equal the serial one's at every
-O and in every split mode, and the pieces of the decision on their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import engine, facts, globalmerge, llvm_stage
from fuzz import cross
from oracle import symtab
from tests.conftest import DATA

TRIPLE = cross.AARCH64
MODULE = DATA / "aarch64" / "globalmerge_aliases.ll"


def _build(path: Path, triple: str, **options: object) -> bytes:
    out = driver.build(str(path), driver.BuildOptions(target=triple, **options)).output  # type: ignore[arg-type]
    assert isinstance(out, bytes)
    return out


def _sizes(obj: bytes) -> dict[str, int]:
    return {s.name: s.size for s in symtab.read_symbols(obj) if s.name in ("al", "ah", "ah2", "az", "ap")}


@pytest.mark.parametrize("level", [0, 1, 2, 3])
@pytest.mark.parametrize("mode", ["subgraph", "function", "two-level"])
def test_alias_sizes_equal_the_serial_build(mode: str, level: int) -> None:
    serial = _build(MODULE, TRIPLE, split="none", opt_level=level)
    for cost in (1, 20, 1000):
        split = _build(MODULE, TRIPLE, split=mode, jobs=1, opt_level=level, subgraph_cost=cost, piece_cost=1)
        diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(split))
        assert diff.clean, diff.render("--split none", f"--split {mode} --split-cost {cost}")
        # (diff_symbols compares no sizes: the aliases' are this test's point)
        assert _sizes(split) == _sizes(serial), f"--split {mode} --split-cost {cost}"


def test_the_module_exercises_globalmerge() -> None:
    """The serial sizes the split must match: value-type sizes where GlobalMerge packed the base."""
    unmerged = {"al": 32, "ah": 16, "ah2": 16, "az": 12, "ap": 8}
    assert _sizes(_build(MODULE, TRIPLE, split="none", opt_level=0)) == unmerged
    assert _sizes(_build(MODULE, TRIPLE, split="none", opt_level=2)) == {**unmerged, "ah": 4, "ah2": 4, "az": 2}
    assert _sizes(_build(MODULE, TRIPLE, split="none", opt_level=3)) == {"al": 8, "ah": 4, "ah2": 4, "az": 2, "ap": 8}


def test_x86_64_is_unchanged() -> None:
    serial = _build(MODULE, "x86_64-linux-gnu", split="none", opt_level=3)
    split = _build(MODULE, "x86_64-linux-gnu", split="subgraph", opt_level=3, subgraph_cost=1)
    assert _sizes(serial) == _sizes(split) == {"al": 32, "ah": 16, "ah2": 16, "az": 12, "ap": 8}


def _facts(text: str) -> globalmerge.ModuleFacts:
    """The module facts of `text`, read from the live module prepared for its triple."""
    with engine.Module(text) as module:
        module.prepare(llvm_stage.native_target(module.triple or None, 2), force_triple=False)
        found = globalmerge.module_facts(facts.read(module), set(), module)
    assert found is not None
    return found


def test_merged_variables_follow_globalmerge_rules() -> None:
    text = "\n".join(f"@{n} = internal global i64 0" for n in ("a", "b", "c", "big")) + "\n@al = alias i32, ptr @a\n"
    facts = _facts(text)
    objects = {n: globalmerge.DataObject(n, ("bss", ""), 8, 8) for n in ("a", "b", "c")}
    objects["big"] = globalmerge.DataObject("big", ("bss", ""), 4090, 8)
    # f uses b and c, g uses a with `big` (and the alias, no candidate): one set, packed in
    # size order; `big` (4,090 bytes) after 24 bytes passes 4,095 and is alone in its cut
    uses = {"f": {"b", "c"}, "g": {"a", "big", "al"}}
    assert globalmerge.merged_variables(uses, objects, facts, 3, {}) == {"a", "b", "c"}
    # -O2: only minsize functions count, and there are none
    assert globalmerge.merged_variables(uses, objects, facts, 2, {}) == set()
    # a variable used alone, or in another group (data, not BSS), is not merged with them
    objects["c"] = globalmerge.DataObject("c", ("data", ""), 8, 8)
    assert globalmerge.merged_variables(uses, objects, facts, 3, {}) == set()


def test_object_alias_sizes_from_uses_and_data() -> None:
    """The object link's sizes at -O3: an alias whose base the serial GlobalMerge packs gets
    its value type's size, any other its base's output size; a private candidate, which
    has no symbol in the objects, counts with its size from the input."""
    text = (
        'target triple = "aarch64-unknown-linux-gnu"\n'
        "@a = internal global [4 x i64] zeroinitializer\n@b = internal global i64 0\n"
        "@p = private global i64 0\n@q = internal global [2 x i64] zeroinitializer\n"
        "@al = alias i64, getelementptr (i8, ptr @a, i64 8)\n@aq = alias i32, ptr @q\n"
    )
    facts = _facts(text)
    assert facts.align["a"] == 16 and facts.private_data["p"] == globalmerge.DataObject("p", ("bss", ""), 8, 8)
    data = {"a": (".bss", 32), "b": (".bss", 8), "q": (".bss", 16)}
    sizes, size_of = globalmerge.object_alias_sizes(facts, TRIPLE, 3, {"f": {"a", "p"}, "g": {"q"}}, data, {})
    assert (sizes, size_of) == ({"al": 8}, {"aq": "q"})
    sizes, size_of = globalmerge.object_alias_sizes(facts, TRIPLE, 3, {"f": {"a"}, "g": {"q", "b"}}, data, {})
    assert (sizes, size_of) == ({"aq": 4}, {"al": "a"})
    # no merging (-O2, no minsize function): nothing to judge
    assert globalmerge.object_alias_sizes(facts, TRIPLE, 2, {"f": {"a", "p"}}, data, {}) == ({}, {})
