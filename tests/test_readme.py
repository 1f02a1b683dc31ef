"""The README's commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def readme_command(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    m = re.search(rf"<!-- {marker} -->\s*```sh\n(.+?)\n```", text, re.S)
    assert m, f"README has no {marker} block"
    return m.group(1).strip()


def test_ci_runs_the_readme_test_command() -> None:
    assert readme_command("test-command") in (ROOT / "ci" / "test.sh").read_text()


def test_ci_entry_point_calls_the_test_script() -> None:
    assert "bash ci/test.sh" in (ROOT / ".ci" / "run").read_text()


def test_main_command_sets_up_first() -> None:
    assert readme_command("main-command").startswith("bash ci/setup.sh")
