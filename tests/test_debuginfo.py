"""`-g` through every split mode (docs/backend.md, "Debug info").

A two-file C program (tests/data/debug: two compile units after llvm-link, same-named
static helpers, a jump table, a static local) compiled by clang-19 with `-g`, built
serially and in each split mode with small split costs (so nearly every function is a
piece of its own): `llvm-dwarfdump --verify` is clean, the subprograms are those of the
serial object, functions with the same code symbolise to the same file:line row for row,
the bytes do not depend on -j, and gdb breaks at a file:line in the split-built program
and prints the backtrace. DWARF 4 and 5 both. Missing clang-19 or gdb: skipped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from compiler import driver
from compiler.link import link_executable
from oracle import debuginfo
from tests.conftest import DATA, LLVM_BIN

SOURCES = [DATA / "debug" / "main.c", DATA / "debug" / "util.c"]
MODES = ("subgraph", "function", "two-level")
CLANG = "clang-19"
BREAK_LINE = next(n for n, text in enumerate(SOURCES[0].read_text().splitlines(), 1) if "/* BREAK-HERE */" in text)


def _module(tmp: Path, dwarf: int, sources: list[Path] = SOURCES) -> Path:
    if shutil.which(CLANG) is None:
        pytest.skip(f"{CLANG} not installed (apt-get install {CLANG})")
    pieces = []
    for src in sources:
        bc = tmp / f"{src.stem}.bc"
        flags = ["-O1", "-Xclang", "-disable-llvm-optzns", "-emit-llvm", "-c", f"-gdwarf-{dwarf}"]
        subprocess.run([CLANG, *flags, str(src), "-o", str(bc)], check=True, cwd=src.parent)
        pieces.append(str(bc))
    out = tmp / f"prog-dwarf{dwarf}.bc"
    subprocess.run([str(LLVM_BIN / "llvm-link"), *pieces, "-o", str(out)], check=True)
    return out


@pytest.fixture(scope="module", params=[5, 4], ids=["dwarf5", "dwarf4"])
def program(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _module(tmp_path_factory.mktemp("debug"), request.param)


def _build(path: Path, **options: object) -> bytes:
    out = driver.build(str(path), driver.BuildOptions(debug_info=True, **options)).output  # type: ignore[arg-type]
    assert isinstance(out, bytes)
    return out


def _split(path: Path, mode: str, level: int, jobs: int = 2) -> bytes:
    return _build(path, split=mode, opt_level=level, jobs=jobs, subgraph_cost=1, piece_cost=1)


@pytest.mark.parametrize("level", [0, 2])
@pytest.mark.parametrize("mode", MODES)
def test_split_debug_info_agrees_with_serial(program: Path, mode: str, level: int) -> None:
    serial = _build(program, split="none", opt_level=level)
    assert debuginfo.verify(serial) is None
    split = _split(program, mode, level)
    problems = debuginfo.verify(split)
    assert problems is None, problems
    assert debuginfo.subprograms(split) == debuginfo.subprograms(serial)
    check = debuginfo.compare_lines(serial, split)
    assert not check.differences, "\n".join(check.differences)
    assert check.exact >= (4 if level == 0 else 1), f"too few functions compared row by row: {check}"
    assert _split(program, mode, level, jobs=1) == split, "-g: bytes differ between -j1 and -j2"


def test_subprograms_are_the_serial_ones(program: Path) -> None:
    names = {name for name, _file, _line in debuginfo.subprograms(_split(program, "two-level", 0))}
    assert {"main", "accumulate", "classify", "scale", "helper"} <= names
    files = {Path(file).name for _n, file, _l in debuginfo.subprograms(_split(program, "two-level", 0))}
    assert {"main.c", "util.c"} <= files


def test_without_g_debug_info_is_dropped_in_every_mode(program: Path) -> None:
    for mode in ("none", *MODES):
        obj = driver.build(str(program), driver.BuildOptions(split=mode, opt_level=2, jobs=2, subgraph_cost=1)).output
        assert isinstance(obj, bytes)
        assert b".debug_info" not in obj and b".debug_line" not in obj, mode


def test_the_checks_can_fail(program: Path) -> None:
    """The oracle sees a line table shifted by one line and a unit whose abbreviations are lost."""
    serial = _build(program, split="none", opt_level=0)
    shifted_src = program.parent / "shifted"
    shifted_src.mkdir(exist_ok=True)
    for src in SOURCES:
        (shifted_src / src.name).write_text("\n" + src.read_text())
    shifted_module = _module(shifted_src, 5, [shifted_src / s.name for s in SOURCES])
    shifted = _build(shifted_module, split="two-level", opt_level=0, subgraph_cost=1, piece_cost=1)
    assert debuginfo.compare_lines(serial, shifted).differences
    broken = serial.replace(b".debug_abbrev", b".debug_abbrex")  # the units' abbreviations are gone
    assert debuginfo.verify(broken) is not None


def _gdb(exe: Path, commands: list[str]) -> str:
    gdb = shutil.which("gdb")
    if gdb is None:
        pytest.skip("gdb not installed (apt-get install gdb; ci/system-deps.sh)")
    args = [gdb, "-batch", "-nx"] + [a for c in commands for a in ("-ex", c)] + ["--args", str(exe), "x"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return proc.stdout + proc.stderr


@pytest.mark.parametrize("level", [0, 2])
def test_gdb_breaks_at_file_line_in_a_split_build(program: Path, level: int, tmp_path: Path) -> None:
    obj = tmp_path / "prog.o"
    obj.write_bytes(_split(program, "two-level", level))
    exe = link_executable([obj], tmp_path / "prog", with_runtime=False)
    said = _gdb(exe, [f"break main.c:{BREAK_LINE}", "run", "bt", "break scale", "continue", "bt"])
    assert re.search(rf"Breakpoint 1, main \(.*\) at .*main\.c:{BREAK_LINE}", said), said
    assert re.search(r"#0 .*scale \(.*\) at .*util\.c:\d+", said), said
    assert re.search(r"#1 .*main \(.*\) at .*main\.c:\d+", said), said


def test_gdb_breaks_at_file_line_in_a_split_built_corpus_program(tmp_path: Path) -> None:
    """cJSON (three compile units) built -g -O2 in `two-level` mode: gdb stops at a line of
    `cJSON_CreateObject` and the backtrace reaches the test driver's `main`."""
    from fuzz import corpus

    program = corpus.BY_NAME["cjson"]
    reason = corpus.missing(program)
    if reason:
        pytest.skip(reason)
    source = corpus.source_files(program)[0]
    start = next(n for n, text in enumerate(source.read_text().splitlines(), 1) if "cJSON_CreateObject(void)" in text)
    line = start + 2  # the function's first statement
    obj = tmp_path / "cjson.o"
    obj.write_bytes(_build(corpus.module_path(program, debug=True), split="two-level", opt_level=2, jobs=2))
    exe = link_executable([obj], tmp_path / "cjson", with_runtime=False)
    said = _gdb(exe, [f"break cJSON.c:{line}", "run", "bt"])
    assert re.search(rf"Breakpoint 1 at 0x[0-9a-f]+: (file .*)?cJSON\.c(:|, line ){line}\b", said), said
    # inlined at -O2 (several locations): it stops in one, at a line of the function
    assert re.search(r"Breakpoint 1(\.\d+)?, .*cJSON_CreateObject \(.*\) at .*cJSON\.c:\d+", said), said
    assert re.search(r"#\d+ .*main \(.*\) at .*test\.c:\d+", said), said


EMBER_PROGRAM = '''\
counter: Int = 0


def step(n: Int) -> Int:
    global counter
    counter += 1
    if n % 2 == 0:
        return n // 2
    return 3 * n + 1


def collatz(n: Int) -> Int:
    steps = 0
    while n != 1:
        n = step(n)
        steps += 1
    return steps


def main() -> None:
    total = 0
    for i in range(1, 30):
        total += collatz(i)
    print(total, counter)
'''
#: the line of `counter += 1` (a statement of `step`) and of `n = step(n)` (its call in `collatz`)
STEP_LINE, CALL_LINE = 6, 15


@pytest.mark.parametrize("level", [0, 2])
@pytest.mark.parametrize("mode", MODES)
def test_ember_g_describes_statements_in_every_mode(mode: str, level: int, tmp_path: Path) -> None:
    """`ember build -g` on Ember source: functions are subprograms of the .em file, statements
    its lines, and a split object agrees with the serial one."""
    src = tmp_path / "collatz.em"
    src.write_text(EMBER_PROGRAM)
    serial = _build(src, split="none", opt_level=level)
    split = _split(src, mode, level)
    for obj in (serial, split):
        assert debuginfo.verify(obj) is None
    subprograms = debuginfo.subprograms(serial)
    # at -O2 the midend inlines both into main (their lines stay, as main's rows)
    expected = {("ember.step", "collatz.em"), ("ember.collatz", "collatz.em")} if level == 0 else {("main", "collatz.em")}
    assert {(name, Path(file).name) for name, file, _line in subprograms} >= expected
    assert debuginfo.subprograms(split) == subprograms
    check = debuginfo.compare_lines(serial, split)
    assert not check.differences, "\n".join(check.differences)
    assert check.exact >= (2 if level == 0 else 1), check


def test_gdb_on_a_split_built_ember_program(tmp_path: Path) -> None:
    src = tmp_path / "collatz.em"
    src.write_text(EMBER_PROGRAM)
    obj = tmp_path / "collatz.o"
    obj.write_bytes(_split(src, "two-level", 0))
    exe = link_executable([obj], tmp_path / "collatz")
    said = _gdb(exe, [f"break collatz.em:{STEP_LINE}", "run", "bt"])
    assert re.search(rf"Breakpoint 1, ember\.step \(.*\) at .*collatz\.em:{STEP_LINE}", said), said
    assert re.search(rf"#1 .*ember\.collatz \(.*\) at .*collatz\.em:{CALL_LINE}", said), said


def test_ember_without_g_has_no_debug_info(tmp_path: Path) -> None:
    src = tmp_path / "collatz.em"
    src.write_text(EMBER_PROGRAM)
    obj = driver.build(str(src), driver.BuildOptions(split="two-level", opt_level=0, jobs=2)).output
    assert isinstance(obj, bytes) and b".debug_info" not in obj


def _call(at: int, name: str) -> debuginfo.Relocation:
    return (at, name, 4, -4, 4)  # R_X86_64_PLT32 at `at`, 4 bytes


def _lea(at: int, name: str) -> debuginfo.Relocation:
    return (at, name, 2, -4, 4)  # R_X86_64_PC32


def test_same_code_names_each_relocated_operand() -> None:
    """Code compares with relocated bytes masked, and each relocation names the same symbol: a
    copy as its home, the MC link's per-piece private label as the private, but never a
    call to another function (nor a private with another name)."""
    code = bytes([0xE8, 0, 0, 0, 0, 0x48, 0x8D, 0x05, 0, 0, 0, 0, 0xC3])  # call; lea; ret
    serial = debuginfo.Function(0, code, (_call(1, "g"), _lea(8, ".L.str")))
    for same in ("g.ember.3", "g"):
        assert serial.same_code(debuginfo.Function(64, code, (_call(1, same), _lea(8, ".Lp1_0_.str"))))
    assert not serial.same_code(debuginfo.Function(64, code, (_call(1, "h"), _lea(8, ".L.str"))))
    assert not serial.same_code(debuginfo.Function(64, code, (_call(1, "g"), _lea(8, ".Lp1_0_.str.2"))))
    # a call the serial assembler resolved is named from its displacement (g at 0x40)
    resolved = debuginfo.Function(0, bytes([0xE8, 0x3B, 0, 0, 0, 0xC3]), symbols_at={0x40: "g", 0x50: "h"})
    assert resolved.same_code(debuginfo.Function(0, bytes([0xE8, 0, 0, 0, 0, 0xC3]), (_call(1, "g"),)))
    assert not resolved.same_code(debuginfo.Function(0, bytes([0xE8, 0, 0, 0, 0, 0xC3]), (_call(1, "h"),)))
