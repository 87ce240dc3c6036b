#!/usr/bin/env bash
# The training environment of the card reader (not needed to run the station or its tests):
# the fonts referee_station.render.fonts draws index typefaces from, and .venv-train with the [train] extra
# (torch CPU wheel, onnx, Pillow). Then: .venv-train/bin/python -m referee_station.training.train (see referee_station/models/MODEL_CARD.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
FONTS="fonts-urw-base35 fonts-liberation fonts-freefont-ttf fonts-dejavu-core fonts-dejavu-extra"
missing=$(for p in $FONTS; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
fi
[ -x .venv-train/bin/python ] || python3 -m venv .venv-train
.venv-train/bin/pip install -q -e '.[train]'
