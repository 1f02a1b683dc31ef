"""The fleet's command-line options of `ember fuzz` and `ember findings` (argparse only, so
`ember --help` stays fast; the commands are in `fuzz.fleet.commands`)."""

from __future__ import annotations

import argparse


def add_fuzz_arguments(p: argparse.ArgumentParser) -> None:
    """`ember fuzz`'s fleet options."""
    p.add_argument("--redis", metavar="URL", default=None,
                   help="share examples, findings and coverage through this Redis (default: $EMBER_REDIS_URL)")
    p.add_argument("--status", action="store_true", help="with --redis: print the fleet's totals, coverage and findings; run nothing")
    p.add_argument("--html", metavar="FILE", default=None, help="with --status: also write the fleet's picture as one HTML page")


def add_findings_arguments(p: argparse.ArgumentParser) -> None:
    """`ember findings`'s fleet options."""
    p.add_argument("--redis", metavar="URL", default=None, help="the fleet's shared store (default: $EMBER_REDIS_URL only for pull)")
    p.add_argument("--trust-candidate", action="store_true",
                   help="allow reproducing a fleet finding to run the --candidate command it carries")
