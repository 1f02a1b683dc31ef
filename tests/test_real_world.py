"""A real C program (the Lua 5.4 interpreter, ~1,080 functions in one module) built split and unsplit.

Needs Debian's clang-19 (`apt-get install clang-19`) and the Lua sources
(`bash ci/fetch_lua.sh`); skipped with the reason when either is missing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from compiler import driver
from oracle import runner, symtab
from tests.conftest import run_tool

ROOT = Path(__file__).parent.parent
LUA = ROOT / ".cache" / "lua54"
SCRIPT = """
local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end
local t = {}
for i = 1, 200 do t[i] = string.format("%d:%x", i, fib(i % 20)) end
print(table.concat(t, ","))
print(#t, fib(22), math.floor(3.7), string.rep("ab", 3), select("#", 1, 2, 3), 7 // 2, 2^10)
local co = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i * i) end end)
print(co(), co(), co())
print(pcall(function() error("boom") end))
print(string.find("hello world", "o w"), ("x"):byte(), tostring(nil), 10 % 3, -7 // 2)
"""

pytestmark = [
    pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 not installed (apt-get install clang-19)"),
    pytest.mark.skipif(not (LUA / "lvm.c").exists(), reason="Lua sources missing (run: bash ci/fetch_lua.sh)"),
]


@pytest.fixture(scope="module")
def lua_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lua")
    bitcode = []
    for src in sorted(LUA.glob("*.c")):
        if src.stem in ("luac", "onelua", "ltests"):
            continue
        bc = out / f"{src.stem}.bc"
        subprocess.run(
            ["clang-19", "-O2", "-Xclang", "-disable-llvm-optzns", "-emit-llvm", "-c", "-DLUA_USE_LINUX", "-w",
             str(src), "-o", str(bc)],
            check=True,
        )
        bitcode.append(bc)
    linked = out / "lua.bc"
    run_tool("llvm-link", *bitcode, "-o", linked)
    return linked


def _exe(obj: bytes, path: Path) -> Path:
    path.with_suffix(".o").write_bytes(obj)
    return runner.link_executable([path.with_suffix(".o")], path, with_runtime=False)


def test_lua_split_equals_unsplit(lua_module: Path, tmp_path: Path) -> None:
    serial = driver.build(str(lua_module), driver.BuildOptions(split="none")).output
    split = driver.build(str(lua_module), driver.BuildOptions(split="two-level", jobs=2)).output
    assert isinstance(serial, bytes) and isinstance(split, bytes)
    diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(split))
    assert diff.clean, diff.render("--split none", "two-level")
    script = tmp_path / "t.lua"
    script.write_text(SCRIPT)
    want = runner.run_executable(_exe(serial, tmp_path / "lua_serial"), [str(script)])
    got = runner.run_executable(_exe(split, tmp_path / "lua_split"), [str(script)])
    assert want.outcome == "exit 0" and b"75025" not in want.stderr
    assert (got.stdout, got.stderr, got.outcome) == (want.stdout, want.stderr, want.outcome)
    assert b"17711" in want.stdout  # fib(22), computed by the interpreter under test
