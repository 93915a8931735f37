"""Every outcome of chance from one seeded generator, for games played in the bots'
pure simulation (``games.bots.play.play_game``). No database."""

from __future__ import annotations

import random


class SeededChance:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def deck(self, round_no, cards):
        return self.shuffle(cards)

    def shuffle(self, items):
        out = list(items)
        self.rng.shuffle(out)
        return out

    def choice(self, items):
        return self.rng.choice(list(items))
