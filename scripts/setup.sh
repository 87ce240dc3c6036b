#!/usr/bin/env bash
# Set up everything the station and its tests need on a fresh Debian machine: system packages
# (when missing), a virtual environment in .venv, and the project with its dev and hall extras.
set -euo pipefail
cd "$(dirname "$0")/.."

# The hall's broker, register and certificates; a CJK font for the console and its PDF export;
# Qt's runtime libraries; Xvfb and the xcb libraries for a real console window on a machine
# without a screen (xvfb-run referee-station demo); gnome-cards-data: the card artwork (aisleriot
# SVG sheets) the vision tests render, rasterised by librsvg2-bin; poppler-utils: pdftoppm renders
# the event's PDF sheets to the PNGs in docs/.
APT_PACKAGES=(
  mosquitto postgresql openssl
  fonts-wqy-microhei libfontconfig1 libglib2.0-0 libdbus-1-3 libxkbcommon0 libegl1 libgl1
  xvfb libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-xkb1 libxkbcommon-x11-0 libxcb-cursor0
  gnome-cards-data librsvg2-bin poppler-utils
)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev,hall]'
