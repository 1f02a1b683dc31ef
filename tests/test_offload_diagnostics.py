"""Kernel diagnostics: message and file:line:col for each misuse; the CLI exits 1, no traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from compiler.diagnostics import EmberError, MultipleErrors
from compiler.frontend.checker import check_source

HEADER = """
@kernel
def k(x: Buffer[Int], n: Int) -> None:
    x[thread_idx_x()] = n
"""

CASES = [
    ("def main() -> None:\n    b = Buffer[Int](4)\n    k(b, 1)\n", 7, 5,
     "kernel 'k' cannot be called directly; launch it with k[grid, block](...)"),
    ("def f() -> Int:\n    return thread_idx_x()\n", 6, 12, "thread_idx_x() can only be used in a @kernel function"),
    ("def main() -> None:\n    b = Buffer[Int](4)\n    k[1, 4](b)\n", 7, 5, "kernel 'k' expects 2 arguments, got 1"),
    ("def main() -> None:\n    b = Buffer[Int](4)\n    k[1, 4](b, 1.5)\n", 7, 16,
     "argument 2 of kernel 'k' has type Int, but the value has type Float64"),
    ("def main() -> None:\n    b = Buffer[Int](4)\n    k[1.0, 4](b, 1)\n", 7, 7, "grid dimensions must be Int, found Float64"),
    ("def main() -> None:\n    b = Buffer[Int](4)\n    k[1, (1, 2, 3, 4)](b, 1)\n", 7, 10, "block dimensions are 1 to 3 Int values"),
    ("def main() -> None:\n    b = Buffer[Int](4)\n    k[1](b, 1)\n", 7, 5, "a kernel launch is written k[grid, block](args...)"),
    ("def g(a: Int) -> None:\n    pass\n\ndef main() -> None:\n    g[1, 1](2)\n", 9, 5,
     "'g' is not a kernel; only @kernel functions can be launched"),
    ("@kernel\ndef bad(a: Int) -> Int:\n    return a\n", 6, 20, "kernel 'bad' must not return a value"),
    ("@kernel\ndef bad(f: Callable[[Int], Int]) -> None:\n    pass\n", 6, 9,
     "kernel parameters must be scalars or buffers, not Callable[[Int], Int]"),
    ("@kernel\ndef p(n: Int) -> None:\n    print(n)\n", 7, 5, "print() is not allowed in device code (kernel 'p')"),
    ("g: Int = 0\n\ndef helper(n: Int) -> Int:\n    return n + g\n\n@kernel\ndef q(x: Buffer[Int]) -> None:\n    x[0] = helper(1)\n",
     8, 16, "global variable 'g' is not allowed in device code ('helper', which kernel 'q' calls)"),
    ("@kernel\ndef r(n: Int) -> None:\n    b = Buffer[Int](n)\n", 7, 9, "allocating a buffer is not allowed in device code (kernel 'r')"),
    ("@kernel\ndef s(x: Buffer[Int]) -> None:\n    k[1, 1](x, 2)\n", 7, 5, "a kernel launch is not allowed in device code (kernel 's')"),
    ("def main() -> None:\n    f = k\n", 6, 9, "kernel 'k' cannot be used as a value"),
    ("@kernel\n@export\ndef e(n: Int) -> None:\n    pass\n", 7, 1, "a kernel cannot be exported"),
]


@pytest.mark.parametrize(("tail", "line", "col", "message"), CASES)
def test_kernel_diagnostic(tail: str, line: int, col: int, message: str) -> None:
    with pytest.raises((EmberError, MultipleErrors)) as info:
        check_source(HEADER + tail, "prog.em")
    errors = info.value.errors if isinstance(info.value, MultipleErrors) else [info.value]
    rendered = [e.render() for e in errors]
    assert f"prog.em:{line}:{col}: error: {message}" in rendered, rendered


def test_cli_reports_kernel_error_without_traceback(tmp_path: object) -> None:
    from pathlib import Path

    src = Path(str(tmp_path)) / "bad.em"
    src.write_text(HEADER + CASES[0][0])
    for cmd in (["build", str(src), "--emit", "ptx", "-o", "-"], ["interp", str(src)], ["run", str(src)]):
        proc = subprocess.run([sys.executable, "-m", "compiler.cli", *cmd], capture_output=True, text=True)
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr == f"{src}:7:5: error: {CASES[0][3]}\n"
