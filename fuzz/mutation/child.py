"""The campaign one mutant gets, run inside the mutated copy: prints one JSON line.

The line holds the verdict and every failure with its saved finding directory (the
parent replays those against the unmutated project before it counts a kill).

    python -m fuzz.mutation.child --strategy S --seed N --examples E --findings DIR
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from fuzz import findings, properties
from fuzz.campaign import Campaign, CampaignConfig


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fuzz.mutation.child")
    ap.add_argument("--strategy", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--examples", type=int, required=True)
    ap.add_argument("--findings", type=Path, required=True)
    args = ap.parse_args(argv)
    config = CampaignConfig(strategy=args.strategy, findings_root=args.findings, shrink_seconds=0.0)
    result = Campaign(config, seed=args.seed, name=f"mutant:{args.strategy}").run(
        examples=args.examples, database=None, shrink=False
    )
    classes = sorted({f.report.classification for f in result.failures})
    failures = []
    order = properties.CLASSIFICATIONS
    def rank(f: Any) -> int:
        return order.index(f.report.classification) if f.report.classification in order else len(order)

    for f in sorted(result.failures, key=rank):
        # every failure as a finding directory, so the parent can replay it elsewhere
        path = f.finding or findings.save(f.report, root=args.findings, seed=args.seed, test="mutant")
        failures.append({"classification": f.report.classification, "summary": _one_line(f.report.summary()),
                         "finding": str(path)})
    print(json.dumps({
        "found": result.found,
        "programs": result.examples_to_failure if result.found else result.stats.examples,
        "classification": ",".join(classes) or None,
        "seconds": round(result.seconds, 1),
        "failures": failures,
    }), flush=True)
    return 0


def _one_line(text: str, width: int = 200) -> str:
    line = (text.strip().splitlines() or [""])[0]
    return line if len(line) <= width else line[: width - 3] + "..."


if __name__ == "__main__":
    sys.exit(main())
