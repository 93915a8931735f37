#!/usr/bin/env bash
# Run the whole service locally: web (uvicorn: every page and the API, and the live
# feed's waits without a thread), Celery worker and Celery beat.
#
# With nothing configured it uses the embedded default -- SQLite in var/ and
# Celery's file-system broker in var/broker/ -- so no server is needed. Set
# DATABASE_URL / CELERY_BROKER_URL (or put them in .env) for PostgreSQL/Redis.
# PORT (default 8000) or BIND (host:port) say where the web server listens (DJANGO_DEBUG=1
# shows Django's debug pages, and only on a loopback address). CELERY_LOGLEVEL
# (default WARNING; INFO logs the deadline sweep's two tasks every second) for var/*.log.
# Ctrl-C (or SIGTERM to this script, or SIGINT / SIGTERM to `make run`'s own pid) stops
# all three processes.
set -euo pipefail
cd "$(dirname "$0")/.."
export DJANGO_SETTINGS_MODULE=pablo.settings
PORT=${PORT:-8000}
BIND=${BIND:-127.0.0.1:$PORT}
# Debug pages (URL lists, tracebacks with settings) are for one's own machine:
# make run serves without them (whitenoise still serves the static files), and
# refuses to listen beyond loopback with them (gunicorn.conf.py says so too).
export DJANGO_DEBUG=${DJANGO_DEBUG:-0}

host=${BIND%:*}
case "${DJANGO_DEBUG,,}" in
    1 | true | yes | on | y | ok)
        case "$host" in
            127.* | localhost | "[::1]" | ::1) ;;
            *)
                echo "Refusing to listen on $BIND with DJANGO_DEBUG on: debug pages show" \
                    "settings and tracebacks to anyone who reaches them. Use 127.0.0.1," \
                    "or DJANGO_DEBUG=0." >&2
                exit 1
                ;;
        esac
        ;;
esac
scripts/venv.sh
[ "$host" = 0.0.0.0 ] && host=127.0.0.1
# Something answers on $BIND (an address of this machine for a wildcard one).
listening() {
    local h=${host:-127.0.0.1}
    [ "$h" = "[::]" ] && h="[::1]"
    h=${h#[}
    (exec 3<>"/dev/tcp/${h%]}/${BIND##*:}") 2>/dev/null
}
if listening; then
    echo "Something is listening on $BIND already: stop it, or choose another port," \
        "e.g. PORT=$((${BIND##*:} + 1)) make run" >&2
    exit 1
fi

VAR=${PABLO_VAR_DIR:-var}  # logs, the local key (and the embedded database, broker)
mkdir -p "$VAR"
# A local secret key, made once and kept (sessions survive restarts); production
# sets DJANGO_SECRET_KEY itself (without it and without debug the service refuses to start).
if [ -z "${DJANGO_SECRET_KEY:-}" ]; then
    if [ ! -s "$VAR/secret_key" ]; then
        (umask 077; .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))' >"$VAR/secret_key")
    fi
    DJANGO_SECRET_KEY=$(cat "$VAR/secret_key")
    export DJANGO_SECRET_KEY
fi
# Web Push on a local run: a VAPID pair made once and kept in $VAR (production sets
# PABLO_VAPID_PRIVATE_KEY / _PUBLIC_KEY itself; docs/operations.md), made here before
# the three processes start so that they all read the same one.
if [ -z "${PABLO_VAPID_PRIVATE_KEY:-}" ]; then
    PABLO_VAPID_FILE=${PABLO_VAPID_FILE:-$(cd "$VAR" && pwd)/vapid.json}
    export PABLO_VAPID_FILE
fi
.venv/bin/python manage.py migrate --noinput -v0
[ -n "${PABLO_VAPID_FILE:-}" ] && .venv/bin/python manage.py shell -c \
    "from games.notifications import push; push.keys()" >/dev/null
.venv/bin/python manage.py collectstatic --noinput -v0
# A new user sees the replay viewer at once: demo games when there are none.
# PABLO_DEMO=0 skips them.
if [ "${PABLO_DEMO:-1}" != 0 ]; then
    .venv/bin/python manage.py demo --if-empty || echo "(demo games could not be created)"
fi

# One server for everything, so that the page and its live feed share one address:
# `uvicorn pablo.asgi:application` answers every path like gunicorn would, and parks
# the feed's waits without holding a thread (docs/design.md "Live updates"; on this
# embedded default, with no Redis, its processes re-check waited games twice a second
# and wake their own waiters at once). A stop waits at most 5 s for requests in flight.
uvicorn_args=(--host "${BIND%:*}" --port "${BIND##*:}" --workers "${UVICORN_WORKERS:-2}"
    --http httptools --loop uvloop --timeout-graceful-shutdown 5 --log-level warning --no-proxy-headers)

pids=()
# Stop all three within STOP_SECONDS (default 7), as service managers expect after
# SIGTERM: ask nicely (uvicorn finishes its requests, the worker its tasks), then
# SIGKILL whatever is left, children included. Killing is safe: tasks are
# acknowledged late and idempotent, so an interrupted one runs again later.
# Each of the three leads a process group of its own (set -m below) that holds its
# children too (uvicorn's workers, the worker's heavy lanes): a group is alive while
# any of them is, and SIGKILL goes to whole groups -- no process tree to walk, which
# took seconds of the stop on a busy machine.
alive() { local p; for p in "${pids[@]}"; do kill -0 -- "-$p" 2>/dev/null && return 0; done; return 1; }
stop() {
    # A deadline on the clock from the first moment, not a count of naps: on a busy
    # machine each nap and check takes longer than it says.
    local deadline=$((${EPOCHREALTIME/./} + ${STOP_SECONDS:-7} * 1000000)) p
    # Deaf to further signals from now on: a service manager signals the whole group,
    # and make passes its own on; a second SIGTERM must not cut this function short.
    trap '' INT TERM
    trap - EXIT
    kill -TERM "${pids[@]}" 2>/dev/null || true
    [ -n "$watcher" ] && kill "$watcher" 2>/dev/null || true
    while alive && [ "${EPOCHREALTIME/./}" -lt "$deadline" ]; do sleep 0.1; done
    if alive; then
        echo "still running after ${STOP_SECONDS:-7} s: killing" >&2
        for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null || true; done
    fi
    wait 2>/dev/null || true
    [ "$1" = 0 ] && echo "Pablo stopped (web, worker and beat)."
    exit "$1"
}
trap 'echo " stopping ..."; stop 0' INT TERM
trap 'stop 1' EXIT
# `kill -INT <make's pid>` (an IDE's or a script's stop button): GNU make passes on
# SIGTERM to its recipe but not SIGINT -- it waits for the recipe to end, which never
# comes. What it does do on SIGINT is give up catching it (its SigCgt mask loses bit
# 2) before it waits: a watcher sees that and stops this script as Ctrl-C would.
watcher=
if [ "$(ps -o comm= -p "$PPID" 2>/dev/null)" = make ]; then
    make_pid=$PPID
    catching_int() { local m; m=$(awk '/^SigCgt:/ {print $2}' "/proc/$make_pid/status" 2>/dev/null) && (( 0x$m & 2 )); }
    if catching_int; then
        (while sleep 0.3; do catching_int || { kill -INT $$; exit 0; }; done) &
        watcher=$!
    fi
fi
# Each process in a process group of its own (job control): Ctrl-C reaches this
# script alone, which stops the three in order and exits 0 -- instead of all of them
# dying at once and this script taking that for a crash.
set -m

loglevel=${CELERY_LOGLEVEL:-WARNING}
# Threads, not forked children: a SIGTERM to the whole group would reach forked pool
# children directly, and the worker then hangs in "Warm shutdown" waiting for them.
.venv/bin/celery -A pablo worker --loglevel="$loglevel" --pool=threads --concurrency=2 \
    >"$VAR/worker.log" 2>&1 &
pids+=($!)
.venv/bin/celery -A pablo beat --loglevel="$loglevel" >"$VAR/beat.log" 2>&1 &
pids+=($!)
.venv/bin/uvicorn pablo.asgi:application "${uvicorn_args[@]}" >"$VAR/web.log" 2>&1 &
pids+=($!)

# "running" once it answers: until the web server listens (it sets Django up first, a
# second or more), unless one of the three stops meanwhile (the wait below says so).
until listening; do
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || break 2; done
    sleep 0.1
done

echo "Pablo is running at http://$BIND/"
echo "  play:     http://$BIND/   (sign up, start a game, play at the table)"
echo "  replays:  http://$BIND/replays/"
echo "  API docs: http://$BIND/api/docs/"
echo "  logs:     $VAR/web.log $VAR/worker.log $VAR/beat.log   (Ctrl-C stops everything)"
# Returns when one of them stops by itself (or a signal interrupts it: the trap exits).
wait -n "${pids[@]}" || true
echo "a process stopped by itself; see the logs in $VAR/ -- stopping the others" >&2
tail -n 5 "$VAR/web.log" "$VAR/worker.log" "$VAR/beat.log" >&2 || true
exit 1
