"""Code parity (oracle/codesize.py): a total that agrees does not hide code that moved."""

from __future__ import annotations

from compiler.backend import llvm_stage
from oracle import codesize, symtab


def _sym(name: str, size: int, *, binding: str = "GLOBAL", section: str = ".text", kind: str = "FUNC") -> symtab.Symbol:
    return symtab.Symbol(name, binding, kind, "DEFAULT", section, size)


def test_bytes_moved_between_functions_count_although_the_total_agrees() -> None:
    serial = [_sym("caller", 300), _sym("helper", 100, binding="LOCAL")]
    # the split build inlined `helper` into `caller`: the same total, 200 bytes moved
    split = [_sym("caller", 400)]
    parity = codesize.code_parity(serial, split)
    assert (parity.reference_bytes, parity.bytes, parity.moved) == (400, 400, 200)
    assert parity.total_change == 0.0 and parity.per_function == 50.0


def test_copies_count_as_their_home_function_and_data_is_left_out() -> None:
    serial = [_sym("f", 100), _sym("g", 50, binding="LOCAL"), _sym("table", 4000, kind="OBJECT", section=".rodata")]
    split = [_sym("f", 100), _sym("g", 30, binding="LOCAL"), _sym("g.ember.3", 20, binding="LOCAL"),
             _sym("ext", 0, section="UND")]
    parity = codesize.code_parity(serial, split)
    assert (parity.reference_bytes, parity.bytes, parity.moved) == (150, 150, 0)
    assert parity.render() == "+0.00% .text, 0.00% moved"


def _object(ir: str, level: int) -> bytes:
    target = llvm_stage.native_target(None, 0)
    with llvm_stage.native(ir, "t.ll") as module:
        module.prepare(target, force_triple=False)
        llvm_stage.optimise(module, target, level)
        return llvm_stage.emit_object(module, target)


#: `helper` is called once: inlined at -O2 (it disappears, `api` grows), a call at -O0
MODULE = """
define internal i64 @helper(i64 %x) noinline optnone {
  %a = mul i64 %x, 7
  %b = xor i64 %a, 12345
  ret i64 %b
}
define i64 @api(i64 %x) {
  %r = call i64 @helper(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}
"""


def test_real_objects_of_one_module_agree_with_themselves_and_not_across_levels() -> None:
    o0 = symtab.read_symbols(_object(MODULE, 0))
    same = codesize.code_parity(o0, symtab.read_symbols(_object(MODULE, 0)))
    assert same.moved == 0 and same.bytes == same.reference_bytes > 0
    inlined = MODULE.replace("noinline optnone", "")
    o2 = symtab.read_symbols(_object(inlined, 2))
    assert "helper" not in codesize.function_sizes(o2)
    other = codesize.code_parity(o0, o2)
    assert other.moved >= codesize.function_sizes(o0)["helper"] > 0
