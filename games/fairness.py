"""Fair deals: commit to every outcome of chance, reveal it when the game ends.

Pure code (``hashlib`` and ``hmac`` only; no Django, no clock, no ``random``).
docs/fairness.md explains the scheme to players; this module is its reference
implementation, and ``fairness_check.py`` (the standalone checker at the top of
the repository) repeats the few lines a player needs, independently.

The scheme, byte for byte
-------------------------

* At creation the server draws a secret 32-byte ``server_seed``; the game
  shows ``commitment = sha256(server_seed)`` (hex) from the first answer on.
* Every seat may add a public ``seed`` (a string of at most 64 characters,
  ``""`` by default) when it takes its seat.
* Draw number ``k`` (0, 1, 2, ... over the whole game) reads the byte stream
  ``HMAC-SHA256(key=server_seed, msg=M + ":" + counter)`` for counter = 0, 1,
  2, ... (ASCII decimal), concatenated, where
  ``M = "pablo-fair/v1\\n" + "\\n".join(seeds by seat) + "\\n" + str(k)`` (UTF-8).
* A uniform integer below ``n`` takes the next 4 bytes of that stream as a
  big-endian unsigned ``x``, rejects ``x >= n * (2**32 // n)`` and reads again,
  else gives ``x % n``.
* A shuffle is Fisher-Yates over its input: for ``i`` = len-1 down to 1,
  ``j`` = uniform below ``i + 1`` (all from draw k's one stream), swap items
  ``i`` and ``j``.

What each kind of draw is
-------------------------

========== ================================ =======================================
kind       input                            output
========== ================================ =======================================
deal       the ruleset's deck for the       the shuffled deck, exactly as the
           game's options, card codes       ``round_started`` event records it
           sorted by their UTF-8 bytes      (card id = index; first card dealt first)
reshuffle  the gathered cards' codes,       the new draw pile's codes, top first
           sorted the same way              (the ``order`` of the reshuffle event)
start_seat ``null``: one uniform integer    the seat
           below ``seats`` (round 1's
           random start); or the candidate
           seats, ascending (a later
           round's random tie-break): the
           seat at a uniform index below
           their number
========== ================================ =======================================

A choice among one candidate is no draw at all (nothing is random about it).
A draw's ``round`` is the round it belongs to: the round dealt, the round in
which the pile was reshuffled, the round whose start seat was picked.

A reshuffle in the rules shuffles card *ids* (positions in the round's dealt
deck), so equal codes are different ids. The ids are put in the order of their
codes (UTF-8 bytes; equal codes by id), and the one permutation Fisher-Yates
makes of that list is applied to them: the output's codes are then exactly the
shuffle of the sorted codes, which is all a checker needs to see.

Where k comes from
------------------

Every draw is stored as a row (``k``, ``kind``, ``round``, ``input``,
``output``) in the same transaction as the events it produced, under the
game's row lock. A request's ``FairChance`` asks its ``history`` callback --
lazily, only when it is about to draw -- for the next ``k`` (the number of
draws stored) and for the latest deal (the round and deck that card ids of a
reshuffle refer to). Requests that draw nothing cost nothing. The events and
the folded state are untouched by all of this.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

T = TypeVar("T")

VERSION = "pablo-fair/v1"
SEED_BYTES = 32
MAX_PLAYER_SEED = 64

KIND_DEAL = "deal"
KIND_RESHUFFLE = "reshuffle"
KIND_START_SEAT = "start_seat"


# --------------------------------------------------------------------------- the generator


def commitment(server_seed: bytes) -> str:
    """``sha256(server_seed)`` as lower-case hex: what the game shows from the start."""
    return hashlib.sha256(server_seed).hexdigest()


def message(seeds: Sequence[str], k: int) -> bytes:
    """``M`` for draw ``k``: the version line, every seat's seed by seat, then ``k``."""
    return (VERSION + "\n" + "\n".join(seeds) + "\n" + str(k)).encode("utf-8")


def stream(server_seed: bytes, seeds: Sequence[str], k: int) -> Iterator[int]:
    """Draw ``k``'s bytes: HMAC-SHA256 blocks over ``M:0``, ``M:1``, ... concatenated."""
    base = message(seeds, k) + b":"
    counter = 0
    while True:
        yield from hmac.new(server_seed, base + str(counter).encode("ascii"), "sha256").digest()
        counter += 1


class Draw:
    """One draw's stream of uniform integers."""

    def __init__(self, server_seed: bytes, seeds: Sequence[str], k: int) -> None:
        self._bytes = stream(server_seed, seeds, k)

    def uint32(self) -> int:
        return int.from_bytes(bytes(next(self._bytes) for _ in range(4)), "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (rejection sampling on 32-bit words)."""
        if not 0 < n <= 2**32:
            raise ValueError(f"cannot draw below {n}")
        limit = n * (2**32 // n)
        while True:
            x = self.uint32()
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates: for i = len-1 down to 1, swap i with a uniform j <= i."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def uniform(server_seed: bytes, seeds: Sequence[str], k: int, n: int) -> int:
    """Draw ``k`` as one uniform integer below ``n``."""
    return Draw(server_seed, seeds, k).below(n)


def shuffled(server_seed: bytes, seeds: Sequence[str], k: int, items: Sequence[T]) -> list[T]:
    """Draw ``k`` as a Fisher-Yates shuffle of ``items`` (in the order given)."""
    return Draw(server_seed, seeds, k).shuffle(items)


def sort_codes(codes: Sequence[str]) -> list[str]:
    """Card codes in the order of their UTF-8 bytes (the input order of deals and reshuffles)."""
    return sorted(codes, key=lambda code: code.encode("utf-8"))


def seeds_by_seat(player_seeds: Mapping[str, str], seats: int) -> list[str]:
    """Every seat's seed, seat 0 first (keys are seats as strings); none given: ``""``."""
    return [player_seeds.get(str(s), "") for s in range(seats)]


# --------------------------------------------------------------------------- the chance source


@dataclass
class History:
    """What a request needs to know of the draws stored before it."""

    next_k: int = 0
    round: int | None = None  # the round of the latest deal
    deck: list[str] | None = None  # that deal's output: card id -> code


@dataclass
class FairChance:
    """``games.rules.Chance`` drawing from the committed generator.

    ``history`` is called once, at the first draw of this request. ``draws``
    collects the records of this request's draws (``{"k", "kind", "round",
    "input", "output"}``) for the caller to store with the events.
    """

    server_seed: bytes
    seeds: list[str]
    history: Callable[[], History]
    draws: list[dict[str, Any]] = field(default_factory=list)
    _known: History | None = None

    def _next(self) -> tuple[int, History]:
        if self._known is None:
            self._known = self.history()
        k = self._known.next_k
        self._known.next_k += 1
        return k, self._known

    def _record(self, k: int, kind: str, round_no: int | None, inp: Any, out: Any) -> None:
        self.draws.append({"k": k, "kind": kind, "round": round_no, "input": inp, "output": out})

    def deck(self, round_no: int, cards: Sequence[str]) -> list[str]:
        k, known = self._next()
        ordered = sort_codes(cards)
        out = shuffled(self.server_seed, self.seeds, k, ordered)
        self._record(k, KIND_DEAL, round_no, ordered, list(out))
        # A start seat drawn just before this deal (a tie-break) belongs to it.
        for draw in self.draws:
            if draw["kind"] == KIND_START_SEAT and draw["round"] is None:
                draw["round"] = round_no
        known.round, known.deck = round_no, list(out)
        return out

    def shuffle(self, items: Sequence[T]) -> list[T]:
        k, known = self._next()
        if all(isinstance(item, str) for item in items):
            ordered = sort_codes([str(i) for i in items])
            out = shuffled(self.server_seed, self.seeds, k, ordered)
            self._record(k, KIND_RESHUFFLE, known.round, ordered, list(out))
            return cast(list[T], out)
        if known.deck is None:
            raise RuntimeError("a reshuffle of card ids before any deal")
        deck = known.deck
        ids = sorted((cast(int, c) for c in items), key=lambda c: (deck[c].encode("utf-8"), c))
        out_ids = shuffled(self.server_seed, self.seeds, k, ids)
        self._record(
            k, KIND_RESHUFFLE, known.round, [deck[c] for c in ids], [deck[c] for c in out_ids]
        )
        return cast(list[T], out_ids)

    def choice(self, items: Sequence[T]) -> T:
        options = list(items)
        if len(options) == 1:
            return options[0]
        k, _known = self._next()
        index = uniform(self.server_seed, self.seeds, k, len(options))
        every_seat = options == list(range(len(self.seeds)))
        # round None: filled in by the deal that follows (family tie-break, round 1 of the
        # family); a Skip-Bo start seat comes after round 1's deal: that round.
        self._record(
            k, KIND_START_SEAT, None, None if every_seat else list(options), options[index]
        )
        return options[index]

    def finish(self) -> list[dict[str, Any]]:
        """This request's draw records, rounds filled in (a choice after its deal: that round)."""
        for draw in self.draws:
            if draw["kind"] == KIND_START_SEAT and draw["round"] is None:
                draw["round"] = (self._known.round if self._known else None) or 1
        return self.draws
