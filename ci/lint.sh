#!/usr/bin/env bash
# Static checks: ruff and mypy as configured in pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check compiler oracle fuzz equivalence bench tests
.venv/bin/mypy
