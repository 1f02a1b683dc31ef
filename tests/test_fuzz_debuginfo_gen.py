"""Generated debug info (`fuzz.strategies.debuginfo`): valid IR, several files, scopes like a C
front end's; a `-g` plan's LLVM IR program carries it; a line-table mistake after a file switch
shows only with it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler import driver
from compiler.backend import engine
from fuzz import faults
from fuzz.strategies import cases
from fuzz.strategies.debuginfo import DEBUG_FEATURES, decorate
from oracle import debuginfo

#: a helper in a header inlined into two `.c` functions at -O2 (the shape every C program has)
MODULE = """@.fmt = private unnamed_addr constant [6 x i8] c"%lld\\0A\\00"
declare i32 @printf(ptr, ...)

define internal i64 @helper(i64 %x) {
entry:
  %a = mul i64 %x, 7
  %b = xor i64 %a, 12345
  ret i64 %b
}

define i64 @f(i64 %x) noinline {
entry:
  %h = call i64 @helper(i64 %x)
  %r = add i64 %h, 3
  ret i64 %r
}

define i64 @g(i64 %x) noinline {
entry:
  %h = call i64 @helper(i64 %x)
  %r = sub i64 %h, 9
  ret i64 %r
}

define i32 @main() {
entry:
  %a = call i64 @f(i64 5)
  %b = call i64 @g(i64 %a)
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %b)
  ret i32 0
}
"""


def verifies(module: str) -> str:
    r = subprocess.run([str(engine.tools_dir() / "opt"), "-passes=verify", "-o", "/dev/null", "-"], input=module.encode(),
                       capture_output=True)
    return r.stderr.decode() if r.returncode or r.stderr else ""


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(cases("llvm-ir"), st.integers(0, 2**16))
def test_decorated_modules_verify_and_locate_every_instruction(case: object, seed: int) -> None:
    module = case.module  # type: ignore[attr-defined]
    out, features = decorate(module, seed)
    assert not verifies(out), (verifies(out), out)
    assert set(features) <= set(DEBUG_FEATURES)
    functions = len(re.findall(r"^define ", out, re.M))
    assert len(re.findall(r"^define .* !dbg !\d+ \{$", out, re.M)) == functions
    assert decorate(out, seed) == (out, ())  # a module with debug info is left alone


def first_seed_with_header(module: str) -> str:
    """The module decorated with `helper` in a header and `f`, `g` in the `.c` file."""
    for seed in range(500):
        out, _ = decorate(module, seed)
        files = dict(re.findall(r'^(!\d+) = !DIFile\(filename: "([^"]+)"', out, re.M))
        sp = dict(re.findall(r'^!\d+ = distinct !DISubprogram\(name: "(\w+)", scope: (!\d+)', out, re.M))
        if files[sp["helper"]].endswith(".h") and all(files[sp[n]] == "prog.c" for n in ("f", "g", "main")):
            return out
    raise AssertionError("no seed puts only the helper in a header")


def build(path: Path, split: str, names: frozenset[str] = frozenset()) -> bytes:
    options = driver.BuildOptions(opt_level=2, split=split, jobs=1, subgraph_cost=1, emit="obj", debug_info=True,
                                  hooks=faults.hooks_for(names))
    out = driver.build(str(path), options).output
    assert isinstance(out, bytes)
    return out


def test_inlined_header_rows_agree_and_the_file_switch_fault_moves_them(tmp_path: Path) -> None:
    path = tmp_path / "prog.ll"
    path.write_text(first_seed_with_header(MODULE))
    serial = build(path, "none")
    assert any(file.endswith(".h") for _name, file, _line in debuginfo.subprograms(serial))
    clean = debuginfo.compare_lines(serial, build(path, "subgraph"))
    assert clean.exact and not clean.differences, clean
    broken = debuginfo.compare_lines(serial, build(path, "subgraph", frozenset({faults.SHIFT_ROWS_AFTER_FILE_SWITCH})))
    assert broken.differences, broken
    # one file only (the helper in prog.c too): the same fault moves nothing
    one_file = re.sub(r'filename: "include/h\d\.h"', 'filename: "prog.c"', path.read_text())
    path.write_text(one_file)
    serial = build(path, "none")
    unmoved = debuginfo.compare_lines(serial, build(path, "subgraph", frozenset({faults.SHIFT_ROWS_AFTER_FILE_SWITCH})))
    assert not unmoved.differences, unmoved


def test_lines_compare_on_objects_that_use_hidden_undefined_symbols(tmp_path: Path) -> None:
    """A slice of a real program declares functions hidden (Lua's `LUAI_FUNC`): `ld` refuses an
    executable with a hidden undefined symbol even with `--unresolved-symbols=ignore-all`, so
    the oracle defines them at 0 before it symbolises."""
    hidden = MODULE.replace("declare i32 @printf(ptr, ...)", "declare i32 @printf(ptr, ...)\ndeclare hidden i64 @ext(i64)")
    hidden = hidden.replace("%r = add i64 %h, 3", "%e = call i64 @ext(i64 %h)\n  %r = add i64 %e, 3")
    path = tmp_path / "prog.ll"
    path.write_text(first_seed_with_header(hidden))
    serial = build(path, "none")
    assert debuginfo._hidden_undefined(serial) == ["ext"]
    clean = debuginfo.compare_lines(serial, build(path, "subgraph"))
    assert clean.exact and not clean.differences, clean
