"""What FunctionAttrs infers on the whole prefixed module reaches every piece's declarations and
imports (compiler/backend/inferred.py): a subgraph's callers read them as the serial build's do."""

from __future__ import annotations

from pathlib import Path

from compiler.backend import inferred, llvm_stage
from oracle import symtab
from tests.conftest import build_object

#: `pure` (exported: every other subgraph declares it) is arithmetic only, which FunctionAttrs
#: infers `memory(none) nounwind willreturn` for; `user`'s call of it is unused, so the serial
#: build deletes it, and `guarded`'s `invoke` of it becomes a call without its landing pad
MODULE = """
declare i32 @__gxx_personality_v0(...)

define i64 @pure(i64 %x) noinline {
  %a = mul i64 %x, 77
  %b = xor i64 %a, 5
  ret i64 %b
}

define i64 @user(i64 %x) noinline {
  %unused = call i64 @pure(i64 %x)
  %r = add i64 %x, 1
  ret i64 %r
}

define i64 @guarded(i64 %x) noinline personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i64 @pure(i64 %x) to label %ok unwind label %lp
ok:
  ret i64 %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret i64 -1
}

define i32 @main() {
  %a = call i64 @user(i64 3)
  %b = call i64 @guarded(i64 %a)
  %c = trunc i64 %b to i32
  ret i32 %c
}
"""


def _build(path: Path, split: str) -> bytes:
    return build_object(path, split, subgraph_cost=1)


def test_infer_reads_what_function_attrs_finds_on_exact_definitions() -> None:
    target = llvm_stage.native_target(None)
    with llvm_stage.native(MODULE, "<test>") as module:
        found = inferred.infer(module, target)
    pure = {(index, name) for index, name, _value in found["pure"]}
    assert {(inferred.FUNCTION_INDEX, "nounwind"), (inferred.FUNCTION_INDEX, "memory"),
            (inferred.FUNCTION_INDEX, "willreturn")} <= pure
    assert "__gxx_personality_v0" not in found  # a declaration: nothing to infer from


def test_a_declaration_in_another_subgraph_gets_the_inferred_attributes(tmp_path: Path) -> None:
    src = tmp_path / "pure.ll"
    src.write_text(MODULE)
    serial = symtab.read_tables(_build(src, "none"))
    for mode in ("subgraph", "two-level"):
        ours = symtab.read_tables(_build(src, mode))
        assert not symtab.diff_full(serial[0], ours[0], serial[1], ours[1], exact_code=True), mode
