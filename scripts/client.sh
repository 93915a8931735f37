#!/usr/bin/env bash
# Regenerate the official Python client's models and calls (clients/python/pablo_client)
# from the OpenAPI schema, offline and deterministically (games/management/commands/client.py):
#   scripts/client.sh           rewrite the generated part (play.py and the rest stay)
#   scripts/client.sh --check   fail when the committed client no longer matches the schema
# The schema does not depend on the settings; the test settings need no secret key.
set -euo pipefail
cd "$(dirname "$0")/.."
export DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-pablo.settings.test}
exec "${PYTHON:-.venv/bin/python}" manage.py client "$@"
