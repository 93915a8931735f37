"""Cards and codes, decks, and stacking a deck for tests.

Cards are written as codes (``"7H"``, ``"JK"``, ``"12"``, ``"SB"``). Inside a
round every physical card is identified by its *card id*: its index in the
round's dealt deck (the list recorded in the round's first event). Two equal
codes are two different ids, so knowledge can follow a card object.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
SKIPBO_WILD = "SB"

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def french_deck(*, jokers: int = 0, decks: int = 1) -> list[str]:
    """52 cards per deck (rank-major: AS AH AD AC 2S ...) plus ``jokers`` jokers."""
    one = [rank + suit for rank in RANKS for suit in SUITS]
    return one * decks + [JOKER] * jokers


def cabo_deck() -> list[str]:
    """Cabo: two each of 0 and 13, four each of 1-12 (52 cards)."""
    return ["0", "0"] + [str(v) for v in range(1, 13) for _ in range(4)] + ["13", "13"]


def skipbo_deck() -> list[str]:
    """Skip-Bo: twelve each of 1-12 and eighteen wild ``SB`` (162 cards)."""
    return [str(v) for v in range(1, 13) for _ in range(12)] + [SKIPBO_WILD] * 18


def french_rank(code: str) -> str:
    """The rank that decides matching: ``"KH"`` -> ``"K"``, ``"10S"`` -> ``"10"``."""
    return JOKER if code == JOKER else code[:-1]


def missing_from(prefix: Sequence[str], deck: Sequence[str]) -> list[str]:
    """The codes of ``prefix`` that ``deck`` cannot supply (empty when prefix fits)."""
    have = Counter(deck)
    bad = []
    for code in prefix:
        if have[code] > 0:
            have[code] -= 1
        else:
            bad.append(code)
    return bad


def stack(
    prefix: Sequence[str], deck: Sequence[str], shuffle: Callable[[list[str]], list[str]]
) -> list[str]:
    """A full deck whose first cards are ``prefix``; the rest ``shuffle``d.

    ``shuffle`` is handed in: the rules never own a random generator.
    """
    rest = Counter(deck)
    rest.subtract(prefix)
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"not part of the deck: {missing_from(prefix, deck)}")
    remaining = []
    for code in deck:
        if rest[code] > 0:
            remaining.append(code)
            rest[code] -= 1
    return list(prefix) + shuffle(remaining)
