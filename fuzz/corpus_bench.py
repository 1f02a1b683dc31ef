"""`ember bench --corpus`: the split back end on the real-world corpus, side by side in one run.

Per program: `--split none`, two-level at each `-j`, and `opt -O2 + llc -O2`, each as a
fresh `ember build` child (what a user sees); the plan's total-work ratio, worker CPU
against the serial build's, the run time of the workload built both ways (best of N),
and a projection for 16 workers from the measured critical path (everything the parent
does, plus the largest task or an even share of all worker CPU, whichever is longer).
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fuzz import corpus
from fuzz import split_bench as bench

PROJECTED_WORKERS = 16


@dataclass
class CorpusRow:
    """One program's figures."""

    name: str
    functions: int
    serial: bench.Measurement
    split: dict[int, bench.Measurement]
    reference: bench.Measurement
    work_ratio: float
    serial_cpu: float  # CPU of the whole serial build
    split_cpu: float  # CPU of the whole split build at the largest -j, driver and workers
    worker_cpu: float  # optimise + codegen summed over workers (at the largest -j)
    projected: float  # LLVM seconds with PROJECTED_WORKERS workers
    run_serial: float
    run_split: float
    instructions_serial: int | None = None  # the heavy workload's instruction count (valgrind)
    instructions_split: int | None = None


def _report_number(report: str, pattern: str) -> float:
    m = re.search(pattern, report, re.M)
    return float(m.group(1)) if m else 0.0


def _best_run(program: corpus.Program, obj: Path, exe: Path, runs: int) -> float:
    """Best CPU time (user + system) of the workload over `runs` runs."""
    corpus.link(obj.read_bytes(), exe)
    return min(corpus.run_workload(program, exe, heavy=True).cpu_seconds for _ in range(runs))


def bench_program(program: corpus.Program, jobs: Sequence[int], tmp: Path, runs: int) -> CorpusRow:
    src = corpus.module_path(program)
    serial = bench.measure_ember(src, "none", 1, tmp / "none.o")
    split = {j: bench.measure_ember(src, "two-level", j, tmp / f"j{j}.o") for j in jobs}
    reference = bench.measure_reference(src, tmp)
    top = max(jobs)
    report = split[top].report
    parent = sum(bench.stage_seconds(report, s) for s in ("split", "link", "assemble"))
    worker_cpu = _report_number(report, r"optimise ([0-9.]+)s") + _report_number(report, r"codegen ([0-9.]+)s")
    largest = _report_number(report, r"largest task ([0-9.]+)s")
    return CorpusRow(
        program.name,
        _function_count(src),
        serial,
        split,
        reference,
        _report_number(report, r"\(([0-9.]+)x; copies"),
        serial.cpu,
        split[top].cpu,
        worker_cpu,
        parent + max(largest, worker_cpu / PROJECTED_WORKERS),
        _best_run(program, tmp / "none.o", tmp / "serial-exe", runs),
        _best_run(program, tmp / f"j{top}.o", tmp / "split-exe", runs),
        corpus.count_instructions(program, tmp / "serial-exe"),
        corpus.count_instructions(program, tmp / "split-exe"),
    )


def _function_count(src: Path) -> int:
    from compiler.backend import llvm_stage

    module = llvm_stage.parse_bitcode(src.read_bytes(), str(src))
    return sum(1 for f in module.functions if not f.is_declaration)


def render(rows: list[CorpusRow], jobs: Sequence[int]) -> str:
    """A markdown table, one row per program (LLVM-stage seconds; speed-ups against serial)."""
    head = ["program", "functions", "serial s"]
    head += [f"two-level -j{j} s" for j in jobs]
    head += [f"speed-up -j{max(jobs)}", "opt+llc s", "work ratio", "build CPU split/serial", "run serial CPU s",
             "run split CPU s", "run instructions split/serial", f"projected -j{PROJECTED_WORKERS} s (speed-up)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        base = r.serial.llvm_wall
        cells = [r.name, f"{r.functions:,}", f"{base:.2f}"]
        cells += [f"{r.split[j].llvm_wall:.2f}" for j in jobs]
        cells += [
            f"{base / r.split[max(jobs)].llvm_wall:.2f}x",
            f"{r.reference.llvm_wall:.2f}",
            f"{r.work_ratio:.2f}x",
            f"{r.split_cpu / r.serial_cpu:.2f}x" if r.serial_cpu else "?",
            f"{r.run_serial:.3f}",
            f"{r.run_split:.3f} ({r.run_split / r.run_serial - 1:+.1%})" if r.run_serial else "?",
            f"{r.instructions_split / r.instructions_serial - 1:+.2%}" if r.instructions_serial and r.instructions_split else "?",
            f"{r.projected:.2f} ({base / r.projected:.1f}x)" if r.projected else "?",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(names: Sequence[str], jobs: Sequence[int], runs: int = 3) -> int:
    """Benchmark the named programs (all when empty); a missing one is reported and skipped."""
    programs = [corpus.BY_NAME[n] for n in names] if names else list(corpus.PROGRAMS)
    rows = []
    for program in programs:
        reason = corpus.missing(program)
        if reason:
            print(f"{program.name}: skipped ({reason})", flush=True)
            continue
        with tempfile.TemporaryDirectory(prefix=f"ember-bench-{program.name}-") as tmp:
            rows.append(bench_program(program, jobs, Path(tmp), runs))
        print(render(rows[-1:], jobs).splitlines()[-1], flush=True)
    if not rows:
        print("ember: error: no corpus program could be built here (bash ci/fetch_corpus.sh; clang-19)", file=sys.stderr)
        return 1
    print(render(rows, jobs))
    return 0
