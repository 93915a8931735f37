"""A bot that plays every game on its account's turn list with a legal move.

    python bot.py --url http://127.0.0.1:8000 --token TOKEN [--games N] [--parallel K]

It takes one of ``state.legal_actions`` at random (a template's free parameters
filled with allowed values), in the soonest deadline's game first, and waits on the
account's feed when no game waits for it; K games (default 8) are played at once, so
a move in one does not wait for the others. It stops when N of its games have
finished (without --games: never). Any ruleset: it only reads legal_actions.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from pablo_client.models import AccountEvent
from pablo_client.play import Player, fill

# Games end sooner when the bot calls when it may; it throws (a bet on a match,
# punished when wrong) only now and then, and ends a turn only when nothing else fits.
WEIGHTS = {"call": 5.0, "play": 5.0, "throw": 0.05, "end": 0.5}


def choose(game: Any, rng: random.Random) -> dict[str, Any] | None:
    legal = game.state["legal_actions"] if game.state is not None else []
    if not legal:
        return None
    weights = [WEIGHTS.get(action["type"], 1.0) for action in legal]
    return fill(rng.choices(legal, weights)[0], rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the service, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="the account's API token")
    parser.add_argument("--games", type=int, default=0, help="stop after N finished games")
    parser.add_argument("--seed", type=int, default=None, help="repeatable choices")
    parser.add_argument("--parallel", type=int, default=8, help="games played at once")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    player = Player(args.url, args.token)
    finished: set[str] = set()

    def seen(event: AccountEvent) -> None:
        if event.type_ == "game_finished":
            finished.add(str(event.game))
            print(f"finished {event.game}: {event.data['result']}", flush=True)

    def done() -> bool:
        return bool(args.games) and len(finished) >= args.games

    player.play(lambda game: choose(game, rng), on_event=seen, until=done, parallel=args.parallel)
    print(f"{len(finished)} games finished; retried: {player.retried}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
