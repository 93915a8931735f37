"""The shared marks of ``games.tokens`` are written by *every* process of the service.

A token deleted, or a user deactivated, from ``manage.py shell``, a management
command or a Celery task must reach the feed's fast path (``games.feed.fast``),
which trusts a token for ``auth.FAST_TTL`` seconds unless a mark says otherwise:
the receivers that write the marks must be connected in every process, not
only in one that happened to import the API's views.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import django, sys
django.setup()
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from rest_framework.authtoken.models import Token

def connected(signal, uid, sender):
    signal.has_listeners(sender)  # (drops dead receivers)
    return any(key[0] == uid for key, *_ in signal.receivers)

User = get_user_model()
missing = [
    name
    for name, signal, uid, sender in [
        ("user saved", post_save, "games.tokens.user", User),
        ("user deleted", post_delete, "games.tokens.gone", User),
        ("token deleted", post_delete, "games.tokens.token", Token),
    ]
    if not connected(signal, uid, sender)
]
print("imported" if "games.api.views" in sys.modules else "not imported")
print("missing:", missing)
sys.exit(1 if missing else 0)
"""


def test_the_marks_receivers_are_connected_in_a_process_that_never_served_the_api():
    # as in `manage.py shell`, a management command or the Celery worker: Django set
    # up, the API's views never imported
    done = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert "not imported" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
