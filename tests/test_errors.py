"""Every error path of the CLI: one located line, the right exit status, no traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import ember_subprocess


def _one_line(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_missing_file(ember, tmp_path: Path) -> None:
    r = ember("build", str(tmp_path / "nope.ll"))
    assert r.status == 1
    assert _one_line(r.stderr) == f"{tmp_path / 'nope.ll'}: error: no such file"


def test_directory_input(ember, tmp_path: Path) -> None:
    d = tmp_path / "dir.ll"
    d.mkdir()
    r = ember("build", str(d))
    assert r.status == 1 and _one_line(r.stderr) == f"{d}: error: is a directory, not a file"


def test_unreadable_file(ember, tmp_path: Path) -> None:
    # A name over NAME_MAX fails with ENAMETOOLONG even for root (mode 0 would not stop root).
    f = tmp_path / ("x" * 300 + ".ll")
    r = ember("build", str(f))
    assert r.status == 1
    assert _one_line(r.stderr) == f"{f}: error: cannot read file: File name too long"


def test_not_utf8(ember, tmp_path: Path) -> None:
    f = tmp_path / "bin.ll"
    f.write_bytes(b"\xff\xfe\x00")
    r = ember("build", str(f))
    assert r.status == 1 and _one_line(r.stderr) == f"{f}:1:1: error: not UTF-8 text (byte 0: 0xff)"
    f.write_bytes("def main() -> Int:\n    return 0 # café\n".encode("latin-1"))
    r = ember("build", str(f))
    assert _one_line(r.stderr) == f"{f}:2:19: error: not UTF-8 text (byte 37: 0xe9)"


def test_unknown_suffix_is_usage_error(ember, tmp_path: Path) -> None:
    f = tmp_path / "prog.c"
    f.write_text("int main(){}")
    r = ember("build", str(f))
    assert r.status == 2 and "unknown input kind '.c'" in _one_line(r.stderr)


def test_malformed_llvm_ir(ember, tmp_path: Path) -> None:
    f = tmp_path / "bad.ll"
    f.write_text("define i32 @f() {\n  ret i32 %x\n}\n")
    r = ember("build", str(f))
    assert r.status == 1
    assert _one_line(r.stderr) == f"{f}:2:11: error: use of undefined value '%x'"


def test_llvm_ir_that_fails_the_verifier(ember, tmp_path: Path) -> None:
    f = tmp_path / "unverified.ll"
    f.write_text("define i32 @f() {\nentry:\n  ret i32 0\nnext:\n}\n")
    r = ember("build", str(f))
    assert r.status == 1
    line = _one_line(r.stderr)
    assert line.startswith(f"{f}") and ": error: " in line


def test_invalid_bitcode(ember, tmp_path: Path) -> None:
    f = tmp_path / "bad.bc"
    f.write_bytes(b"BC\xc0\xde garbage")
    r = ember("build", str(f))
    assert r.status == 1
    assert _one_line(r.stderr).startswith(f"{f}: error: invalid bitcode: ")


def test_malformed_mlir(ember, tmp_path: Path) -> None:
    f = tmp_path / "bad.mlir"
    f.write_text("func.func @f() {\n  %x = arith.addi %y, %y : i32\n}\n")
    r = ember("build", str(f))
    assert r.status == 1
    assert _one_line(r.stderr) == f"{f}:2:19: error: use of undeclared SSA value name"


def test_mlir_that_fails_verification(ember, tmp_path: Path) -> None:
    f = tmp_path / "verify.mlir"
    f.write_text("func.func @f(%a: i32) -> i64 {\n  return %a : i32\n}\n")
    r = ember("build", str(f))
    assert r.status == 1
    assert _one_line(r.stderr).startswith(f"{f}:2:3: error: type of return operand 0")


def test_unknown_pass(tmp_path: Path) -> None:
    f = tmp_path / "ok.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")
    r = ember_subprocess_opt(str(f), "--pass-pipeline=builtin.module(no-such-pass)")
    assert r.returncode == 1
    assert _one_line(r.stderr) == (
        "--pass-pipeline: error: 'no-such-pass' does not refer to a registered pass or pass pipeline"
    )


def test_unbalanced_pipeline_is_usage_error(tmp_path: Path) -> None:
    f = tmp_path / "ok.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")
    r = ember_subprocess_opt(str(f), "--pass-pipeline=builtin.module(canonicalize")
    assert r.returncode == 2 and "unbalanced '('" in _one_line(r.stderr)


def test_bad_usage_exits_2(ember) -> None:
    assert ember("build").status == 2
    assert ember("frobnicate").status == 2
    assert ember("build", "x.ll", "--emit", "exe").status == 2


def test_bad_jobs_and_target(ember, tmp_path: Path) -> None:
    f = tmp_path / "ok.ll"
    f.write_text("define i32 @main() { ret i32 0 }\n")
    r = ember("build", str(f), "-j", "0")
    assert r.status == 2 and _one_line(r.stderr) == "ember: error: -j must be at least 1"
    r = ember("build", str(f), "--target", "no-such-arch-linux")
    assert r.status == 2 and "unknown target triple 'no-such-arch-linux'" in _one_line(r.stderr)


def test_emit_mlir_needs_mlir_input(ember, tmp_path: Path) -> None:
    f = tmp_path / "ok.ll"
    f.write_text("define i32 @main() { ret i32 0 }\n")
    r = ember("build", str(f), "--emit", "mlir")
    assert r.status == 2 and "--emit mlir needs an .em or .mlir input" in _one_line(r.stderr)


def test_symtab_of_a_non_elf_file(ember, tmp_path: Path) -> None:
    f = tmp_path / "junk.o"
    f.write_bytes(b"not an elf file")
    r = ember("symtab", str(f))
    assert r.status == 1 and _one_line(r.stderr).startswith(f"{f}: error: not a valid ELF object")


def test_unwritable_output(ember, tmp_path: Path) -> None:
    f = tmp_path / "ok.ll"
    f.write_text("define i32 @main() { ret i32 0 }\n")
    r = ember("build", str(f), "-o", str(tmp_path / "no" / "dir" / "out.o"))
    assert r.status == 1 and "cannot write output" in _one_line(r.stderr)


def test_real_entry_point_prints_no_traceback(tmp_path: Path) -> None:
    f = tmp_path / "bad.ll"
    f.write_text("garbage\n")
    r = ember_subprocess("build", str(f))
    assert r.returncode == 1
    assert _one_line(r.stderr).startswith(f"{f}:1:1: error: ")


def ember_subprocess_opt(*args: str) -> subprocess.CompletedProcess[str]:
    import sys

    return subprocess.run([sys.executable, "-m", "compiler.opt_main", *args], capture_output=True, text=True)
