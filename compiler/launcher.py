"""The console-script entry points: Ctrl-C at any moment, even while the compiler's modules
are still importing or the parser is being built, ends the run with one line and exit 130."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def _launch(prog: str, load: Callable[[], Callable[[], int]]) -> int:
    """Import and run a command's `main`; an interrupt before it guards itself ends quietly."""
    try:
        return load()()
    except KeyboardInterrupt:
        try:
            from compiler import children

            children.kill_direct_children()
            print(f"{prog}: interrupted", file=sys.stderr, flush=True)
        finally:
            os._exit(130)  # leave without the exit-time clean-up, which may wait on what was killed


def _cli_main() -> Callable[[], int]:
    from compiler import cli

    return cli.main


def _opt_main() -> Callable[[], int]:
    from compiler import opt_main

    return opt_main.main


def ember() -> int:
    """`ember`."""
    return _launch("ember", _cli_main)


def ember_opt() -> int:
    """`ember-opt`."""
    return _launch("ember-opt", _opt_main)
