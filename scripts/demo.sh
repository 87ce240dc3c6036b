#!/usr/bin/env bash
# Set up (scripts/setup.sh), then run the station's main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/referee-station check --level 7 --prev "5s 5h 5d" "7h 6c 6d" "$@"
