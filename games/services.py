"""Every write to a game, as a short recipe over its stream (``games.streams``).

A command service runs in one transaction: ``streams.lock`` reads the game row
once under ``SELECT ... FOR UPDATE`` with its folded state (404 when there is no
such game), the recipe checks who the caller is on that state (403), asks the
pure engine for the new events (409 when the rules refuse), and
``streams.append`` stores them at the expected version, projects them and
announces them after the commit. The deadline sweep may already hold the row
lock in an outer transaction: re-locking one's own row is immediate.

Services return data (a ``Game`` row, an ``ActionAnswer``); the API renders
it. Commands arrive checked (``games.commands``); refusals are the domain
errors of ``games.errors``.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import errors, fairness, friends, rules, selectors, streams
from games.bots import LEVELS as BOT_LEVELS
from games.bots import bot_level, bot_name, decide
from games.bots.play import bot_view
from games.chance import DeckChance
from games.commands import (  # the bounds too, for callers that read them here
    DEFAULT_TURN_TIMEOUT,
    MAX_TURN_TIMEOUT,  # noqa: F401
    MIN_TURN_TIMEOUT,  # noqa: F401
    check_turn_timeout,
)
from games.errors import ApplicationError, Conflict, Forbidden
from games.models import FairDraw, Game, IdempotentAnswer
from games.rules.cards import missing_from

JSON = dict[str, Any]


@dataclass(frozen=True)
class ActionAnswer:
    """The answer to an action: ``{"version", "events", "game"}`` as the caller sees it.

    ``replayed``: a repeat of an ``Idempotency-Key`` -- the first answer again
    (rendered the same, byte for byte: it is stored as JSON and only holds JSON
    values).
    """

    data: JSON
    replayed: bool = False


def _context(game: Game) -> rules.Context:
    chance = _fair_chance(game) or DeckChance(decks=game.stacked_decks)
    return rules.Context(chance=chance, now=timezone.now())


# --- fair deals (#12, games/fairness.py) ------------------------------------------------
# A game with a server seed draws from the committed generator; its draws are kept on
# the game object until ``_fair_flush`` stores them with the events (same transaction).


def _fair_chance(game: Game) -> fairness.FairChance | None:
    if game.server_seed is None:
        return None

    def history() -> fairness.History:
        draws = FairDraw.objects.filter(game=game)
        last_deal = draws.filter(kind=fairness.KIND_DEAL).order_by("-k").first()
        return fairness.History(
            next_k=draws.count(),
            round=last_deal.round if last_deal else None,
            deck=list(last_deal.output) if last_deal else None,
        )

    chance = fairness.FairChance(
        server_seed=bytes(game.server_seed),
        seeds=fairness.seeds_by_seat(game.player_seeds or {}, game.seats),
        history=history,
    )
    game._fair_chance = chance  # type: ignore[attr-defined]
    return chance


def new_server_seed() -> bytes:
    """A game's secret seed: 32 bytes from the operating system's generator."""
    return secrets.token_bytes(fairness.SEED_BYTES)


def _fair_rows(game: Game) -> list[FairDraw]:
    """The draws of the chance last handed out for ``game`` (once)."""
    chance = getattr(game, "_fair_chance", None)
    if chance is None:
        return []
    game._fair_chance = None  # type: ignore[attr-defined]
    return [FairDraw(game=game, **draw) for draw in chance.finish()]


def _fair_flush(game: Game) -> None:
    rows = _fair_rows(game)
    if rows:
        FairDraw.objects.bulk_create(rows)


# --- end fair deals ---------------------------------------------------------------------


# --- bots (issue #11): seats taken by bots at creation (the rest: games/bot_turns.py) -----


def _check_bots(bots: Any, seats: Any) -> list[tuple[int, str]]:
    """``bots`` of ``POST /api/games/`` as (seat, level) pairs; 400 naming the field."""
    if bots is None:
        return []
    if not isinstance(bots, list):
        raise ApplicationError("bots: must be a list of {seat, level}.", "invalid_bots")
    out: list[tuple[int, str]] = []
    for i, item in enumerate(bots):
        if not isinstance(item, dict) or set(item) - {"seat", "level"}:
            raise ApplicationError(f"bots[{i}]: must be {{seat, level}}.", "invalid_bots")
        seat = item.get("seat")
        level = item.get("level", "basic")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ApplicationError(f"bots[{i}].seat: must be an integer.", "invalid_bots")
        if seat < 1 or (isinstance(seats, int) and seat >= seats):
            raise ApplicationError(
                f"bots[{i}].seat: must be from 1 to seats - 1 (seat 0 is yours).", "invalid_bots"
            )
        if level not in BOT_LEVELS:
            raise ApplicationError(
                f"bots[{i}].level: must be one of {', '.join(BOT_LEVELS)}.", "invalid_bots"
            )
        if any(seat == s for s, _ in out):
            raise ApplicationError(f"bots[{i}].seat: seat {seat} is named twice.", "invalid_bots")
        out.append((seat, level))
    return out


def _bot_user(level: str, seat: int) -> Any:
    users = get_user_model()
    user, created = users.objects.get_or_create(username=bot_name(level, seat))
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _add_bots(game: Game, state: rules.State, bots: list[tuple[int, str]]) -> rules.State:
    """Join each bot at its seat (inside ``game_create``'s transaction); the new state."""
    seeds = getattr(game, "player_seeds", None)
    if seeds is not None:
        # Fair deals: a bot's seed is "" and, like a person's, is stored before the join
        # that may start the game (and draw).
        game.player_seeds = {**seeds, **{str(seat): "" for seat, _ in bots}}
        game.save(update_fields=["player_seeds"])
    for seat, level in sorted(bots):
        _bot_user(level, seat)
        events = rules.join(state, bot_name(level, seat), _context(game), seat=seat, bot=level)
        state = streams.append(streams.Stream(game, state), events).state.copy()
        _fair_flush(game)
    return state


# --- end bots ---------------------------------------------------------------------------


# --------------------------------------------------------------------------- accounts


@transaction.atomic
def user_register(*, username: str, password: str) -> tuple[Any, str]:
    """A new account and its API token."""
    users = get_user_model()
    try:
        with transaction.atomic():
            user = users.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ApplicationError(
            "username: A user with that username already exists.", "username_taken"
        ) from None
    token, _ = Token.objects.get_or_create(user=user)
    return user, token.key


def user_token(*, request: Any, username: str, password: str) -> str:
    """The API token of the account with these credentials (created on first use)."""
    user = authenticate(request=request, username=username, password=password)
    if user is None or not user.is_active:
        raise ApplicationError(
            "Unable to log in with the given username and password.", "invalid_credentials"
        )
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


# --------------------------------------------------------------------------- commands


def _check_decks(rules: Any, options: JSON, decks: list[list[str]]) -> None:
    if not settings.PABLO_ALLOW_STACKED_DECKS:
        raise ApplicationError(
            "decks: stacked decks are disabled on this server.", "stacked_decks_disabled"
        )
    full = rules.deck(options)
    for index, deck in enumerate(decks):
        bad = missing_from(deck, full)
        if bad:
            raise ApplicationError(
                f"decks[{index}]: not part of one {rules.id} deck with these options: "
                f"{', '.join(bad)}.",
                "invalid_deck",
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
    bots: list[JSON] | None = None,
    seed: str = "",
    private: bool = False,
) -> Game:
    """A new game with ``user`` in seat 0 (starts at once if it has one seat).

    ``bots``: ``[{"seat", "level"}]`` seats taken by bots at once (games/bot_turns.py).
    ``private``: listed to its players only, joined with its invite (games/friends.py).
    """
    check_turn_timeout(turn_timeout)
    # --- bots (issue #11): validated before anything is written
    bot_seats = _check_bots(bots, seats)
    events = rules.create(
        ruleset,
        seats=seats,
        options={} if options is None else options,
        turn_timeout=turn_timeout,
        creator=user.username,
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
        # fair deals (#12): a secret seed from the OS; none with stacked decks.
        server_seed=None if decks else new_server_seed(),
        player_seeds=None if decks else {"0": seed},
        private=bool(private),
        invite=friends.new_invite() if private else "",
    )
    started = streams.start(game, events)
    if bot_seats:  # --- bots (issue #11)
        _add_bots(game, started.state.copy(), bot_seats)
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
    stream = streams.lock(game_id)
    game, state = stream.game, stream.state
    # fair deals (#12): the joiner's seed, before anything is drawn
    free = [s for s, name in enumerate(state.players) if name is None]
    joining = game.player_seeds is not None and state.status == "waiting" and free
    if joining and user.username not in state.players:
        game.player_seeds = {**game.player_seeds, str(free[0]): seed}
    events = rules.join(state, user.username, _context(game))
    if joining:
        game.save(update_fields=["player_seeds"])
    streams.append(stream, events)
    _fair_flush(game)
    return game


@transaction.atomic
def game_come_back(*, game_id: Any, user: Any) -> Game:
    """An absent ``user`` is back: their turns are no longer played for them."""
    stream = streams.lock(game_id)
    streams.append(stream, rules.come_back(stream.state, stream.seat(user)))
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
    stream = streams.latest(game_id) if idempotency_key is None else None
    if stream is not None and not connection.in_atomic_block:
        try:
            return _act(stream, user, command, expected_version, None)
        except (streams.Stale, ApplicationError, rules.RulesError):
            pass
    return _act_locked(game_id, user, command, expected_version, idempotency_key)


@transaction.atomic
def _act_locked(
    game_id: Any, user: Any, command: JSON, expected: int | None, key: str | None
) -> ActionAnswer:
    return _act(streams.lock(game_id), user, command, expected, key)  # 404


def _act(
    stream: streams.Stream, user: Any, command: JSON, expected: int | None, key: str | None
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
    events = rules.act(stream.state, seat, command, _context(game))  # 400 / 409
    draws = _fair_rows(game)
    if draws and not stream.locked:
        raise streams.Stale  # draws are stored in the events' transaction: under the lock
    done = streams.append(stream, events, viewer=seat, view=True)
    if draws:
        FairDraw.objects.bulk_create(draws)
    data = {
        "version": done.state.version,
        "events": done.views,
        "game": selectors.game_data(game=game, user=user, state=done.state, recent=events),
    }
    if key is not None:
        body = json.dumps(data, separators=(",", ":")).encode()
        # ``status`` is a legacy column: every stored answer is a stored action.
        IdempotentAnswer.objects.create(user=user, game=game, key=key, status=201, body=body)
    return ActionAnswer(data)


@transaction.atomic
def game_timeout(*, game_id: Any, turn_key: str) -> int:
    """Enforce the deadline of turn ``turn_key``; the number of events stored (0 when stale).

    Safe to call inside an outer transaction that already locked the row.
    """
    try:
        stream = streams.lock(game_id)
    except errors.NotFound:
        return 0
    if stream.state.status != "active" or stream.state.turn_key != turn_key:
        return 0
    events = _deadline_events(stream.game, stream.state, turn_key)
    if events:
        streams.append(stream, events)
        _fair_flush(stream.game)
    return len(events)


@transaction.atomic
def game_timeout_many(*, games: Sequence[Game]) -> dict[Any, int]:
    """``game_timeout`` for a batch of locked games, each for its own ``turn_key`` (the
    deadline sweep): the number of events stored per game id (stale games left out)."""
    live = [g for g in games if g.status == Game.Status.ACTIVE and g.turn_key]
    stored = streams.append_many(
        live, lambda game, state: _deadline_events(game, state, game.turn_key)
    )
    FairDraw.objects.bulk_create([d for g in live if g.id in stored for d in _fair_rows(g)])
    return stored


#: At most this many bot actions per passed deadline (a turn is a few: draw, discard, power).
BOT_STEPS_AT_DEADLINE = 20


def _deadline_events(game: Game, state: rules.State, turn_key: str) -> list[rules.Event]:
    """What a passed deadline stores: first every bot the game waits for makes its own
    move, then the others time out (RULES.md §8).

    A bot never times out and is never marked absent (issue 19): its move normally
    comes from its Celery task ``PABLO_BOT_DELAY`` after its turn began
    (games/bot_turns.py); should that task be late or lost, the deadline makes the
    bot decide here, as the task would have, with no ``turn_timed_out``.
    """
    ctx = _context(game)  # one context: a fair game's draws are collected on it
    work = state.copy()
    events: list[rules.Event] = []
    rulebook = rules.get_ruleset(work.ruleset)
    for _ in range(BOT_STEPS_AT_DEADLINE):  # a turn may take several actions
        if work.status != "active" or work.turn_key != turn_key:
            break  # the turn is over; the next one has a deadline of its own
        bots = [s for s in rulebook.actors(work) if bot_level(work.players[s]) is not None]
        moved = False
        for seat in bots:
            level = bot_level(work.players[seat])
            if level is None or seat not in rulebook.actors(work):
                continue
            body = decide(level, work.ruleset, bot_view(work, seat), seat, random.Random())
            if body is None:
                continue
            try:
                new = rules.act(work, seat, body, ctx)
            except rules.RulesError:
                continue  # the timeout below plays the turn instead
            for event in new:
                rules.apply(work, event)
            events += new
            moved = True
        if not moved:
            break
    return events + rules.timeout(work, turn_key, ctx)


@transaction.atomic
def game_rebuild_projection(*, game_id: Any) -> Game:
    """Recompute the ``Game`` projection and ``Seat`` rows from the events alone."""
    return streams.rebuild(game_id)


# --------------------------------------------------------------------------- among friends
# Cancelling and rematches (API.md "Games among friends"; the reads: games/friends.py).


@transaction.atomic
def game_cancel(*, game_id: Any, user: Any) -> Game:
    """The creator cancels their game while it waits for players: it is aborted.

    403 for anyone else, 409 once it has started (or ended). The fact is an
    ordinary ``game_aborted`` event (reason ``cancelled``).
    """
    stream = streams.lock(game_id)  # 404
    game = stream.game
    if game.created_by_id != getattr(user, "pk", None):
        raise Forbidden("Only the player who created this game can cancel it.", "not_creator")
    if stream.state.status != "waiting":
        raise Conflict(
            f"This game is {stream.state.status}: only a game waiting for players can be "
            "cancelled.",
            "game_not_waiting",
        )
    streams.append(stream, [rules.Event("game_aborted", {"reason": friends.CANCELLED})])
    return game


@transaction.atomic
def game_rematch(*, game_id: Any, user: Any, seed: str = "") -> tuple[Game, bool]:
    """A player of a finished game starts (or finds) its rematch: (the new game, created).

    The new game has the old one's ruleset, seats, options and turn time; it is
    private, the caller takes seat 0 and the old game's bots take their seats
    again at once. One rematch per game: a second call finds the first one.
    403 for a non-player, 409 unless the game is finished.
    """
    stream = streams.lock(game_id)  # 404; serialises concurrent calls
    old, state = stream.game, stream.state
    stream.seat(user)  # 403
    existing = Game.objects.filter(rematch_of=old.pk).first()
    if existing is not None:
        return existing, False
    if state.status != "finished":
        raise Conflict(
            f"This game is {state.status}: a rematch starts from a finished game.",
            "game_not_finished",
        )
    bots = [
        {"seat": seat, "level": level}
        for seat, name in enumerate(state.players)
        if (level := bot_level(name)) is not None
    ]
    new = game_create(
        user=user,
        ruleset=state.ruleset,
        seats=state.seats,
        turn_timeout=state.turn_timeout,
        options=dict(state.options),
        bots=bots or None,
        seed=seed,
        private=True,
    )
    Game.objects.filter(pk=new.pk).update(rematch_of=old.pk)
    new.rematch_of_id = old.pk
    return new, True
