"""The replay viewer's lists (replays/: finished games and one game's stream)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games import friends
from games.models import Game, Seat

JSON = dict[str, Any]


#: The games the viewer shows: over, so nothing in them is hidden any more.
VIEWABLE = (Game.Status.FINISHED, Game.Status.ABORTED)


def replay_list(*, ruleset: str = "", player: str = "", user: Any = None) -> QuerySet[Game]:
    """Finished and aborted games, newest first, filtered by ruleset and player username.

    Without the private games ``user`` (None: a signed-out visitor) has no seat in,
    like every list of games (``friends.visible``).
    """
    if "\x00" in ruleset + player:  # no ruleset or name holds NUL (PostgreSQL's text refuses it)
        return Game.objects.none()
    games = friends.visible(Game.objects.filter(status__in=VIEWABLE), user)
    games = games.prefetch_related("seat_set__user")
    if ruleset:
        games = games.filter(ruleset=ruleset)
    if player:
        games = games.filter(seat_set__user__username__iexact=player).distinct()
    return games.order_by("-finished_at", "-created_at")


def replay_players(user: Any = None) -> list[str]:
    """Usernames that appear in a viewable game ``user`` may list (the viewer's player filter)."""
    games = friends.visible(Game.objects.filter(status__in=VIEWABLE), user)
    seats = Seat.objects.filter(game__in=games, user__isnull=False)
    return sorted(set(seats.values_list("user__username", flat=True)), key=str.lower)


def replay_game(game_id: Any, user: Any = None, invite: Any = None) -> Game | None:
    """The game if it is finished or aborted; None for any other id (the viewer's 404).

    With a ``user`` (a page's visitor, signed in or not), also None for a private
    game they may not see (``friends.may_see``: not a player, no ``invite`` of it).
    """
    viewable = Game.objects.filter(id=game_id, status__in=VIEWABLE)
    game = friends.with_seated(viewable, user).first()  # (one query: ``with_seated``)
    if game is None or (user is not None and not friends.may_see(game, user, invite)):
        return None
    return game
