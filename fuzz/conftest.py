"""Campaign profiles for `pytest fuzz/` (see fuzz/profiles.py): `EMBER_PROFILE=ci|dev|campaign`.

The default is `ci` (few examples, derandomised, local database), so the README's test
command stays short; the campaign command is `EMBER_PROFILE=campaign pytest -n auto fuzz/`.
Findings of a pytest run go to `$EMBER_FINDINGS` (default ./findings).
"""

from __future__ import annotations

from fuzz import profiles

ACTIVE_PROFILE = profiles.load()
