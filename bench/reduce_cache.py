"""How much a reduction's task cache saves: the same reduction with `task_cache` on or off.

CPU time of the reducer and of every process it ran (build servers and their workers,
links, runs: the runner's in-process measure, after the servers are stopped), and each judgement's verdict, so
two runs can be compared judgement by judgement. `--candidates N` stops after the input's
judgement and N candidates' (with `-j 1` the candidates come in a fixed order). One JSON
row on stdout. Measured rows: docs/bench/results_reduce_task_cache.json.

    nice -n 19 .venv/bin/python -m bench.reduce_cache IN OUT on|off [--prop P] [--fault F]
        [--split MODE] [--cost N] [--candidates N] [--no-slice] [-j N]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench import runner
from fuzz import buildserver
from fuzz.reduce import interestingness, reduce_command


class _Enough(Exception):
    """The judgements asked for are done."""


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.reduce_cache", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("cache", choices=["on", "off"])
    ap.add_argument("--prop", default="symbol-difference")
    ap.add_argument("--fault", default=None, help="a power-check fault (fuzz/faults.py) the split builds get")
    ap.add_argument("--split", default="two-level")
    ap.add_argument("--cost", type=int, default=None)
    ap.add_argument("--candidates", type=int, default=0, help="stop after this many candidates (0: the whole reduction)")
    ap.add_argument("--no-slice", action="store_true")
    ap.add_argument("-j", "--jobs", dest="j", type=int, default=1)
    a = ap.parse_args(argv)

    verdicts: list[bool] = []
    real_judge = interestingness.judge

    def judge(path: Path, prop: str, s: interestingness.Settings, task_cache: Path | None = None) -> interestingness.Judgement:
        if a.candidates and len(verdicts) > a.candidates:
            raise _Enough
        judgement = real_judge(path, prop, s, task_cache)
        verdicts.append(judgement.text is not None)
        return judgement

    interestingness.judge = judge
    faults = frozenset({a.fault}) if a.fault else frozenset()
    settings = interestingness.Settings(split=a.split, opt_level=2, subgraph_cost=a.cost, faults=faults)
    row: dict[str, object] = {"cache": a.cache}
    with runner.measure() as used:
        try:
            stats = reduce_command.reduce_file(a.src, a.out, prop=a.prop, test=None, settings=settings, jobs=a.j, time_budget=None,
                                               quiet=True, allow_faults=bool(faults), task_cache=a.cache == "on",
                                               evidence_slice=not a.no_slice)
            row |= {"candidates": stats.candidates, "accepted": stats.accepted, "lines": [stats.initial_lines, stats.final_lines]}
        except _Enough:
            pass
        buildserver.stop_all()  # joins the servers' worker pools, so their CPU is counted
    cpu = used.cpu
    row |= {"judgements": len(verdicts), "cpu_s": round(cpu, 1), "cpu_per_judgement_s": round(cpu / max(1, len(verdicts)), 3),
            "wall_s": round(used.wall, 1), "peak_mb": round(used.peak_mb), "verdicts": "".join("1" if v else "0" for v in verdicts)}
    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
