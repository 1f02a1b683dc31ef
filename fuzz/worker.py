"""One campaign worker process: `python -m fuzz.worker [--fault F] [--replay-only] ...`.

Uses the configured example database (`EMBER_HYPOTHESIS_DIR`, `EMBER_REDIS_URL`), so
several workers on several machines share what they find. `--replay-only` runs nothing
but the database's examples (Hypothesis' reuse phase): a failure it reports was found by
another worker. Faults (deliberately broken back ends) are for tests and the power check.
Prints one JSON line; exit status 1 when a failure was found.
"""

from __future__ import annotations

import argparse
import json
import sys
import unittest
from pathlib import Path

from hypothesis import Phase, settings

from fuzz import profiles, properties
from fuzz.campaign import Campaign, CampaignConfig, differential_failures
from fuzz.profiles import SLOW_CHECKS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.worker")
    parser.add_argument("--fault", action="append", default=[], help="a back-end fault (fuzz.faults)")
    parser.add_argument("--strategy", default="callgraph")
    parser.add_argument("--examples", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--replay-only", action="store_true", help="only replay examples from the database")
    parser.add_argument("--findings", type=Path, default=None)
    parser.add_argument("--shrink-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)

    config = CampaignConfig(
        strategy=args.strategy,
        faults=frozenset(args.fault),
        findings_root=args.findings,
        shrink_seconds=args.shrink_seconds,
        opt_check=False,
    )
    campaign = Campaign(config, seed=args.seed, name="fuzz.worker")
    phases = [Phase.reuse] if args.replay_only else [Phase.reuse, Phase.generate, Phase.shrink]
    test = campaign.hypothesis_test(
        settings(
            max_examples=args.examples,
            database=profiles.example_database(),
            deadline=None,
            phases=phases,
            suppress_health_check=SLOW_CHECKS,
        )
    )
    failure: properties.DifferentialFailure | None = None
    found: list[properties.DifferentialFailure] = []
    try:
        test()
    except (properties.DifferentialFailure, BaseExceptionGroup) as exc:
        found = differential_failures(exc)
        if not found:
            raise
        failure = min(found, key=lambda f: properties.CLASSIFICATIONS.index(f.classification))
    except unittest.SkipTest:  # --replay-only with an empty database: nothing ran
        pass
    print(
        json.dumps(
            {
                "found": failure is not None,
                "classification": failure.classification if failure else None,
                "classifications": sorted({f.classification for f in found}) if failure else [],
                "examples": campaign.result.stats.examples,
                "examples_to_failure": campaign.result.examples_to_failure,
                "findings": [str(p) for p in campaign.result.findings],
            }
        )
    )
    return 1 if failure is not None else 0


if __name__ == "__main__":
    sys.exit(main())
