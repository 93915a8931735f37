"""``manage.py simulate``: bots play many games in the pure engine (no database).

    manage.py simulate --ruleset cabo --players 4 --games 1000 \\
        --bots basic,random,random,random --seed 7

prints per-seat win rates with 95 % Wilson intervals (a tie counts as a win
for each tied seat), rounds per game, average game totals and events per
game, with a progress bar on stderr. ``--store N`` then plays N more games of
the same set-up through the services -- every move an ordinary event, as the
bots play them on the server -- and leaves them as finished games (load and
demo data; needs the database).
"""

from __future__ import annotations

import math
import random
import time

from django.core.management.base import BaseCommand, CommandError

from games import rules
from games.bots import levels as bot_levels
from games.bots.driver import Unfinished
from games.bots.play import play_game
from games.chance import DeckChance
from games.turns.bots import play_stored_game


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


class Command(BaseCommand):
    help = "Bots play games in the pure engine; win rates with 95 % intervals."

    def add_arguments(self, parser):
        parser.add_argument(
            "--ruleset", default=None, help="A ruleset's id (default: the first one registered)."
        )
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument(
            "--bots", default=None, help="One level per seat, comma-separated (default: basic)."
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument(
            "--options", default="", help="Ruleset options as name=value,... (integers as such)."
        )
        parser.add_argument(
            "--store", type=int, default=0, help="Also play N games through the services."
        )
        parser.add_argument("--max-actions", type=int, default=100_000)

    def handle(self, *args, **o):
        ruleset = o["ruleset"] or rules.rulesets()[0].id
        try:
            rules.get_ruleset(ruleset)
        except rules.RulesError as exc:
            raise CommandError(exc.detail) from None
        players = o["players"]
        levels = (o["bots"] or ",".join(["basic"] * players)).split(",")
        if len(levels) != players:
            raise CommandError(f"--bots: name {players} levels, one per seat.")
        known = bot_levels(ruleset)
        bad = [lv for lv in levels if lv not in known]
        if bad:
            raise CommandError(
                f"--bots: unknown level {bad[0]!r}; levels for {ruleset}: {', '.join(known)}."
            )
        options = _options(o["options"])
        seed = o["seed"] if o["seed"] is not None else random.SystemRandom().randrange(2**31)
        games = o["games"]
        wins = [0.0] * players
        totals = [0] * players
        rounds = events = unfinished = 0
        started = time.process_time()
        for i in range(games):
            try:
                out = play_game(
                    ruleset,
                    levels,
                    chance=DeckChance(random.Random(f"{seed}:deck:{i}")),
                    rng=random.Random(f"{seed}:bots:{i}"),
                    options=options,
                    max_actions=o["max_actions"],
                )
            except Unfinished:
                unfinished += 1
                continue
            except rules.RulesError as exc:
                raise CommandError(exc.detail) from None
            for w in out.winners:
                wins[w] += 1  # ties: a win for each tied seat
            for s in range(players):
                totals[s] += out.scores[s]
            rounds += out.rounds
            events += out.events
            _progress(self.stderr, i + 1, games)
        self.stderr.write("")
        cpu = time.process_time() - started
        done = games - unfinished
        self.stdout.write(
            f"{ruleset}, {players} players, {done} games (seed {seed}), bots {','.join(levels)}"
        )
        for s in range(players):
            low, high = wilson(wins[s], done)
            rate = wins[s] / done if done else 0.0
            average = totals[s] / done if done else 0.0
            self.stdout.write(
                f"  seat {s} {levels[s]:>6}: win rate {rate:.3f}  (95 % {low:.3f}-{high:.3f})"
                f"  average total {average:.1f}"
            )
        if done:
            self.stdout.write(
                f"  rounds per game {rounds / done:.2f}, events per game {events / done:.1f}, "
                f"{done / cpu if cpu else 0:.0f} games per CPU second"
            )
        if unfinished:
            self.stdout.write(f"  {unfinished} games did not end within --max-actions")
        if o["store"]:
            self._store(ruleset, levels, options, o["store"], seed)

    def _store(self, ruleset, levels, options, count, seed):
        for i in range(count):
            game = play_stored_game(
                ruleset, levels, options, rng=random.Random(f"{seed}:store:{i}")
            )
            self.stdout.write(f"stored {game.ruleset} {game.id}: {game.status}, v{game.version}")


def _options(text: str) -> dict:
    options: dict = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, _, value = item.partition("=")
        if value.lower() in ("true", "false"):
            options[name] = value.lower() == "true"
        elif value.lstrip("-").isdigit():
            options[name] = int(value)
        else:
            options[name] = value
    return options


def _progress(stream, done: int, total: int, width: int = 40) -> None:
    if total <= 0:
        return
    step = max(1, total // 100)
    if done % step and done != total:
        return
    filled = width * done // total
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", ending="")
    stream.flush()
