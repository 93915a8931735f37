"""The event store.

``Event`` rows are the truth: append-only, unique ``(game, seq)``, and a
database trigger (migration 0002) refuses UPDATE and DELETE of them. ``Game``
is the stream header plus a projection of the folded state (status, version,
deadline, ...) that services keep in step with the events inside the same
transaction; everything on it can be rebuilt from the events
(``services.games.game_rebuild_projection``).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    ruleset = models.CharField(max_length=20, db_index=True)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    turn_timeout = models.PositiveIntegerField(default=86400)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    # Stacked decks (API.md ``decks``): input to the chance source, never shown.
    stacked_decks = models.JSONField(null=True, blank=True)
    # Fair deals (games/fairness.py): the secret seed, shown only once the game has
    # ended, and the seeds the players gave. Both null for a game with stacked decks.
    server_seed = models.BinaryField(null=True, editable=False)
    player_seeds = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: the creator's client address, hashed (games.api.shares: games with bots per address)
    created_from = models.CharField(max_length=32, blank=True, default="", db_index=True)

    # Projection of the folded state.
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    version = models.PositiveIntegerField(default=0)
    turn_key = models.CharField(max_length=64, blank=True, default="")
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)

    # Games among friends (games/friends.py): metadata, never in an event. A private
    # game is listed to its players only and joined with its secret ``invite``; a
    # rematch names the finished game it follows (one rematch per game).
    private = models.BooleanField(default=False)
    invite = models.CharField(max_length=64, blank=True, default="", editable=False)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["deadline"],
                name="game_due_idx",
                condition=models.Q(status="active", deadline__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.id} ({self.status})"


class SeatQuerySet(models.QuerySet["Seat"]):
    def listening(self) -> SeatQuerySet:
        """Seats whose user has a channel that would deliver a notification: e-mail on (no
        settings row = on) with an address, a webhook on with a URL, or push on (no row =
        on) with a subscribed device."""
        prefix = "user__notification_settings__"
        no_row = models.Q(**{f"{prefix}isnull": True})
        has_email = ~models.Q(user__email="")
        has_device = models.Q(user__push_subscriptions__isnull=False)
        return self.filter(
            no_row & has_email
            | models.Q(**{f"{prefix}email_enabled": True}) & has_email
            | models.Q(**{f"{prefix}webhook_enabled": True})
            & ~models.Q(**{f"{prefix}webhook_url": ""})
            | (no_row | models.Q(**{f"{prefix}push_enabled": True})) & has_device
        )


class Seat(models.Model):
    """Who sits where (projection of ``player_joined`` events, for queries and permissions)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_set")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_seat"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat}: {self.user_id}"


class NextPosition(models.Expression):
    """``Event.position``'s column default: the log's sequence on PostgreSQL; NULL on
    SQLite, where a trigger numbers the row as it is inserted (migration 0010)."""

    output_field = models.BigIntegerField()
    allowed_default = True

    def as_sql(self, compiler, connection, **extra):
        return "NULL", []

    def as_postgresql(self, compiler, connection, **extra):
        return f"nextval('{POSITION_SEQUENCE}')", []


POSITION_SEQUENCE = "games_event_position_seq"


class Event(models.Model):
    """One immutable fact of a game's stream; ``seq`` starts at 1.

    ``position`` is the event's place in the global log (every game), given by
    the database as the row is inserted, in commit order (``games.store.sql``
    takes the log's ordering lock first): what the followers
    (``games.followers``) read in order.
    """

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    seat = models.SmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    position = models.BigIntegerField(
        unique=True, null=True, editable=False, db_default=NextPosition()
    )

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class Snapshot(models.Model):
    """A game's folded state at ``version``, pickled: a projection, never an event.

    Kept so that loading a long game no process has in its cache folds at most
    ``store.SNAPSHOT_EVERY`` events instead of the whole stream. One row per
    game (the latest), written by ``games.store`` only; valid only for the rules
    code that made it (``code``, a fingerprint of ``games/rules``), so a deploy
    that changes the rules ignores older rows. Deleting any of them loses nothing:
    the next load folds the events and writes it again.
    """

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.CASCADE, related_name="snapshot"
    )
    version = models.PositiveIntegerField()
    code = models.CharField(max_length=32)
    state = models.BinaryField()
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.game_id} at {self.version}"


class IdempotentAnswer(models.Model):
    """The first successful answer to an action sent with an ``Idempotency-Key``.

    A cache, not an event: beat deletes the rows older than
    ``PABLO_IDEMPOTENCY_SECONDS`` (``games.prune_idempotent_answers``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.ForeignKey(Game, on_delete=models.CASCADE)
    key = models.CharField(max_length=255)
    status = models.PositiveSmallIntegerField()
    body = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "key"], name="idempotency_unique"),
        ]
        # The prune (``idempotent_answers_prune``) finds the old rows by it.
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.game_id}/{self.key}"


# --------------------------------------------------------------------------- notifications
# (owned by games/notifications.py and games/deadlines.py; see docs/deadlines.md)


class NotificationSettings(models.Model):
    """How a user wants to hear about their games. No row = the defaults.

    E-mail goes to ``user.email`` (when set); the webhook is POSTed to
    ``webhook_url``, signed with HMAC-SHA256 under ``webhook_secret``, which
    the API shows once, when the URL is registered.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="notification_settings",
    )
    email_enabled = models.BooleanField(default=True)
    webhook_enabled = models.BooleanField(default=True)
    webhook_url = models.URLField(max_length=500, blank=True, default="")
    webhook_secret = models.CharField(max_length=128, blank=True, default="")
    push_enabled = models.BooleanField(default=True)
    timezone = models.CharField(max_length=64, blank=True, default="")
    quiet_hours = models.JSONField(null=True, blank=True, default=None)
    #: {kind: {channel: false}} for what the user turned off (games.notifications.prefs);
    #: a kind or channel not named is on
    kinds = models.JSONField(default=dict, blank=True)
    #: the nonce of the one confirmation link that may still be used ("" none):
    #: a new address, a cleared one or a confirmation replaces it (games.notifications.fanout)
    email_nonce = models.CharField(max_length=64, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notifications of {self.user_id}"


class PushSubscription(models.Model):
    """A device's Web Push subscription (the browser's ``PushSubscription``), one per endpoint.

    Removed when the push service answers 404 or 410 (403 from Apple's): the
    browser dropped it. docs/notifications.md.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)
    last_success = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class PushDelivery(models.Model):
    """One push to one device, once: unique by (device, game, turn, kind).

    Written by the notifications follower in its transaction; the task that
    sends it is a hint, the beat's push sweep sends what is still pending
    (``next_try`` passed), so neither a worker nor a broker restart loses one.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"
        SKIPPED = "skipped"  # stale (the turn moved on) or replaced by a newer one of its game

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    turn = models.CharField(max_length=64)
    kind = models.CharField(max_length=16)
    message = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    tries = models.PositiveIntegerField(default=0)
    next_try = models.DateTimeField()
    urgent = models.BooleanField(default=False)
    #: written for later (quiet hours, an early reminder): collapses with its game's later pushes
    held = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "game", "turn", "kind"], name="push_once"
            )
        ]
        indexes = [
            models.Index(
                fields=["next_try"],
                name="push_pending",
                condition=models.Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"push {self.kind} {self.game_id} {self.turn} to {self.subscription_id}"


class MailNotice(models.Model):
    """One notification e-mail owed to a user, once: unique by (user, game, turn, kind).

    Written by the notifications follower (``due``: now, or when the user's quiet
    hours end); the mail sweep sends the due ones -- "your turn" as a digest, at
    most one an hour per user (games.notifications.digest, docs/notifications.md).
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        SKIPPED = "skipped"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    turn = models.CharField(max_length=64)
    kind = models.CharField(max_length=16)
    data = models.JSONField()  # the notification's body (fanout's): never a card
    due = models.DateTimeField()
    #: written for later (quiet hours, an early reminder): collapses with its game's later mails
    held = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "turn", "kind"], name="mail_once")
        ]
        indexes = [
            models.Index(fields=["due"], name="mail_pending", condition=models.Q(status="pending")),
            models.Index(fields=["user", "kind", "sent_at"], name="mail_sent"),
        ]

    def __str__(self) -> str:
        return f"mail {self.kind} {self.game_id} {self.turn} to {self.user_id}"


class TurnReminder(models.Model):
    """The "80 % of your time has passed" reminder still due for a game's current turn.

    One row per game, replaced whenever a new deadline is set and deleted once
    sent; the reminder sweep sends only while ``turn_key`` is still the game's.
    """

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="turn_reminder"
    )
    turn_key = models.CharField(max_length=64)
    seats = models.JSONField(default=list)
    deadline = models.DateTimeField()
    remind_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"reminder {self.game_id} {self.turn_key} at {self.remind_at}"


# --------------------------------------------------------------------------- fair deals
# (owned by games/fairness.py; see docs/fairness.md)


class FairDraw(models.Model):
    """One outcome of chance of a fair game, as the committed generator drew it.

    Stored with the events it produced (same transaction, under the game's row
    lock); ``k`` counts the game's draws from 0. Shown only once the game has
    ended (the replay's ``fairness.draws``), together with ``Game.server_seed``.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="fair_draws")
    k = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)  # deal | reshuffle | start_seat
    round = models.PositiveIntegerField(null=True)
    input = models.JSONField(null=True)
    output = models.JSONField()

    class Meta:
        ordering = ["game", "k"]
        constraints = [
            models.UniqueConstraint(fields=["game", "k"], name="fairdraw_unique_k"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} draw {self.k} ({self.kind})"


# --------------------------------------------------------------------------- the outbox
# (owned by games/outbox.py; see docs/operations.md "Faults")


class OutboxMessage(models.Model):
    """A Celery message kept in the database (``games.outbox``): refused by the broker.

    Its table keeps the name it had when the model lived in the ``pablo`` app
    (moved by migrations games 0006 / pablo 0002, state only).
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    options = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        db_table = "pablo_outboxmessage"
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.task} #{self.pk}"


class GameAnalysis(models.Model):
    """A finished game's analysis (``games.review``): derived data, never events.

    Keyed by game and analyser version (``games.bots.analysis.ANALYSER``): a new
    analyser is a new row, and any row can be deleted and built again from the
    game's events.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses")
    analyser = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)
    result = models.JSONField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: the asker's client address, hashed (games.api.shares: analyses per address)
    requested_from = models.CharField(max_length=32, blank=True, default="", db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "analyser"], name="analysis_per_analyser")
        ]

    def __str__(self) -> str:
        return f"analysis {self.analyser} of {self.game_id}: {self.status}"


# --------------------------------------------------------------------------- account names
# (owned by games/accounts.py)


class AccountName(models.Model):
    """The key of an account's name (``games.usernames.username_key``), unique.

    The database's own guarantee that no two accounts share a name under
    another spelling (``ann``, ``ANN``, fullwidth ``ann``): the check before the insert
    (``selectors.accounts.username_taken``) gives the friendly answer, this row refuses
    the second of two sign-ups that passed it at the same instant. The key is
    stored as its SHA-256 (hex): NFKC can make a 150-character name much longer.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="name_key",
    )
    digest = models.CharField(max_length=64, unique=True)

    def __str__(self) -> str:
        return self.digest


class BotAccount(models.Model):
    """An account a program plays with (``POST /api/me/bot/``, docs/programs.md): made
    before the account ever sat at a game, for good. Its players show
    ``bot_account``; it never enters the people's leaderboard."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_account",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot account {self.user_id}"


# --------------------------------------------------------------------------- account feed
# (written by the ``account_feed`` follower, games/feed/followers.py; docs/programs.md)


class AccountFeed(models.Model):
    """One account's feed head: the position of its newest ``AccountEvent`` (0: none).

    Kept by the follower in the same transaction as the rows, so that the next
    position and the head a waiting client compares with are one row by key."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_feed",
    )
    position = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"account feed {self.user_id} @ {self.position}"


class AccountEvent(models.Model):
    """What concerns one account, in the log's order (``GET /api/me/events/``).

    ``position`` counts the account's own events from 1, without a gap: a client
    resumes with ``after`` = the last position it read. ``source`` is the position
    of the log event (``Event.position``) it was made from: unique with the account
    and the type, so a follower that handles a batch again adds nothing."""

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_events"
    )
    position = models.BigIntegerField()
    type = models.CharField(max_length=40)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()
    data = models.JSONField(default=dict)
    source = models.BigIntegerField()

    class Meta:
        ordering = ["user", "position"]
        constraints = [
            models.UniqueConstraint(fields=["user", "position"], name="account_event_position"),
            models.UniqueConstraint(fields=["source", "user", "type"], name="account_event_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}#{self.position} {self.type}"


# --------------------------------------------------------------------------- followers
# (owned by games/followers/)


class FollowerPosition(models.Model):
    """How far a follower of the log (``games.followers``) has handled it: every
    event with ``position`` up to this one. Saved in the transaction of the
    follower's own writes; its row lock makes one reader at a time."""

    name = models.CharField(max_length=60, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name} @ {self.position}"


# --------------------------------------------------------------------------- languages


class AccountLanguage(models.Model):
    """The language an account chose with the header's switch (``settings.LANGUAGES``).

    No row: the browser's choice (its cookie, else ``Accept-Language``) for
    pages, English for mails. The pages and the mails read it; the API does not
    (its ``detail`` sentences follow the request's ``Accept-Language``).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="language",
    )
    code = models.CharField(max_length=8)

    def __str__(self) -> str:
        return self.code
