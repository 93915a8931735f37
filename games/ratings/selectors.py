"""Every read of the ratings: the leaderboard, a player's ratings and history, a
game's changes. House bots and bot accounts never appear on the people's board."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import timezone

from games import rules
from games.bots import bot_level
from games.errors import NotFound
from games.models import AccountName, Event
from games.usernames import clean_username, name_digest

from . import model
from .models import Rating, RatingChange

#: The leaderboard lists people with a rated game within this many days.
ACTIVE_DAYS = 30


def known_ruleset(ruleset: str) -> bool:
    return ruleset in {r.id for r in rules.rulesets()}


def is_bot_account(user: Any) -> bool:
    """Whether ``user`` is a program's account (``POST /api/me/bot/``, a ``BotAccount``
    row) or a house bot's. The one place that decides who is kept off the people's
    leaderboard."""
    return hasattr(user, "bot_account") or bot_level(user.username) is not None


def player(username: str) -> Any:
    """The account named ``username``, spelt as it is or any way that names the same
    account (``ANN``, `` ann``, in fullwidth letters: the names' own uniqueness rule,
    ``games.usernames``); 404 ``not_found`` when there is none."""
    # (no name holds a NUL, and PostgreSQL refuses one in a query: nobody, not a 500)
    if "\x00" in username:
        raise NotFound("No player %(name)s.", name=repr(username))
    users = get_user_model().objects
    found = users.filter(username=username).first()
    if found is None:
        same = AccountName.objects.filter(digest=name_digest(clean_username(username)))
        found = users.filter(name_key__in=same).first()
    if found is None:
        raise NotFound("No player %(name)s.", name=repr(username))
    return found


def leaderboard(ruleset: str) -> QuerySet[Rating]:
    """The people on ``ruleset``'s board, highest rating first: at least
    ``PABLO_LEADERBOARD_MIN_GAMES`` rated games, one within ``ACTIVE_DAYS`` days."""
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    board = Rating.objects.filter(
        ruleset=ruleset,
        games__gte=settings.PABLO_LEADERBOARD_MIN_GAMES,
        last_played_at__gte=since,
    ).select_related("user")
    board = board.exclude(user__bot_account__isnull=False)
    return board.order_by("-rating", "user__username")


def board_rows(ratings: list[Rating], first_rank: int) -> list[dict[str, Any]]:
    return [
        {
            "rank": first_rank + i,
            "username": r.user.username,
            "rating": r.rating,
            "games": r.games,
            "provisional": model.provisional(r.sigma),
        }
        for i, r in enumerate(ratings)
    ]


def player_ratings(user: Any) -> dict[str, dict[str, Any]]:
    """``{ruleset: {rating, mu, sigma, games, provisional}}`` of the rulesets ``user``
    has a rated game in."""
    return {
        r.ruleset: {
            "rating": r.rating,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": r.games,
            "provisional": model.provisional(r.sigma),
        }
        for r in Rating.objects.filter(user=user).order_by("ruleset")
    }


def history(user: Any) -> dict[str, list[dict[str, Any]]]:
    """``{ruleset: [{at, rating, place, points, game}]}``: the rating after each rated
    game, oldest first (the player page's chart and its places and points)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for c in RatingChange.objects.filter(user=user).order_by("position"):
        out.setdefault(c.ruleset, []).append(
            {"at": c.at, "rating": c.after, "place": c.place, "points": c.points, "game": c.game_id}
        )
    return out


def changes(game_ids: list[Any]) -> dict[tuple[str, int], int]:
    """``{(game id, seat): rating change}`` of these games' rated seats."""
    rows = RatingChange.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "seat", "before", "after"
    )
    return {(str(g), seat): after - before for g, seat, before, after in rows}


def current(usernames: list[str], ruleset: str) -> dict[str, int]:
    """``{username: rating}`` in ``ruleset`` of those who have one (the lobby)."""
    rows = Rating.objects.filter(user__username__in=usernames, ruleset=ruleset)
    return dict(rows.values_list("user__username", "rating"))


def endings(game_ids: list[Any]) -> dict[str, dict[str, Any]]:
    """``{game id: its game_finished data}`` (winners, losers and, since they were
    recorded, every seat's places and points): what a result shows of a game's end."""
    rows = Event.objects.filter(game_id__in=game_ids, type="game_finished")
    return {str(g): data for g, data in rows.values_list("game_id", "data")}


def standing(result: dict[str, Any] | None, seat: int, seats: int) -> dict[str, Any]:
    """A seat's ``{"place", "tied", "points"}`` in a finished game's ``result``: its place
    (1 for the best; ties share a place and the next skips: 1, 2, 2, 4) from the
    recorded ``places``, else, for a game recorded before places, from its winners and
    losers (winners first, losers last, the others between) -- every game has one,
    whether the rules name a loser or not; ``points`` its final count as the ruleset
    counts it (``None`` where none was recorded). ``place`` is None without a result."""
    if not result or not 0 <= seat < seats:
        return {"place": None, "tied": False, "points": None}
    places = result.get("places") or model.places_from_result(result, seats)
    points = result.get("points") or []
    place = places[seat] if seat < len(places) else None
    return {
        "place": place,
        "tied": place is not None and list(places).count(place) > 1,
        "points": points[seat] if seat < len(points) else None,
    }
