"""The language's CLI: build -o, run and interp (exit status passed through), --emit, --time-report."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ember_subprocess

PROGRAM = """
total: Int = 0

def add(n: Int) -> None:
    global total
    total += n

def main() -> Int:
    for i in range(1, 5):
        add(i)
    print("total", total)
    return total + 30
"""


def _prog(tmp_path: Path) -> Path:
    p = tmp_path / "prog.em"
    p.write_text(PROGRAM)
    return p


def test_run_and_interp_pass_the_exit_status_through(tmp_path: Path) -> None:
    prog = _prog(tmp_path)
    for command in (["run", str(prog), "-O2"], ["interp", str(prog)]):
        r = ember_subprocess(*command)
        assert (r.returncode, r.stdout, r.stderr) == (40, "total 10\n", ""), command


def test_interp_out_of_fuel_exits_124(tmp_path: Path) -> None:
    prog = tmp_path / "loop.em"
    prog.write_text("def main() -> None:\n    while True:\n        pass\n")
    r = ember_subprocess("interp", str(prog), "--fuel", "500")
    assert r.returncode == 124
    assert r.stderr == "ember: interpreter: out of fuel after 500 steps\n"


def test_build_object_emit_and_time_report(tmp_path: Path) -> None:
    prog = _prog(tmp_path)
    obj = tmp_path / "prog.o"
    r = ember_subprocess("build", str(prog), "-o", str(obj), "--time-report")
    assert r.returncode == 0, r.stderr
    assert obj.read_bytes()[:4] == b"\x7fELF"
    # MLIR's per-pass timing of the midend, and the IR size before and after it
    assert "Execution time report" in r.stderr and "Inliner" in r.stderr and "Canonicalizer" in r.stderr
    assert "mlir operations:" in r.stderr and " before midend, " in r.stderr

    r = ember_subprocess("build", str(prog), "--emit", "mlir", "-O0", "-o", "-")
    assert r.returncode == 0 and "func.func private @ember.add(" in r.stdout and "memref.global" in r.stdout
    r = ember_subprocess("build", str(prog), "--emit", "llvm", "-O0", "-o", "-")
    assert r.returncode == 0 and "define i32 @main()" in r.stdout
    # non-exported symbols are local in LLVM: private global, internal function
    assert "@ember.total = private global i64 0" in r.stdout
    assert "define internal void @ember.add(i64" in r.stdout
