"""Every diagnostic path of the Ember frontend: message, `file:line:col`, exit 1, no traceback.

Most cases go through the API (`emit_mlir_text`, which `ember build` calls); a few go
through the real CLI in a child process (`ember build`, `ember run`, `ember interp`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import EmberError, MultipleErrors
from compiler.frontend import emit_mlir_text
from oracle import interp
from tests.conftest import ember_subprocess

#: name -> (source, every expected diagnostic line, in order)
CASES: dict[str, tuple[str, list[str]]] = {
    "syntax_unclosed": ("def main() -> None:\n    x = (1 +\n", ["2:9: error: syntax error: '(' was never closed"]),
    "syntax_colon": ("def main() -> None:\n  if True\n    pass\n", ["2:10: error: syntax error: expected ':'"]),
    "unknown_name": ("def main() -> None:\n    print(y)\n", ["2:11: error: 'y' is not defined"]),
    "type_mismatch": (
        "def main() -> None:\n    x: Int = 1.5\n",
        ["2:14: error: 'x' has type Int, but the value has type Float64"],
    ),
    "operand_types": (
        "def main() -> None:\n    a = 1\n    b = 2.0\n    print(a + b)\n",
        ["4:11: error: operands of '+' have different types: Int and Float64"],
    ),
    "wrong_arg_count": (
        "def f(x: Int) -> Int:\n    return x\n\ndef main() -> None:\n    print(f(1, 2))\n",
        ["5:11: error: 'f' expects 1 argument, got 2"],
    ),
    "bad_decorator": ("@inline\ndef f() -> None:\n    pass\n", ["1:2: error: unknown decorator 'inline'"]),
    "missing_return": (
        "def f(x: Int) -> Int:\n    if x > 0:\n        return 1\n",
        ["1:1: error: function 'f' can reach its end without returning a value"],
    ),
    "unsupported_class": ("class A:\n    pass\n", ["1:1: error: class definitions are not supported"]),
    "unsupported_lambda": ("def main() -> None:\n    f = lambda: 1\n", ["2:9: error: lambda expressions are not supported"]),
    "unsupported_import": ("import os\n", ["1:1: error: imports are not supported"]),
    "unsupported_nested_function": (
        "def main() -> None:\n    def g() -> None:\n        pass\n",
        ["2:5: error: nested functions are not supported"],
    ),
    "unsupported_for_list": (
        "def main() -> None:\n    for i in [1, 2]:\n        pass\n",
        ["2:14: error: a for loop can only iterate over range(...)"],
    ),
    "several_errors": (
        "def main() -> None:\n    x: Int = True\n    y = z\n    print(x + 1.0)\n",
        [
            "2:14: error: 'x' has type Int, but the value has type Bool",
            "3:9: error: 'z' is not defined",
            "4:11: error: operands of '+' have different types: Int and Float64",
        ],
    ),
    "break_outside_loop": ("def main() -> None:\n    break\n", ["2:5: error: 'break' outside a loop"]),
    "maybe_unassigned": (
        "def main() -> None:\n    if True:\n        x = 1\n    print(x)\n",
        ["4:11: error: 'x' may be used before it is assigned"],
    ),
    "global_without_declaration": (
        "g: Int = 0\n\ndef main() -> None:\n    g = 5\n",
        ["4:5: error: 'g' is a global; declare 'global g' to assign it"],
    ),
    "condition_not_bool": ("def main() -> None:\n    if 1:\n        pass\n", ["2:8: error: condition must be Bool, found Int"]),
    "literal_out_of_range": (
        "def main() -> None:\n    x: Int8 = 300\n",
        ["2:15: error: integer literal 300 is out of range for Int8"],
    ),
    "int_true_division": (
        "def main() -> None:\n    a = 7\n    print(a / 2)\n",
        ["3:11: error: operator '/' is not defined for Int (use '//' for integer division)"],
    ),
    "float_power": (
        "def main() -> None:\n    x = 2.0\n    print(x ** 2.0)\n",
        ["3:11: error: operator '**' is not defined for Float64"],
    ),
    "not_callable": ("def main() -> None:\n    a = 7\n    a(1)\n", ["3:5: error: a value of type Int cannot be called"]),
    "print_as_value": ("def main() -> None:\n    x = print(1)\n", ["2:9: error: print() can only be used as a statement"]),
    "main_signature": (
        "def main(x: Int) -> Float64:\n    return 1.0\n",
        ["1:1: error: 'main' must take no parameters and return Int or None"],
    ),
    "redefinition": ("def f() -> None:\n    pass\n\ndef f() -> None:\n    pass\n", ["4:1: error: 'f' is already defined"]),
    "reserved_export": (
        "@export\ndef malloc(n: Int) -> Int:\n    return n\n",
        ["2:1: error: 'malloc' is a reserved symbol name and cannot be exported"],
    ),
    "return_value_from_none": ("def f() -> None:\n    return 1\n", ["2:12: error: function 'f' does not return a value"]),
    "string_value": (
        'def main() -> None:\n    s = "hi"\n',
        ["2:9: error: string literals are only allowed as print() arguments"],
    ),
    "keyword_arguments": (
        "def f(x: Int) -> Int:\n    return x\n\ndef main() -> None:\n    print(f(x=1))\n",
        ["5:11: error: 'f' expects 1 argument, got 0", "5:13: error: keyword arguments are not supported"],
    ),
    "global_initialiser_not_literal": (
        "def f() -> Int:\n    return 1\n\ng: Int = f()\n",
        ["4:10: error: the initial value of global 'g' must be a literal constant"],
    ),
    "unknown_type": ("def f(x: Integer) -> None:\n    pass\n", ["1:10: error: unknown type 'Integer'"]),
    "missing_annotation": ("def f(x) -> None:\n    pass\n", ["1:7: error: parameter 'x' needs a type annotation"]),
    "function_value_compare": (
        "def f() -> None:\n    pass\n\ndef main() -> None:\n    print(f == f)\n",
        ["5:11: error: values of type Callable[[], None] cannot be compared"],
    ),
}


def _rendered(source: str, path: str = "prog.em") -> list[str]:
    with pytest.raises(EmberError) as info:
        emit_mlir_text(source, path)
    return info.value.render().splitlines()


@pytest.mark.parametrize("name", sorted(CASES))
def test_diagnostic(name: str) -> None:
    source, expected = CASES[name]
    assert _rendered(source) == [f"prog.em:{line}" for line in expected]


def test_several_errors_are_one_exception_sorted_by_position() -> None:
    source, expected = CASES["several_errors"]
    with pytest.raises(MultipleErrors) as info:
        emit_mlir_text(source, "prog.em")
    assert len(info.value.errors) == len(expected) == 3


def test_interpreter_needs_main() -> None:
    with pytest.raises(EmberError, match="the program has no 'main' function"):
        interp.run_source("def f() -> None:\n    pass\n", "lib.em")


def test_columns_count_characters_not_bytes() -> None:
    # 'é' is two bytes in UTF-8; the column of `y` is still the 16th character
    assert _rendered("def main() -> None:\n    print('é', y)\n") == ["prog.em:2:16: error: 'y' is not defined"]


# --------------------------------------------------------------------------- the real CLI


def _write(tmp_path: Path, name: str) -> Path:
    p = tmp_path / "prog.em"
    p.write_text(CASES[name][0])
    return p


@pytest.mark.parametrize("command", ["build", "run", "interp"])
@pytest.mark.parametrize("name", ["syntax_unclosed", "several_errors"])
def test_cli_reports_and_exits_1(tmp_path: Path, command: str, name: str) -> None:
    prog = _write(tmp_path, name)
    args = [command, str(prog)] + (["-o", str(tmp_path / "prog.o")] if command == "build" else [])
    r = ember_subprocess(*args)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr.splitlines() == [f"{prog}:{line}" for line in CASES[name][1]]
    assert not (tmp_path / "prog.o").exists()


def test_cli_type_error_with_emit_mlir(tmp_path: Path) -> None:
    prog = _write(tmp_path, "type_mismatch")
    r = ember_subprocess("build", str(prog), "--emit", "mlir", "-o", "-")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip() == f"{prog}:2:14: error: 'x' has type Int, but the value has type Float64"
