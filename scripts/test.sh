#!/usr/bin/env bash
# Run the whole test suite.
#
# Uses a real PostgreSQL and Redis when they are reachable (127.0.0.1:5432 and
# :6379 unless DATABASE_URL / CELERY_BROKER_URL say otherwise); tests that need
# them skip, saying so, when they are not -- or fail under
# PABLO_REQUIRE_SERVICES=1 (CI). Extra arguments go to pytest.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh dev || exit 1

reachable() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

if [ -z "${DATABASE_URL:-}" ] && reachable 127.0.0.1 5432; then
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo
fi
if [ -z "${CELERY_BROKER_URL:-}" ] && reachable 127.0.0.1 6379; then
    export CELERY_BROKER_URL=redis://127.0.0.1:6379/0
fi
echo "database: ${DATABASE_URL:-embedded SQLite}; broker: ${CELERY_BROKER_URL:-none (Celery tests skip)}"

.venv/bin/pytest "$@"
status=$?
# pytest's 5 means no test ran: that is a failure of the suite, not a pass.
exit $status
