"""The source of chance handed to the rules (``games.rules.Chance``).

It lives outside ``games/rules`` because it owns a random generator. The
service uses the operating system's generator; tests pass a seeded one.
Stacked decks (API.md ``decks``) are honoured here: round n's list is the top
of that round's deck and the rest is shuffled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from games.rules.cards import stack

T = TypeVar("T")


class DeckChance:
    def __init__(
        self, rng: random.Random | None = None, decks: Sequence[Sequence[str]] | None = None
    ):
        self.rng = rng or random.SystemRandom()
        self.decks = [list(d) for d in (decks or [])]

    def _shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def deck(self, round_no: int, cards: Sequence[str]) -> list[str]:
        prefix = self.decks[round_no - 1] if 0 < round_no <= len(self.decks) else []
        return stack(prefix, cards, self._shuffled)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        return self._shuffled(items)

    def choice(self, items: Sequence[T]) -> T:
        return self.rng.choice(list(items))
