#!/usr/bin/env bash
# Create (or refresh) the local virtualenv .venv with the project installed.
#   scripts/venv.sh          runtime dependencies
#   scripts/venv.sh dev      plus the test and lint tools
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
extra=""
[ "${1:-}" = "dev" ] && extra="[dev]"
# Reinstall only when pyproject.toml changed since the last install.
stamp=".venv/.installed${extra:+-dev}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install -qq --upgrade pip
    .venv/bin/python -m pip install -qq -e ".${extra}"
    touch "$stamp"
fi
