"""The campaign one mutant gets, run inside the mutated copy: prints one JSON line.

    python -m fuzz.mutation.child --strategy S --seed N --examples E --findings DIR
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

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
    print(json.dumps({
        "killed": result.found,
        "programs": result.examples_to_failure if result.found else result.stats.examples,
        "classification": ",".join(classes) or None,
        "seconds": round(result.seconds, 1),
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
