"""gunicorn settings, read by a plain ``gunicorn pablo.wsgi`` started in this folder.

Threads, not only processes: an event feed request with ``wait`` (long
polling, up to 30 s) holds its thread while it waits, so a handful of
waiting clients must not take every worker. Each thread may keep one
database connection (``CONN_MAX_AGE``): workers x threads stays well below
PostgreSQL's default 100 connections. Override with GUNICORN_WORKERS /
GUNICORN_THREADS, or on the command line; how to size them, measured with
the crowd (bench/locust_crowd.sh): docs/operations.md.
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
# Longer than the longest long poll (30 s), so a waiting request is never killed.
timeout = 60
graceful_timeout = 10
