"""A game's commands, as short recipes over its stream (``games.store``).

A command service runs in one transaction: ``store.lock`` reads the
game row once under ``SELECT ... FOR UPDATE`` with its folded state (404 when
there is no such game), the recipe checks who the caller is on that state
(403), asks the pure engine for the new events (409 when the rules refuse)
with the stream's chance (``Stream.context``), and ``store.append`` stores
them and the fair draws at the expected version, projects them and announces
them after the commit. The deadline sweep may already hold the row lock in an
outer transaction: re-locking one's own row is immediate.

They return data (a ``Game`` row, an ``ActionAnswer``); the API renders
it. Commands arrive checked (``games.commands``); refusals are the domain
errors of ``games.errors``.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games import errors, fairness, friends, rules, store
from games.bots import bot_name
from games.commands import DEFAULT_TURN_TIMEOUT, check_turn_timeout
from games.errors import ApplicationError
from games.models import Game, IdempotentAnswer
from games.rules.cards import missing_from
from games.selectors import games as game_selectors
from games.services import accounts as account_services

JSON = dict[str, Any]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActionAnswer:
    """The answer to an action: ``{"version", "events", "game"}`` as the caller sees it.

    ``replayed``: a repeat of an ``Idempotency-Key`` -- the first answer again
    (rendered the same, byte for byte: it is stored as JSON and only holds JSON
    values).
    """

    data: JSON
    replayed: bool = False


def _add_bots(game: Game, state: rules.State, bots: Sequence[Mapping[str, Any]]) -> None:
    """Join each bot at its seat (inside ``game_create``'s transaction)."""
    seats = sorted((int(b["seat"]), str(b.get("level", "basic"))) for b in bots)
    seeds = getattr(game, "player_seeds", None)
    if seeds is not None:
        # Fair deals: a bot's seed is "" and, like a person's, is stored before the join
        # that may start the game (and draw).
        game.player_seeds = {**seeds, **{str(seat): "" for seat, _ in seats}}
        game.save(update_fields=["player_seeds"])
    for seat, level in seats:
        account_services.user_without_login(username=bot_name(level, seat))
        stream = store.Stream(game, state)
        events = rules.join(state, bot_name(level, seat), stream.context(), seat=seat, bot=level)
        state = store.append(stream, events).state.copy()


def new_server_seed() -> bytes:
    """A game's secret seed: 32 bytes from the operating system's generator."""
    return secrets.token_bytes(fairness.SEED_BYTES)


# --------------------------------------------------------------------------- commands


def _check_decks(rulebook: Any, options: JSON, decks: list[list[str]]) -> None:
    if not settings.PABLO_ALLOW_STACKED_DECKS:
        raise ApplicationError(
            "decks: stacked decks are disabled on this server.", "stacked_decks_disabled"
        )
    full = rulebook.deck(options)
    for index, deck in enumerate(decks):
        bad = missing_from(deck, full)
        if bad:
            raise ApplicationError(
                "decks[%(index)s]: not part of one %(ruleset)s deck with these options: %(cards)s.",
                "invalid_deck",
                index=index,
                ruleset=rulebook.id,
                cards=", ".join(bad),
            )


@transaction.atomic
def game_create(
    *,
    user: Any,
    ruleset: str,
    seats: int,
    turn_timeout: int = DEFAULT_TURN_TIMEOUT,
    options: JSON | None = None,
    decks: list[list[str]] | None = None,
    bots: Sequence[Mapping[str, Any]] | None = None,
    seed: str = "",
    private: bool = False,
    rated: bool = True,
    created_from: str = "",
) -> Game:
    """A new game with ``user`` in seat 0 (starts at once if it has one seat).

    ``rated``: whether it counts for ratings; a game with stacked decks never does.

    ``bots``: ``[{"seat", "level"}]`` seats taken by bots at once, as checked by
    the API's input serializer (``games.api.serializers.check_bots``).
    ``private``: listed to its players only, joined with its invite (games/friends.py).
    ``created_from``: the creator's address, hashed (``games.api.shares.address_key``).
    """
    check_turn_timeout(turn_timeout)
    events = rules.create(
        ruleset,
        seats=seats,
        options={} if options is None else options,
        turn_timeout=turn_timeout,
        creator=user.username,
        rated=rated and not decks,
    )
    header = events[0].data
    rulebook = rules.get_ruleset(header["ruleset"])
    if decks:
        _check_decks(rulebook, header["options"], decks)
    game = Game.objects.create(
        ruleset=rulebook.id,
        seats=header["seats"],
        options=header["options"],
        turn_timeout=header["turn_timeout"],
        created_by=user,
        stacked_decks=[list(d) for d in decks] if decks else None,
        # fair deals: a secret seed from the OS; none with stacked decks.
        server_seed=None if decks else new_server_seed(),
        player_seeds=None if decks else {"0": seed},
        private=bool(private),
        invite=friends.new_invite() if private else "",
        created_from=created_from,
    )
    started = store.start(game, events)
    if bots:
        _add_bots(game, started.state.copy(), bots)
    return game


@transaction.atomic
def game_join(*, game_id: Any, user: Any, seed: str = "", invite: str | None = None) -> Game:
    """``user`` takes the lowest free seat; the last seat starts the game.

    ``seed`` is the player's fair-deal seed: stored before the join's events are
    decided, so the start's draws (if this is the last seat) already hold it.
    ``invite``: a private game's invite; without the right one a private game is
    not found, exactly like an unknown id (games/friends.py).
    """
    friends.check_invite(game_id, invite, user)  # 404
    stream = store.lock(game_id)
    game, state = stream.game, stream.state
    free = [s for s, name in enumerate(state.players) if name is None]
    joining = game.player_seeds is not None and state.status == "waiting" and free
    if joining and user.username not in state.players:
        game.player_seeds = {**game.player_seeds, str(free[0]): seed}
    events = rules.join(state, user.username, stream.context())
    if joining:
        game.save(update_fields=["player_seeds"])
    store.append(stream, events)
    return game


@transaction.atomic
def game_come_back(*, game_id: Any, user: Any) -> Game:
    """An absent ``user`` is back: their turns are no longer played for them."""
    stream = store.lock(game_id)
    store.append(stream, rules.come_back(stream.state, stream.seat(user)))
    return stream.game


def game_act(
    *,
    game_id: Any,
    user: Any,
    command: JSON,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> ActionAnswer:
    """``user`` does ``command`` (a checked action, ``games.commands``).

    The answer is ``{"version", "events", "game"}`` (events and game as the
    caller sees them). With ``idempotency_key``, the first successful answer
    is stored and returned again for every repeat; refusals are not stored.

    When this process wrote the game last, the action is first tried on that
    state without reading the database (one statement: the append checks the
    version). Should another writer have moved the game (``Stale``), or should
    the answer be a refusal, it is done again on the locked row, so that every
    refusal is the current game's.
    """
    stream = store.latest(game_id) if idempotency_key is None else None
    if stream is not None and not connection.in_atomic_block:
        try:
            return _act(stream, user, command, expected_version, None)
        except (store.Stale, ApplicationError, rules.RulesError):
            pass
    return _act_locked(game_id, user, command, expected_version, idempotency_key)


@transaction.atomic
def _act_locked(
    game_id: Any, user: Any, command: JSON, expected: int | None, key: str | None
) -> ActionAnswer:
    return _act(store.lock(game_id), user, command, expected, key)  # 404


def _act(
    stream: store.Stream, user: Any, command: JSON, expected: int | None, key: str | None
) -> ActionAnswer:
    seat = stream.seat(user)  # 403
    game = stream.game
    if key is not None:
        # Under the row lock: a concurrent repeat waits for the first one's commit.
        stored = IdempotentAnswer.objects.filter(user=user, game=game, key=key).first()
        if stored is not None:
            return ActionAnswer(json.loads(bytes(stored.body)), replayed=True)
    if expected is not None and expected != stream.version:
        raise errors.version_conflict(stream.version, expected)
    # The stream's state is private: the rules evolve it in place, redacting each event
    # for the actor against the state just before it (the answer's ``events``), and the
    # store keeps that state as it is: the events are applied once.
    acted = rules.act_seen(stream.state, seat, command, stream.context())  # 400 / 409
    events = acted.events
    done = store.append(stream, events, after=stream.state, seen=acted.seen)
    data = {
        "version": done.state.version,
        "events": done.views,
        "game": game_selectors.game_data(game=game, user=user, state=done.state, recent=events),
    }
    if key is not None:
        body = json.dumps(data, separators=(",", ":")).encode()
        # ``status`` is a legacy column: every stored answer is a stored action.
        IdempotentAnswer.objects.create(user=user, game=game, key=key, status=201, body=body)
    return ActionAnswer(data)


# Rows a prune statement deletes at most: each statement is its own short
# transaction, so a prune never holds many row locks for long.
IDEMPOTENCY_PRUNE_BATCH = 1000


def idempotent_answers_prune(
    *, now: datetime | None = None, batch: int = IDEMPOTENCY_PRUNE_BATCH
) -> int:
    """Delete the stored answers older than ``PABLO_IDEMPOTENCY_SECONDS``; the count.

    They are a cache of answers, not events: a repeat of a pruned key is a new
    request (usually refused, as the action no longer applies). ``batch`` rows a
    statement (by ``created_at``'s index), each statement committed on its own,
    until a statement finds fewer; answers stored meanwhile are younger.
    """
    if batch < 1:  # a batch of 0 would delete nothing a statement, for ever
        raise ValueError(f"batch must be at least 1, not {batch}")
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.PABLO_IDEMPOTENCY_SECONDS)
    old = IdempotentAnswer.objects.filter(created_at__lt=cutoff).values("pk")
    pruned = 0
    while True:
        deleted, _ = IdempotentAnswer.objects.filter(pk__in=old[:batch]).delete()
        pruned += deleted
        if deleted < batch:
            return pruned


@transaction.atomic
def game_rebuild_projection(*, game_id: Any) -> Game:
    """Recompute the ``Game`` projection and ``Seat`` rows from the events alone."""
    return store.rebuild(game_id)
