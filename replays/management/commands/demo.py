"""``manage.py demo``: one finished game of each ruleset, for the replay viewer.

The games are played through the services (``game_create`` / ``game_join`` /
``game_act``) exactly as players would through the API; the one driver
(``games.bots.driver``) picks the bots' moves: seat 0 plays like the
``basic`` bot, the others like the ``random`` one, so games are lively and end
soon. ``--if-empty`` does nothing when a finished game is already there:
``scripts/run.sh`` calls it that way so that a new user sees the viewer at once.
"""

from __future__ import annotations

import random
import time

from django.core.management.base import BaseCommand

from games.bots.driver import bots_move, drive
from games.bots.play import chooser
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import games as game_services

PLAYERS = ["ann", "ben", "cara", "dan"]
GAMES = [
    ("pablo", 4, {}),
    ("pablo-50", 3, {}),
    ("tamalou", 3, {}),
    ("cabo", 3, {}),
    ("skipbo", 3, {"stock_size": 10}),
]


class Command(BaseCommand):
    help = "Create one finished game of each ruleset, played by bots (for the replay viewer)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Only when no finished game exists yet."
        )
        parser.add_argument("--seed", type=int, default=None, help="Seed for the random moves.")
        parser.add_argument("--ruleset", action="append", help="Only these rulesets.")

    def handle(self, *args, if_empty=False, seed=None, ruleset=None, **options):
        if if_empty and game_selectors.game_list(user=None, status="finished").exists():
            self.stdout.write("Finished games exist already: no demo games created.")
            return
        rng = random.Random(seed)
        users = [self._user(name) for name in PLAYERS]
        for ruleset_id, seats, opts in GAMES:
            if ruleset and ruleset_id not in ruleset:
                continue
            started = time.monotonic()
            game = demo_game(ruleset_id, seats, opts, users[:seats], rng)
            self.stdout.write(
                f"{ruleset_id}: {game.status} after {game.version} events "
                f"({time.monotonic() - started:.1f}s) -> /replays/{game.id}/"
            )

    def _user(self, username):
        return account_services.user_without_login(username=username)


def demo_game(ruleset, seats, options, users, rng, *, max_actions=20_000):
    """A game of ``ruleset`` played to its end through the services."""
    game = game_services.game_create(
        user=users[0], ruleset=ruleset, seats=seats, options={"start_seat": 0, **options}
    )
    for user in users[1:]:
        game_services.game_join(game_id=game.id, user=user)

    def state():
        return game_selectors.game_state(game=game_selectors.game_get(game.id))

    current = {"state": state()}

    def act(seat, command):
        try:
            game_services.game_act(game_id=game.id, user=users[seat], command=command)
        finally:
            current["state"] = state()

    levels = ["basic"] + ["random"] * (seats - 1)
    choosers = [chooser(level, ruleset) for level in levels]
    drive(
        finished=lambda: current["state"].status != "active",
        next_move=lambda: bots_move(current["state"], choosers, rng),
        act=act,
        max_actions=max_actions,
    )
    game.refresh_from_db()
    return game
