"""One game's stream as a writer holds it: the row, its folded state, its chance.

``lock`` reads the row once under ``SELECT ... FOR UPDATE`` with its state; the
caller checks 404 / 403 on them, so an action reads the game once. ``latest``
is this process's last word on a game without reading the database, for an
optimistic write whose append's version check says whether it still was the
latest (``Stale`` otherwise). ``Stream.context`` hands the rules their source of
chance -- the committed generator of a fair game, or the stacked decks -- and
remembers the draws it made, which ``append`` stores with the events.
"""

from __future__ import annotations

import copy as _copy
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games import errors, fairness, rules
from games.chance import DeckChance
from games.models import FairDraw, Game

from . import cache, load, sql


def game_key(game_id: Any) -> uuid.UUID:
    """The UUID of a game id as sent (``NotFound`` for a malformed one)."""
    if isinstance(game_id, uuid.UUID):
        return game_id
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        raise errors.not_found() from None


class Stale(Exception):
    """An append to an unlocked stream found the game moved on: nothing was stored."""


@dataclass
class Stream:
    """A game row and its folded state (private: the caller may change it).

    ``locked``: read under ``SELECT ... FOR UPDATE``. An unlocked stream
    (``latest``) is this process's last word on the game; appending to it
    raises ``Stale`` when another writer moved the game meanwhile.
    """

    game: Game
    state: rules.State
    locked: bool = True
    #: The version the events of this transaction are appended after.
    version: int = field(init=False)
    _fair: fairness.FairChance | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.version = self.state.version

    def seat(self, user: Any) -> int:
        """``user``'s seat; ``Forbidden`` (403) for anyone else -- but a private game is
        unknown (404, the unknown id's answer) to anyone who has no seat in it."""
        username = getattr(user, "username", None)
        if username is None or username not in self.state.players:
            if self.game.private:
                raise errors.not_found()
            raise errors.not_a_player()
        return self.state.players.index(username)

    def context(self) -> rules.Context:
        """What the rules may use beside the state: the game's chance and the time."""
        game = self.game
        if game.server_seed is None:
            return rules.Context(chance=DeckChance(decks=game.stacked_decks), now=timezone.now())

        def history() -> fairness.History:
            draws = FairDraw.objects.filter(game=game)
            last_deal = draws.filter(kind=fairness.KIND_DEAL).order_by("-k").first()
            return fairness.History(
                next_k=draws.count(),
                round=last_deal.round if last_deal else None,
                deck=list(last_deal.output) if last_deal else None,
            )

        self._fair = fairness.FairChance(
            server_seed=bytes(game.server_seed),
            seeds=fairness.seeds_by_seat(game.player_seeds or {}, game.seats),
            history=history,
        )
        return rules.Context(chance=self._fair, now=timezone.now())

    def draws(self) -> list[FairDraw]:
        """The fair draws made since ``context`` (once: they are handed to the append)."""
        chance, self._fair = self._fair, None
        return [] if chance is None else [FairDraw(game=self.game, **d) for d in chance.finish()]


def latest(game_id: Any) -> Stream | None:
    """The game as this process last wrote it, without reading the database (None when
    this process has not written it)."""
    known = cache.last_written(game_key(game_id))
    if known is None:
        return None
    row, state = known
    return Stream(_copy.copy(row), state.copy(), locked=False)


def lock(game_id: Any) -> Stream:
    """The game row locked until the end of the transaction, and its state (404 if none)."""
    game = sql.lock_row(game_key(game_id))
    if game is None:
        raise errors.not_found()
    return Stream(game, load.state(game))
