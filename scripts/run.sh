#!/usr/bin/env bash
# Run the whole service locally: web (gunicorn), Celery worker and Celery beat.
#
# With nothing configured it uses the embedded default -- SQLite in var/ and
# Celery's file-system broker in var/broker/ -- so no server is needed. Set
# DATABASE_URL / CELERY_BROKER_URL (or put them in .env) for PostgreSQL/Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh
export DJANGO_SETTINGS_MODULE=pablo.settings
PORT=${PORT:-8000}
BIND=${BIND:-127.0.0.1:$PORT}
export DJANGO_DEBUG=${DJANGO_DEBUG:-1}
mkdir -p var
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0
# A new user sees the replay viewer at once: demo games when there are none.
.venv/bin/python manage.py demo --if-empty || echo "(demo games could not be created)"

pids=()
cleanup() {
    trap - INT TERM EXIT
    kill "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

.venv/bin/celery -A pablo worker --loglevel=INFO --concurrency=2 >var/worker.log 2>&1 &
pids+=($!)
.venv/bin/celery -A pablo beat --loglevel=INFO >var/beat.log 2>&1 &
pids+=($!)
.venv/bin/gunicorn pablo.wsgi --bind "$BIND" --workers 2 --threads 4 \
    --access-logfile - >var/web.log 2>&1 &
pids+=($!)

echo "Pablo is running at http://$BIND/"
echo "  replays:  http://$BIND/replays/"
echo "  API docs: http://$BIND/api/docs/"
echo "  logs:     var/web.log var/worker.log var/beat.log   (Ctrl-C stops everything)"
wait -n "${pids[@]}"
echo "a process stopped; see the logs in var/" >&2
exit 1
