"""The account feed's follower of the log (docs/programs.md "The account feed").

For each event of the log that concerns players, it stores what it means to
each account concerned (``games.services.programs``), in the log's order, in
the follower's own transaction (the rows, the accounts' heads and the
follower's position commit together), then, after that commit, wakes the
accounts' waiting long polls (``publish``: the channel ``account:<user id>``,
the account's new head).

=================  ===============================  ==========================
log event          account event                    to
=================  ===============================  ==========================
``game_started``   ``game_started`` (ruleset, seat)  every seated account
``deadline_set``   ``your_turn`` (deadline, seat,   the accounts of its
                   version, turn)                   ``seats``
``turn_timed_out`` ``turn_timed_out`` (seat)        the account of its seat
``game_finished``  ``game_finished`` (result,       every seated account
``game_aborted``   status: finished / aborted)
``game_created``   ``rematch_offered`` (rematch,    the finished game's other
of a rematch       by), on the finished game        accounts
=================  ===============================  ==========================

Only public facts go in: seats, deadlines, versions, the result's winners and
losers, ids -- never an event's own data wholesale, so never a card, whatever
the ruleset. House bots' seats have an account too (a user per level); they
get no rows (nobody reads them, and they sit at every game with bots). A bot
*account* (``POST /api/me/bot/``, a program's) gets its rows like anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction

from games.bots import bot_level
from games.followers import Follower
from games.models import Event, Game, Seat
from games.services import programs as program_services
from games.services.programs import FeedItem

from . import publish

NAME = "account_feed"
#: The account's key on the hub and its channel: ``account:<database>:<user id>``.
PREFIX = "account:"

GAME_STARTED = "game_started"
YOUR_TURN = "your_turn"
TURN_TIMED_OUT = "turn_timed_out"
GAME_FINISHED = "game_finished"
REMATCH_OFFERED = "rematch_offered"
#: The account events' types (``GET /api/me/events/`` ``type``).
TYPES = (GAME_STARTED, YOUR_TURN, TURN_TIMED_OUT, GAME_FINISHED, REMATCH_OFFERED)

#: The log's event types it reads.
READS = frozenset(
    {"game_created", "game_started", "deadline_set", "turn_timed_out", "game_finished",
     "game_aborted"}
)  # fmt: skip


def account_key(user_id: Any) -> str:
    """The account's key on the hub (and so its Redis channel). Pub/sub channels are
    shared by every database of a Redis server: unlike a game's id, a user id is not
    unique across the services (or test runs) that share one, so the key names the
    database too. ``user_of`` reads the user id back."""
    return f"{PREFIX}{connection.settings_dict['NAME']}:{user_id}"


def user_of(key: str) -> int:
    return int(key.rsplit(":", 1)[1])


def items(events: Sequence[Event]) -> list[FeedItem]:
    """The account events of these log events, in the log's order (three queries at
    most: the games, their seats, the seats of the games rematched)."""
    ids = {event.game_id for event in events}
    games = {g.pk: g for g in Game.objects.filter(pk__in=ids).only("id", "ruleset", "rematch_of")}
    rematched = {
        g.rematch_of_id: g.pk
        for event in events
        if event.type == "game_created" and (g := games.get(event.game_id)) and g.rematch_of_id
    }
    seats: dict[Any, dict[int, Any]] = {}
    rows = Seat.objects.filter(game_id__in=ids | set(rematched))
    for game_id, seat, user_id, name in rows.values_list(
        "game_id", "seat", "user_id", "user__username"
    ):
        if bot_level(name) is None:  # (a house bot's account reads no feed)
            seats.setdefault(game_id, {})[seat] = user_id
    found: list[FeedItem] = []
    for event in events:
        game = games.get(event.game_id)
        if game is None or event.position is None:
            continue
        for user_id, kind, data, on in _meaning(event, game, seats):
            found.append(FeedItem(user_id, kind, on, event.created_at, data, event.position))
    return found


def _meaning(
    event: Event, game: Game, seats: dict[Any, dict[int, Any]]
) -> list[tuple[Any, str, dict[str, Any], Any]]:
    """``[(user id, type, data, game id)]``: what one log event means to each account."""
    seated = seats.get(game.pk, {})
    out: list[tuple[Any, str, dict[str, Any], Any]] = []
    if event.type == "game_started":
        for seat, user_id in sorted(seated.items()):
            out.append((user_id, GAME_STARTED, {"ruleset": game.ruleset, "seat": seat}, game.pk))
    elif event.type == "deadline_set":
        for seat in event.data.get("seats") or []:
            if seat in seated:
                data = {
                    "deadline": event.data.get("deadline"),
                    "seat": seat,
                    "version": event.seq,
                    "turn": event.data.get("key"),
                }
                out.append((seated[seat], YOUR_TURN, data, game.pk))
    elif event.type == "turn_timed_out":
        if event.seat in seated:
            out.append((seated[event.seat], TURN_TIMED_OUT, {"seat": event.seat}, game.pk))
    elif event.type in ("game_finished", "game_aborted"):
        finished = event.type == "game_finished"
        result = {
            "winners": list(event.data.get("winners", [])) if finished else [],
            "losers": list(event.data.get("losers", [])) if finished else [],
        }
        status = "finished" if finished else "aborted"
        for seat, user_id in sorted(seated.items()):
            data = {"result": result, "status": status, "seat": seat}
            out.append((user_id, GAME_FINISHED, data, game.pk))
    elif event.type == "game_created" and game.rematch_of_id is not None:
        by = seated.get(0)
        for seat, user_id in sorted(seats.get(game.rematch_of_id, {}).items()):
            if user_id != by:
                data = {"rematch": str(game.pk), "seat": seat}
                out.append((user_id, REMATCH_OFFERED, data, game.rematch_of_id))
    return out


def wake(heads: dict[Any, int]) -> None:
    """Wake the long polls of these accounts (their new heads), in every process."""
    for user_id, head in heads.items():
        publish.publish(account_key(user_id), head)


class AccountFeed(Follower):
    name = NAME

    def wants(self, event: Event) -> bool:
        return event.type in READS

    def handle(self, events: Sequence[Event]) -> None:
        heads = program_services.account_events_add(items(events))
        if heads:
            transaction.on_commit(lambda: wake(heads))
