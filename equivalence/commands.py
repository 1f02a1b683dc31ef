"""`ember verify`: the verifier's subcommand (registered through the `ember.commands`
entry-point group)."""

from __future__ import annotations

import argparse


def cmd_verify(args: argparse.Namespace) -> int:
    from equivalence import verify_command

    return verify_command.run(args)


def register(sub: argparse._SubParsersAction) -> None:
    """Add `verify` to `ember`."""
    p = sub.add_parser("verify", help="prove Ember's rewrite patterns with Z3, or validate a pass pipeline (--tv)")
    from equivalence import verify_command

    verify_command.add_arguments(p)
    p.set_defaults(func=cmd_verify)
