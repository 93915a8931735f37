"""Every write, as a short recipe over a game's stream (``games.store``).

Actions, joins, coming back, a bot's move, timeouts one by one and in batches,
accounts and notification settings: nothing else in the project writes a model
but the notification worker's bookkeeping (turn reminders, outbox rows), in
``games.notifications.services`` (docs/design.md "One writer" says why).
A command service runs in one transaction: ``store.lock`` reads the
game row once under ``SELECT ... FOR UPDATE`` with its folded state (404 when
there is no such game), the recipe checks who the caller is on that state
(403), asks the pure engine for the new events (409 when the rules refuse)
with the stream's chance (``Stream.context``), and ``store.append`` stores
them and the fair draws at the expected version, projects them and announces
them after the commit. The deadline sweep may already hold the row lock in an
outer transaction: re-locking one's own row is immediate.

Services return data (a ``Game`` row, an ``ActionAnswer``); the API renders
it. Commands arrive checked (``games.commands``); refusals are the domain
errors of ``games.errors``.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.db import IntegrityError, connection, transaction
from rest_framework.authtoken.models import Token

from games import errors, fairness, friends, outbox, review, rules, selectors, store
from games.bots import analysis as bot_analysis
from games.bots import bot_level, bot_name, decide
from games.bots.play import bot_view
from games.commands import (  # the bounds too, for callers that read them here
    DEFAULT_TURN_TIMEOUT,
    MAX_TURN_TIMEOUT,  # noqa: F401
    MIN_TURN_TIMEOUT,  # noqa: F401
    check_turn_timeout,
)
from games.errors import ApplicationError, Conflict, Forbidden
from games.models import (
    AccountLanguage,
    AccountName,
    Game,
    GameAnalysis,
    IdempotentAnswer,
    NotificationSettings,
)
from games.models import Event as EventRow
from games.notifications import fanout, webhooks
from games.rules.cards import missing_from
from games.usernames import clean_username, name_digest, username_problem

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


def user_without_login(*, username: str) -> Any:
    """The account ``username`` (created without a usable password if new): a bot's, or
    the simulator's seat 0."""
    users = get_user_model()
    user, created = users.objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


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
        user_without_login(username=bot_name(level, seat))
        stream = store.Stream(game, state)
        events = rules.join(state, bot_name(level, seat), stream.context(), seat=seat, bot=level)
        state = store.append(stream, events).state.copy()


def new_server_seed() -> bytes:
    """A game's secret seed: 32 bytes from the operating system's generator."""
    return secrets.token_bytes(fairness.SEED_BYTES)


# --------------------------------------------------------------------------- accounts


@transaction.atomic
def user_register(*, username: str, password: str) -> tuple[Any, str]:
    """A new account and its API token.

    The name is stored trimmed and NFKC-normalised, and refused when it equals
    an existing name after case folding, mixes scripts or holds invisible
    characters (``games.usernames``).
    """
    users = get_user_model()
    username = clean_username(username)
    problem = username_problem(username)
    if problem:
        raise ApplicationError(f"username: {problem}", "invalid_username")
    if selectors.username_taken(username):
        raise ApplicationError(
            "username: A user with that username already exists.", "username_taken"
        )
    try:
        with transaction.atomic():
            user = users.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ApplicationError(
            "username: A user with that username already exists.", "username_taken"
        ) from None
    token, _ = Token.objects.get_or_create(user=user)
    return user, token.key


def account_name_record(*, user: Any, created: bool) -> None:
    """Store the look of ``user``'s name (``games.accounts``: after every save of an account
    that made it or may have renamed it). ``IntegrityError`` when another account has it:
    the caller's transaction, the account's insert or rename with it, is refused."""
    digest = name_digest(user.get_username())
    if created:
        AccountName.objects.create(user=user, digest=digest)
    else:
        AccountName.objects.update_or_create(user=user, defaults={"digest": digest})


def account_language_set(*, user: Any, code: str) -> None:
    """Remember ``code`` (one of ``settings.LANGUAGES``) as ``user``'s language."""
    if code not in dict(settings.LANGUAGES):
        raise ApplicationError(f"language: {code!r} is not offered.", "invalid_language")
    AccountLanguage.objects.update_or_create(user=user, defaults={"code": code})


def user_token(*, request: Any, username: str, password: str) -> str:
    """The API token of the account with these credentials (created on first use)."""
    user = authenticate(request=request, username=username, password=password)
    if user is None or not user.is_active:
        raise ApplicationError(
            "Unable to log in with the given username and password.", "invalid_credentials"
        )
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def email_confirm(*, token: str, apply: bool) -> tuple[Any, str]:
    """The account and address of an e-mail confirmation link; with ``apply``, confirm it.

    Raises ``ApplicationError`` (``invalid_link``) for a link that is forged,
    expired or names no account.
    """
    found = fanout.read_email_confirmation(token)
    user = get_user_model().objects.filter(pk=found[0]).first() if found else None
    if found is None or user is None:
        raise ApplicationError(
            "This confirmation link is not valid (or has expired): ask for a new one.",
            "invalid_link",
        )
    if apply and user.email != found[1]:
        user.email = found[1]
        user.save(update_fields=["email"])
    return user, found[1]


def user_token_rotate(*, user: Any, current: str | None = None) -> str:
    """A new API token for ``user``; the old one is dead at once, in every process.

    ``current``: the token the request came with (the API's rotation). Rotations
    of one account take turns on its row lock; a request whose token another
    rotation replaced meanwhile is refused (``Unauthenticated``, 401): of
    several rotations sent at once with one token, one wins and the others
    learn that token is dead -- never a 500, never an answer with a dead token.
    """
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if current is not None and not Token.objects.filter(user=user, key=current).exists():
            raise errors.Unauthenticated("Invalid token.", "authentication_failed")
        Token.objects.filter(user=user).delete()  # post_delete: games.api.auth.revoke
        token = Token.objects.create(user=user)
    return token.key


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
                f"decks[{index}]: not part of one {rulebook.id} deck with these options: "
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
    bots: Sequence[Mapping[str, Any]] | None = None,
    seed: str = "",
    private: bool = False,
) -> Game:
    """A new game with ``user`` in seat 0 (starts at once if it has one seat).

    ``bots``: ``[{"seat", "level"}]`` seats taken by bots at once, as checked by
    the API's input serializer (``games.commands.check_bots``).
    ``private``: listed to its players only, joined with its invite (games/friends.py).
    """
    check_turn_timeout(turn_timeout)
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
        # fair deals: a secret seed from the OS; none with stacked decks.
        server_seed=None if decks else new_server_seed(),
        player_seeds=None if decks else {"0": seed},
        private=bool(private),
        invite=friends.new_invite() if private else "",
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
        "game": selectors.game_data(game=game, user=user, state=done.state, recent=events),
    }
    if key is not None:
        body = json.dumps(data, separators=(",", ":")).encode()
        # ``status`` is a legacy column: every stored answer is a stored action.
        IdempotentAnswer.objects.create(user=user, game=game, key=key, status=201, body=body)
    return ActionAnswer(data)


@transaction.atomic
def game_bot_act(
    *,
    game_id: Any,
    seat: int,
    version: int,
    rng: random.Random | None = None,
    move: JSON | None = None,
) -> int:
    """The bot of ``seat`` acts if the game is still at ``version``; events stored (0: none).

    A bot's move is an ordinary action under the row lock and version check: a
    duplicate, redelivered or stale task stores nothing (docs/bots.md).
    ``move``: the body the bot's policy already chose (a whole-game driver
    choosing for every seat, ``games.turns.bots.play_stored_game``) instead of
    deciding here.
    """
    try:
        stream = store.lock(game_id)
    except errors.NotFound:
        return 0
    state = stream.state
    if state.status != "active" or stream.version != version:
        return 0
    playing = selectors.bot_seats(state).get(seat)
    if playing is None:
        return 0
    level, stand_in = playing
    if stand_in and seat not in selectors.bots_due(state):
        return 0
    if move is not None:
        body: JSON | None = move
    else:
        body = decide(
            level,
            state.ruleset,
            bot_view(state, seat),
            seat,
            rng or random.Random(),
            iterations=settings.PABLO_EXPERT_ITERATIONS,
        )
    if body is None:
        return 0
    try:
        # In place: the stream's state is private, so the rules' new state is kept as it
        # is and the store does not apply the events again.
        events = rules.act_in_place(state, seat, body, stream.context(), stand_in=stand_in)
    except rules.RulesError as exc:
        log.warning("bot of game %s seat %s refused: %s (%s)", game_id, seat, exc.detail, body)
        return 0
    store.append(stream, events, after=state)
    return len(events)


@transaction.atomic
def game_timeout(*, game_id: Any, turn_key: str) -> int:
    """Enforce the deadline of turn ``turn_key``; the number of events stored (0 when stale).

    Safe to call inside an outer transaction that already locked the row.
    """
    try:
        stream = store.lock(game_id)
    except errors.NotFound:
        return 0
    if stream.state.status != "active" or stream.state.turn_key != turn_key:
        return 0
    events = _deadline_events(stream)
    if events:
        store.append(stream, events)
    return len(events)


@transaction.atomic
def game_timeout_many(*, games: Sequence[Game]) -> dict[Any, int]:
    """``game_timeout`` for a batch of locked games, each for its own ``turn_key`` (the
    deadline sweep): the number of events stored per game id (stale games left out)."""
    live = [g for g in games if g.status == Game.Status.ACTIVE and g.turn_key]
    return store.append_many(live, _deadline_events)


#: At most this many bot actions per passed deadline (a turn is a few: draw, discard, power).
BOT_STEPS_AT_DEADLINE = 20


def _deadline_events(stream: store.Stream) -> list[rules.Event]:
    """What a passed deadline stores: first every bot the game waits for makes its own
    move, then the others time out (RULES.md §8).

    A bot never times out and is never marked absent (issue 19): its move normally
    comes from its Celery task ``PABLO_BOT_DELAY`` after its turn began
    (games/bot_turns.py); should that task be late or lost, the deadline makes the
    bot decide here, as the task would have, with no ``turn_timed_out``.
    """
    turn_key = stream.game.turn_key
    ctx = stream.context()  # one context: a fair game's draws are collected on it
    work = stream.state.copy()
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
    return store.rebuild(game_id)


# --------------------------------------------------------------------------- notifications


@transaction.atomic
def notification_settings_update(
    *,
    user: Any,
    email: str | None = None,
    email_enabled: bool | None = None,
    webhook_enabled: bool | None = None,
) -> NotificationSettings:
    """Change the user's e-mail address or turn channels on and off (None: unchanged)."""
    prefs, _ = NotificationSettings.objects.get_or_create(user=user)
    if email is not None and email != user.email:
        # A new address is not used yet: it is mailed a confirmation link and
        # becomes user.email once confirmed (email_confirm). Blank removes it.
        if email:
            fanout.send_email_confirmation(user, email)
        else:
            user.email = ""
            user.save(update_fields=["email"])
    changed = {"email_enabled": email_enabled, "webhook_enabled": webhook_enabled}
    fields = [name for name, value in changed.items() if value is not None]
    for name in fields:
        setattr(prefs, name, changed[name])
    if fields:
        prefs.save(update_fields=[*fields, "updated_at"])
    return prefs


@transaction.atomic
def webhook_register(*, user: Any, url: str) -> NotificationSettings:
    """Register (or replace) the user's webhook, with a fresh signing secret."""
    prefs, _ = NotificationSettings.objects.get_or_create(user=user)
    prefs.webhook_url = url
    prefs.webhook_secret = webhooks.new_secret()
    prefs.webhook_enabled = True
    prefs.save(update_fields=["webhook_url", "webhook_secret", "webhook_enabled", "updated_at"])
    return prefs


def webhook_remove(*, user: Any) -> None:
    """Forget the user's webhook (its URL and secret)."""
    NotificationSettings.objects.filter(user=user).update(webhook_url="", webhook_secret="")


# --------------------------------------------------------------------------- the account page


def user_token_issue(*, user: Any) -> str:
    """The signed-in user's API token, created on first use (the account page's button)."""
    token, _ = Token.objects.get_or_create(user=user)
    return str(token.key)


# --------------------------------------------------------------------------- among friends
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
            f"This game is {stream.state.status}: only a game waiting for players can be "
            "cancelled.",
            "game_not_waiting",
        )
    store.append(stream, [rules.Event("game_aborted", {"reason": friends.CANCELLED})])
    return game


@transaction.atomic
def game_rematch(*, game_id: Any, user: Any, seed: str = "") -> tuple[Game, bool]:
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


# --------------------------------------------------------------------------- analysis

#: An analysis' progress is written at most this often (decisions between two saves).
ANALYSIS_SAVE_EVERY = 5


@transaction.atomic
def analysis_request(*, game: Game, user: Any) -> GameAnalysis:
    """Start the analysis of a finished (or aborted) game; an existing one is returned.

    A running game is refused (``409 game_not_finished``): its events must not
    leak. A failed analysis is queued again.
    """
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise errors.Conflict("A game is analysed once it is finished.", "game_not_finished")
    row, created = GameAnalysis.objects.select_for_update().get_or_create(
        game=game,
        analyser=review.ANALYSER,
        defaults={"requested_by": user if getattr(user, "is_authenticated", False) else None},
    )
    if created or row.status == GameAnalysis.Status.FAILED:
        row.status = GameAnalysis.Status.QUEUED
        row.progress = 0.0
        row.save(update_fields=["status", "progress", "updated_at"])
        pk = row.pk
        transaction.on_commit(lambda: outbox.send(review.TASK, kwargs={"analysis_id": pk}))
    return row


def _marks(ruleset: str) -> bot_analysis.Marks:
    values = (
        settings.PABLO_ANALYSIS_MARKS_SKIPBO
        if ruleset == "skipbo"
        else settings.PABLO_ANALYSIS_MARKS
    )
    return bot_analysis.Marks(*(float(v) for v in values))


def analysis_run(*, analysis_id: int) -> int:
    """The task's work: analyse the game and store the result (idempotent).

    A duplicate delivery finds the row done and stops; two workers that run the
    same analysis at once compute the same result (the search is a function of
    the events) and the last one stores it again.
    """
    row = GameAnalysis.objects.filter(pk=analysis_id).select_related("game").first()
    if row is None or row.status == GameAnalysis.Status.DONE:
        return 0
    GameAnalysis.objects.filter(pk=row.pk).update(status=GameAnalysis.Status.RUNNING)
    stream = [
        (seq, rules.Event(type_, data, seat))
        for seq, type_, data, seat in EventRow.objects.filter(game=row.game)
        .order_by("seq")
        .values_list("seq", "type", "data", "seat")
    ]
    saved = [0]

    def progress(done: int, total: int) -> None:
        if done - saved[0] >= ANALYSIS_SAVE_EVERY or done == total:
            saved[0] = done
            GameAnalysis.objects.filter(pk=row.pk).update(progress=done / max(total, 1))

    try:
        result = bot_analysis.analyse(
            stream,
            iterations=settings.PABLO_ANALYSIS_ITERATIONS,
            marks=_marks(row.game.ruleset),
            progress=progress,
        )
    except Exception:
        log.exception("analysis %s of game %s failed", row.pk, row.game_id)
        GameAnalysis.objects.filter(pk=row.pk).update(status=GameAnalysis.Status.FAILED)
        raise
    GameAnalysis.objects.filter(pk=row.pk).update(
        status=GameAnalysis.Status.DONE, progress=1.0, result=result
    )
    return len(result["decisions"])
