"""Alias sizes under AArch64's GlobalMerge (compiler/backend/globalmerge.py; docs/backend.md,
"GlobalMerge and alias sizes"): the split object's alias sizes equal the serial one's at every
-O and in every split mode, and the pieces of the decision on their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import engine, facts, globalmerge, llvm_stage, mclink
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


PIECE = """\
\t.text
\t.type\tf,@function
f:
\tadrp\tx8, .L_MergedGlobals
\tadd\tx8, x8, :lo12:.L_MergedGlobals
.Lfunc_end0:
\t.type\tg,@function
g:
\tadrp\tx8, a
\tldr\tx8, [x8, :lo12:a]
\tadrp\tx9, big
\tldr\tx9, [x9, :lo12:big]
.Lfunc_end1:
\t.type\t.L_MergedGlobals,@object
\t.data
\t.p2align\t3, 0x0
.L_MergedGlobals:
\t.size\t.L_MergedGlobals, 16
b = .L_MergedGlobals
\t.size\tb, 8
c = .L_MergedGlobals+8
\t.size\tc, 8
\t.type\ta,@object
\t.p2align\t3, 0x0
a:
\t.size\ta, 8
\t.type\tbig,@object
\t.p2align\t3, 0x0
big:
\t.size\tbig, 4090
"""


def test_merged_variables_follow_globalmerge_rules() -> None:
    text = "\n".join(f"@{n} = internal global i64 0" for n in ("a", "b", "c", "big")) + "\n@al = alias i32, ptr @a\n"
    facts = _facts(text)
    read = [globalmerge._read_piece(PIECE, {"al"})]
    # f reaches b and c through the piece's merged block, g uses a with `big`: one set, packed
    # in size order; `big` (4,090 bytes) after 24 bytes passes 4,095 and is alone in its cut
    assert globalmerge.merged_variables(read, facts, 3, {}) == {"a", "b", "c"}
    # -O2: only minsize functions count, and there are none
    assert globalmerge.merged_variables(read, facts, 2, {}) == set()


def test_link_writes_the_alias_size() -> None:
    lines = ["\t.weak\tk", "k = k_arr+8", "\t.size\tk, 32", "x = y"]
    assert mclink.set_alias_sizes(lines, {"k": 8}) == ["\t.weak\tk", "k = k_arr+8", "\t.size\tk, 8", "x = y"]
