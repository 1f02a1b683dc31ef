#!/usr/bin/env bash
# Run exactly the README's test command. pytest's exit 5 (no tests collected) is a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest -n auto -q && .venv/bin/lit -sv lit-tests/
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "ci: pytest collected no tests (exit 5): treating as failure" >&2
  exit 1
fi
exit "$rc"
