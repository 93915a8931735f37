"""A game as a viewer sees it, game lists, the event feed, the replay, the rulesets."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from games import errors, fairness, friends, rules, store
from games.bots import bot_level
from games.bots import levels as bot_levels
from games.errors import Conflict
from games.models import Event, FairDraw, Game, Seat
from games.ratings import selectors as ratings
from games.selectors import accounts

JSON = dict[str, Any]


def game_events(game: Game, *, upto: int | None = None) -> list[rules.Event]:
    """The game's stream as engine events, in order (up to seq ``upto``)."""
    return store.events(game.id, upto=upto)


def game_state(*, game: Game, version: int | None = None) -> rules.State:
    """The folded state at ``version`` (default: the game's current version); a private copy."""
    return store.state(game, version)


# --------------------------------------------------------------------------- games


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else rules.iso(moment)


def game_get(game_id: Any) -> Game:
    """The game with this id; ``NotFound`` (404) for an unknown or malformed id."""
    try:
        return Game.objects.get(pk=store.game_key(game_id))
    except Game.DoesNotExist:
        raise errors.not_found() from None


def game_seen(game_id: Any, user: Any, invite: Any = None) -> Game:
    """``game_get`` for a reader: a private game is unknown (404) to anyone but its
    players and whoever presents its ``invite`` (``friends.may_see``)."""
    # (one query whoever asks: ``friends.with_seated``)
    game = friends.with_seated(Game.objects.filter(pk=store.game_key(game_id)), user).first()
    if game is None or not friends.may_see(game, user, invite):
        raise errors.not_found()
    return game


def game_seat(*, game_id: Any, user: Any) -> int:
    """The caller's seat in a game: 404 for no such game (or a private one the caller has
    no seat in: the id alone tells nothing), 403 for a non-player."""
    game = game_get(game_id)
    seat = seat_of(game=game, user=user)
    if seat is None:
        if game.private:
            raise errors.not_found()
        raise errors.not_a_player()
    return seat


def seat_of(*, game: Game, user: Any) -> int | None:
    """The user's seat in the game (projection), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(game=game, user=user).values_list("seat", flat=True).first()


def _viewer_seat(state: rules.State, user: Any) -> int | None:
    username = getattr(user, "username", None)
    if username and username in state.players:
        return state.players.index(username)
    return None


def game_data(
    *,
    game: Game,
    user: Any,
    state: rules.State | None = None,
    recent: Sequence[rules.Event] = (),
) -> JSON:
    """The API's game object, with ``state`` as ``user`` sees it (docs/api.md)."""
    if state is None:
        state = game_state(game=game)
    you = _viewer_seat(state, user)
    changes = ratings.changes([game.id]) if state.status == "finished" else {}
    bot_accounts = accounts.bot_account_names(state.players)
    return {
        "id": str(game.id),
        "ruleset": state.ruleset,
        "status": state.status,
        "version": state.version,
        "seats": state.seats,
        "options": state.options,
        "turn_timeout": state.turn_timeout,
        "players": [
            {
                "seat": seat,
                "username": name,
                "score": state.scores[seat],
                "absent": state.absent[seat],
                "bot": bot_level(name),  # bots (issue #11)
                "bot_account": name in bot_accounts,  # docs/programs.md
                "rating_change": changes.get((str(game.id), seat)),
            }
            for seat, name in enumerate(state.players)
            if name is not None
        ],
        "you": you,
        "state": rules.view(state, you, recent),
        "created_at": iso(game.created_at),
        "fairness": game_fairness(game=game, status=state.status),
        **friends.game_fields(game=game, you=you),  # games among friends
    }


# --- fair deals (#12, games/fairness.py) ------------------------------------------------


def game_fairness(*, game: Game, status: str | None = None, draws: bool = False) -> JSON | None:
    """The game's ``fairness`` object; None for a game with stacked decks.

    ``server_seed`` stays null until the game has ended (finished or aborted);
    ``draws`` (the replay only) lists every draw, also only once it has ended.
    """
    if game.server_seed is None:
        return None
    status = status or game.status
    ended = status in (Game.Status.FINISHED, Game.Status.ABORTED)
    seeds = game.player_seeds or {}
    out: JSON = {
        "commitment": fairness.commitment(bytes(game.server_seed)),
        "player_seeds": {str(s): seeds[str(s)] for s in range(game.seats) if str(s) in seeds},
        "server_seed": bytes(game.server_seed).hex() if ended else None,
    }
    if draws and ended:
        out["draws"] = [
            {"k": d.k, "kind": d.kind, "round": d.round, "input": d.input, "output": d.output}
            for d in FairDraw.objects.filter(game=game).order_by("k")
        ]
    return out


# --- end fair deals ---------------------------------------------------------------------


def game_list(*, user: Any, status: str | None = None, mine: bool = False) -> QuerySet[Game]:
    """Games ``user`` may see listed (a private game only by its players), newest first."""
    games = friends.visible(Game.objects.all(), user)
    if status:
        games = games.filter(status=status)
    if mine:
        games = games.filter(seat_set__user=user)
    return games.prefetch_related("seat_set__user__bot_account").order_by("-created_at", "id")


def game_summary(*, game: Game, user: Any) -> JSON:
    """A game without its state (game lists): the projection and the seats."""
    seats = sorted(game.seat_set.all(), key=lambda s: s.seat)
    user_id = getattr(user, "pk", None)
    you = next((s.seat for s in seats if s.user_id == user_id), None)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "status": game.status,
        "version": game.version,
        "seats": game.seats,
        "options": game.options,
        "turn_timeout": game.turn_timeout,
        "players": [
            {
                "seat": s.seat,
                "username": s.user.username,
                "bot": bot_level(s.user.username),
                "bot_account": hasattr(s.user, "bot_account"),  # docs/programs.md
            }
            for s in seats
        ],
        "you": you,
        "result": game.result,
        "created_at": iso(game.created_at),
        **friends.game_fields(game=game, you=you),  # games among friends
    }


# --------------------------------------------------------------------------- events


event_data = store.event_data


def event_views(
    *, game: Game, seat: int | None, after: int = 0, upto: int | None = None
) -> list[JSON]:
    """Events ``after < seq <= upto``, each as ``seat`` saw it at its own moment.

    Folds once, stepping: each event is redacted against the state just before it.
    """
    upto = game.version if upto is None else upto
    if after >= upto:
        return []
    if after >= 1 and store.cached(game.id, after) is not None:
        state: rules.State | None = game_state(game=game, version=after)
        rows = Event.objects.filter(game=game, seq__gt=after, seq__lte=upto)
    else:
        state = None
        rows = Event.objects.filter(game=game, seq__lte=upto)
    out = []
    for row in rows.order_by("seq"):
        event = store.to_engine(row)
        if state is None:  # game_created: nothing before it, nothing hidden in it
            state = rules.fold([event])
            data: JSON | None = dict(event.data) if row.seq > after else None
        else:
            data = rules.event_view(state, event, seat) if row.seq > after else None
            rules.apply(state, event)
        if data is not None:
            out.append(event_data(row, data))
    return out


def recent_events(*, game: Game, seat: int | None, count: int) -> list[JSON]:
    """The game's last ``count`` events, each as ``seat`` saw it at its own moment.

    The state just before them comes from the store (its cache, advanced by the few
    events since, or the game's snapshot) and is kept there for the next request.
    """
    after = max(0, game.version - count)
    if after >= 1:
        store.state(game, after)
    return event_views(game=game, seat=seat, after=after)


def event_feed(*, game: Game, user: Any, after: int = 0) -> JSON:
    """``GET /api/games/{id}/events/``: the events after ``after`` up to the game's version,
    redacted for ``user`` (the long poll's waiting: ``games.feed.waiting``)."""
    seat = seat_of(game=game, user=user)
    return {
        "events": event_views(game=game, seat=seat, after=after, upto=game.version),
        "version": game.version,
    }


def game_replay(*, game: Game, user: Any) -> JSON:
    """``GET /api/games/{id}/replay/``: every event unredacted, once the game is over."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict("The replay opens when the game is finished.", "game_not_finished")
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    return {
        "game": game_data(game=game, user=user),
        "events": [event_data(row, row.data) for row in rows],
        "fairness": game_fairness(game=game, draws=True),  # fair deals (#12)
    }


# --------------------------------------------------------------------------- rulesets


def ruleset_list() -> list[JSON]:
    return [
        {
            "id": ruleset.id,
            "name": ruleset.name,
            "min_players": ruleset.min_players,
            "max_players": ruleset.max_players_any,
            "bot_levels": bot_levels(ruleset.id),  # the levels its bots play
            "options": {
                name: option.describe() for name, option in rules.all_options(ruleset).items()
            },
        }
        for ruleset in rules.rulesets()
    ]


def rules_version() -> str:
    """The fingerprint of the rules' code (the stream's snapshots carry the same)."""
    return store.code_version()


# --------------------------------------------------------------------------- the round's reveal


def acted_since_round_end(*, game: Game, seat: int) -> bool:
    """Whether ``seat`` has acted since the game's last round ended (two indexed reads).

    The ruleset names its round's end and the events of a player's own action (a
    timeout's action for them counts too): the first of them after a round's end
    closes that round's reveal on the player's table.
    """
    ruleset = rules.get_ruleset(game.ruleset)
    if ruleset.round_end_event is None:
        return False
    ended = (
        Event.objects.filter(game=game, type=ruleset.round_end_event)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    if ended is None:
        return False
    return Event.objects.filter(
        game=game, seq__gt=ended, seat=seat, type__in=ruleset.action_events
    ).exists()
