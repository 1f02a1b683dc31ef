#!/usr/bin/env bash
# Create .venv and install Ember with its pinned dependencies (the README's setup step).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e '.[dev,gpu]'
