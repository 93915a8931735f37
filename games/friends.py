"""Games among friends: private games and their invites, cancelling, rematches, history.

API.md "Games among friends"; the decisions are in docs/api.md ("Games among
friends"). What is stored where:

* ``Game.private`` and ``Game.invite`` (a secret token) are metadata of the game,
  written at creation, never part of an event: the public feed holds no secret.
  A private game is listed to its players only (``visible``) and seen (its
  state, feed, replay, analysis, table and viewer) only by them and by whoever
  presents its invite (``may_see``: else the unknown game's 404); its players see
  the invite (``game_fields``); joining it needs the invite (``check_invite``),
  else the answer is the very one an unknown id gets.
* Cancelling is an ordinary fact of the game's stream: ``game_aborted`` with
  ``{"reason": "cancelled"}``, appended under the row lock like every write.
* A rematch is a new game whose ``rematch_of`` names the finished one (a
  one-to-one link: two calls at once cannot make two rematches); the old game
  shows it to its players (``game_fields``).
* History is a read over finished games: the caller's result, rank and score
  per game, and a summary per ruleset (``history``).

This module only reads (``games.selectors`` builds on it); the two writes,
``game_cancel`` and ``game_rematch``, are services (``games.services``).
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from games import errors, rules, store
from games.bots import bot_level
from games.models import Game, Seat

JSON = dict[str, Any]

#: The ``reason`` of the ``game_aborted`` event of a cancelled game.
CANCELLED = "cancelled"


def new_invite() -> str:
    """A private game's invite: 128 random bits, URL-safe (it travels in a link)."""
    return secrets.token_urlsafe(16)


# --------------------------------------------------------------------------- reads


def visible(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
    """``games`` without the private games ``user`` has no seat in (every game list)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return games.filter(private=False)
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return games.filter(Q(private=False) | Exists(seated))


def with_seated(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
    """``games`` each with ``viewer_seated`` (whether ``user`` has a seat), read in the
    same query: ``may_see`` then needs no query of its own, so a private game the user
    may not see costs what an unknown id costs (one query) -- its extra seat query made
    it answer measurably later than an unknown id, telling the id exists."""
    if not getattr(user, "is_authenticated", False):
        return games
    return games.annotate(
        viewer_seated=Exists(Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk))
    )


def may_see(game: Game, user: Any, invite: Any = None) -> bool:
    """Whether ``user`` may see ``game`` at all (API.md "Games among friends"): a public
    game, or a private one to its players and to whoever presents its invite."""
    if not game.private:
        return True
    given = invite if isinstance(invite, str) else ""
    if game.invite and hmac.compare_digest(given.encode(), game.invite.encode()):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    seated = getattr(game, "viewer_seated", None)  # (``with_seated``)
    if seated is not None:
        return bool(seated)
    return Seat.objects.filter(game=game, user_id=user.pk).exists()


def readers(game: Game) -> frozenset[str] | None:
    """Who may read ``game`` without its invite: None for a public game (anyone), else
    its players' user ids (as strings). The feed's fast path answers only them."""
    return readers_of(game.pk, game.private)


def readers_of(game_id: Any, private: bool) -> frozenset[str] | None:
    """``readers`` of a game known by its id and whether it is private."""
    return readers_of_many({game_id: private})[game_id]


def readers_of_many(games: dict[Any, bool]) -> dict[Any, frozenset[str] | None]:
    """``readers_of`` of several games (id -> private): one query for all the private ones."""
    found: dict[Any, frozenset[str] | None] = {
        game_id: None if not private else frozenset() for game_id, private in games.items()
    }
    private = [game_id for game_id, is_private in games.items() if is_private]
    if private:
        seats = Seat.objects.filter(game_id__in=private, user__isnull=False)
        by_game: dict[Any, set[str]] = {}
        for game_id, user_id in seats.values_list("game_id", "user_id"):
            by_game.setdefault(game_id, set()).add(str(user_id))
        for game_id in private:
            found[game_id] = frozenset(by_game.get(store.game_key(game_id), ()))
    return found


def check_invite(game_id: Any, invite: Any, user: Any = None) -> None:
    """``NotFound`` unless the game exists and is public, ``invite`` is its invite, or
    ``user`` already has a seat in it.

    One query, whatever the outcome, and the same refusal as an unknown id: a
    private game's id alone tells nothing (not even that it exists). The token is
    compared in constant time.
    """
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    seated = Seat.objects.filter(game=OuterRef("pk"), user_id=user_id)
    found = (
        Game.objects.filter(pk=store.game_key(game_id))
        .annotate(seated=Exists(seated))
        .values_list("private", "invite", "seated")
        .first()
    )
    if found is None:
        raise errors.not_found()
    private, token, is_seated = found
    given = invite if isinstance(invite, str) else ""
    right = bool(token) and hmac.compare_digest(given.encode(), token.encode())
    if private and not right and not is_seated:
        raise errors.not_found()


def game_fields(*, game: Game, you: int | None) -> JSON:
    """The friends' fields of the API's game object, as the viewer (seat ``you``) sees them.

    ``private`` for everyone; for its players only, ``invite`` (a private game)
    and, once it is finished, ``rematch`` (the new game's id, or null).
    """
    out: JSON = {"private": game.private}
    if you is None:
        return out
    if game.private and game.invite:
        out["invite"] = game.invite
    if game.status == Game.Status.FINISHED:
        out["rematch"] = rematch_id(game)
    return out


def _seat(game: Game, user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(game=game, user=user).values_list("seat", flat=True).first()


def rematch_id(game: Game) -> str | None:
    """The id of the rematch of ``game``, or None."""
    found = Game.objects.filter(rematch_of=game.pk).values_list("id", flat=True).first()
    return None if found is None else str(found)


def invite_link(game: Game) -> str | None:
    """The table's invite link of a private game (``/play/{id}/?invite=<token>``)."""
    if not game.private or not game.invite:
        return None
    return f"/play/{game.id}/?invite={game.invite}"


def rematch_of(*, game: Game, user: Any) -> JSON | None:
    """For the pages: the rematch of ``game`` as a player of ``game`` may use it.

    ``{"id", "invite", "link", "seated"}`` (``seated``: the user already has a
    seat in it), or None when there is none or ``user`` did not play ``game``.
    """
    if _seat(game, user) is None:
        return None
    new = Game.objects.filter(rematch_of=game.pk).first()
    if new is None:
        return None
    return {
        "id": str(new.id),
        "invite": new.invite,
        "link": invite_link(new) or f"/play/{new.id}/",
        "seated": _seat(new, user) is not None,
        "status": new.status,
    }


# --------------------------------------------------------------------------- history


def _rank(seat: int, scores: list[int], result: JSON) -> int:
    """1 + the players placed strictly better: winners first, losers last, then the lower
    game total (every ruleset here counts down: points in the Pablo family, stock left in
    Skip-Bo)."""
    winners, losers = set(result.get("winners", [])), set(result.get("losers", []))

    def key(s: int) -> tuple[int, int]:
        return (0 if s in winners else 2 if s in losers else 1, scores[s])

    return 1 + sum(1 for s in range(len(scores)) if key(s) < key(seat))


def history_games(*, user: Any, ruleset: str | None = None) -> QuerySet[Game]:
    """The user's finished games, the latest first."""
    games = Game.objects.filter(status=Game.Status.FINISHED, seat_set__user=user)
    if ruleset:
        games = games.filter(ruleset=ruleset)
    return games.order_by("-finished_at", "-created_at", "id")


def history_row(*, game: Game, user: Any) -> JSON:
    """One finished game as its player ``user`` ended it."""
    state = store.state(game)
    seat = state.players.index(user.username)
    result = state.result or {"winners": [], "losers": []}
    scores = list(state.scores)
    return {
        "id": str(game.id),
        "ruleset": state.ruleset,
        "finished_at": rules.iso(game.finished_at) if game.finished_at else None,
        "seats": state.seats,
        "you": seat,
        "result": "won" if seat in result["winners"] else "lost",
        "rank": _rank(seat, scores, result),
        "score": scores[seat],
        "players": [
            {
                "seat": s,
                "username": name,
                "bot": bot_level(name),
                "score": scores[s],
                "rank": _rank(s, scores, result),
            }
            for s, name in enumerate(state.players)
            if name is not None
        ],
        "replay": f"/replays/{game.id}/",
    }


def history_summary(*, user: Any) -> list[JSON]:
    """Per ruleset: finished games played and won (a shared win counts as a win)."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).values_list(
        "seat", "game__ruleset", "game__result"
    )
    out: dict[str, JSON] = {}
    for seat, ruleset, result in seats:
        row = out.setdefault(ruleset, {"ruleset": ruleset, "played": 0, "won": 0, "lost": 0})
        row["played"] += 1
        won = seat in (result or {}).get("winners", [])
        row["won" if won else "lost"] += 1
    return [out[r] for r in sorted(out)]
