"""Fuzzing benchmark: throughput of differential checks and the power check's detection figures.

    python -m bench.power [--examples 60] [--seeds 5] [--faults all] [--json out.json]

1. Throughput on 10-function call-graph programs, split builds at -j1 (one worker: the
   parent waits while it works, so about one core is busy): checks per second of wall
   time, checks per CPU-second (driver + workers + `cc` + programs), and the stage
   breakdown (generation, compile, run, compare).
2. For each deliberately broken back end (`fuzz.faults.FAULTS`) and each seed:
   programs and seconds until the campaign (LLVM IR strategies, no shrinking) catches it.
   A fault that does not change the split checklist module's object at all is reported
   as a no-op instead of spending the whole budget on it.

Faults are selectable only here and in tests, never from the `ember` CLI.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

from bench import report, runner
from compiler import driver
from compiler.backend.split_mode import SplitMode
from fuzz import buildserver
from fuzz import faults as faults_mod
from fuzz.campaign import Campaign, CampaignConfig

BOUND = 200


def _stop_pools() -> None:
    """Stop the build server (it joins its worker pools), so all their CPU time is in RUSAGE_CHILDREN."""
    buildserver.stop_all()


def fault_is_effective(fault: str) -> bool:
    """Does the fault change the object of the split checklist module at all? (Objects: the
    object link's faults rewrite what it merges, which `--emit asm` never reaches.)"""
    checklist = Path(__file__).parent.parent / "tests" / "data" / "split_semantics.ll"

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.o"
        broken = buildserver.build(checklist, driver.BuildOptions(
            opt_level=0, split=SplitMode.TWO_LEVEL, jobs=1, subgraph_cost=1, emit="obj", hooks=faults_mod.hooks_for({fault})),
        out, timeout=300)
        if not broken.ok:
            return True
        faulty = out.read_bytes()
        clean = buildserver.build(checklist, driver.BuildOptions(
            opt_level=0, split=SplitMode.TWO_LEVEL, jobs=1, subgraph_cost=1, emit="obj"), out, timeout=300)
        return not clean.ok or out.read_bytes() != faulty


def throughput(examples: int, seed: int, findings_root: Path, strategy: str = "callgraph") -> dict[str, object]:
    """Checks per second on 10-function programs (no faults)."""
    _stop_pools()
    config = CampaignConfig(
        strategy=strategy,
        min_functions=10,
        max_functions=10,
        jobs=(1,),
        determinism=False,
        findings_root=findings_root,
        shrink_seconds=5.0,
    )
    with runner.measure() as used:
        campaign = Campaign(config, seed=seed, name=f"bench:throughput:{strategy}")
        result = campaign.run(examples=examples, database=None)
        _stop_pools()
    cpu = used.cpu
    s = result.stats
    return {
        "examples": s.examples,
        "checks": s.checks,
        "wall_s": round(result.seconds, 2),
        "cpu_s": round(cpu, 2),
        "checks_per_s": round(s.checks / result.seconds, 2),
        "checks_per_cpu_s": round(s.checks / cpu, 2) if cpu else None,
        "stages_s": {k: round(v, 2) for k, v in asdict(s).items() if k in ("generation", "compile", "run", "compare")},
        "found": result.found,
        "known": dict(result.known),
    }


def detection(fault: str, seed: int, findings_root: Path) -> dict[str, object]:
    """Programs and seconds until the campaign catches `fault` (LLVM IR strategies, no shrinking)."""
    config = CampaignConfig(
        strategy="llvm-ir", faults=frozenset({fault}), opt_check=False, findings_root=findings_root, shrink_seconds=0.0
    )
    result = Campaign(config, seed=seed, name=f"bench:{fault}").run(examples=BOUND - 1, database=None, shrink=False)
    classification = ",".join(sorted({f.classification for f in result.failures})) or None
    return {
        "fault": fault,
        "seed": seed,
        "caught": result.found,
        "examples": result.examples_to_failure,
        "seconds": round(result.seconds_to_failure, 2) if result.seconds_to_failure is not None else None,
        "classification": classification,
    }


def main(argv: list[str] | None = None) -> int:
    parser = report.arguments("bench.power", __doc__)
    parser.add_argument("--examples", type=int, default=60, help="programs for the throughput run")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per fault for detection")
    parser.add_argument("--faults", default="all", help="comma-separated faults, or 'all'")
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args(argv)
    faults = sorted(faults_mod.FAULTS) if args.faults == "all" else [f for f in args.faults.split(",") if f]
    unknown = set(faults) - faults_mod.FAULTS
    if unknown:
        parser.error(f"unknown fault(s): {', '.join(sorted(unknown))}")
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="ember-fuzz-bench-") as tmp:
        for strategy in [] if args.skip_throughput else ["callgraph", "ember"]:
            t = throughput(args.examples, 1, Path(tmp) / f"throughput-{strategy}", strategy)
            out[f"throughput-{strategy}"] = t
            stages = t["stages_s"]
            assert isinstance(stages, dict)
            print(
                f"throughput ({strategy}, 10-function programs, -j1): {t['checks']} checks in {t['wall_s']}s wall, "
                f"{t['cpu_s']}s CPU: {t['checks_per_s']} checks/s, {t['checks_per_cpu_s']} checks per CPU-second"
                + (f"; known bugs hit: {t['known']}" if t["known"] else "")
            )
            print("  stages: " + ", ".join(f"{k} {v}s" for k, v in stages.items()), flush=True)
        rows: list[dict[str, object]] = []
        for fault in faults:
            if not fault_is_effective(fault):
                print(f"  {fault:<28} is a no-op on the checklist module: not measured", flush=True)
                rows.append({"fault": fault, "seed": None, "caught": False, "noop": True})
                continue
            for seed in range(1, args.seeds + 1):
                row = detection(fault, seed, Path(tmp) / "detect")
                rows.append(row)
                print(f"  {fault:<28} seed {seed}: " + (
                    f"caught after {row['examples']} programs, {row['seconds']}s ({row['classification']})"
                    if row["caught"] else f"NOT caught in {BOUND - 1} programs"
                ), flush=True)
        out["detection"] = rows
    _stop_pools()
    print()
    print(report.table(["fault", "caught", "programs to detection (min / median / max)", "seconds to detection (median)",
                        "classification"], [summary(fault, rows) for fault in faults]))
    report.write_json(args.json, out)
    return 0 if all(r["caught"] for r in rows if not r.get("noop")) else 1


def summary(fault: str, rows: list[dict[str, object]]) -> list[object]:
    """One fault's table row over its seeds."""
    mine = [r for r in rows if r["fault"] == fault]
    if any(r.get("noop") for r in mine):
        return [fault, "fault is a no-op", "-", "-", "-"]
    caught = [r for r in mine if r["caught"]]
    counts = [int(str(r["examples"])) for r in caught]
    secs = [float(str(r["seconds"])) for r in caught]
    classes = sorted({str(r["classification"]) for r in caught})
    span = f"{min(counts)} / {statistics.median(counts):g} / {max(counts)}" if counts else "-"
    med = f"{statistics.median(secs):.1f}" if secs else "-"
    return [fault, f"{len(caught)}/{len(mine)}", span, med, ", ".join(classes)]


if __name__ == "__main__":
    sys.exit(main())
