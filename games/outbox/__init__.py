"""Enqueueing Celery tasks by name: at once (``publish``), or late but never lost (``send``).

The modules that do the work enqueue tasks by their registered name, through
the Celery app's registry, so that no work module imports a tasks module back.
``publish`` is for messages whose loss costs nothing (a deadline's fast path, a
bot's move: the sweeps are the safety net). What a request does after its
commit that must not vanish when Redis is down (a notification, a delivery)
goes through the outbox::

    from games import outbox
    outbox.send("games.notify_game", kwargs={...}, claim=True)

``send`` publishes at once, as before, when the broker answers -- the usual
case costs nothing more. When the broker refuses (Redis stopped, restarting,
unreachable) the message is written to the ``OutboxMessage`` table instead,
in the database the request has just committed to, and ``send`` returns
normally. ``flush`` -- the ``pablo.flush_outbox`` task, run by Celery beat
every ``PABLO_OUTBOX_SECONDS`` (default 2) -- publishes the stored messages
in order once the broker is back and deletes each one it published, under
``SELECT ... FOR UPDATE SKIP LOCKED`` so two flushes never send the same row.
The rows are written by the outbox's services (``games.outbox.services``,
``outbox_message_*``); this module reads them and talks to the broker.

Notifications are sent with ``claim=True`` (see ``send``): stored before they
are published, and done exactly once by a task that claims its row.

Guarantees and limits (docs/operations.md "Faults"):

* A message that could not be published is stored, so it is delivered late,
  not lost. A message is published again only if the process dies between a
  publish and the deletion of its row: tasks are idempotent for that reason
  (a notification checks that its turn is still current; a webhook carries a
  ``delivery`` id the receiver can deduplicate on).
* The message is not written *inside* the action's transaction: the common
  path stays one commit per action. The one case left out is a web process
  killed in the instant between its commit and the publish; deadlines do not
  depend on it (the sweep reads them from the database), only that one
  notification would be missing.
* A message with an ETA (``countdown``/``eta``) keeps it: a late one runs
  at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import OutboxMessage

from . import services

log = logging.getLogger(__name__)

_last_warning = 0.0


def _warn(text: str, *args: Any) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning > 30:  # once in a while, not once a message
        _last_warning = now
        log.warning(text, *args)


def publish(name: str, args: tuple[Any, ...] = (), *, kwargs: Any = None, **options: Any) -> Any:
    """``apply_async`` of the task registered as ``name``, now (no retries: callers log and
    go on, a sweep being the safety net)."""
    task = current_app.tasks[name]
    return task.apply_async(args, kwargs, retry=False, **options)


def _publish(task: Any, args: Any, kwargs: Any, options: dict[str, Any]) -> None:
    task.apply_async(args=list(args or ()), kwargs=dict(kwargs or {}), retry=False, **options)


def send(
    task: Any,
    args: Any = (),
    kwargs: dict[str, Any] | None = None,
    claim: bool = False,
    **options: Any,
) -> bool:
    """Publish ``task`` now, or store it for ``flush``; True if published now.

    ``task`` is a Celery task (or its registered name); ``options`` are
    ``apply_async`` options that are JSON (``countdown``, ``queue``, ...).
    Never raises for a broker that is away; raises only if the database is
    away too (then the caller's own write could not have happened either).

    ``claim=True``: exactly once. The message is stored first and sent with
    ``outbox_id=<row>`` among its keyword arguments; the task must run its work
    inside ``claimed(outbox_id)``, which deletes the row in the task's own
    transaction. A task killed midway rolls back, the row is there again, and
    ``flush`` publishes it anew after ``PABLO_OUTBOX_GRACE`` seconds; a copy
    that finds the row gone does nothing.
    """
    task = current_app.tasks[task] if isinstance(task, str) else task
    if claim:
        row = store(task.name, args, kwargs, options, claim=True)
        kwargs = {**(kwargs or {}), "outbox_id": row.pk}
        try:
            _publish(task, args, kwargs, options)
        except Exception as exc:
            _warn("broker refused %s (%s): kept in the outbox for later", task.name, exc)
            return False
        _mark_published([row.pk])
        return True
    try:
        _publish(task, args, kwargs, options)
        return True
    except Exception as exc:
        _warn("broker refused %s (%s): kept in the outbox for later", task.name, exc)
        store(task.name, args, kwargs, options, error=exc)
        return False


def store(
    name: str,
    args: Any,
    kwargs: Any,
    options: dict[str, Any],
    error: Any = "",
    claim: bool = False,
) -> Any:
    return services.outbox_message_store(
        task=name, args=args, kwargs=kwargs, options=options, error=error, claim=claim
    )


def _mark_published(pks: list[int]) -> None:
    try:
        services.outbox_messages_published(pks=pks)
    except Exception:  # only delays a republish: the flush looks at published_at
        log.warning("outbox: could not mark %s as published", pks)


@contextmanager
def claimed(outbox_id: Any) -> Iterator[bool]:
    """In a task: one transaction that claims the message (True) or finds it done (False).

    ``with outbox.claimed(outbox_id) as mine: if mine: do the work`` -- the
    work commits together with the claim, or neither does. Without an id (a
    message sent without ``claim``) it is always ``True``.
    """
    with transaction.atomic():
        if outbox_id is None:
            yield True
        else:
            mine = services.outbox_message_claim(outbox_id=outbox_id)
            yield mine
            pause = float(getattr(settings, "PABLO_CLAIM_PAUSE", 0) or 0)
            if mine and pause:
                time.sleep(pause)  # crash tests: a window before the commit


def flush(limit: int = 500) -> int:
    """Publish stored messages in order; returns how many. Stops at the first refusal."""
    grace = float(getattr(settings, "PABLO_OUTBOX_GRACE", 30.0))
    stale = timezone.now() - timedelta(seconds=grace)
    sent = 0
    with transaction.atomic():
        # Unclaimed messages: never published, or published more than ``grace`` ago
        # and still not claimed (the task was lost or killed). Refused ones: all.
        due = Q(claim=False) | Q(published_at__isnull=True) | Q(published_at__lt=stale)
        rows = list(
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(due)
            .order_by("id")[:limit]
        )
        done = []
        republished = []
        for row in rows:
            task = current_app.tasks.get(row.task)
            if task is None:
                log.error("outbox message %s names an unknown task %s: dropped", row.pk, row.task)
                done.append(row.pk)
                continue
            kwargs = {**row.kwargs, "outbox_id": row.pk} if row.claim else row.kwargs
            try:
                _publish(task, row.args, kwargs, row.options)
            except Exception as exc:
                _warn("outbox: broker still refuses (%s); %s messages wait", exc, len(rows) - sent)
                services.outbox_message_refused(message=row, error=exc)
                break
            (republished if row.claim else done).append(row.pk)
            sent += 1
        services.outbox_messages_done(pks=done)
        services.outbox_messages_published(pks=republished)
    if sent:
        log.info("outbox: %s late messages published", sent)
    return sent
