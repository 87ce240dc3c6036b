#!/usr/bin/env bash
# Set up (scripts/setup.sh), then run the station's main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Four simulated tables refereed live: the console when there is a display, else the terminal
# timeline. Each table seen through its rendered camera and read by the card reader; four times real
# time (what two cores keep up with) and two deals by default; any option given here wins.
.venv/bin/referee-station demo --speed 4 --deals 2 "$@"
