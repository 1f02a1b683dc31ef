"""AArch64 ELF through every split mode (docs/backend.md, "Targets").

The llvm-split checklist module retargeted to `aarch64-linux-gnu`, and a C program
(tests/data/debug's two files plus tests/data/aarch64/extra.c: TLS, constant pools reached by
`adrp`/`:lo12:`, a jump table, libm) cross-compiled by `clang-19 --target aarch64-linux-gnu`:
each split mode's object has the symbols of `--split none`, the same bytes at -j1 and -j2,
with `-g` DWARF that verifies and agrees with the serial object's, and (with `qemu-user`
and the cross toolchain, `gcc-aarch64-linux-gnu`/`libc6-dev-arm64-cross`) the same output
under `qemu-aarch64`. Missing tools: skipped with the reason.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from compiler import driver
from fuzz import cross
from oracle import debuginfo, symtab
from tests.conftest import DATA, LLVM_BIN

TRIPLE = cross.AARCH64
MODES = ("subgraph", "function", "two-level")
SOURCES = [DATA / "debug" / "main.c", DATA / "debug" / "util.c", DATA / "aarch64" / "extra.c"]
EM_AARCH64 = 183


def _build(path: Path, **options: object) -> bytes:
    out = driver.build(str(path), driver.BuildOptions(**options)).output  # type: ignore[arg-type]
    assert isinstance(out, bytes)
    assert int.from_bytes(out[18:20], "little") == EM_AARCH64
    return out


@pytest.mark.parametrize("level", [0, 2])
@pytest.mark.parametrize("mode", MODES)
def test_checklist_module_splits_for_aarch64(mode: str, level: int) -> None:
    src = DATA / "split_semantics.ll"
    serial = _build(src, split="none", opt_level=level, target=TRIPLE)
    objects = {j: _build(src, split=mode, jobs=j, opt_level=level, target=TRIPLE, subgraph_cost=1, piece_cost=1) for j in (1, 2)}
    assert objects[1] == objects[2], f"--split {mode} -O{level}: bytes differ between -j1 and -j2"
    diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(objects[2]))
    assert diff.clean, diff.render("--split none", f"--split {mode}")


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("clang-19") is None:
        pytest.skip("clang-19 not installed (apt-get install clang-19)")
    reason = cross.missing(run=False)
    if reason:
        pytest.skip(reason)
    tmp = tmp_path_factory.mktemp("aarch64")
    pieces = []
    for src in SOURCES:
        bc = tmp / f"{src.stem}.bc"
        flags = [f"--target={TRIPLE}", "-O1", "-Xclang", "-disable-llvm-optzns", "-emit-llvm", "-c", "-g"]
        subprocess.run(["clang-19", *flags, str(src), "-o", str(bc)], check=True, cwd=src.parent)
        pieces.append(str(bc))
    out = tmp / "prog.bc"
    subprocess.run([str(LLVM_BIN / "llvm-link"), *pieces, "-o", str(out)], check=True)
    return out


def _run(obj: bytes, tmp: Path, name: str) -> tuple[int, str]:
    reason = cross.missing()
    if reason:
        pytest.skip(reason)
    (tmp / f"{name}.o").write_bytes(obj)
    exe = cross.link([tmp / f"{name}.o"], tmp / name)
    proc = subprocess.run([*cross.runner_prefix(), str(exe), "x"], capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "g"])
@pytest.mark.parametrize("mode", MODES)
def test_c_program_splits_for_aarch64(program: Path, mode: str, debug: bool, tmp_path: Path) -> None:
    serial = _build(program, split="none", opt_level=2, debug_info=debug)
    objects = {j: _build(program, split=mode, jobs=j, opt_level=2, subgraph_cost=1, piece_cost=1, debug_info=debug) for j in (1, 2)}
    split = objects[2]
    assert objects[1] == split, f"--split {mode}: bytes differ between -j1 and -j2"
    diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(split))
    assert diff.clean, diff.render("--split none", f"--split {mode}")
    if debug:
        problems = debuginfo.verify(split)
        assert problems is None, problems
        assert debuginfo.subprograms(split) == debuginfo.subprograms(serial)
        if debuginfo.linker_for(split) is not None:
            check = debuginfo.compare_lines(serial, split)
            assert not check.differences, "\n".join(check.differences)
            assert check.exact > 0, check
    want, got = _run(serial, tmp_path, "serial"), _run(split, tmp_path, "split")
    assert want[0] == 0 and "tls=" in want[1], want
    assert got == want
