#!/usr/bin/env bash
# Set up (scripts/setup.sh), then run the station's main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Four simulated tables refereed live: the console when there is a display, else the terminal
# timeline. Ten times real time and four deals by default; any option given here wins.
.venv/bin/referee-station demo --speed 10 --deals 4 "$@"
