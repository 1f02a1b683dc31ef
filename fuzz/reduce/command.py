"""`ember reduce`: shrink an input while it keeps the same failure signature (or a --test script says yes)."""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

from compiler import driver
from compiler.backend import llvm_stage
from compiler.diagnostics import EmberError, Location, UsageError
from fuzz.reduce import engine, oracle
from fuzz.reduce.ir_deltas import IR_DELTAS
from oracle import symtab


def load_ir_text(path: str) -> str:
    """The input as printed LLVM IR (bitcode is disassembled first)."""
    kind = driver.input_kind(path)
    if kind is driver.InputKind.BITCODE:
        data = driver.read_input(path, binary=True)
        assert isinstance(data, bytes)
        return str(llvm_stage.parse_bitcode(data, path))
    if kind is driver.InputKind.LLVM_IR:
        text = driver.read_input(path)
        assert isinstance(text, str)
        return str(llvm_stage.parse_ir(text, path))
    raise UsageError(f"{path}: ember reduce takes .ll or .bc modules (Ember source reduction is not implemented yet)")


def reduce_file(
    path: str,
    out: str,
    *,
    prop: str | None,
    test: str | None,
    settings: oracle.Settings,
    jobs: int,
    time_budget: float | None,
    quiet: bool = False,
) -> engine.ReduceStats:
    """Reduce `path` into `out` (saved after every success) and write `out`.report.txt."""
    if (prop is None) == (test is None):
        raise UsageError("give exactly one of --property or --test")
    text = load_ir_text(path)

    if test is not None:
        if not Path(test).exists():
            raise EmberError("interestingness script not found", Location(test))

        def interesting(candidate: str) -> bool:
            return oracle.script_says_interesting(test, candidate, ".ll", settings.timeout_s * 6)

        if not interesting(text):
            raise EmberError("the input is not interesting to the --test script", Location(path))
        wanted = f"--test {test}"
    else:
        assert prop is not None
        wanted_sig = _signature_of_text(text, prop, settings)
        if wanted_sig is None:
            raise EmberError(f"the input does not show '{prop}' with these settings", Location(path))

        def interesting(candidate: str) -> bool:
            return _signature_of_text(candidate, prop, settings) == wanted_sig

        wanted = f"{prop} [{wanted_sig}]"

    def save(best: str) -> None:
        driver.write_atomically(out, best)

    def progress(pass_name: str, lines: int) -> None:
        if not quiet:
            print(f"\rreduce: {pass_name:<28} {lines:>7} lines", end="", file=sys.stderr, flush=True)

    save(text)
    reduced, stats = engine.reduce_text(
        text, interesting, IR_DELTAS, jobs=jobs, time_budget=time_budget, on_success=save, on_progress=progress
    )
    save(reduced)
    if not quiet:
        print(file=sys.stderr)
    _write_report(path, out, reduced, wanted, settings, prop, test, stats)
    return stats


def _signature_of_text(text: str, prop: str, settings: oracle.Settings) -> str | None:
    with tempfile.TemporaryDirectory(prefix="ember-reduce-") as tmp:
        path = Path(tmp) / "candidate.ll"
        path.write_text(text)
        return oracle.signature(path, prop, settings)


def reproduce_command(out: str, settings: oracle.Settings) -> str:
    """The commands that show the failure on the reduced module."""
    q = shlex.quote(out)
    cost = f" --split-cost {settings.subgraph_cost}" if settings.subgraph_cost else ""
    return (
        f"ember build {q} -O{settings.opt_level} --split none -o ref.o && "
        f"ember build {q} -O{settings.opt_level} --split {settings.split} -j {settings.jobs}{cost} -o split.o && "
        "ember symdiff ref.o split.o; cc ref.o -o ref -lm && cc split.o -o split -lm && "
        "diff <(./ref) <(./split)"
    )


def _write_report(
    original: str,
    out: str,
    reduced: str,
    wanted: str,
    settings: oracle.Settings,
    prop: str | None,
    test: str | None,
    stats: engine.ReduceStats,
) -> None:
    lines = [
        f"reduced {original} -> {out}: {stats.initial_lines} -> {stats.final_lines} lines",
        f"preserved: {wanted}",
        f"candidates tried: {stats.candidates}, accepted: {stats.accepted}, {stats.seconds:.1f}s",
        "accepted per pass: " + ", ".join(f"{k} {v}" for k, v in stats.per_pass.items()),
        "",
        "reproduce:",
        "  " + (f"{test} {shlex.quote(out)}" if test else reproduce_command(out, settings)),
    ]
    if prop is not None and not settings.faults:
        lines += ["", "symbol diff (--split none vs split) of the reduced module:"]
        try:
            with tempfile.TemporaryDirectory() as tmp:
                p = Path(tmp) / "r.ll"
                p.write_text(reduced)
                a = oracle._build(p, "none", settings)
                b = oracle._build(p, settings.split, settings)
                lines.append(symtab.diff_symbols(symtab.read_symbols(a), symtab.read_symbols(b)).render("none", "split"))
        except EmberError as exc:
            lines.append(f"(build failed: {exc.render()})")
    driver.write_atomically(out + ".report.txt", "\n".join(lines) + "\n")
