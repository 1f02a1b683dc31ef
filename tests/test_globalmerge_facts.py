"""GlobalMerge's module facts read from the live module (compiler/backend/globalmerge.py,
`module_facts(..., module)`): the alias value types' alloc sizes from the module's data
layout equal what `_value_sizes` here makes of the aliases' printed types and the type
definitions (what the text path asked LLVM before it was deleted), on every module with
aliases here; the facts are the same from entities read in memory, which have no text, as
from the printed module's entities (docs/bench/plan-facts/DESIGN.md, step 5). No corpus module (the 13 C programs'
bitcode, rust-regex, rust-markdown) has an alias into a global variable: there the facts are
None either way (checked once, 2026-11-28; 27 s, so not here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.backend import engine, facts, globalmerge, irmodel, llvm_stage
from tests import plan_fingerprint as pf

ROOT = Path(__file__).resolve().parent.parent
WITH_ALIASES = [
    ROOT / "tests/data/linkages.ll",
    ROOT / "tests/data/objlink_names.ll",
    ROOT / "tests/data/aarch64/globalmerge_aliases.ll",
    ROOT / "lit-tests/backend/Inputs/legal-names.ll",
]

#: value types the old text path sized: arrays, structs (named and literal), vectors, ...
UNUSUAL = """
%pair = type { i32, i64 }
%opaque = type opaque
@arr = global [5 x i16] zeroinitializer
@a_arr = alias [3 x i8], ptr @arr
@a_pair = alias %pair, ptr @arr
@a_lit = alias { i8, double, [2 x i8] }, ptr @arr
@a_vec = alias <3 x i32>, ptr @arr
@a_i1 = alias i1, ptr @arr
@a_gep = alias i32, getelementptr (i8, ptr @arr, i64 2)
@a_fn = alias void (), ptr @arr
@a_opaque = alias %opaque, ptr @arr
"""


def _value_sizes(value_types: dict[str, str], type_defs: list[str], triple: str | None) -> dict[str, int]:
    """The alloc size of each alias's value type (by alias name), given as text: a module of
    `type_defs` and one external variable per type, prepared for `triple`; none for an
    unsized type (a function type does not parse as a variable's: then one at a time)."""
    listed = list(value_types.items())
    if not listed:
        return {}
    lines = [*type_defs] + [f"@__ember_vt{i} = external global {vt}" for i, (_name, vt) in enumerate(listed)]
    target = llvm_stage.native_target(triple)
    try:
        with engine.Module("\n".join(lines) + "\n", "<alias value types>") as module:
            module.prepare(target, force_triple=True)
            sizes = module.global_value_sizes([f"__ember_vt{i}" for i in range(len(listed))])
    except engine.EngineError:  # an unsized value type: AsmPrinter writes no `.size` either
        if len(listed) == 1:
            return {}
        return {k: v for name, vt in listed for k, v in _value_sizes({name: vt}, type_defs, triple).items()}
    return {name: sizes[f"__ember_vt{i}"] for i, (name, _vt) in enumerate(listed) if f"__ember_vt{i}" in sizes}


def _old_sizes(mod: irmodel.IRModule, names: list[str], triple: str | None) -> dict[str, int]:
    """What the link asked `_value_sizes` before: the types printed after `alias`, with the
    module's type definitions, for the build's triple (one alias at a time: an unsized one
    made the whole call give nothing)."""
    out: dict[str, int] = {}
    type_defs = [e.text for e in mod.by_kind("type")]
    for name in names:
        head = mod.values[name].text.split("=", 1)[1]
        at = re.search(r"\balias\b", head)
        assert at is not None
        out.update(_value_sizes({name: irmodel.read_type(head, at.end())}, type_defs, triple))
    return out


def _compare(data: bytes | str, name: str, level: int = 2) -> int:
    """Sizes from memory against the old text sizes, and the facts from entities without
    text against those from the text; the number of aliases compared."""
    made = pf.driver_module(data, name, level, debug=False)
    module, text, triple = made.module, made.module.text(), made.triple
    with module:
        mod = irmodel.parse_module(text)  # (the driver's preparation named the unnamed)
        found = globalmerge.module_facts(mod, set(), module)
        if found is None:
            return 0
        names = [a.name for a in found.aliases]
        memory = {a.name: a.value_size for a in found.aliases if a.value_size is not None}
        assert memory == _old_sizes(mod, names, triple), name
        assert globalmerge.module_facts(facts.read(module, triple), set(), module) == found, f"{name}: facts.read's differ"
        return len(names)


@pytest.mark.parametrize("path", WITH_ALIASES, ids=lambda p: p.name)
def test_sizes_from_memory_equal_the_text_sizes(path: Path) -> None:
    assert _compare(path.read_text(), path.name) > 0


@pytest.mark.parametrize("triple", ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "i686-unknown-linux-gnu"])
def test_unusual_value_types(triple: str) -> None:
    """Structs, vectors, `i1`, an offset base; a function or opaque value type has no size
    (AsmPrinter writes no `.size`), the rest still do."""
    assert _compare(f'target triple = "{triple}"\n' + UNUSUAL, "unusual") == 8
    made = pf.driver_module(f'target triple = "{triple}"\n' + UNUSUAL, "unusual", 2, debug=False)
    module, text = made.module, made.module.text()
    with module:
        found = globalmerge.module_facts(irmodel.parse_module(text), set(), module)
    assert found is not None
    sizes = {a.name: a.value_size for a in found.aliases}
    assert sizes["a_fn"] is None and sizes["a_opaque"] is None
    assert sizes["a_arr"] == 3 and sizes["a_vec"] == 16 and sizes["a_i1"] == 1
