"""The -O2 midend terminates on loops that constant branches make dead (fuzz/regressions/midend_hang_dead_loop.em)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from compiler.midend import pipeline

ROOT = Path(__file__).parent.parent
REPRODUCER = ROOT / "fuzz" / "regressions" / "midend_hang_dead_loop.em"

#: A loop whose only entry edge is a branch on a constant: the shape upstream canonicalize loops on.
DEAD_LOOP = """
func.func @f(%x: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %enter = arith.cmpi sgt, %c2, %c0 : i64
  cf.cond_br %enter, ^exit(%x : i64), ^header(%c2 : i64)
^header(%iv: i64):
  %done = arith.cmpi eq, %iv, %c2 : i64
  cf.cond_br %done, ^exit(%iv : i64), ^latch
^latch:
  %next = arith.addi %iv, %c1 : i64
  cf.br ^header(%next : i64)
^exit(%r: i64):
  return %r : i64
}
"""


def _opt(pipeline_text: str, mlir: str, tmp_path: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ember-opt in a child process (a hang must not hang the test run)."""
    src = tmp_path / "in.mlir"
    src.write_text(mlir)
    cmd = [sys.executable, "-m", "compiler.opt_main", "--pass-pipeline", f"builtin.module({pipeline_text})", str(src)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT, check=False)


def test_canonicalize_leaves_constant_branches_to_ember_fold_branches(tmp_path: Path) -> None:
    """The disabled pattern's name must match the bindings' build, or the hang comes back silently."""
    kept = _opt(pipeline.CANONICALIZE, DEAD_LOOP, tmp_path, 60)
    assert kept.returncode == 0, kept.stderr
    assert "cf.cond_br" in kept.stdout, kept.stdout
    steps = f"{pipeline.CANONICALIZE},{pipeline.FOLD_BRANCHES},{pipeline.CANONICALIZE}"
    folded = _opt(steps, DEAD_LOOP, tmp_path, 60)
    assert folded.returncode == 0, folded.stderr
    assert "cf.cond_br" not in folded.stdout and "arith.addi" not in folded.stdout, folded.stdout


def test_dead_loop_reproducer_builds_at_O2(tmp_path: Path) -> None:
    """Before the fix `ember build -O2 --split none` ran past 300 s; it takes about a second."""
    cmd = [sys.executable, "-m", "compiler.cli", "build", str(REPRODUCER), "-O2", "--split", "none", "-o", str(tmp_path / "out.o")]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT, check=False)
    except subprocess.TimeoutExpired:
        raise AssertionError("ember build -O2 did not finish in 120 s: the midend hang is back") from None
    assert done.returncode == 0, done.stderr
