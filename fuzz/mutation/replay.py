"""Re-run saved findings' checks in whichever project is first on `PYTHONPATH`: one JSON line each.

    python -m fuzz.mutation.replay FINDING_DIR...

`ember mutants` runs it against the unmutated project (a kill is confirmed only when the
unmutated project passes the finding's program and plan) and against the mutated copy
(the finding must still fail there), each in a child process, so a crash or a hang of
the replay cannot take the command down.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from compiler.diagnostics import EmberError
from fuzz import findings


def replay_one(path: Path) -> dict[str, object]:
    """`{"finding", "ok", "classification", "summary"}`, or `{"finding", "error"}` when it cannot be replayed."""
    try:
        report = findings.reproduce(path)
    except EmberError as exc:
        return {"finding": str(path), "error": exc.render()}
    return {"finding": str(path), "ok": report.ok, "classification": report.classification,
            "summary": report.summary().splitlines()[0] if report.summary() else ""}


def main(argv: list[str] | None = None) -> int:
    for arg in sys.argv[1:] if argv is None else argv:
        print(json.dumps(replay_one(Path(arg))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
