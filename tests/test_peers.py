"""Peers on trial (docs/peers.md): the candidate scripts run, the sweep tallies their
failures, and the reduced reproducers still show what they were reduced for."""

from __future__ import annotations

import subprocess
from pathlib import Path

from fuzz.peers import sweep
from oracle.candidate import tool_env

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "fuzz" / "peers"


def test_llvm_split_peer_leaks_locals_in_the_first_programs(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert sweep.main([f"sh {PEERS / 'llvm_split.sh'} {{in}} {{out}}", "--strategy", "callgraph", "-n", "3",
                       "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "symbol-difference" in out and "crash" not in out, out
    assert list(tmp_path.glob("symbol-difference-*.ll"))


def test_the_ifunc_reproducer_breaks_llvm_split(tmp_path: Path) -> None:
    done = subprocess.run(["sh", str(PEERS / "llvm_split.sh"), str(PEERS / "reproducers" / "ifunc_internal_resolver.ll"),
                           str(tmp_path / "o.o")], capture_output=True, text=True, env=tool_env())
    assert done.returncode != 0 and "IFunc resolver must be a definition" in done.stderr


def test_a_bad_candidate_template_is_a_usage_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert sweep.main(["sh x.sh", "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == "python -m fuzz.peers.sweep: error: candidate command needs {in}: 'sh x.sh'"


def test_the_mlir_sccp_reproducer_still_returns_a_stale_constant() -> None:
    """The upstream report's input (docs/peers.md): after canonicalize,cse,sccp the loop's exit
    returns the constant 1. Fails once the bindings' MLIR is fixed: then update the docs."""
    from mlir import ir, passmanager

    def exit_block(pipeline: str) -> str:
        with ir.Context():
            m = ir.Module.parse((PEERS / "reproducers" / "mlir_sccp_stale_constant.mlir").read_text())
            passmanager.PassManager.parse(f"builtin.module({pipeline})").run(m.operation)
            return next(b for b in str(m).split("^bb") if "arith.xori" in b)

    assert "return %c1_i64 : i64" in exit_block("canonicalize,cse,sccp")
    assert "return %c1_i64 : i64" not in exit_block("canonicalize,sccp")
