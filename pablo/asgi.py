"""ASGI entry point: ``uvicorn pablo.asgi:application``.

Serves every path, like ``pablo.wsgi``; what it adds is waiting without a thread
(the event feed's ``wait``, games/feed/asgi.py). In production it runs beside
gunicorn and the proxy routes the feed to it (docs/operations.md).

``PABLO_FEED_PROFILE=<path>`` (profiling only): cProfile the process's event loop
thread from start to shutdown, written to ``<path>.<pid>`` (bench/README.md
"bench_feed.py --storm").
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ.setdefault("PABLO_SERVER", "asgi")
django.setup(set_prefix=False)

from games.feed.asgi import application as _make  # noqa: E402

application = _make()
