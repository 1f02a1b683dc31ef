"""Benchmark: all-kernel vs per-kernel offload compilation of a generated program.

    .venv/bin/python -m bench.offload [--kernels 60] [-j 2] [-O 2] [--repeat 1] [--json FILE]

Each flow runs in a fresh child process (same start-up for both) that compiles every
kernel to PTX for sm_80 and sm_90. Printed side by side: wall time, CPU time of the
driver and of the worker processes (all-kernel only; the pool is started and warmed
before the clock starts, its start-up CPU is listed separately), and peak resident
memory of the driver and of the largest worker; and the whole child process tree's wall, CPU
and peak as the benchmarks' runner measures it (start-up and pool start included).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from bench import report, runner


def generate(kernels: int) -> str:
    """An Ember program with `kernels` kernels sharing a few helpers (each kernel different)."""
    lines = [
        "def h0(a: Int, b: Int) -> Int:",
        "    return (a * 31 + b) % 1009 + 2 ** (b % 5)",
        "",
        "def h1(x: Float64, y: Float64) -> Float64:",
        "    return sqrt(x * x + y * y) % 7.5",
        "",
    ]
    for k in range(kernels):
        lines += [
            "@kernel",
            f"def k{k}(x: Buffer[Float64], y: Buffer[Int], n: Int, s: Float64) -> None:",
            "    i = global_idx_x() + global_idx_y() * grid_dim_x() * block_dim_x()",
            "    if i < n:",
            f"        acc = s * {k + 1}.0",
            f"        for j in range({k % 7 + 1}):",
            f"            acc = h1(acc + x[i], Float64(j + {k}))",
            f"        y[i] = h0(i, {k}) + Int(acc) // {k % 5 + 1}",
            f"        x[i] = acc * {k}.5 - Float64(y[i] % {k % 9 + 2})",
            "",
        ]
    lines += ["def main() -> None:", "    pass", ""]
    return "\n".join(lines)


def _workers_cpu() -> tuple[float, float]:
    """(CPU seconds, peak RSS MiB) over this process's live children."""
    import psutil

    cpu, peak = 0.0, 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            t = child.cpu_times()
            cpu += t.user + t.system
            for line in Path(f"/proc/{child.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) / 1024)
        except (psutil.Error, OSError):
            continue
    return cpu, peak


def child(flow: str, kernels: int, jobs: int, opt: int) -> None:
    from compiler.backend import pool
    from compiler.frontend import emit_mlir_text
    from compiler.offload import flows
    from compiler.offload.ptx import ARCHS

    mlir = emit_mlir_text(generate(kernels), "bench.em")
    start_cpu = 0.0
    if flow == "all-kernel":
        pool.warm(jobs, wait=True)
        start_cpu, _ = _workers_cpu()
    own0 = time.process_time()  # the driver alone: the pool's workers are live, not yet reaped
    with runner.measure() as used:
        result = flows.compile_kernels(mlir, "bench.em", flow, ARCHS, opt, jobs)
    own = time.process_time() - own0
    workers_cpu, workers_peak = _workers_cpu()
    assert len(result.ptx) == kernels
    print(json.dumps({
        "wall": used.wall,
        "driver_cpu": own,
        "workers_cpu": workers_cpu - start_cpu,
        "pool_startup_cpu": start_cpu,
        "driver_peak": used.peak_mb,
        "worker_peak": workers_peak,
        "ptx_bytes": sum(len(p) for by in result.ptx.values() for p in by.values()),
    }))
    pool.shutdown()


def run_flow(flow: str, kernels: int, jobs: int, opt: int) -> dict[str, float]:
    cmd = [sys.executable, "-m", "bench.offload", "--child", flow, "--kernels", str(kernels), "-j", str(jobs), "-O", str(opt)]
    step = runner.run_children([cmd], runner.ember_env(), capture_stdout=True)
    if step.failed:
        raise SystemExit(f"{flow} failed:\n{step.failed}")
    row = json.loads(step.stdout.strip().splitlines()[-1])
    return {**row, "tree_wall": step.wall, "tree_cpu": step.cpu, "tree_peak": step.peak_mb}


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments("bench.offload", __doc__)
    ap.add_argument("--kernels", type=int, default=60)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-O", dest="opt", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="runs per flow (the best CPU time is kept)")
    ap.add_argument("--child", choices=("per-kernel", "all-kernel"))
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.kernels, args.jobs, args.opt)
        return 0
    rows = {}
    for flow in ("per-kernel", "all-kernel"):
        runs = [run_flow(flow, args.kernels, args.jobs, args.opt) for _ in range(args.repeat)]
        rows[flow] = min(runs, key=lambda r: r["driver_cpu"] + r["workers_cpu"])
    print(f"{args.kernels} kernels, -O{args.opt}, PTX for sm_80 + sm_90, all-kernel with -j{args.jobs}")
    fields = [
        ("wall (s)", "wall"), ("driver CPU (s)", "driver_cpu"), ("worker CPU (s)", "workers_cpu"),
        ("pool start-up CPU (s)", "pool_startup_cpu"), ("driver peak RSS (MiB)", "driver_peak"),
        ("largest worker RSS (MiB)", "worker_peak"), ("PTX bytes", "ptx_bytes"),
        ("child process: wall (s)", "tree_wall"), ("child process: CPU (s)", "tree_cpu"), ("child process: peak (MiB)", "tree_peak"),
    ]
    body: list[list[object]] = [[label, rows["per-kernel"][key], rows["all-kernel"][key]] for label, key in fields]
    total = {f: rows[f]["driver_cpu"] + rows[f]["workers_cpu"] for f in rows}
    body.append(["total CPU (s)", total["per-kernel"], total["all-kernel"]])
    print(report.table(["", "per-kernel", "all-kernel"], body))
    print(f"per-kernel / all-kernel CPU: {total['per-kernel'] / total['all-kernel']:.2f}x")
    report.write_json(args.json, {"kernels": args.kernels, "jobs": args.jobs, "opt": args.opt, "flows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
