"""Before the crowd: PLAYERS accounts with tokens, two per table, and one game per table.

Usage: ``DATABASE_URL=... python bench/locust_setup.py PLAYERS OUT.json``. Made
through the services directly (not timed: registration hashes a password,
which is the slow part by design). Writes ``[{"tokens": [a, b], "game": id,
"games": 1}, ...]`` for bench/locustfile.py.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)  # a throwaway key

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games.services import games as game_services  # noqa: E402

RULESETS = ["pablo", "pablo-50", "tamalou", "cabo", "skipbo"]


def main(players: int, out: str) -> None:
    tables = []
    for number in range(players // 2):
        users = []
        for seat in range(2):
            user = get_user_model().objects.create(username=f"crowd-{number}-{seat}")
            users.append((user, Token.objects.create(user=user).key))
        game = game_services.game_create(
            user=users[0][0], ruleset=RULESETS[number % len(RULESETS)], seats=2
        )
        game_services.game_join(game_id=game.id, user=users[1][0])
        tables.append({"tokens": [users[0][1], users[1][1]], "game": str(game.id), "games": 1})
    Path(out).write_text(json.dumps(tables))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
