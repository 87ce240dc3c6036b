#!/usr/bin/env bash
# Set up (scripts/setup.sh), then run the lint and the whole test suite; slow paths are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/python -m pytest -m "not slow" "$@"
