"""`ember bench`: serial vs split back end, side by side in one run, plus the reference opt+llc.

Each configuration runs as a fresh `ember build` child (worker start-up included), so
the figures are what a user sees. LLVM-stage wall time excludes parsing the input.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from compiler.link import link_executable
from fuzz.genmodule import ModuleShape, generate

#: largest generated module `ember bench --sizes` accepts (functions)
MAX_SIZE = 100_000


@dataclass
class Measurement:
    """One configuration's figures."""

    label: str
    wall: float
    llvm_wall: float
    cpu: float
    peak_mb: float
    link_share: float = 0.0
    report: str = ""  # the child's --time-report


def _run(cmd: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()[:400]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stderr


def stage_seconds(report: str, name: str) -> float:
    m = re.search(rf"^{re.escape(name)}\s+([0-9.]+)", report, re.M)
    return float(m.group(1)) if m else 0.0


def measure_ember(src: Path, split: str, jobs: int, out: Path) -> Measurement:
    ember = str(Path(sys.executable).with_name("ember"))
    cmd = [ember, "build", str(src), "-O2", "--split", split, "-j", str(jobs), "--time-report", "-o", str(out)]
    wall, cpu, report = _run(cmd)
    llvm_stages = ["split", "optimise", "optimise+codegen", "codegen", "link", "assemble"]
    llvm_wall = sum(stage_seconds(report, s) for s in llvm_stages)
    peak = [float(x) for x in re.findall(r"peak (?:worker )?memory: ([0-9.]+) MiB", report)]
    link = stage_seconds(report, "link") + stage_seconds(report, "assemble")
    return Measurement(
        f"{split} -j{jobs}" if split != "none" else "serial (--split none)",
        wall,
        llvm_wall,
        cpu,
        max(peak) if peak else 0.0,
        link / llvm_wall if llvm_wall else 0.0,
        report,
    )


def measure_reference(src: Path, tmp: Path) -> Measurement:
    import llvm

    bindir = Path(llvm.__file__).parent / "bin"
    w1, c1, _ = _run([str(bindir / "opt"), "-O2", str(src), "-o", str(tmp / "ref.bc")])
    w2, c2, _ = _run(
        [str(bindir / "llc"), "-O2", "-relocation-model=pic", "-filetype=obj", str(tmp / "ref.bc"), "-o", str(tmp / "ref.o")]
    )
    return Measurement("reference opt -O2 + llc -O2", w1 + w2, w1 + w2, c1 + c2, 0.0)


def bench_module(src: Path, jobs: Sequence[int], tmp: Path) -> list[Measurement]:
    rows = [measure_ember(src, "none", 1, tmp / "none.o")]
    for j in jobs:
        rows.append(measure_ember(src, "two-level", j, tmp / f"j{j}.o"))
    rows.append(measure_reference(src, tmp))
    return rows


def render(title: str, rows: list[Measurement]) -> str:
    base = rows[0]
    lines = [
        f"== {title}",
        f"{'configuration':<30}{'wall s':>8}{'LLVM s':>8}{'speed-up':>9}{'CPU s':>8}{'peak MiB':>9}{'link%':>7}",
    ]
    for r in rows:
        speed = base.llvm_wall / r.llvm_wall if r.llvm_wall else 0.0
        lines.append(
            f"{r.label:<30}{r.wall:>8.2f}{r.llvm_wall:>8.2f}{speed:>8.2f}x{r.cpu:>8.2f}{r.peak_mb:>9.0f}"
            f"{100 * r.link_share:>6.1f}%"
        )
    return "\n".join(lines)


def plot(results: dict[str, list[Measurement]], jobs: Sequence[int], path: Path) -> bool:
    """Speed-up (LLVM stages) vs jobs, one line per module; False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    for title, rows in results.items():
        base = rows[0].llvm_wall
        ax.plot(list(jobs), [base / r.llvm_wall for r in rows[1 : 1 + len(jobs)]], marker="o", label=title)
    ax.plot(list(jobs), list(jobs), linestyle=":", color="grey", label="ideal")
    ax.set_xlabel("jobs (-j)")
    ax.set_ylabel("speed-up over --split none (LLVM stages)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    return True


def runtime_compare(tmp: Path, runs: int = 3) -> str:
    """Run time of split-built vs unsplit-built compute-heavy programs (best of `runs`)."""
    from oracle import runner

    ember = str(Path(sys.executable).with_name("ember"))
    lines = [f"== generated code: run time of the built program (best of {runs})"]
    lines.append(f"{'program':<34}{'-O':>3}{'serial s':>10}{'two-level s':>13}{'slowdown':>10}")
    for seed, shape in ((3, ModuleShape(functions=400, main_repeat=2_000_000)), (9, ModuleShape(functions=1000, main_repeat=300_000))):
        src = tmp / f"heavy{seed}.ll"
        src.write_text(generate(seed, shape))
        for level in (2, 3):  # -O3 imports small exported callees across subgraphs; -O2 does not
            best = {}
            for split in ("none", "two-level"):
                obj = tmp / f"heavy{seed}-{split}-O{level}.o"
                _run([ember, "build", str(src), f"-O{level}", "--split", split, "-o", str(obj)])
                exe = link_executable([obj], tmp / f"heavy{seed}-{split}-O{level}", with_runtime=False)
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    runner.run_executable(exe, limits=runner.Limits(timeout_s=120))
                    times.append(time.perf_counter() - start)
                best[split] = min(times)
            label = f"{shape.functions} functions x{shape.main_repeat}"
            slowdown = best["two-level"] / best["none"] - 1
            lines.append(f"{label:<34}{level:>3}{best['none']:>10.3f}{best['two-level']:>13.3f}{slowdown:>9.1%}")
    return "\n".join(lines)


def main(
    sizes: Sequence[int], inputs: Sequence[str], jobs: Sequence[int] | None, plot_path: str | None, runtime: bool = False
) -> int:
    jobs = list(jobs or range(1, (os.cpu_count() or 1) + 1))
    results: dict[str, list[Measurement]] = {}
    with tempfile.TemporaryDirectory(prefix="ember-bench-") as tmpdir:
        tmp = Path(tmpdir)
        sources: list[tuple[str, Path]] = []
        for n in sizes:
            src = tmp / f"gen{n}.ll"
            src.write_text(generate(n, ModuleShape(functions=n)))
            sources.append((f"generated {n} functions", src))
        sources.extend((f"input {p}", Path(p)) for p in inputs)
        for title, src in sources:
            rows = bench_module(src, jobs, tmp)
            results[title] = rows
            print(render(title, rows), flush=True)
        if runtime:
            print(runtime_compare(tmp), flush=True)
    if plot_path and results:
        if plot(results, jobs, Path(plot_path)):
            print(f"plot written to {plot_path}")
        else:
            print("matplotlib is not installed: no plot (pip install -e '.[bench]')")
    return 0
