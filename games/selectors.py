"""Every read: a game as a viewer sees it, game lists, the event feed, replays.

Read-only: a state comes from the game's stream (``games.store``, which owns
the per-process cache of recent states); nothing here writes a model.

Redaction happens only in the rules (``rules.view`` / ``rules.event_view``);
this module decides *who* is looking (their seat, or None for a non-player).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, close_old_connections, connection
from django.db.models import QuerySet

from games import errors, fairness, friends, rules, store
from games.bots import bot_level, waits_for
from games.bots import levels as bot_levels
from games.errors import Conflict
from games.models import (
    AccountLanguage,
    AccountName,
    Event,
    FairDraw,
    Game,
    NotificationSettings,
    Seat,
)
from games.review import analysis_data, analysis_get  # noqa: F401  (the viewer reads them here)
from games.usernames import clean_username, name_digest, username_key, username_problem

JSON = dict[str, Any]

#: Long polling: how often the event feed looks for news.
POLL_INTERVAL = 0.2
MAX_WAIT = 30


def to_engine(row: Event) -> rules.Event:
    return store.to_engine(row)


def game_events(game: Game, *, upto: int | None = None) -> list[rules.Event]:
    """The game's stream as engine events, in order (up to seq ``upto``)."""
    return store.events(game.id, upto=upto)


def game_state(*, game: Game, version: int | None = None) -> rules.State:
    """The folded state at ``version`` (default: the game's current version); a private copy."""
    return store.state(game, version)


# --------------------------------------------------------------------------- bots


def bot_seats(state: rules.State) -> dict[int, tuple[str, bool]]:
    """Seats a bot plays now: {seat: (level, as a stand-in)}."""
    out: dict[int, tuple[str, bool]] = {}
    stand_in = state.options.get("stand_in", "rules")
    for seat, name in enumerate(state.players):
        level = bot_level(name)
        if level is not None:
            out[seat] = (level, False)
        elif stand_in != "rules" and state.absent[seat]:
            out[seat] = (stand_in, True)
    return out


def bots_due(state: rules.State, *, waited_only: bool = False) -> list[int]:
    """The bot seats that may act now (``waited_only``: only those the game waits for)."""
    if state.status != "active":
        return []
    rulebook = rules.get_ruleset(state.ruleset)
    out = []
    for seat, (_level, stand_in) in bot_seats(state).items():
        legal = rulebook.legal_actions(state, seat)
        if not legal:
            continue
        if (waited_only or stand_in) and not waits_for(legal):
            continue  # a stand-in only plays the absent player's turns
        out.append(seat)
    return out


# --------------------------------------------------------------------------- games


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else rules.iso(moment)


def game_get(game_id: Any) -> Game:
    """The game with this id; ``NotFound`` (404) for an unknown or malformed id."""
    try:
        return Game.objects.get(pk=store.game_key(game_id))
    except Game.DoesNotExist:
        raise errors.not_found() from None


def game_seat(*, game_id: Any, user: Any) -> int:
    """The caller's seat in a game: 404 for no such game, 403 for a non-player."""
    seat = seat_of(game=game_get(game_id), user=user)
    if seat is None:
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
    return games.prefetch_related("seat_set__user").order_by("-created_at", "id")


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
            {"seat": s.seat, "username": s.user.username, "bot": bot_level(s.user.username)}
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
        event = to_engine(row)
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


def _current_version(game: Game) -> int:
    return Game.objects.filter(pk=game.pk).values_list("version", flat=True).get()


def _poll_version(game: Game) -> int:
    """The game's version, asked by a long poll between two of its sleeps.

    The connection was used a moment ago, so it is not health-checked before each
    poll: Django's check (``CONN_HEALTH_CHECKS``) is a query of its own, and with
    many clients waiting it doubled the queries of the poll loop (found profiling
    the crowd, bench/README.md). If the connection broke meanwhile (PostgreSQL
    restarted), it is closed and the poll asked once more on a new one; a second
    failure is the request's (503).
    """
    try:
        return _current_version(game)
    except DatabaseError:
        if connection.in_atomic_block:
            raise
        close_old_connections()
        return _current_version(game)


def event_feed(*, game: Game, user: Any, after: int = 0, wait: float = 0) -> JSON:
    """``GET /api/games/{id}/events/``: the events after ``after``, redacted for ``user``.

    With ``wait`` > 0 and nothing new, polls the database every ``POLL_INTERVAL``
    seconds until a newer event exists or ``wait`` seconds have passed. Outside a
    transaction each check sees the latest commit; a connection that broke while
    waiting is replaced once (``_poll_version``). No transaction and no lock is
    held while it sleeps.
    """
    version = game.version
    if version <= after and wait > 0:
        give_up = time.monotonic() + min(wait, MAX_WAIT)
        while version <= after and time.monotonic() < give_up:
            time.sleep(min(POLL_INTERVAL, max(0.0, give_up - time.monotonic())))
            version = _poll_version(game)
        if version != game.version:
            game.refresh_from_db()
            version = game.version
    seat = seat_of(game=game, user=user)
    return {
        "events": event_views(game=game, seat=seat, after=after, upto=version),
        "version": version,
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
            "bot_levels": bot_levels(),  # bots (issue #11)
            "options": {
                name: option.describe() for name, option in rules.all_options(ruleset).items()
            },
        }
        for ruleset in rules.rulesets()
    ]


# --------------------------------------------------------------------------- the replay viewer
# (replays/: the list of finished games and one game's stream, folded there into steps)

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


def replay_game(game_id: Any) -> Game | None:
    """The game if it is finished or aborted; None for any other id (the viewer's 404)."""
    return Game.objects.filter(id=game_id, status__in=VIEWABLE).first()


def rules_version() -> str:
    """The fingerprint of the rules' code (the stream's snapshots carry the same)."""
    return store.code_version()


# --------------------------------------------------------------------------- the account page


def user_api_token(*, user: Any) -> str | None:
    """The user's API token if one was ever issued (the web table's account page)."""
    token = getattr(user, "auth_token", None)  # the one-to-one of DRF's Token, if any
    return None if token is None else str(token.key)


# --------------------------------------------------------------------------- notifications


def notification_settings(*, user: Any) -> NotificationSettings:
    """The user's notification settings (the defaults, unsaved, when they have no row)."""
    found = NotificationSettings.objects.filter(user=user).first()
    return found if found is not None else NotificationSettings(user=user)


# --------------------------------------------------------------------------- accounts


def account_language(*, user: Any) -> str | None:
    """The language ``user`` chose with the header's switch, or None."""
    return AccountLanguage.objects.filter(user=user).values_list("code", flat=True).first()


def username_taken(name: str, *, exclude: Any = None) -> bool:
    """Whether an account's name equals ``name`` by ``username_key`` (trim, NFKC, case fold),
    or has its look (``games.usernames.username_look``). ``exclude``: an account's pk
    that does not count (the account being renamed).

    The database compares ASCII letters case-insensitively (``iexact``); the
    few names with other characters are compared here by their keys, since
    SQLite's and PostgreSQL's case rules are not Unicode's case folding.
    """
    looks = AccountName.objects.filter(digest=name_digest(name)).exclude(user_id=exclude)
    if looks.exists():
        return True  # the same look: the key, or letters that pass for its ASCII ones
    key = username_key(name)
    users = get_user_model().objects.exclude(pk=exclude)
    if users.filter(username__iexact=name).exists():
        return True
    if key.isascii() and users.filter(username__iexact=key).exists():
        return True
    others = users.filter(username__regex=r"[^\x01-\x7f]").values_list("username", flat=True)
    return any(username_key(other) == key for other in others.iterator())


def username_refusal(name: str, *, exclude: Any = None) -> str | None:
    """Why ``name`` may not be an account's new name (the API's rules), or None.

    For the forms that name accounts outside ``services.user_register`` (the
    admin's): invisible characters, mixed scripts, ASCII lookalikes, or taken.
    """
    problem = username_problem(clean_username(name))
    if problem:
        return problem
    if username_taken(clean_username(name), exclude=exclude):
        return "A user with that username already exists."
    return None


# --------------------------------------------------------------------------- games among friends
# The reads of games/friends.py the web pages use (play imports selectors, not friends).

history_games = friends.history_games
history_row = friends.history_row
history_summary = friends.history_summary
rematch_of = friends.rematch_of


# --------------------------------------------------------------------------- the round's reveal

#: Events of a player's own action (a timeout's action for them counts too): the first
#: of them after a round's end closes that round's reveal on the player's table.
PLAYER_ACTIONS = frozenset(
    {
        "looked",
        "drawn",
        "discarded",
        "replaced",
        "peeked",
        "spied",
        "swapped",
        "power_skipped",
        "thrown",
        "called",
    }
)


def acted_since_round_end(*, game: Game, seat: int) -> bool:
    """Whether ``seat`` has acted since the game's last round ended (two indexed reads)."""
    ended = (
        Event.objects.filter(game=game, type="round_ended")
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    if ended is None:
        return False
    return Event.objects.filter(
        game=game, seq__gt=ended, seat=seat, type__in=PLAYER_ACTIONS
    ).exists()
