"""Cancelling and rematches (API.md "Games among friends"; the reads: games/friends.py)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from games import friends, rules, store
from games.bots import bot_level
from games.errors import Conflict, Forbidden
from games.models import Event, Game
from games.services import games as game_services

JSON = dict[str, Any]

log = logging.getLogger(__name__)


# Cancelling and rematches (API.md "Games among friends"; the reads: games/friends.py).


@transaction.atomic
def game_cancel(*, game_id: Any, user: Any) -> Game:
    """The creator cancels their game while it waits for players: it is aborted.

    403 for anyone else, 409 once it has started (or ended). The fact is an
    ordinary ``game_aborted`` event (reason ``cancelled``).
    """
    friends.check_invite(game_id, None, user)  # a private game: 404 for a stranger
    stream = store.lock(game_id)  # 404
    game = stream.game
    if game.created_by_id != getattr(user, "pk", None):
        raise Forbidden("Only the player who created this game can cancel it.", "not_creator")
    if stream.state.status != "waiting":
        raise Conflict(
            "This game has started: only a game waiting for players can be cancelled.",
            "game_not_waiting",
        )
    store.append(stream, [rules.Event("game_aborted", {"reason": friends.CANCELLED})])
    return game


@transaction.atomic
def game_rematch(
    *, game_id: Any, user: Any, seed: str = "", created_from: str = ""
) -> tuple[Game, bool]:
    """A player of a finished game starts (or finds) its rematch: (the new game, created).

    The new game has the old one's ruleset, seats, options and turn time; it is
    private, the caller takes seat 0 and the old game's bots take their seats
    again at once. One rematch per game: a second call finds the first one.
    403 for a non-player, 409 unless the game is finished.
    """
    friends.check_invite(game_id, None, user)  # a private game: 404 for a stranger
    stream = store.lock(game_id)  # 404; serialises concurrent calls
    old, state = stream.game, stream.state
    stream.seat(user)  # 403
    existing = Game.objects.filter(rematch_of=old.pk).first()
    if existing is not None:
        return existing, False
    if state.status != "finished":
        raise Conflict(
            "This game is not finished: a rematch starts from a finished game.",
            "game_not_finished",
        )
    bots = [
        {"seat": seat, "level": level}
        for seat, name in enumerate(state.players)
        if (level := bot_level(name)) is not None
    ]
    new = game_services.game_create(
        user=user,
        ruleset=state.ruleset,
        seats=state.seats,
        turn_timeout=state.turn_timeout,
        options=dict(state.options),
        bots=bots or None,
        seed=seed,
        private=True,
        rated=Event.objects.get(game=old, seq=1).data.get("rated", False),
        created_from=created_from,
    )
    Game.objects.filter(pk=new.pk).update(rematch_of=old.pk)
    new.rematch_of_id = old.pk
    return new, True
