#!/usr/bin/env bash
# Run the whole service locally: web (gunicorn), Celery worker and Celery beat.
#
# With nothing configured it uses the embedded default -- SQLite in var/ and
# Celery's file-system broker in var/broker/ -- so no server is needed. Set
# DATABASE_URL / CELERY_BROKER_URL (or put them in .env) for PostgreSQL/Redis.
# PORT (default 8000) or BIND (host:port) say where the web server listens. CELERY_LOGLEVEL
# (default WARNING; INFO logs the deadline sweep's two tasks every second) for var/*.log.
# Ctrl-C (or SIGTERM to this script) stops all three processes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh
export DJANGO_SETTINGS_MODULE=pablo.settings
PORT=${PORT:-8000}
BIND=${BIND:-127.0.0.1:$PORT}
export DJANGO_DEBUG=${DJANGO_DEBUG:-1}

host=${BIND%:*}
[ "$host" = 0.0.0.0 ] && host=127.0.0.1
if (exec 3<>"/dev/tcp/${host:-127.0.0.1}/${BIND##*:}") 2>/dev/null; then
    echo "Something is listening on $BIND already: stop it, or choose another port," \
        "e.g. PORT=$((${BIND##*:} + 1)) make run" >&2
    exit 1
fi

mkdir -p var
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0
# A new user sees the replay viewer at once: demo games when there are none.
.venv/bin/python manage.py demo --if-empty || echo "(demo games could not be created)"

gunicorn_args=(--bind "$BIND" --workers 2 --access-logfile -)  # threads etc.: gunicorn.conf.py
# gunicorn >= 25 opens a control socket in ~/.gunicorn/, shared by every checkout.
if .venv/bin/gunicorn --help 2>/dev/null | grep -q -- --no-control-socket; then
    gunicorn_args+=(--no-control-socket)
fi

pids=()
stop() {
    trap - INT TERM EXIT
    kill "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
    exit "$1"
}
trap 'echo " stopping ..."; stop 0' INT TERM
trap 'stop 1' EXIT

loglevel=${CELERY_LOGLEVEL:-WARNING}
.venv/bin/celery -A pablo worker --loglevel="$loglevel" --concurrency=2 >var/worker.log 2>&1 &
pids+=($!)
.venv/bin/celery -A pablo beat --loglevel="$loglevel" >var/beat.log 2>&1 &
pids+=($!)
.venv/bin/gunicorn pablo.wsgi "${gunicorn_args[@]}" >var/web.log 2>&1 &
pids+=($!)

echo "Pablo is running at http://$BIND/"
echo "  replays:  http://$BIND/replays/"
echo "  API docs: http://$BIND/api/docs/"
echo "  logs:     var/web.log var/worker.log var/beat.log   (Ctrl-C stops everything)"
# Returns when one of them stops by itself (or a signal interrupts it: the trap exits).
wait -n "${pids[@]}" || true
echo "a process stopped by itself; see the logs in var/ -- stopping the others" >&2
tail -n 5 var/web.log var/worker.log var/beat.log >&2 || true
exit 1
