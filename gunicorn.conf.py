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


LOOPBACK = ("127.", "localhost", "::1", "[::1]")


def on_starting(server):  # gunicorn calls it once, in the master, before binding
    """Refuse to serve Django's debug pages beyond this machine.

    With ``DEBUG`` on, a 404 lists every URL pattern, an error shows the
    traceback with local variables and settings, and webhooks may reach
    private addresses: binding to anything but loopback with it is refused.
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
    from django.conf import settings

    if not settings.DEBUG:
        return
    for address in server.cfg.bind:
        host = "localhost" if address.startswith("unix:") else address.rsplit(":", 1)[0]
        if not host.startswith(LOOPBACK):
            raise SystemExit(
                f"Refusing to listen on {address} with DJANGO_DEBUG on: debug pages show "
                "the code's settings and tracebacks to anyone who can reach them. Listen "
                "on 127.0.0.1, or set DJANGO_DEBUG=0."
            )
