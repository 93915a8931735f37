#!/usr/bin/env bash
# The crowd (bench/README.md): PLAYERS locust users (default 100, two per game: 50
# concurrent games of mixed rulesets) play through gunicorn on PostgreSQL for
# DURATION (default 5m), each also long-polling its feed; then
# bench/locust_check.py checks that nothing was lost and every fold equals its
# projection. Bounded in time and count; loopback only.
#
# gunicorn runs with the production configuration, gunicorn.conf.py as it is
# (3 workers x 16 threads); GUNICORN_WORKERS / GUNICORN_THREADS override it the
# way they do in production (gunicorn.conf.py reads them).
#
#   bench/locust_crowd.sh                  # the 5-minute crowd, production threads
#   DURATION=30s bench/locust_crowd.sh     # a rehearsal
#   GUNICORN_WORKERS=2 GUNICORN_THREADS=4 bench/locust_crowd.sh   # the first, small run
#
# Needs PostgreSQL at PGURL (default postgres://postgres@127.0.0.1:5432); it creates
# and drops its own database (pablo_crowd_$$). PORT (default 8190) for gunicorn.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh dev
[ -x .venv/bin/locust ] || .venv/bin/python -m pip install -qq -e ".[bench]"
PLAYERS=${PLAYERS:-100}
DURATION=${DURATION:-5m}
PORT=${PORT:-8190}
PGURL=${PGURL:-postgres://postgres@127.0.0.1:5432}
DB=pablo_crowd_$$
out=$(mktemp -d /tmp/pablo-crowd-XXXXXX)
export DATABASE_URL=$PGURL/$DB
export DJANGO_SETTINGS_MODULE=pablo.settings DJANGO_SECRET_KEY=crowd-$$-$RANDOM$RANDOM-local-bench
export CELERY_BROKER_URL= PABLO_VAR_DIR=$out/var

psql() { .venv/bin/python - "$@" <<'PY'
import sys, psycopg
with psycopg.connect(sys.argv[1] + "/postgres", autocommit=True) as c:
    c.execute(sys.argv[2])
PY
}
cleanup() {
    [ -n "${loadwatch:-}" ] && kill "$loadwatch" 2>/dev/null
    [ -n "${web:-}" ] && kill "$web" 2>/dev/null && wait "$web" 2>/dev/null
    psql "$PGURL" "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
}
trap cleanup EXIT
psql "$PGURL" "CREATE DATABASE $DB"
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/gunicorn pablo.wsgi -c gunicorn.conf.py --bind 127.0.0.1:$PORT \
    --no-control-socket >"$out/web.log" 2>&1 &
web=$!
echo "gunicorn: gunicorn.conf.py, workers ${GUNICORN_WORKERS:-3} x threads ${GUNICORN_THREADS:-16}"
for _ in $(seq 120); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.5; done

.venv/bin/python bench/locust_setup.py "$PLAYERS" "$out/tables.json"
# The machine may be shared: the 1-minute load average every 10 s during the run.
(while :; do cut -d' ' -f1 /proc/loadavg >>"$out/loadavg"; sleep 10; done) &
loadwatch=$!
CROWD_TABLES=$out/tables.json CROWD_RECORD=$out/record.jsonl .venv/bin/locust -f bench/locustfile.py --headless \
    --host "http://127.0.0.1:$PORT" -u "$PLAYERS" -r 20 -t "$DURATION" --stop-timeout 10 \
    --csv "$out/crowd" --only-summary >"$out/locust.log" 2>&1 || true
kill "$loadwatch"; loadwatch=
kill "$web"; wait "$web" 2>/dev/null || true; web=
.venv/bin/python - "$out/crowd_stats.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"{'request':34} {'count':>7} {'fail':>5} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7}")
for r in rows:
    print(f"{r['Name'][:34]:34} {r['Request Count']:>7} {r['Failure Count']:>5} "
          f"{float(r['Requests/s']):7.1f} {r['50%']:>7} {r['99%']:>7}")
PY
sort -n "$out/loadavg" | awk '{a[NR]=$1} END {if (NR) printf "load average (1 min, every 10 s): min %s median %s max %s\n", a[1], a[int((NR+1)/2)], a[NR]}'

echo "failures (5xx and unexpected 4xx; 409s of a lost race are not failures):"
cat "$out/crowd_failures.csv"
.venv/bin/python bench/locust_check.py "$out/record.jsonl"
echo "files: $out"
