#!/usr/bin/env bash
# Run the whole test suite. Extra arguments go to pytest (`scripts/test.sh tests/rules -q`).
#
# DATABASE_URL / CELERY_BROKER_URL unset: a real PostgreSQL (127.0.0.1:5432, user postgres)
# and Redis (127.0.0.1:6379) when they are reachable, else embedded SQLite and no broker.
# Set to a URL: that one. Set but empty (`CELERY_BROKER_URL= make test`): not used.
# Tests that need PostgreSQL, Redis or a Celery worker skip, saying why, when those are
# missing -- or fail under PABLO_REQUIRE_SERVICES=1 (CI). PABLO_TEST_DB_NAME names the test
# database (default test_<name>) so that parallel runs on one server do not clash.
#
# In parallel (pytest-xdist): PABLO_TEST_WORKERS processes (default 4; 0 runs the tests in
# pytest's own process), each with its own test database (<name>_gw0, _gw1 ...), its own
# Redis database (the N-th of PABLO_TEST_REDIS_DB, default 1-15) and the OS's ports
# (docs/design.md "Testing"). `-n 0` among the arguments runs them one by one, too.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh dev || exit 1

reachable() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

if [ -z "${DATABASE_URL+set}" ] && reachable 127.0.0.1 5432; then
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo
fi
if [ -z "${CELERY_BROKER_URL+set}" ] && reachable 127.0.0.1 6379; then
    export CELERY_BROKER_URL=redis://127.0.0.1:6379/0
fi
case ${DATABASE_URL:-} in
    postgres*) echo "database: $DATABASE_URL" ;;
    *) echo "database: ${DATABASE_URL:-embedded SQLite} (PostgreSQL-only tests skip)" ;;
esac
case ${CELERY_BROKER_URL:-} in
    redis*) echo "broker: $CELERY_BROKER_URL" ;;
    *) echo "broker: ${CELERY_BROKER_URL:-none} (Redis and Celery worker tests skip)" ;;
esac

# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set (as in this project's
# containers): else every worker rewrites the test modules' assertions again (about 15
# CPU-seconds each), and every process a test starts compiles the project again.
unset PYTHONDONTWRITEBYTECODE

workers=${PABLO_TEST_WORKERS:-4}
echo "workers: $workers"
exec .venv/bin/pytest -n "$workers" --dist worksteal "$@"
