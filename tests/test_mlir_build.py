"""`ember build x.mlir`: func/arith/scf/cf/memref/math programs compile, link and run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oracle import runner, symtab

ROOT = Path(__file__).parent.parent

PROGRAMS = {
    # name: (source, expected exit status)
    "scf_for_sum": (
        """
func.func @main() -> i32 {
  %lo = arith.constant 0 : index
  %hi = arith.constant 10 : index
  %st = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %s = scf.for %i = %lo to %hi step %st iter_args(%acc = %z) -> (i32) {
    %v = arith.index_cast %i : index to i32
    %n = arith.addi %acc, %v : i32
    scf.yield %n : i32
  }
  return %s : i32
}""",
        45,
    ),
    "memref_and_cf": (
        """
memref.global "private" @table : memref<4xi32> = dense<[3, 5, 7, 11]>
func.func @main() -> i32 {
  %buf = memref.alloca() : memref<4xi32>
  %g = memref.get_global @table : memref<4xi32>
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %a = memref.load %g[%c0] : memref<4xi32>
  %b = memref.load %g[%c3] : memref<4xi32>
  memref.store %b, %buf[%c0] : memref<4xi32>
  %x = memref.load %buf[%c0] : memref<4xi32>
  %cond = arith.cmpi sgt, %x, %a : i32
  cf.cond_br %cond, ^big, ^small
^big:
  %r = arith.addi %x, %a : i32
  return %r : i32
^small:
  %zero = arith.constant 0 : i32
  return %zero : i32
}""",
        14,
    ),
    "math_and_private_helper": (
        """
func.func private @hyp(%a: f64, %b: f64) -> f64 {
  %a2 = arith.mulf %a, %a : f64
  %b2 = arith.mulf %b, %b : f64
  %s = arith.addf %a2, %b2 : f64
  %r = math.sqrt %s : f64
  return %r : f64
}
func.func @main() -> i32 {
  %a = arith.constant 3.0 : f64
  %b = arith.constant 4.0 : f64
  %h = func.call @hyp(%a, %b) : (f64, f64) -> f64
  %i = arith.fptosi %h : f64 to i32
  return %i : i32
}""",
        5,
    ),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("level", [0, 2])
def test_program_runs(name: str, level: int, tmp_path: Path, ember) -> None:
    source, expected = PROGRAMS[name]
    src = tmp_path / f"{name}.mlir"
    src.write_text(source)
    obj = tmp_path / f"{name}.o"
    r = ember("build", str(src), f"-O{level}", "-o", str(obj))
    assert r.status == 0, r.stderr
    assert runner.run_object(str(obj)).exit_status == expected


def test_private_helper_stays_local(tmp_path: Path, ember) -> None:
    src = tmp_path / "p.mlir"
    src.write_text(PROGRAMS["math_and_private_helper"][0])
    obj = tmp_path / "p.o"
    assert ember("build", str(src), "-O0", "-o", str(obj)).status == 0
    syms = {s.name: s for s in symtab.read_symbols(str(obj))}
    assert syms["hyp"].binding == "LOCAL"
    assert syms["main"].binding == "GLOBAL"


@pytest.mark.parametrize("emit", ["asm", "llvm", "mlir"])
def test_text_emits(emit: str, tmp_path: Path, ember) -> None:
    src = tmp_path / "s.mlir"
    src.write_text(PROGRAMS["scf_for_sum"][0])
    r = ember("build", str(src), "--emit", emit, "-O0", "-o", "-")
    assert r.status == 0
    marker = {"asm": "main:", "llvm": "define i32 @main()", "mlir": "func.func @main()"}[emit]
    assert marker in r.stdout


def test_run_passes_exit_status_through(ember) -> None:
    r = ember("run", str(ROOT / "examples" / "collatz.mlir"))
    assert r.status == 0


def test_time_report(tmp_path: Path, ember) -> None:
    src = tmp_path / "s.mlir"
    src.write_text(PROGRAMS["scf_for_sum"][0])
    r = ember("build", str(src), "--time-report", "-o", str(tmp_path / "s.o"))
    assert r.status == 0 and "split auto: none" in r.stderr  # a tiny module builds serially by default
    r = ember("build", str(src), "--split", "two-level", "--time-report", "-o", str(tmp_path / "s.o"))
    assert r.status == 0
    for stage in ("mlir parse", "mlir lower", "split", "optimise", "codegen", "link", "peak memory"):
        assert stage in r.stderr
    # every stage row has its wall and CPU seconds; the object link (the default) assembles nothing
    rows = _stage_rows(r.stderr)
    assert {"split", "link", "optimise+codegen"} <= set(rows) and "assemble" not in rows, r.stderr
    assert "CPU (s)" in r.stderr and "; CPU " in r.stderr
    whole = re.search(r"^whole process: ([0-9.]+)s wall; in no stage: ([0-9.]+)s", r.stderr, re.M)
    assert whole is not None and float(whole[1]) >= sum(wall for wall, _cpu in rows.values()), r.stderr
    r = ember("build", str(src), "--split", "none", "--time-report", "-o", str(tmp_path / "s.o"))
    assert r.status == 0 and "optimise" in r.stderr and "assemble" not in r.stderr


def _stage_rows(report: str) -> dict[str, tuple[float, float]]:
    """A time report's stage rows: name -> (wall, CPU) seconds."""
    return {m[1]: (float(m[2]), float(m[3])) for m in re.finditer(r"^(\S.*?)\s+([0-9.]+)\s+([0-9.]+)\s+[0-9.]+%$", report, re.M)}


def test_nvptx_target_emits_ptx(tmp_path: Path, ember) -> None:
    src = tmp_path / "k.ll"
    src.write_text("define void @k(ptr %p) { store i32 1, ptr %p\n ret void }\n")
    r = ember("build", str(src), "--target", "nvptx64-nvidia-cuda", "--emit", "asm", "-o", "-")
    assert r.status == 0 and ".visible .func k" in r.stdout


def test_nvptx_is_never_split(tmp_path: Path, ember) -> None:
    """A split NVPTX build joined each piece's PTX as text: two `.version` and `.target`
    headers in one file, which is no PTX module. `--emit asm` is one module's assembly in
    every split mode (an explicit one says so in a note)."""
    src = tmp_path / "k.ll"
    src.write_text("".join(f"define void @k{i}(ptr %p) {{\n  store i32 {i}, ptr %p\n  ret void\n}}\n" for i in range(4)))
    r = ember("build", str(src), "--target", "nvptx64-nvidia-cuda", "--emit", "asm", "--split-cost", "1", "-o", "-")
    assert r.status == 0 and r.stdout.count(".version") == 1 and r.stdout.count(".visible .func k") == 4
    r = ember("build", str(src), "--target", "nvptx64-nvidia-cuda", "--emit", "asm", "--split", "subgraph", "-o", "-")
    assert r.status == 0 and r.stdout.count(".version") == 1 and r.stdout.count(".visible .func k") == 4
    assert "serial back end" in r.stderr, r.stderr
