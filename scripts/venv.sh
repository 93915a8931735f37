#!/usr/bin/env bash
# Create (or refresh) the local virtualenv .venv with the project installed.
#   scripts/venv.sh          runtime dependencies
#   scripts/venv.sh dev      plus the test and lint tools
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
want="3.11"  # pyproject.toml: requires-python >=3.11,<3.12
version() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null; }
if [ "$(version "$PY")" != "$want" ]; then
    echo "Python $want is needed (found ${PY}: $(version "$PY" || echo none));" \
        "install python$want or point PYTHON at one, e.g. PYTHON=/usr/bin/python$want" >&2
    exit 1
fi
# A .venv made by another Python (or broken, e.g. its Python was removed) is rebuilt.
if [ -e .venv ] && [ "$(version .venv/bin/python)" != "$want" ]; then
    echo "rebuilding .venv: it was made by Python $(version .venv/bin/python || echo '(broken)')," \
        "not $want" >&2
    rm -rf .venv
fi
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
