"""`ember bench`: serial vs split back end, side by side in one run, plus the reference opt+llc.

Each configuration runs as a fresh `ember build` child (worker start-up included), so
the figures are what a user sees. LLVM-stage wall time excludes parsing the input.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from compiler.backend.split_mode import SplitMode
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


@dataclass
class Children:
    """What one step (one or more child processes started together) cost."""

    wall: float
    cpu: float  # user + system of every child and their waited-for descendants
    peak_mb: float  # the largest single process's max RSS, not a sum over concurrent children
    stderr: str = ""
    failed: str = ""  # why a child exited non-zero (its command and stderr); "" when all succeeded


#: Runs argv[2:], then writes `start end cpu maxrss_kib` (monotonic clock) to argv[1]; exits with its status.
#: A small process in between because Linux's ru_maxrss counts the forking parent's memory at exec:
#: a child forked straight from this (large) Python process would report at least this process's RSS.
_MEASURE = (
    "import os,sys,time\n"
    "t=time.monotonic();p=os.posix_spawnp(sys.argv[2],sys.argv[2:],os.environ)\n"
    "_,s,u=os.wait4(p,0);e=time.monotonic()\n"
    "open(sys.argv[1],'w').write(f'{t} {e} {u.ru_utime+u.ru_stime} {u.ru_maxrss}')\n"
    "sys.exit(os.waitstatus_to_exitcode(s) & 255)\n"
)


def run_children(cmds: Sequence[Sequence[str]], env: dict[str, str] | None = None) -> Children:
    """Run the commands concurrently (each under a small measuring process); wall runs from the first
    child's start to the last one's end, CPU is the children's sum, peak the largest child's."""
    starts, ends, cpu, peak, failed, texts = [], [], 0.0, 0.0, "", []
    with tempfile.TemporaryDirectory(prefix="ember-measure-") as tmp, contextlib.ExitStack() as stack:
        logs = [stack.enter_context(open(Path(tmp) / f"{i}.err", "w+b")) for i in range(len(cmds))]
        stats = [Path(tmp) / f"{i}.stat" for i in range(len(cmds))]
        procs = [
            subprocess.Popen([sys.executable, "-S", "-c", _MEASURE, str(stats[i]), *cmd], stdout=subprocess.DEVNULL,
                             stderr=logs[i], env=env)
            for i, cmd in enumerate(cmds)
        ]
        for i, (cmd, proc) in enumerate(zip(cmds, procs, strict=True)):
            proc.wait()
            logs[i].seek(0)
            texts.append(logs[i].read().decode(errors="replace"))
            if proc.returncode != 0 and not failed:
                failed = f"{Path(cmd[0]).name} exited {proc.returncode}: {texts[-1].strip()[-400:]}"
            if stats[i].exists():
                t0, t1, used, rss = (float(x) for x in stats[i].read_text().split())
                starts.append(t0)
                ends.append(t1)
                cpu += used
                peak = max(peak, rss / 1024)  # KiB on Linux
            elif not failed:
                failed = f"{Path(cmd[0]).name} could not be started: {texts[-1].strip()[-400:]}"
    wall = max(ends) - min(starts) if starts else 0.0
    return Children(wall, cpu, peak, "".join(texts), failed)


def _run(cmd: list[str]) -> tuple[float, float, str]:
    step = run_children([cmd], ember_env())
    if step.failed:
        raise RuntimeError(f"{' '.join(cmd)} failed: {step.failed}")
    return step.wall, step.cpu, step.stderr


def ember_command() -> list[str]:
    """`ember` as this tree's code: the current interpreter, `-m compiler.cli` (with `ember_env()`)."""
    return [sys.executable, "-m", "compiler.cli"]


def ember_env() -> dict[str, str]:
    """The environment with this tree first on PYTHONPATH (the console script may load another checkout)."""
    root = str(Path(__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{path}" if path else root}


def stage_seconds(report: str, name: str) -> float:
    m = re.search(rf"^{re.escape(name)}\s+([0-9.]+)", report, re.M)
    return float(m.group(1)) if m else 0.0


def measure_ember(src: Path, split: str, jobs: int, out: Path) -> Measurement:
    cmd = [*ember_command(), "build", str(src), "-O2", "--split", split, "-j", str(jobs), "--time-report", "-o", str(out)]
    step = run_children([cmd], ember_env())
    if step.failed:
        raise RuntimeError(f"{' '.join(cmd)} failed: {step.failed}")
    report = step.stderr
    llvm_stages = ["split", "optimise", "optimise+codegen", "codegen", "link", "assemble"]
    llvm_wall = sum(stage_seconds(report, s) for s in llvm_stages)
    link = stage_seconds(report, "link") + stage_seconds(report, "assemble")
    return Measurement(
        f"{split} -j{jobs}" if split != "none" else "serial (--split none)",
        step.wall,
        llvm_wall,
        step.cpu,
        step.peak_mb,
        link / llvm_wall if llvm_wall else 0.0,
        report,
    )


def measure_reference(src: Path, tmp: Path) -> Measurement:
    from compiler.backend import engine

    bindir = engine.tools_dir()
    w1, c1, _ = _run([str(bindir / "opt"), "-O2", "--relocation-model=pic", str(src), "-o", str(tmp / "ref.bc")])
    w2, c2, _ = _run(
        [str(bindir / "llc"), "-O2", "-relocation-model=pic", "-filetype=obj", str(tmp / "ref.bc"), "-o", str(tmp / "ref.o")]
    )
    return Measurement("reference opt -O2 + llc -O2", w1 + w2, w1 + w2, c1 + c2, 0.0)


def bench_module(src: Path, jobs: Sequence[int], tmp: Path) -> list[Measurement]:
    rows = [measure_ember(src, "none", 1, tmp / "none.o")]
    for j in jobs:
        rows.append(measure_ember(src, SplitMode.TWO_LEVEL, j, tmp / f"j{j}.o"))
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

    ember = ember_command()
    lines = [f"== generated code: run time of the built program (best of {runs})"]
    lines.append(f"{'program':<34}{'-O':>3}{'serial s':>10}{'two-level s':>13}{'slowdown':>10}")
    for seed, shape in ((3, ModuleShape(functions=400, main_repeat=2_000_000)), (9, ModuleShape(functions=1000, main_repeat=300_000))):
        src = tmp / f"heavy{seed}.ll"
        src.write_text(generate(seed, shape))
        for level in (2, 3):  # -O3 imports small exported callees across subgraphs; -O2 does not
            best = {}
            for split in (SplitMode.NONE, SplitMode.TWO_LEVEL):
                obj = tmp / f"heavy{seed}-{split}-O{level}.o"
                _run([*ember, "build", str(src), f"-O{level}", "--split", split, "-o", str(obj)])
                exe = link_executable([obj], tmp / f"heavy{seed}-{split}-O{level}", with_runtime=False)
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    runner.run_executable(exe, limits=runner.Limits(timeout_s=120))
                    times.append(time.perf_counter() - start)
                best[split] = min(times)
            label = f"{shape.functions} functions x{shape.main_repeat}"
            slowdown = best[SplitMode.TWO_LEVEL] / best[SplitMode.NONE] - 1
            lines.append(f"{label:<34}{level:>3}{best[SplitMode.NONE]:>10.3f}{best[SplitMode.TWO_LEVEL]:>13.3f}{slowdown:>9.1%}")
    return "\n".join(lines)


def check_input(path: str) -> None:
    """Parse an input module once here: a missing, binary or invalid one is one located line
    before any measurement (not a failed child build deep inside the benchmark)."""
    from compiler import driver

    driver.load_llvm_module(path, driver.BuildOptions(), driver.StageTimes())


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
