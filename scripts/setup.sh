#!/usr/bin/env bash
# Set up everything the station and its tests need on a fresh Debian machine: system packages
# (when missing), a virtual environment in .venv, and the project with its dev and hall extras.
set -euo pipefail
cd "$(dirname "$0")/.."

# gnome-cards-data: card artwork (aisleriot SVG sheets) the vision tests render; librsvg2-bin rasterises it.
# mosquitto, postgresql, openssl: the hall's broker and register, started privately by its tests.
APT_PACKAGES=(gnome-cards-data librsvg2-bin mosquitto postgresql openssl)
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
