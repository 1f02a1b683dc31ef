"""`ember bench`: serial vs split back end, side by side in one run, plus the reference opt+llc.

Each configuration runs as a fresh `ember build` child (worker start-up included), so
the figures are what a user sees. LLVM-stage wall time excludes parsing the input.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench import report, runner
from compiler.backend.split_mode import SplitMode
from compiler.link import link_executable
from fuzz.genmodule import ModuleShape, generate

#: largest generated module `ember bench --sizes` accepts (functions)
MAX_SIZE = 100_000
#: the stages of a --time-report that are LLVM's work (parsing the input is not)
LLVM_STAGES = ("split", "optimise", "optimise+codegen", "codegen", "link", "assemble")


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


def stage_seconds(time_report: str, name: str) -> float:
    """One stage's wall seconds from a `--time-report` (0 when the stage did not run)."""
    m = re.search(rf"^{re.escape(name)}\s+([0-9.]+)", time_report, re.M)
    return float(m.group(1)) if m else 0.0


def measure_ember(src: Path, split: str, jobs: int, out: Path) -> Measurement:
    cmd = [*runner.ember_command(), "build", str(src), "-O2", "--split", split, "-j", str(jobs), "--time-report", "-o", str(out)]
    step = runner.checked(cmd, runner.ember_env())
    said = step.stderr
    llvm_wall = sum(stage_seconds(said, s) for s in LLVM_STAGES)
    link = stage_seconds(said, "link") + stage_seconds(said, "assemble")
    return Measurement(
        f"{split} -j{jobs}" if split != "none" else "serial (--split none)",
        step.wall,
        llvm_wall,
        step.cpu,
        step.peak_mb,
        link / llvm_wall if llvm_wall else 0.0,
        said,
    )


def measure_reference(src: Path, tmp: Path) -> Measurement:
    from compiler.backend import engine

    bindir = engine.tools_dir()
    step = runner.run_steps([[[str(bindir / "opt"), "-O2", "--relocation-model=pic", str(src), "-o", str(tmp / "ref.bc")]],
                             [[str(bindir / "llc"), "-O2", "-relocation-model=pic", "-filetype=obj", str(tmp / "ref.bc"),
                               "-o", str(tmp / "ref.o")]]])
    if step.failed:
        raise RuntimeError(f"opt + llc failed: {step.failed}")
    return Measurement("reference opt -O2 + llc -O2", step.wall, step.wall, step.cpu, step.peak_mb)


def bench_module(src: Path, jobs: Sequence[int], tmp: Path) -> list[Measurement]:
    rows = [measure_ember(src, "none", 1, tmp / "none.o")]
    for j in jobs:
        rows.append(measure_ember(src, SplitMode.TWO_LEVEL, j, tmp / f"j{j}.o"))
    rows.append(measure_reference(src, tmp))
    return rows


def render(title: str, rows: list[Measurement]) -> str:
    """The title line and one table row per configuration; speed-up is of the LLVM stages, against the first row."""
    base = rows[0]
    head = ["configuration", "wall s", "LLVM s", "speed-up", "CPU s", "peak MiB", "link %"]
    body = [[r.label, r.wall, r.llvm_wall, f"{base.llvm_wall / r.llvm_wall if r.llvm_wall else 0.0:.2f}x", r.cpu,
             f"{r.peak_mb:.0f}", f"{100 * r.link_share:.1f}"] for r in rows]
    return f"== {title}\n" + report.table(head, body, numeric=[False] + [True] * 6)


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


def runtime_compare(tmp: Path, runs: int = 3) -> tuple[str, list[dict[str, object]]]:
    """Run time of split-built vs unsplit-built compute-heavy programs (best of `runs`): the table and its rows."""
    from oracle import runner as sandbox

    ember = runner.ember_command()
    rows: list[dict[str, object]] = []
    for seed, shape in ((3, ModuleShape(functions=400, main_repeat=2_000_000)), (9, ModuleShape(functions=1000, main_repeat=300_000))):
        src = tmp / f"heavy{seed}.ll"
        src.write_text(generate(seed, shape))
        for level in (2, 3):  # -O3 imports small exported callees across subgraphs; -O2 does not
            best = {}
            for split in (SplitMode.NONE, SplitMode.TWO_LEVEL):
                obj = tmp / f"heavy{seed}-{split}-O{level}.o"
                runner.checked([*ember, "build", str(src), f"-O{level}", "--split", split, "-o", str(obj)], runner.ember_env())
                exe = link_executable([obj], tmp / f"heavy{seed}-{split}-O{level}", with_runtime=False)
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    sandbox.run_executable(exe, limits=sandbox.Limits(timeout_s=120))
                    times.append(time.perf_counter() - start)
                best[split] = min(times)
            rows.append({"program": f"{shape.functions} functions x{shape.main_repeat}", "level": level,
                         "serial_s": best[SplitMode.NONE], "two_level_s": best[SplitMode.TWO_LEVEL]})
    body = [[r["program"], r["level"], f"{r['serial_s']:.3f}", f"{r['two_level_s']:.3f}",
             f"{float(str(r['two_level_s'])) / float(str(r['serial_s'])) - 1:.1%}"] for r in rows]
    text = report.table(["program", "-O", "serial s", "two-level s", "slowdown"], body, numeric=[False] + [True] * 4)
    return f"== generated code: run time of the built program (best of {runs})\n{text}", rows


def check_input(path: str) -> None:
    """Parse an input module once here: a missing, binary or invalid one is one located line
    before any measurement (not a failed child build deep inside the benchmark)."""
    from compiler import driver

    driver.load_llvm_module(path, driver.BuildOptions(), driver.StageTimes())


def main(
    sizes: Sequence[int], inputs: Sequence[str], jobs: Sequence[int] | None, plot_path: str | None, runtime: bool = False,
    json_path: str | None = None,
) -> int:
    jobs = list(jobs or range(1, (os.cpu_count() or 1) + 1))
    results: dict[str, list[Measurement]] = {}
    record: dict[str, object] = {"jobs": jobs, "modules": {}}
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
            record["modules"] = {t: [asdict(r) for r in rs] for t, rs in results.items()}
            report.write_json(json_path, record)
        if runtime:
            text, run_rows = runtime_compare(tmp)
            print(text, flush=True)
            record["runtime"] = run_rows
            report.write_json(json_path, record)
    if plot_path and results:
        if plot(results, jobs, Path(plot_path)):
            print(f"plot written to {plot_path}")
        else:
            print("matplotlib is not installed: no plot (pip install -e '.[bench]')")
    return 0
