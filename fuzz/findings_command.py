"""`ember findings list|show|reproduce`: the findings store from the command line
(registered by fuzz/commands.py)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from compiler.diagnostics import UsageError


def check_store(root: Path | None, option: str = "--findings") -> None:
    """The findings store (the option, else `$EMBER_FINDINGS`) must be a directory or nothing
    yet, checked before any work: a campaign must not find out when it saves its first finding."""
    from fuzz.findings import ENV

    if root is None and os.environ.get(ENV):
        root, option = Path(os.environ[ENV]), f"${ENV}"
    if root is not None and root.exists() and not root.is_dir():
        raise UsageError(f"{option} {root}: not a directory")


def add_findings_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("list", "show", "reproduce", "pull"))
    p.add_argument("finding", nargs="?", help="finding id (or a unique prefix/suffix) or directory")
    p.add_argument("--findings", type=Path, default=None, metavar="DIR", help="findings store (default: $EMBER_FINDINGS or ./findings)")
    p.add_argument("--root", dest="findings", type=Path, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    from fuzz.fleet import options as fleet_options

    fleet_options.add_findings_arguments(p)  # --redis, --trust-candidate


def cmd_findings(args: argparse.Namespace) -> int:
    from fuzz import findings
    from fuzz.fleet import commands as fleet

    check_store(args.findings)
    url = fleet.findings_url(args)
    if url is not None:  # the fleet's shared store
        return fleet.cmd_findings(args, url)
    if args.action == "list":
        print(findings.format_list(findings.list_findings(args.findings)))
        return 0
    if not args.finding:
        raise UsageError(f"'ember findings {args.action}' needs a finding id or directory")
    path = findings.resolve(args.finding, args.findings)
    if args.action == "show":
        print(findings.show(path))
        return 0
    fleet.check_local_trust(path, args.trust_candidate)  # a finding pulled from the fleet runs no command unasked
    return findings.print_reproduction(findings.reproduce(path, allow_faults=False))
