#!/usr/bin/env bash
# The French and German catalogues (locale/): collect the marked strings of the
# code, templates and play.js into the .po files, then compile them into the
# .mo files the site reads. Translate what is new in the .po files between the
# two steps (run it again after): tests/play/test_i18n.py fails on a message
# missing from a catalogue, untranslated, fuzzy, or not compiled.
#   scripts/messages.sh          both steps
#   scripts/messages.sh compile  only the .mo files
set -euo pipefail
cd "$(dirname "$0")/.."
export DJANGO_DEBUG=${DJANGO_DEBUG:-1}
PY=.venv/bin/python
ignore=(--ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --ignore=var
        --ignore=deploy --ignore=node_modules)
if [ "${1:-}" != "compile" ]; then
    "$PY" manage.py makemessages -l fr -l de --no-location --no-obsolete --no-wrap "${ignore[@]}"
    "$PY" manage.py makemessages -d djangojs -l fr -l de --no-location --no-obsolete --no-wrap "${ignore[@]}"
fi
"$PY" manage.py compilemessages --ignore=.venv --ignore=node_modules
