"""Enqueueing Celery tasks by name: at once (``publish``), or late but never lost (``send``).

The modules that do the work enqueue tasks by their registered name, through
the Celery app's registry, so that no work module imports a tasks module back.
``publish`` is for messages whose loss costs nothing (a deadline's fast path, a
bot's move: the sweeps are the safety net). What a request does after its
commit that must not vanish when Redis is down (a notification, a delivery)
goes through the outbox::

    from games import outbox
    outbox.send("games.deliver_email", args=(address, subject, text))

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
* ``keep`` is for a message that must not vanish even then: a follower's
  deliveries (a webhook). It writes the row *inside* the caller's transaction
  -- with the follower's position -- and publishes and deletes it right after
  the commit; a process killed in between leaves the row to beat's ``flush``.
* A message with an ETA (``countdown``/``eta``) keeps it: a late one runs
  at once.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import current_app
from django.db import transaction

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


def send(task: Any, args: Any = (), kwargs: dict[str, Any] | None = None, **options: Any) -> bool:
    """Publish ``task`` now, or store it for ``flush``; True if published now.

    ``task`` is a Celery task (or its registered name); ``options`` are
    ``apply_async`` options that are JSON (``countdown``, ``queue``, ...).
    Never raises for a broker that is away; raises only if the database is
    away too (then the caller's own write could not have happened either).
    """
    task = current_app.tasks[task] if isinstance(task, str) else task
    try:
        _publish(task, args, kwargs, options)
        return True
    except Exception as exc:
        _warn("broker refused %s (%s): kept in the outbox for later", task.name, exc)
        store(task.name, args, kwargs, options, error=exc)
        return False


def store(name: str, args: Any, kwargs: Any, options: dict[str, Any], error: Any = "") -> Any:
    return services.outbox_message_store(
        task=name, args=args, kwargs=kwargs, options=options, error=error
    )


def keep(task: Any, args: Any = (), kwargs: dict[str, Any] | None = None, **options: Any) -> int:
    """Write ``task``'s message to the outbox in the caller's transaction and publish it
    right after that commits (``flush`` of its row); its row's id. For work that must
    survive the process dying between its commit and a publish (a follower's
    deliveries): the row commits with the caller's writes or not at all, and beat's
    ``flush`` publishes it if the publish after the commit never happened."""
    name = task if isinstance(task, str) else task.name
    pk = store(name, args, kwargs, options).pk
    transaction.on_commit(lambda: _flush_quietly([pk]))
    return pk


def _flush_quietly(pks: list[int]) -> None:
    try:
        flush(pks=pks)
    except Exception:  # the row stays: beat's flush publishes it
        log.warning("outbox messages %s kept for beat's flush", pks, exc_info=True)


def flush(limit: int = 500, pks: list[int] | None = None) -> int:
    """Publish stored messages in order (``pks``: those only); returns how many. Stops at
    the first refusal."""
    sent = 0
    with transaction.atomic():
        query = OutboxMessage.objects.select_for_update(skip_locked=True).order_by("id")
        if pks is not None:
            query = query.filter(pk__in=pks)
        rows = list(query[:limit])
        done = []
        for row in rows:
            task = current_app.tasks.get(row.task)
            if task is None:
                log.error("outbox message %s names an unknown task %s: dropped", row.pk, row.task)
                done.append(row.pk)
                continue
            try:
                _publish(task, row.args, row.kwargs, row.options)
            except Exception as exc:
                _warn("outbox: broker still refuses (%s); %s messages wait", exc, len(rows) - sent)
                services.outbox_message_refused(message=row, error=exc)
                break
            done.append(row.pk)
            sent += 1
        services.outbox_messages_done(pks=done)
    if sent and pks is None:
        log.info("outbox: %s late messages published", sent)
    return sent
