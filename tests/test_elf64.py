"""The `struct` ELF reader (`oracle.elf64`) gives exactly pyelftools' normal form.

Every object kind the project meets (Ember's builds in every split mode and -O, the
system C and C++ compilers' objects with IFUNC and GNU-unique symbols, TLS, COMMON,
comdat) is read both ways; a file the fast reader does not know falls back to
pyelftools, so damaged input keeps pyelftools' errors.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from compiler import driver
from oracle import elf64, symtab

ROOT = Path(__file__).parent.parent
INPUTS = [
    *sorted((ROOT / "tests" / "data").glob("*.ll")),
    ROOT / "examples" / "bank.em",
    ROOT / "examples" / "higher_order.em",
    ROOT / "examples" / "collatz.mlir",
]
C_SOURCE = r"""
#include <stdio.h>
static int impl(void) { return 1; }
static int (*resolve(void))(void) { return impl; }
int chosen(void) __attribute__((ifunc("resolve")));
__thread long per_thread = 3;
int common_one;
static const char *names[] = {"a", "b"};
int main(void) { printf("%s %d %ld\n", names[chosen()], common_one, per_thread); return 0; }
"""
CXX_SOURCE = r"""
template <typename T> struct Box { static inline int count = 0; int bump() { return ++count; } };
int use() { Box<int> b; return b.bump(); }
inline int shared_fn() { static int calls = 0; return ++calls; }
int call() { return shared_fn(); }
"""


def _pyelftools_only(monkeypatch: pytest.MonkeyPatch) -> None:
    def unsupported(data: bytes) -> None:
        raise elf64.Unsupported("forced")

    monkeypatch.setattr(elf64, "Elf64", unsupported)


Tables = tuple[list[symtab.Symbol], list[symtab.Relocation]]


def _both_ways(obj: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[Tables, Tables]:
    elf64.Elf64(obj)  # the fast reader knows this object (no silent fallback in this test)
    fast = (symtab.read_symbols(obj), symtab.read_relocations(obj))
    assert symtab.read_tables(obj) == fast  # the harness's one-parse reader
    with monkeypatch.context() as m:
        _pyelftools_only(m)
        slow = (symtab.read_symbols(obj), symtab.read_relocations(obj))
    return fast, slow


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
@pytest.mark.parametrize(("split", "opt"), [("none", 0), ("none", 2), ("two-level", 2), ("function", 0)])
def test_ember_objects_read_the_same_both_ways(path: Path, split: str, opt: int, monkeypatch: pytest.MonkeyPatch) -> None:
    options = driver.BuildOptions(opt_level=opt, split=split, jobs=1, subgraph_cost=1, piece_cost=1)
    obj = driver.build(str(path), options).output
    assert isinstance(obj, bytes)
    fast, slow = _both_ways(obj, monkeypatch)
    assert fast == slow
    assert fast[0], "an object with no symbols would prove nothing"


@pytest.mark.skipif(shutil.which("cc") is None or shutil.which("c++") is None, reason="needs the system cc and c++")
def test_system_compiler_objects_read_the_same_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.c").write_text(C_SOURCE)
    (tmp_path / "b.cc").write_text(CXX_SOURCE)
    subprocess.run(["cc", "-O1", "-fcommon", "-c", "a.c", "-o", "a.o"], cwd=tmp_path, check=True)
    subprocess.run(["c++", "-std=c++17", "-O1", "-c", "b.cc", "-o", "b.o"], cwd=tmp_path, check=True)
    kinds: set[tuple[str, str, str]] = set()
    for name in ("a.o", "b.o"):
        fast, slow = _both_ways((tmp_path / name).read_bytes(), monkeypatch)
        assert fast == slow, name
        kinds |= {(s.binding, s.type, s.section) for s in fast[0]}
    types = {t for _, t, _ in kinds}
    bindings = {b for b, _, _ in kinds}
    assert {"IFUNC", "TLS", "FUNC", "OBJECT"} <= types, kinds
    assert "UNIQUE" in bindings, kinds  # GNU unique (C++ inline statics): named, not 'STB_LOOS'
    assert any(section == "COMMON" for _, _, section in kinds), kinds


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:100], lambda b: b[:-40], lambda b: b[:4] + bytes([1]) + b[5:], lambda b: b"\x7fELF" + b"\0" * 60,
        lambda b: b"not an object",
    ],
    ids=["truncated-header-area", "truncated-tail", "elf32-class", "empty-headers", "garbage"],
)
def test_damaged_objects_get_pyelftools_verdict(damage: Callable[[bytes], bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    good = driver.build(str(INPUTS[0]), driver.BuildOptions(opt_level=0)).output
    assert isinstance(good, bytes)
    bad = damage(good)

    def outcome() -> object:
        try:
            return symtab.read_symbols(bad), symtab.read_relocations(bad)
        except symtab.EmberError as exc:
            return "error", exc.message

    fast = outcome()
    with monkeypatch.context() as m:
        _pyelftools_only(m)
        assert outcome() == fast


def test_ember_objects_take_the_fast_path() -> None:
    """The fast reader knows what Ember emits (else the harness would silently stay on pyelftools)."""
    obj = driver.build(str(INPUTS[0]), driver.BuildOptions(opt_level=2, split="two-level", jobs=1, subgraph_cost=1)).output
    assert isinstance(obj, bytes)
    elf = elf64.Elf64(obj)
    assert elf.symtab is not None and elf.symbols() and elf.relocations()
